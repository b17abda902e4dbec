//! The multipart reader's limits and errors: what a body may make the reader hold or do, and
//! what it reports, each error with the byte offset where it was found.

use core::fmt;

use crate::disposition::{DispositionError, DispositionErrorKind};

crate::body::limits::multipart!(crate::body::limits::declare(
    /// Limits on what a body may make the reader (and the caller's buffer) hold or do; each
    /// error names the one it hit. The defaults are ASP.NET Core's `FormOptions` where it has
    /// one, except the boundary: RFC 2046 §5.1.1 says 70 bytes (ASP.NET allows 128), and a
    /// longer one is refused when the reader is made.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartLimit, MultipartLimits, MultipartReader};
    ///
    /// let limits = MultipartLimits { max_parts: 1, ..MultipartLimits::default() };
    /// let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b\r\n";
    /// let mut reader = MultipartReader::new(b"b", Default::default(), limits)?;
    /// let mut input: &[u8] = body;
    /// let err = loop {
    ///     match reader.decode(input, true) {
    ///         Ok(step) => input = &input[step.consumed..],
    ///         Err(e) => break e,
    ///     }
    /// };
    /// assert_eq!((err.kind, err.offset, err.part), (MultipartErrorKind::Limit(MultipartLimit::Parts), 53, Some(1)));
    /// assert_eq!(err.to_string(), "multipart body over max_parts at byte 53");
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct MultipartLimits = "reqparse::body::multipart::MultipartLimits";

    /// The limit a body went over; see [`MultipartLimits`].
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartLimit;
    /// assert_eq!(MultipartLimit::HeaderBytes.name(), "max_header_bytes");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum MultipartLimit;

    /// The name of the [`MultipartLimits`] field.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartLimit;
    /// assert_eq!(MultipartLimit::Parts.name(), "max_parts");
    /// ```
    pub const fn name;
));

/// What was wrong with a body (or a boundary); see [`MultipartError`].
///
/// ```
/// use reqparse::body::multipart::{MultipartErrorKind, MultipartReader};
/// let err = MultipartReader::new(b"", Default::default(), Default::default()).unwrap_err();
/// assert_eq!(err.kind, MultipartErrorKind::InvalidBoundary);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MultipartErrorKind {
    /// The boundary given to the reader is empty, holds CR or LF, or (Strict) is not RFC 2046
    /// `bchars` ending in a non-space; the offset is into the boundary.
    InvalidBoundary,
    /// The body does not start with `--` and the boundary (Fetch and Strict: no preamble).
    ExpectedBoundary,
    /// A boundary followed by something else than `--` or (transport padding and) CRLF.
    InvalidDelimiter,
    /// A CR in a header block that is not part of a CRLF.
    BareCr,
    /// An LF in a header block not preceded by CR.
    BareLf,
    /// A header line that is not `name: value`.
    InvalidHeader,
    /// (Strict) A second `Content-Disposition` or `Content-Type` in one part.
    DuplicateHeader,
    /// A part without `Content-Disposition`.
    MissingDisposition,
    /// A `Content-Disposition` whose type is not `form-data`.
    NotFormData,
    /// A `Content-Disposition` without `name`.
    MissingName,
    /// A `Content-Disposition` the profile's parser refused, and why.
    InvalidDisposition(DispositionErrorKind),
    /// (Strict) A `Content-Transfer-Encoding` other than `7bit`, `8bit` or `binary`.
    TransferEncoding,
    /// Bytes after the close delimiter that the profile does not read as transport padding or
    /// an epilogue (Fetch: padding, then CRLF before any epilogue; Strict: padding and at most
    /// one CRLF, no epilogue).
    AfterEnd,
    /// The input ended before the close delimiter.
    UnexpectedEnd,
    /// A limit of [`MultipartLimits`] was reached.
    Limit(MultipartLimit),
    /// ([`boundary`](super::boundary)) The `Content-Type` is not `multipart/form-data`; the offset is into the
    /// header value.
    NotMultipart,
    /// ([`boundary`](super::boundary)) The `Content-Type` has no `boundary` parameter.
    MissingBoundary,
    /// ([`boundary`](super::boundary)) The `Content-Type` is not a media type with parameters (RFC 9110
    /// §8.3.1).
    InvalidContentType,
}

impl MultipartErrorKind {
    /// The kind's name in every face (CLI, vectors): kebab-case, and `limit:` followed by the
    /// limit's field name for [`MultipartErrorKind::Limit`].
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartLimit};
    /// assert_eq!(MultipartErrorKind::AfterEnd.name(), "after-end");
    /// assert_eq!(MultipartErrorKind::Limit(MultipartLimit::Parts).name(), "limit:max_parts");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            MultipartErrorKind::InvalidBoundary => "invalid-boundary",
            MultipartErrorKind::ExpectedBoundary => "expected-boundary",
            MultipartErrorKind::InvalidDelimiter => "invalid-delimiter",
            MultipartErrorKind::BareCr => "bare-cr",
            MultipartErrorKind::BareLf => "bare-lf",
            MultipartErrorKind::InvalidHeader => "invalid-header",
            MultipartErrorKind::DuplicateHeader => "duplicate-header",
            MultipartErrorKind::MissingDisposition => "missing-disposition",
            MultipartErrorKind::NotFormData => "not-form-data",
            MultipartErrorKind::MissingName => "missing-name",
            MultipartErrorKind::InvalidDisposition(_) => "invalid-disposition",
            MultipartErrorKind::TransferEncoding => "transfer-encoding",
            MultipartErrorKind::AfterEnd => "after-end",
            MultipartErrorKind::UnexpectedEnd => "unexpected-end",
            MultipartErrorKind::NotMultipart => "not-multipart",
            MultipartErrorKind::MissingBoundary => "missing-boundary",
            MultipartErrorKind::InvalidContentType => "invalid-content-type",
            MultipartErrorKind::Limit(limit) => limit.kind_name(),
        }
    }
}

/// An error in a body, with the byte offset (from the start of the body) where it was found.
///
/// ```
/// use reqparse::body::multipart::{MultipartErrorKind, MultipartReader};
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// let err = reader.decode(b"preamble\r\n--b\r\n", true).unwrap_err();
/// assert_eq!((err.kind, err.offset), (MultipartErrorKind::ExpectedBoundary, 0));
/// assert_eq!(err.to_string(), "body does not start with the boundary at byte 0");
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MultipartError {
    /// What was wrong.
    pub kind: MultipartErrorKind,
    /// Where, in bytes from the start of the body (of the boundary, for
    /// [`MultipartErrorKind::InvalidBoundary`]).
    pub offset: u64,
    /// The index of the part whose header block or data the error is in (0 for the first
    /// part; the part the reader's [`MultipartEvent::Part`](super::MultipartEvent::Part)
    /// named, when the error is in its data), `None` outside any part (the boundary, a
    /// preamble, a delimiter line, the epilogue).
    pub part: Option<usize>,
}

impl MultipartError {
    /// Whether the body went over a limit (rather than being malformed): the request is too
    /// large, where a malformed one is a bad request.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartLimit, MultipartError};
    /// let e = MultipartError { kind: MultipartErrorKind::Limit(MultipartLimit::Files), offset: 900, part: Some(100) };
    /// assert!(e.is_limit());
    /// assert_eq!(e.status(), 413);
    /// ```
    pub const fn is_limit(&self) -> bool {
        matches!(self.kind, MultipartErrorKind::Limit(_))
    }

    /// The HTTP status an error answers (RFC 9110 §15.5): 413 (Content Too Large) for a limit,
    /// 400 (Bad Request) for a malformed body, boundary or `Content-Type`. A server that
    /// answers 415 for a `Content-Type` that is not multipart decides so from
    /// [`MultipartErrorKind::NotMultipart`] itself.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartError};
    /// let e = MultipartError { kind: MultipartErrorKind::BareLf, offset: 40, part: Some(0) };
    /// assert_eq!(e.status(), 400);
    /// ```
    pub const fn status(&self) -> u16 {
        if self.is_limit() {
            413
        } else {
            400
        }
    }
}

impl fmt::Display for MultipartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            MultipartErrorKind::InvalidBoundary => "invalid boundary",
            MultipartErrorKind::ExpectedBoundary => "body does not start with the boundary",
            MultipartErrorKind::InvalidDelimiter => "boundary not followed by -- or CRLF",
            MultipartErrorKind::BareCr => "bare CR in a part's headers",
            MultipartErrorKind::BareLf => "bare LF in a part's headers",
            MultipartErrorKind::InvalidHeader => "invalid header field in a part",
            MultipartErrorKind::DuplicateHeader => "repeated header field in a part",
            MultipartErrorKind::MissingDisposition => "part without Content-Disposition",
            MultipartErrorKind::NotFormData => "Content-Disposition type is not form-data",
            MultipartErrorKind::MissingName => "Content-Disposition without a name",
            MultipartErrorKind::InvalidDisposition(kind) => {
                // The disposition parser's own words, at the body's offset.
                let at = usize::try_from(self.offset).unwrap_or(usize::MAX);
                let e = DispositionError { kind, offset: at };
                return write!(f, "invalid Content-Disposition: {e}");
            }
            MultipartErrorKind::TransferEncoding => "unsupported Content-Transfer-Encoding",
            MultipartErrorKind::AfterEnd => "bytes after the close delimiter",
            MultipartErrorKind::UnexpectedEnd => "multipart body ended early",
            MultipartErrorKind::NotMultipart => "Content-Type is not multipart/form-data",
            MultipartErrorKind::MissingBoundary => "Content-Type without a boundary",
            MultipartErrorKind::InvalidContentType => "invalid Content-Type",
            MultipartErrorKind::Limit(limit) => {
                let what = match limit {
                    MultipartLimit::BoundaryBytes => "boundary",
                    _ => "body",
                };
                return write!(
                    f,
                    "multipart {what} over {} at byte {}",
                    limit.name(),
                    self.offset
                );
            }
        };
        write!(f, "{what} at byte {}", self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for MultipartError {}
