//! What the async readers refuse, and the HTTP status each refusal is answered with.

use alloc::boxed::Box;
use alloc::sync::Arc;
use core::fmt;

use crate::body::form::{FormError, FormErrorKind};
use crate::body::multipart::{MultipartError, MultipartErrorKind};

/// A source's error, as the async readers take it: any error that crosses threads (what
/// hyper's, axum's and actix-web's body errors convert into).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Why an async reader stopped: the body (with the byte offset the sync reader reports), the
/// `Content-Type` it was given, or the source of the bytes. Cheap to clone (a source's error
/// is shared), so a reader answers the same error to every poll after the first.
///
/// [`is_limit`](Self::is_limit) and [`is_malformed`](Self::is_malformed) sort the body's
/// errors for an answer: a limit is `413 Content Too Large` (RFC 9110 §15.5.14), malformed
/// input `400 Bad Request` (§15.5.1); [`status`](Self::status) says which.
///
/// ```
/// use reqparse::body::multipart::{MultipartError, MultipartErrorKind, MultipartLimit};
/// use reqparse::stream::Error;
///
/// let limit = Error::Multipart(MultipartError {
///     kind: MultipartErrorKind::Limit(MultipartLimit::ValueBytes),
///     offset: 4096,
///     part: Some(2),
/// });
/// assert!(limit.is_limit() && !limit.is_malformed());
/// assert_eq!((limit.status(), limit.offset()), (413, Some(4096)));
/// assert_eq!(limit.part(), Some(2));
/// assert_eq!(limit.to_string(), "multipart body over max_value_bytes at byte 4096 (part 2)");
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Error {
    /// The `Content-Type` given to the reader: not `multipart/form-data`, without a usable
    /// `boundary` ([`boundary`](crate::body::multipart::boundary)'s error, its offset into
    /// the header value), or a boundary the reader refuses
    /// ([`MultipartReader::new`](crate::body::multipart::MultipartReader::new)'s error, its
    /// offset into the header value when the reader was given one, else into the boundary).
    ContentType(MultipartError),
    /// The multipart body is malformed or over a limit; the offset is from the start of the
    /// body.
    Multipart(MultipartError),
    /// The urlencoded body is refused by the profile or over a limit; the offset is from the
    /// start of the body.
    Form(FormError),
    /// The source of the bytes failed (the connection, a decoder, a framework's own limit).
    Source(Arc<dyn std::error::Error + Send + Sync>),
}

impl Error {
    /// A source's error.
    pub(crate) fn source(e: impl Into<BoxError>) -> Self {
        Error::Source(Arc::from(e.into()))
    }

    /// Whether a limit of the reader's stopped the body (`MultipartLimits` or `FormLimits`,
    /// the boundary's length included): answer 413.
    ///
    /// ```
    /// use reqparse::body::form::{FormError, FormErrorKind, FormLimit};
    /// let e = reqparse::stream::Error::Form(FormError { kind: FormErrorKind::Limit(FormLimit::Pairs), offset: 9 });
    /// assert!(e.is_limit());
    /// ```
    pub fn is_limit(&self) -> bool {
        match self {
            Error::ContentType(e) | Error::Multipart(e) => {
                matches!(e.kind, MultipartErrorKind::Limit(_))
            }
            Error::Form(e) => matches!(e.kind, FormErrorKind::Limit(_)),
            Error::Source(_) => false,
        }
    }

    /// Whether the body or its `Content-Type` is not one the reader accepts (and no limit was
    /// reached): answer 400 (or 415 for a `Content-Type` of another media type, see
    /// [`status`](Self::status)). A source's error is neither a limit nor malformed input.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartError, MultipartErrorKind};
    /// let e = reqparse::stream::Error::Multipart(MultipartError { kind: MultipartErrorKind::BareLf, offset: 40, part: Some(0) });
    /// assert!(e.is_malformed());
    /// ```
    pub fn is_malformed(&self) -> bool {
        !self.is_limit() && !matches!(self, Error::Source(_))
    }

    /// The HTTP status to answer: 413 for a limit, 415 for a `Content-Type` that is not
    /// `multipart/form-data` (RFC 9110 §15.5.16), 400 for anything else (malformed input, and
    /// a source that failed: the client's body did not arrive whole).
    ///
    /// ```
    /// use reqparse::body::multipart::boundary;
    /// let e = reqparse::stream::Error::ContentType(boundary(b"text/plain").unwrap_err());
    /// assert_eq!(e.status(), 415);
    /// ```
    pub fn status(&self) -> u16 {
        match self {
            _ if self.is_limit() => 413,
            Error::ContentType(e) if e.kind == MultipartErrorKind::NotMultipart => 415,
            _ => 400,
        }
    }

    /// The byte offset of a body's error (from the start of the body) or a `Content-Type`'s
    /// (into the header value); `None` for a source's error.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartError, MultipartErrorKind};
    /// let e = reqparse::stream::Error::Multipart(MultipartError { kind: MultipartErrorKind::UnexpectedEnd, offset: 70, part: None });
    /// assert_eq!(e.offset(), Some(70));
    /// ```
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::ContentType(e) | Error::Multipart(e) => Some(e.offset),
            Error::Form(e) => Some(e.offset),
            Error::Source(_) => None,
        }
    }

    /// The index of the multipart part the error is in (its header block or its data): the
    /// [`Part::index`](crate::stream::Part::index) of the part being read, whose name that
    /// part has; `None` outside a part and for other errors.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartError, MultipartErrorKind};
    /// let e = reqparse::stream::Error::Multipart(MultipartError { kind: MultipartErrorKind::BareLf, offset: 40, part: Some(0) });
    /// assert_eq!(e.part(), Some(0));
    /// ```
    pub fn part(&self) -> Option<usize> {
        match self {
            Error::Multipart(e) => e.part,
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ContentType(e) => fmt::Display::fmt(e, f),
            Error::Multipart(e) => match e.part {
                Some(i) => write!(f, "{e} (part {i})"),
                None => fmt::Display::fmt(e, f),
            },
            Error::Form(e) => fmt::Display::fmt(e, f),
            Error::Source(e) => write!(f, "reading the body failed: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::ContentType(e) | Error::Multipart(e) => Some(e),
            Error::Form(e) => Some(e),
            Error::Source(e) => Some(&**e),
        }
    }
}

impl From<MultipartError> for Error {
    /// A body's error.
    fn from(e: MultipartError) -> Self {
        Error::Multipart(e)
    }
}

impl From<FormError> for Error {
    fn from(e: FormError) -> Self {
        Error::Form(e)
    }
}
