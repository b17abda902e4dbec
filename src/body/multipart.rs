//! `multipart/form-data` bodies (RFC 7578, RFC 2046 §5.1 and the Fetch Standard's parser),
//! read as they arrive.
//!
//! ```text
//! multipart-body = [preamble CRLF] dash-boundary transport-padding CRLF body-part
//!                  *( CRLF dash-boundary transport-padding CRLF body-part )
//!                  CRLF dash-boundary "--" transport-padding [CRLF epilogue]
//! dash-boundary  = "--" boundary
//! body-part      = header-fields [CRLF *OCTET]
//! ```
//!
//! A part's data may be left out with the empty line before it (RFC 2046 §5.1.1: the CRLF
//! that ends the header block is then the delimiter's own, as Go's `mime/multipart` reads
//! and werkzeug writes an empty field): in every profile, `--boundary` right after a
//! header block's empty line ends the part, with no data.
//!
//! The reader hands out, for each part, a [`MultipartEvent::Part`] with its header block
//! parsed (the `Content-Disposition` through this crate's own parser: the name, the effective
//! filename with RFC 6266 §4.3's `filename*` preference, raw UTF-8 filenames; the
//! `Content-Type`), then its data as [`MultipartEvent::Data`] slices borrowed from the input,
//! then [`MultipartEvent::PartEnd`]; after the close delimiter, [`MultipartEvent::End`].
//!
//! The delimiter (`CRLF--boundary`) is found, with vectors (AVX2 on x86_64, simd128 on wasm32
//! built with it), first by memchr's one-byte search for its CR, its last byte or its middle
//! byte while the byte searched for stays rare in the input (most data: a vector read once),
//! then by a packed-pair prefilter on its CR and its last byte that moves to the bytes near
//! misses get wrong when they repeat; elsewhere by Horspool's search (a window's
//! last byte decides how far the next window starts), which hands stretches where its shifts
//! are short to one [`memchr::memmem::Finder`] built when the reader is: near misses cost
//! about what ordinary data does. What the reader does not consume must be fed again with what
//! arrives next (see [`Step`]); it holds back at most:
//! - of data, the bytes at the end of the input that could begin a delimiter (never more than
//!   the delimiter's length minus one);
//! - an incomplete header block, which [`MultipartLimits::max_header_bytes`] caps.
//!
//! Three [`Profile`]s decide what is accepted:
//! - [`Profile::Fetch`] (the default): the Fetch Standard's multipart/form-data parser, as
//!   WPT's `formdata-parsing` tests it: the body starts with the first delimiter (no
//!   preamble), nothing but one CRLF may follow the close delimiter, no transport padding, a
//!   part's `Content-Disposition` is read as browsers write it
//!   ([`ContentDisposition::parse_form_data`]: `\` literal, `%22` kept as written, names not
//!   percent-decoded), `Content-Transfer-Encoding` ignored; a repeated header: the last one
//!   counts.
//! - [`Profile::Strict`]: RFC 7578 and RFC 2046 to the letter, no preamble nor epilogue:
//!   header fields as RFC 9110 §5 writes them (no whitespace before the colon, no control
//!   bytes), the `Content-Disposition` by RFC 6266's grammar ([`disposition::Profile::Strict`],
//!   quoted-pairs unescaped), a repeated `Content-Disposition` or `Content-Type` refused, a
//!   `Content-Transfer-Encoding` other than `7bit`, `8bit` or `binary` refused (RFC 7578
//!   §4.7), transport padding (spaces and tabs after a boundary) allowed.
//! - [`Profile::Lenient`]: what busboy and ASP.NET Core's `MultipartReader` accept: a preamble
//!   and an epilogue (each capped), transport padding, the `Content-Disposition` as
//!   [`disposition::Profile::DotNet`] reads it.
//!
//! In every profile a part needs a `Content-Disposition` of type `form-data` with a `name`,
//! header lines end with CRLF (a bare CR or LF is an error), and every limit of
//! [`MultipartLimits`] is finite and checked before the bytes it governs are buffered.
//!
//! ```
//! use reqparse::body::multipart::{MultipartEvent, MultipartReader};
//!
//! let body = b"--XyZ\r\n\
//!     Content-Disposition: form-data; name=\"title\"\r\n\r\n\
//!     Holiday\r\n\
//!     --XyZ\r\n\
//!     Content-Disposition: form-data; name=\"photo\"; filename=\"C:\\photos\\a.jpg\"\r\n\
//!     Content-Type: image/jpeg\r\n\r\n\
//!     \xff\xd8\xff\r\n\
//!     --XyZ--\r\n";
//! let mut reader = MultipartReader::new(b"XyZ", Default::default(), Default::default())?;
//! let mut input: &[u8] = body;
//! let mut parts = Vec::new();
//! loop {
//!     let step = reader.decode(input, true)?;
//!     input = &input[step.consumed..];
//!     match step.event {
//!         Some(MultipartEvent::Part(part)) => {
//!             let filename = part.filename().map(|f| f.basename().to_owned());
//!             parts.push((part.name().into_owned(), filename, Vec::new()));
//!         }
//!         Some(MultipartEvent::Data(data)) => parts.last_mut().unwrap().2.extend_from_slice(data),
//!         Some(MultipartEvent::PartEnd) => {}
//!         Some(MultipartEvent::End) | None => break,
//!     }
//! }
//! assert_eq!(parts[0], ("title".into(), None, b"Holiday".to_vec()));
//! assert_eq!(parts[1], ("photo".into(), Some("a.jpg".into()), b"\xff\xd8\xff".to_vec()));
//! # Ok::<(), reqparse::body::multipart::MultipartError>(())
//! ```
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

use memchr::memmem::Finder;

use super::grammar::{is, BCHAR, FIELD, TOKEN, WS};
use super::{find_byte, Step};
use crate::bytes::{offset_in, slice};
use crate::disposition::{self, ContentDisposition, DispositionError, DispositionErrorKind};

mod content_type;
mod filename;
#[cfg(feature = "std")]
mod read;
mod write;

pub use content_type::boundary;
pub use filename::Filename;
#[cfg(feature = "std")]
pub use read::ReadError;
pub use write::{write, write_into, written_len, WriteError, WritePart};

/// Which rules a body is read by; see the [module documentation](self).
///
/// ```
/// use reqparse::body::multipart::Profile;
/// assert_eq!(Profile::default(), Profile::Fetch);
/// assert_eq!("lenient".parse::<Profile>(), Ok(Profile::Lenient));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The Fetch Standard's multipart/form-data parser (WPT `formdata-parsing`).
    #[default]
    Fetch,
    /// RFC 7578 and RFC 2046 §5.1, without preamble or epilogue.
    Strict,
    /// busboy and ASP.NET Core: preamble, epilogue and transport padding allowed.
    Lenient,
}

crate::profile_names!(body::multipart: Fetch => "fetch", Strict => "strict", Lenient => "lenient");

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
/// assert_eq!((err.kind, err.offset), (MultipartErrorKind::Limit(MultipartLimit::Parts), 53));
/// assert_eq!(err.to_string(), "multipart body over max_parts at byte 53");
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultipartLimits {
    /// Parts in the body (`ValueCountLimit`, 1,024).
    pub max_parts: usize,
    /// Bytes of the boundary (RFC 2046 §5.1.1: 70; ASP.NET's `MultipartBoundaryLengthLimit`
    /// is 128).
    pub max_boundary_bytes: usize,
    /// Header fields in one part (`MultipartHeadersCountLimit`, 16).
    pub max_headers: usize,
    /// Bytes of one part's header block, its final empty line and any transport padding
    /// before it included (`MultipartHeadersLengthLimit`, 16 KiB): what the caller's buffer
    /// may have to hold of an incomplete header block.
    pub max_header_bytes: usize,
    /// Bytes of one part without a filename: a form value (`ValueLengthLimit`, 4 MiB).
    pub max_value_bytes: u64,
    /// Bytes of the whole body, framing included (`MultipartBodyLengthLimit`, 128 MiB).
    pub max_body_bytes: u64,
    /// Bytes before the first delimiter ([`Profile::Lenient`]; the others allow none).
    pub max_preamble_bytes: usize,
    /// Bytes after the close delimiter ([`Profile::Lenient`]; [`Profile::Strict`] counts its
    /// transport padding there; [`Profile::Fetch`] allows one CRLF).
    pub max_epilogue_bytes: usize,
}

impl Default for MultipartLimits {
    fn default() -> Self {
        MultipartLimits {
            max_parts: 1024,
            max_boundary_bytes: 70,
            max_headers: 16,
            max_header_bytes: 16 * 1024,
            max_value_bytes: 4 * 1024 * 1024,
            max_body_bytes: 128 * 1024 * 1024,
            max_preamble_bytes: 16 * 1024,
            max_epilogue_bytes: 16 * 1024,
        }
    }
}

/// The limit a body went over; see [`MultipartLimits`].
///
/// ```
/// use reqparse::body::multipart::MultipartLimit;
/// assert_eq!(MultipartLimit::HeaderBytes.name(), "max_header_bytes");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MultipartLimit {
    /// [`MultipartLimits::max_parts`].
    Parts,
    /// [`MultipartLimits::max_boundary_bytes`].
    BoundaryBytes,
    /// [`MultipartLimits::max_headers`].
    Headers,
    /// [`MultipartLimits::max_header_bytes`].
    HeaderBytes,
    /// [`MultipartLimits::max_value_bytes`].
    ValueBytes,
    /// [`MultipartLimits::max_body_bytes`].
    BodyBytes,
    /// [`MultipartLimits::max_preamble_bytes`].
    PreambleBytes,
    /// [`MultipartLimits::max_epilogue_bytes`].
    EpilogueBytes,
}

impl MultipartLimit {
    /// The name of the [`MultipartLimits`] field.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartLimit;
    /// assert_eq!(MultipartLimit::Parts.name(), "max_parts");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            MultipartLimit::Parts => "max_parts",
            MultipartLimit::BoundaryBytes => "max_boundary_bytes",
            MultipartLimit::Headers => "max_headers",
            MultipartLimit::HeaderBytes => "max_header_bytes",
            MultipartLimit::ValueBytes => "max_value_bytes",
            MultipartLimit::BodyBytes => "max_body_bytes",
            MultipartLimit::PreambleBytes => "max_preamble_bytes",
            MultipartLimit::EpilogueBytes => "max_epilogue_bytes",
        }
    }
}

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
    /// Bytes after the close delimiter (Fetch and Strict: at most one CRLF).
    AfterEnd,
    /// The input ended before the close delimiter.
    UnexpectedEnd,
    /// A limit of [`MultipartLimits`] was reached.
    Limit(MultipartLimit),
    /// ([`boundary`]) The `Content-Type` is not `multipart/form-data`; the offset is into the
    /// header value.
    NotMultipart,
    /// ([`boundary`]) The `Content-Type` has no `boundary` parameter.
    MissingBoundary,
    /// ([`boundary`]) The `Content-Type` is not a media type with parameters (RFC 9110
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
            MultipartErrorKind::Limit(limit) => match limit {
                MultipartLimit::Parts => "limit:max_parts",
                MultipartLimit::BoundaryBytes => "limit:max_boundary_bytes",
                MultipartLimit::Headers => "limit:max_headers",
                MultipartLimit::HeaderBytes => "limit:max_header_bytes",
                MultipartLimit::ValueBytes => "limit:max_value_bytes",
                MultipartLimit::BodyBytes => "limit:max_body_bytes",
                MultipartLimit::PreambleBytes => "limit:max_preamble_bytes",
                MultipartLimit::EpilogueBytes => "limit:max_epilogue_bytes",
            },
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

/// An event of a body, borrowing from the input that was fed.
///
/// ```
/// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// assert_eq!(reader.decode(b"--b--", true)?.event, Some(MultipartEvent::End));
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultipartEvent<'a> {
    /// A part begins: its header block, parsed.
    Part(Part<'a>),
    /// Bytes of the current part's data, in order (a part may come in many pieces).
    Data(&'a [u8]),
    /// The current part's data is over.
    PartEnd,
    /// The close delimiter (and whatever the profile allows after it) has been read and the
    /// input has ended.
    End,
}

/// A part's header block, parsed: borrowed from the input, nothing allocated.
///
/// ```
/// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"\r\nContent-Type: text/plain\r\n\r\n";
/// let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
/// assert_eq!(part.name(), "a%22b"); // as written: no percent-decoding
/// assert_eq!(part.content_type(), Some(&b"text/plain"[..]));
/// assert!(part.filename().is_none());
/// assert_eq!((part.index(), part.offset()), (0, 5));
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part<'a> {
    block: &'a [u8],
    offset: u64,
    index: usize,
    /// The `name` parameter's value as written, without its quotes, in `block`.
    name: Span,
    /// The `Content-Type` value in `block`.
    content_type: Option<Span>,
    /// The (winning) `Content-Disposition` value in `block`: parsed again on demand, so that
    /// the part (and every event) stays small.
    disposition: Span,
    /// The disposition has a filename ([`ContentDisposition::filename`]).
    has_filename: bool,
    /// (Strict, Lenient) The disposition parser's value of `name` is its bytes as written,
    /// which are UTF-8: no quoted-pair to unescape, nothing read as ISO-8859-1.
    name_as_written: bool,
    profile: Profile,
}

/// Where some bytes of a part's header block are: a small `Copy` stand-in for a slice of it,
/// so that a [`MultipartEvent`] (moved out of every `decode` call, one per byte on 1-byte
/// reads) stays small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The span of `sub`, a slice of `block`; an empty span if it is not one (a broken
    /// invariant: every slice handed here was cut from `block`).
    fn of(block: &[u8], sub: &[u8]) -> Span {
        let start = offset_in(block, sub);
        let end = start.map(|s| s + sub.len());
        match (start.map(u32::try_from), end.map(u32::try_from)) {
            (Some(Ok(start)), Some(Ok(end))) => Span { start, end },
            _ => {
                debug_assert!(false, "a span outside the header block");
                Span { start: 0, end: 0 }
            }
        }
    }

    fn get(self, block: &[u8]) -> &[u8] {
        slice(block, self.start as usize..self.end as usize)
    }
}

impl<'a> Part<'a> {
    /// The `name` parameter as text. [`Profile::Fetch`]: the bytes between the quotes as
    /// written (no percent-decoding, `\` kept), as UTF-8 with invalid bytes replaced (the
    /// Fetch Standard's "UTF-8 decode without BOM"); the other profiles: the disposition
    /// parser's value (quoted-pairs unescaped; bytes that are not UTF-8 read as ISO-8859-1).
    /// Borrowed unless something had to be replaced or unescaped.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartEvent, MultipartReader, Profile};
    /// let body = b"--b\r\nContent-Disposition: form-data; name=\"a\\b\"\r\n\r\n";
    /// for (profile, name) in [(Profile::Fetch, "a\\b"), (Profile::Strict, "ab")] {
    ///     let mut reader = MultipartReader::new(b"b", profile, Default::default())?;
    ///     let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    ///     assert_eq!(part.name(), name);
    /// }
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn name(&self) -> Cow<'a, str> {
        if self.profile == Profile::Fetch {
            return String::from_utf8_lossy(self.name_bytes());
        }
        if self.name_as_written {
            if let Ok(name) = core::str::from_utf8(self.name_bytes()) {
                return Cow::Borrowed(name);
            }
        }
        // Quoted-pairs or ISO-8859-1: the parser's reading (the part has a `name`).
        let disposition = self.disposition().ok();
        disposition
            .and_then(|d| d.find("name"))
            .map_or(Cow::Borrowed(""), |p| p.value())
    }

    /// The `name` parameter's bytes as written, without its quotes (quoted-pairs not
    /// unescaped).
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"caf\xc3\xa9\"\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.name_bytes(), "café".as_bytes());
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn name_bytes(&self) -> &'a [u8] {
        self.name.get(self.block)
    }

    /// The filename, when the part has one (a file): see [`Filename`] for its readings.
    /// RFC 6266 §4.3: a `filename*` that decodes wins over `filename`.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=\"../x.txt\"\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// let filename = part.filename().unwrap();
    /// assert_eq!((filename.as_str(), filename.basename()), ("../x.txt", "x.txt"));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn filename(&self) -> Option<Filename<'a>> {
        if !self.has_filename {
            return None;
        }
        let disposition = self.disposition().ok()?;
        let value = disposition.filename()?;
        let raw = disposition
            .find("filename")
            .or_else(|| disposition.find("filename*"))
            .map_or(&[][..], |p| unquote(p.raw_value_bytes()));
        Some(Filename::new(value, raw))
    }

    /// The `Content-Type` value as sent, without surrounding whitespace; `None` when the part
    /// has none (RFC 7578 §4.4: `text/plain` for a value, what the application decides for a
    /// file).
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.content_type(), None);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn content_type(&self) -> Option<&'a [u8]> {
        Some(self.content_type?.get(self.block))
    }

    /// The `Content-Disposition`, for its other parameters: parsed again from the header
    /// block, by the profile's parser (the part keeps only where it is, so that every event
    /// stays small). It parsed when the part was read, so this is always `Ok`.
    ///
    /// # Errors
    /// None in practice: the parser's error, would it refuse what it accepted before.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a; size=3\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.disposition()?.size(), Some(Ok(3)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn disposition(&self) -> Result<ContentDisposition<'a>, DispositionError> {
        parse_disposition(self.disposition.get(self.block), self.profile)
    }

    /// The header fields as sent: `(name, value)` pairs, the value without surrounding
    /// whitespace, in order.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\nX-Note:  hi \r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// let fields: Vec<_> = part.headers().collect();
    /// assert_eq!(fields[1], (&b"X-Note"[..], &b"hi"[..]));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn headers(&self) -> Headers<'a> {
        Headers {
            rest: self.block,
            at: 0,
        }
    }

    /// The header block as sent, each line with its CRLF, without the empty line that ends
    /// it.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.header_block(), b"Content-Disposition: form-data; name=a\r\n");
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn header_block(&self) -> &'a [u8] {
        self.block
    }

    /// Where the header block starts, in bytes from the start of the body.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.offset(), 5);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The part's number, from 0.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.index(), 0);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }
}

/// A part's `Content-Disposition` value, by the profile's parser.
fn parse_disposition(
    value: &[u8],
    profile: Profile,
) -> Result<ContentDisposition<'_>, DispositionError> {
    match profile {
        Profile::Fetch => ContentDisposition::parse_form_data(value),
        Profile::Strict => ContentDisposition::parse(value, disposition::Profile::Strict),
        Profile::Lenient => ContentDisposition::parse(value, disposition::Profile::DotNet),
    }
}

/// A quoted value without its quotes; anything else as it is.
fn unquote(raw: &[u8]) -> &[u8] {
    match raw {
        [b'"', inner @ .., b'"'] => inner,
        _ => raw,
    }
}

/// The header fields of a [`Part`]; see [`Part::headers`].
///
/// ```
/// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
/// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
/// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
/// assert_eq!(part.headers().count(), 1);
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Headers<'a> {
    rest: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Headers<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let (_, line, next) = next_line(self.rest, self.at)?;
        self.at = next;
        // Every line was checked when the block was read: it has a colon.
        let colon = memchr::memchr(b':', line).unwrap_or(line.len());
        let name = trim(slice(line, ..colon));
        let value = trim(slice(line, (colon + 1).min(line.len())..));
        Some((name, value))
    }
}

/// The line of `block` that starts at `at`, without its CRLF: `(start, line, next start)`.
fn next_line(block: &[u8], at: usize) -> Option<(usize, &[u8], usize)> {
    let rest = block.get(at..).filter(|r| !r.is_empty())?;
    let lf = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    let end = if lf > 0 && rest.get(lf - 1) == Some(&b'\r') {
        lf - 1
    } else {
        lf
    };
    Some((at, slice(rest, ..end), at + lf + 1))
}

/// `bytes` without leading and trailing SP and HTAB.
fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|&b| !is(b, WS))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is(b, WS))
        .map_or(start, |i| i + 1);
    slice(bytes, start..end)
}

/// Where the reader is in the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// At the start of the body: the first delimiter has no CRLF before it.
    Start,
    /// (Lenient) In the preamble, looking for the first delimiter.
    Preamble,
    /// Just after a boundary, and `padding` bytes of transport padding after it.
    AfterBoundary { padding: usize },
    /// In a part's header block: the current line starts at `line` in the input fed (the
    /// lines before it are checked) and holds no LF before `scanned`, `lines` fields so far;
    /// the block must end within `window` bytes, or `limit` is broken (the header limit less
    /// any transport padding before the block, or what the body limit leaves, whichever is
    /// less: both fixed while the block is read, as nothing is consumed). What was scanned is
    /// not scanned again when it is fed again, longer.
    Headers {
        line: usize,
        scanned: usize,
        lines: usize,
        window: usize,
        limit: MultipartLimit,
    },
    /// Just past a part's header block, before any of its data: the CRLF of the block's empty
    /// line may have been the delimiter's own (RFC 2046 §5.1.1, `body-part :=
    /// MIME-part-headers [CRLF *OCTET]`: a part with neither the empty line nor data, as Go's
    /// reader takes and werkzeug writes), so `--boundary` here ends the part, empty.
    DataStart,
    /// In a part's data; the input fed starts with the first `held` bytes of the delimiter
    /// (held back by the last call: only what follows them is new).
    Data { held: usize },
    /// After the close delimiter.
    Close,
    /// (Fetch, Strict) After the CRLF that may follow the close delimiter: nothing else.
    Closed,
    /// The end has been handed out.
    Done,
}

/// What a state's step did with the input it was given, besides using `.0` bytes of it: the
/// event's parts that `decode` cuts from the input, so that no step moves a whole
/// [`MultipartEvent`] about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    /// Moved on: read on.
    On,
    /// Nothing more to do without more input.
    More,
    /// The bytes used are data.
    Data,
    /// The bytes used are the delimiter that ends the part's data.
    PartEnd,
    /// The bytes used are a header block and its empty line; the block is the first `.0`.
    Part(usize),
    /// The end of the body.
    End,
}

type Moved = (usize, Ev);

/// The sans-io reader of a multipart/form-data body (see the [module documentation](self)
/// and [`Step`] for the protocol).
///
/// ```
/// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
///
/// // A read that ends inside a delimiter: the bytes that may begin it are held back.
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\nhi\r\n-";
/// let mut input: &[u8] = body;
/// let mut data = Vec::new();
/// loop {
///     let step = reader.decode(input, false)?;
///     input = &input[step.consumed..];
///     match step.event {
///         Some(MultipartEvent::Data(d)) => data.extend_from_slice(d),
///         None => break,
///         _ => {}
///     }
/// }
/// assert_eq!((data.as_slice(), input), (&b"hi"[..], &b"\r\n-"[..]));
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Debug)]
pub struct MultipartReader {
    /// `CRLF--boundary`, found in the data.
    finder: Finder<'static>,
    /// Horspool's shift for each byte ending a delimiter-long window that is not the
    /// delimiter: how far the next possible start is (see `find_delimiter`).
    shift: [u8; 256],
    /// With vectors (AVX2, wasm simd128): the packed-pair searcher on the delimiter's first
    /// and last bytes.
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    pair: Option<PairFinder>,
    /// Sunday's shift for each byte just past a delimiter-long window that is not the
    /// delimiter (for the false candidates of `pair` that moving it did not stop).
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    sunday: [u8; 256],
    profile: Profile,
    limits: MultipartLimits,
    state: State,
    /// Bytes consumed so far: the offset of the next byte fed.
    position: u64,
    parts: usize,
    /// Data bytes of the current part, and whether it is a value (no filename).
    part_bytes: u64,
    value_part: bool,
    /// Preamble or epilogue bytes consumed so far.
    outside: usize,
}

impl MultipartReader {
    /// A reader at the start of a body whose boundary (the `boundary` parameter of its
    /// `Content-Type`, unquoted) is `boundary`. Builds the delimiter's searcher once: the
    /// only allocation the reader makes.
    ///
    /// # Errors
    /// [`MultipartErrorKind::InvalidBoundary`] for an empty boundary, one holding CR or LF,
    /// or (Strict) one that is not RFC 2046 `bchars` or ends with a space; over
    /// [`MultipartLimits::max_boundary_bytes`], that limit.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartLimit, MultipartReader, Profile};
    /// assert!(MultipartReader::new(b"----WebKitFormBoundaryx1", Profile::Strict, Default::default()).is_ok());
    /// let err = MultipartReader::new(b"a b ", Profile::Strict, Default::default()).unwrap_err();
    /// assert_eq!((err.kind, err.offset), (MultipartErrorKind::InvalidBoundary, 3));
    /// let long = [b'x'; 71];
    /// let err = MultipartReader::new(&long, Profile::Fetch, Default::default()).unwrap_err();
    /// assert_eq!(err.kind, MultipartErrorKind::Limit(MultipartLimit::BoundaryBytes));
    /// ```
    pub fn new(
        boundary: &[u8],
        profile: Profile,
        limits: MultipartLimits,
    ) -> Result<Self, MultipartError> {
        check_boundary(boundary, profile, limits.max_boundary_bytes)?;
        let mut delimiter = alloc::vec::Vec::with_capacity(boundary.len() + 4);
        delimiter.extend_from_slice(b"\r\n--");
        delimiter.extend_from_slice(boundary);
        Ok(MultipartReader {
            shift: horspool(&delimiter),
            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "wasm32", target_feature = "simd128")
            ))]
            pair: end_pair(&delimiter),
            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "wasm32", target_feature = "simd128")
            ))]
            sunday: sunday(&delimiter),
            finder: Finder::new(&delimiter).into_owned(),
            profile,
            limits,
            state: State::Start,
            position: 0,
            parts: 0,
            part_bytes: 0,
            value_part: false,
            outside: 0,
        })
    }

    /// The profile the body is read by.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartReader, Profile};
    /// let reader = MultipartReader::new(b"b", Profile::Lenient, Default::default())?;
    /// assert_eq!(reader.profile(), Profile::Lenient);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// How many bytes have been consumed so far: the offset in the body of the next byte fed.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartReader;
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// reader.decode(b"--b\r\n", false)?;
    /// assert_eq!(reader.position(), 5);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.position
    }

    /// How many parts have begun so far.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartReader;
    /// let reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// assert_eq!(reader.parts(), 0);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// Whether [`MultipartEvent::End`] has been handed out.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartReader;
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// reader.decode(b"--b--\r\n", true)?;
    /// assert!(reader.is_done());
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// The delimiter the reader looks for in a part's data: CRLF, `--` and the boundary.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartReader;
    /// let reader = MultipartReader::new(b"XyZ", Default::default(), Default::default())?;
    /// assert_eq!(reader.delimiter(), b"\r\n--XyZ");
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn delimiter(&self) -> &[u8] {
        self.finder.needle()
    }

    /// Whether the reader is in a part's data (its header block read and its first bytes,
    /// which may be the delimiter of an empty part, seen; its delimiter not yet found): where
    /// [`skip_data`](Self::skip_data) may be called.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartReader;
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// reader.decode(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n", false)?;
    /// // `--b` here would end the part, empty (RFC 2046 §5.1.1): not data yet.
    /// assert!(!reader.in_data());
    /// reader.decode(b"hello", false)?;
    /// assert!(reader.in_data());
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn in_data(&self) -> bool {
        matches!(self.state, State::Data { .. })
    }

    /// Takes `n` bytes of the current part's data as read, without seeing them: for a caller
    /// that searched them for the delimiter itself (a JS engine's native `indexOf`, which
    /// saves copying them into wasm memory). The caller holds no unconsumed input, and the `n`
    /// bytes that follow what was consumed hold no [`delimiter`](Self::delimiter) and do not
    /// end with a prefix of one: exactly when [`decode`](Self::decode) would hand them out as
    /// [`MultipartEvent::Data`]. Answers `false`, and changes nothing, when the reader is not
    /// in a part's data or a limit would stop the data within those bytes: `decode` then
    /// reads them, to the same data and the same error at the same offset.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// let head = b"--b\r\nContent-Disposition: form-data; name=f; filename=x\r\n\r\nPK";
    /// assert!(matches!(reader.decode(head, false)?.event, Some(MultipartEvent::Part(_))));
    /// assert_eq!(reader.decode(b"PK", false)?.event, Some(MultipartEvent::Data(b"PK")));
    /// assert!(reader.skip_data(1000));
    /// assert_eq!(reader.position(), head.len() as u64 + 1000);
    /// assert_eq!(reader.decode(b"\r\n--b--", true)?.event, Some(MultipartEvent::PartEnd));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn skip_data(&mut self, n: u64) -> bool {
        if !self.in_data() {
            return false;
        }
        if n > self.data_budget().0 {
            return false;
        }
        self.position += n;
        self.part_bytes += n;
        // The caller holds nothing back: what comes next starts no held delimiter.
        self.state = State::Data { held: 0 };
        true
    }

    /// Reads from `input` (the bytes that follow what was consumed so far) up to the next
    /// event; `eof` says that no byte follows `input`. Bytes not consumed (what may begin a
    /// delimiter, or an incomplete header block) must be fed again with what arrives next.
    /// An error is final: the body is not to be read on.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartReader};
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// let err = reader.decode(b"--b--\r\nepilogue", true).unwrap_err();
    /// assert_eq!((err.kind, err.offset), (MultipartErrorKind::AfterEnd, 7));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    #[inline]
    pub fn decode<'a>(
        &mut self,
        input: &'a [u8],
        eof: bool,
    ) -> Result<Step<MultipartEvent<'a>>, MultipartError> {
        if !eof {
            if let Some(step) = self.small_step(input) {
                return Ok(step);
            }
        }
        self.steps(input, eof)
    }

    /// The steps of a small read that need none of the state machine (a read of a few bytes,
    /// off a slow or a hostile peer, mostly ends in one of them): nothing fed; a header line
    /// a few bytes longer, without its LF; a held delimiter prefix a few bytes longer; or a
    /// few bytes of data without a CR, within the limits. Inlined into the caller's loop,
    /// where [`Self::steps`] costs a call with the whole state machine's entry and exit
    /// (on 1-byte reads, most of the time: BENCHMARKS.md, "Stops 25-28"). `None`: not one of
    /// them, for `steps` to read (which reads each of them to the same step).
    #[inline(always)]
    fn small_step<'a>(&mut self, input: &'a [u8]) -> Option<Step<MultipartEvent<'a>>> {
        // At most this many new bytes: more are not a small read, and would be scanned twice
        // whenever `steps` has to take them after all.
        const SMALL: usize = 8;
        let more = Step {
            consumed: 0,
            event: None,
        };
        let n = self.delimiter().len();
        match &mut self.state {
            State::Headers {
                line,
                scanned,
                window,
                ..
            } => {
                let new = input.get((*scanned).max(*line)..)?;
                if new.len() > SMALL || input.len() >= *window || new.contains(&b'\n') {
                    return None;
                }
                *scanned = input.len();
                Some(more)
            }
            State::Data { held: 0 } => {
                if input.len() > SMALL.min(n - 1) || input.contains(&b'\r') {
                    return None;
                }
                if input.is_empty() {
                    return Some(more);
                }
                // Taken as data the caller found itself: within the budgets (past them `steps`
                // names the limit), and the state stays `Data { held: 0 }`.
                if !self.skip_data(input.len() as u64) {
                    return None;
                }
                Some(Step {
                    consumed: input.len(),
                    event: Some(MultipartEvent::Data(input)),
                })
            }
            State::Data { held } => {
                // The held prefix, and a few more of the delimiter's bytes: still a prefix.
                let upto = input.len();
                if upto <= *held || upto >= n || upto - *held > SMALL {
                    return None;
                }
                let delimiter = self.finder.needle();
                if slice(input, *held..) != slice(delimiter, *held..upto) {
                    return None;
                }
                *held = upto;
                Some(more)
            }
            State::Done => None,
            // Nothing fed: every other state needs more (as `steps` finds).
            _ if input.is_empty() => Some(more),
            _ => None,
        }
    }

    /// [`Self::decode`], step by step through the state machine.
    #[inline(never)]
    fn steps<'a>(
        &mut self,
        input: &'a [u8],
        eof: bool,
    ) -> Result<Step<MultipartEvent<'a>>, MultipartError> {
        let mut consumed = 0;
        loop {
            let rest = slice(input, consumed..);
            let (used, ev) = match self.state {
                State::Data { held } => self.data(rest, held)?,
                State::DataStart => self.data_start(rest, eof),
                State::Start => self.start(rest, eof)?,
                State::Preamble => self.preamble(rest)?,
                State::AfterBoundary { padding } => self.after_boundary(rest, padding)?,
                State::Headers {
                    line,
                    scanned,
                    lines,
                    window,
                    limit,
                } => self.headers(rest, line, scanned, lines, window, limit)?,
                State::Close | State::Closed => self.close(rest, eof)?,
                State::Done => (0, Ev::End),
            };
            let budget = self.limits.max_body_bytes - self.position;
            if used as u64 > budget {
                return Err(self.limit_at(budget as usize, MultipartLimit::BodyBytes));
            }
            let event = match ev {
                Ev::On => None,
                Ev::More => {
                    if eof {
                        let end = rest.len();
                        return Err(self.error_at(end, MultipartErrorKind::UnexpectedEnd));
                    }
                    // Its own return (the most frequent on small reads): only the step's
                    // `consumed` and "no event" to write.
                    self.position += used as u64;
                    return Ok(Step {
                        consumed: consumed + used,
                        event: None,
                    });
                }
                Ev::Data => {
                    // As `More`: its own return, which writes no part.
                    self.position += used as u64;
                    return Ok(Step {
                        consumed: consumed + used,
                        event: Some(MultipartEvent::Data(slice(rest, ..used))),
                    });
                }
                Ev::PartEnd => Some(MultipartEvent::PartEnd),
                // Read before the position moves: the part's offsets start at its block.
                Ev::Part(block) => Some(MultipartEvent::Part(self.part(slice(rest, ..block))?)),
                Ev::End => Some(MultipartEvent::End),
            };
            self.position += used as u64;
            consumed += used;
            if event.is_some() {
                return Ok(Step { consumed, event });
            }
        }
    }

    /// An error at `offset` bytes past the current position.
    fn error_at(&self, offset: usize, kind: MultipartErrorKind) -> MultipartError {
        MultipartError {
            kind,
            offset: self.position + offset as u64,
        }
    }

    fn limit_at(&self, offset: usize, limit: MultipartLimit) -> MultipartError {
        self.error_at(offset, MultipartErrorKind::Limit(limit))
    }

    /// The first `--boundary`, at the very start of the body.
    fn start(&mut self, rest: &[u8], eof: bool) -> Result<Moved, MultipartError> {
        let dash = slice(self.delimiter(), 2..);
        let n = rest.len().min(dash.len());
        let mismatch = slice(rest, ..n).iter().zip(dash).position(|(a, b)| a != b);
        let whole = n == dash.len();
        match mismatch {
            None if whole => {
                self.state = State::AfterBoundary { padding: 0 };
                Ok((n, Ev::On))
            }
            // A prefix of `--boundary` so far.
            None if !eof => Ok((0, Ev::More)),
            _ if self.profile == Profile::Lenient => {
                self.state = State::Preamble;
                Ok((0, Ev::On))
            }
            Some(at) => Err(self.error_at(at, MultipartErrorKind::ExpectedBoundary)),
            None => Err(self.error_at(n, MultipartErrorKind::ExpectedBoundary)),
        }
    }

    /// (Lenient) Skips the preamble up to the first `CRLF--boundary`.
    fn preamble(&mut self, rest: &[u8]) -> Result<Moved, MultipartError> {
        let (skip, found) = match self.finder.find(rest) {
            Some(at) => (at, true),
            None => (
                rest.len() - partial_delimiter(rest, self.delimiter()),
                false,
            ),
        };
        let budget = self.limits.max_preamble_bytes - self.outside;
        if skip > budget {
            return Err(self.limit_at(budget, MultipartLimit::PreambleBytes));
        }
        self.outside += skip;
        if !found {
            // What is left may begin the delimiter: it needs what follows.
            return Ok((skip, Ev::More));
        }
        self.outside = 0;
        self.state = State::AfterBoundary { padding: 0 };
        Ok((skip + self.delimiter().len(), Ev::On))
    }

    /// After a boundary: `--` (the close delimiter), or transport padding and CRLF (a part).
    fn after_boundary(&mut self, rest: &[u8], padding: usize) -> Result<Moved, MultipartError> {
        let invalid = |at| Err(self.error_at(at, MultipartErrorKind::InvalidDelimiter));
        match rest {
            [] | [b'-'] | [b'\r'] => Ok((0, Ev::More)),
            [b'-', b'-', ..] if padding == 0 => {
                self.state = State::Close;
                Ok((2, Ev::On))
            }
            [b'\r', b'\n', ..] => {
                if self.parts == self.limits.max_parts {
                    return Err(self.limit_at(0, MultipartLimit::Parts));
                }
                // The block starts past the CRLF (`decode` refuses it if the body limit does).
                let header_budget = self.limits.max_header_bytes.saturating_sub(padding);
                let body_budget = (self.limits.max_body_bytes - self.position).saturating_sub(2);
                let (window, limit) = if (header_budget as u64) <= body_budget {
                    (header_budget, MultipartLimit::HeaderBytes)
                } else {
                    // Smaller than a usize header budget, so it fits.
                    (body_budget as usize, MultipartLimit::BodyBytes)
                };
                self.state = State::Headers {
                    line: 0,
                    scanned: 0,
                    lines: 0,
                    window,
                    limit,
                };
                Ok((2, Ev::On))
            }
            [b' ' | b'\t', ..] if self.profile != Profile::Fetch => {
                // Transport padding (RFC 2046 §5.1.1): it counts against the header limit
                // of the part that follows, so it cannot run on unbounded.
                let n = rest.iter().take_while(|&&b| is(b, WS)).count();
                let budget = self.limits.max_header_bytes.saturating_sub(padding);
                if n > budget {
                    return Err(self.limit_at(budget, MultipartLimit::HeaderBytes));
                }
                self.state = State::AfterBoundary {
                    padding: padding + n,
                };
                Ok((n, Ev::On))
            }
            [b'\r', _, ..] => invalid(1),
            _ => invalid(0),
        }
    }

    /// A part's header block: checks each line as it completes and hands out the part when
    /// the empty line arrives. Bytes scanned by an earlier call (`scanned`: fed again, with
    /// more after them) are not scanned again: on 1-byte reads each byte is looked at once.
    fn headers(
        &mut self,
        rest: &[u8],
        mut line: usize,
        scanned: usize,
        mut lines: usize,
        window: usize,
        limit: MultipartLimit,
    ) -> Result<Moved, MultipartError> {
        let seen = slice(rest, ..rest.len().min(window));
        let mut from = scanned.clamp(line, seen.len().max(line));
        loop {
            let Some(lf) = find_byte(b'\n', slice(seen, from.min(seen.len())..)).map(|i| from + i)
            else {
                if rest.len() >= window {
                    return Err(self.limit_at(window, limit));
                }
                self.state = State::Headers {
                    line,
                    scanned: seen.len(),
                    lines,
                    window,
                    limit,
                };
                return Ok((0, Ev::More));
            };
            if lf == line || seen.get(lf - 1) != Some(&b'\r') {
                return Err(self.error_at(lf, MultipartErrorKind::BareLf));
            }
            let text = slice(seen, line..lf - 1);
            if let Some(cr) = memchr::memchr(b'\r', text) {
                return Err(self.error_at(line + cr, MultipartErrorKind::BareCr));
            }
            if text.is_empty() {
                return Ok((lf + 1, Ev::Part(line)));
            }
            if lines == self.limits.max_headers {
                return Err(self.limit_at(line, MultipartLimit::Headers));
            }
            if let Err(at) = check_field(text, self.profile) {
                return Err(self.error_at(line + at, MultipartErrorKind::InvalidHeader));
            }
            lines += 1;
            line = lf + 1;
            from = line;
        }
    }

    /// The part whose (checked) header block is `block`, at the current position; its data
    /// comes next.
    fn part<'a>(&mut self, block: &'a [u8]) -> Result<Part<'a>, MultipartError> {
        let mut found: Option<(ContentDisposition<'a>, usize, Span)> = None;
        let mut content_type = None;
        let mut at = 0;
        while let Some((start, line, next)) = next_line(block, at) {
            at = next;
            let colon = memchr::memchr(b':', line).unwrap_or(line.len());
            let name = trim(slice(line, ..colon));
            let value_at = start + colon + 1;
            let raw = slice(line, (colon + 1).min(line.len())..);
            let lead = raw.iter().take_while(|&&b| is(b, WS)).count();
            let value = trim(raw);
            let value_at = value_at + lead;
            let strict = self.profile == Profile::Strict;
            if name.eq_ignore_ascii_case(b"content-disposition") {
                if strict && found.is_some() {
                    return Err(self.error_at(start, MultipartErrorKind::DuplicateHeader));
                }
                let cd = parse_disposition(value, self.profile).map_err(|e| {
                    self.error_at(
                        value_at + e.offset,
                        MultipartErrorKind::InvalidDisposition(e.kind),
                    )
                })?;
                found = Some((cd, value_at, Span::of(block, value)));
            } else if name.eq_ignore_ascii_case(b"content-type") {
                if strict && content_type.is_some() {
                    return Err(self.error_at(start, MultipartErrorKind::DuplicateHeader));
                }
                content_type = Some(Span::of(block, value));
            } else if strict
                && name.eq_ignore_ascii_case(b"content-transfer-encoding")
                && ![&b"7bit"[..], b"8bit", b"binary"]
                    .iter()
                    .any(|e| value.eq_ignore_ascii_case(e))
            {
                return Err(self.error_at(value_at, MultipartErrorKind::TransferEncoding));
            }
        }
        let Some((disposition, cd_at, cd_span)) = found else {
            return Err(self.error_at(0, MultipartErrorKind::MissingDisposition));
        };
        if !disposition
            .disposition_type()
            .eq_ignore_ascii_case("form-data")
        {
            return Err(self.error_at(cd_at, MultipartErrorKind::NotFormData));
        }
        let Some(name) = disposition.find("name") else {
            return Err(self.error_at(cd_at, MultipartErrorKind::MissingName));
        };
        let name_bytes = unquote(name.raw_value_bytes());
        let name_as_written = self.profile != Profile::Fetch
            && matches!(name.value(), Cow::Borrowed(v) if v.as_bytes() == name_bytes);
        let has_filename = disposition.filename().is_some();
        let part = Part {
            block,
            offset: self.position,
            index: self.parts,
            name: Span::of(block, name_bytes),
            content_type,
            disposition: cd_span,
            has_filename,
            name_as_written,
            profile: self.profile,
        };
        self.parts += 1;
        self.part_bytes = 0;
        self.value_part = !has_filename;
        self.state = State::DataStart;
        Ok(part)
    }

    /// The start of a part's data: `--boundary` right here is the delimiter whose CRLF ended
    /// the header block (the part is empty); anything else is data, read by [`Self::data`].
    /// The same delimiter as anywhere else, so what follows it is checked the same way: data
    /// that begins with `--boundary` is the delimiter (RFC 2046 §5.1.1 forbids it in a part,
    /// and [`write()`] refuses it).
    fn data_start(&mut self, rest: &[u8], eof: bool) -> Moved {
        let dash = slice(self.delimiter(), 2..);
        if rest.starts_with(dash) {
            let n = dash.len();
            self.state = State::AfterBoundary { padding: 0 };
            return (n, Ev::PartEnd);
        }
        if !eof && dash.starts_with(rest) {
            // A prefix of `--boundary` so far (`rest` is not empty: `decode` answers that).
            return (0, Ev::More);
        }
        self.state = State::Data { held: 0 };
        (0, Ev::On)
    }

    /// A part's data up to the next delimiter; the bytes that may begin one are held back.
    /// `held`: the input starts with that many bytes of the delimiter, held back by the last
    /// call (on 1-byte reads, a delimiter arriving costs a compare of each byte once).
    fn data(&mut self, rest: &[u8], held: usize) -> Result<Moved, MultipartError> {
        let delimiter = self.delimiter();
        let n = delimiter.len();
        if held > 0 && rest.len() >= held {
            let upto = rest.len().min(n);
            // Byte by byte: on small reads, one or two (cheaper than a `memcmp` call).
            let new = slice(rest, held..upto).iter();
            if new.zip(slice(delimiter, held..upto)).all(|(a, b)| a == b) {
                if upto < n {
                    self.state = State::Data { held: upto };
                    return Ok((0, Ev::More));
                }
                self.state = State::AfterBoundary { padding: 0 };
                return Ok((n, Ev::PartEnd));
            }
            // Not the delimiter after all: the held bytes are data (read as any other).
        }
        // The delimiter right here (the usual case after a piece of data that ended at it):
        // no search, which for a small part costs more than the part.
        if rest.starts_with(delimiter) {
            self.state = State::AfterBoundary { padding: 0 };
            return Ok((n, Ev::PartEnd));
        }
        // Shorter than the delimiter (a small read): no search, only what may begin one.
        let found = if rest.len() < n {
            None
        } else {
            self.find_delimiter(rest)
        };
        let (mut take, hold) = match found {
            Some(at) => (at, 0),
            None => {
                let hold = partial_delimiter(rest, delimiter);
                (rest.len() - hold, hold)
            }
        };
        if take == 0 {
            self.state = State::Data { held: hold };
            return Ok((0, Ev::More));
        }
        // Hand out what the limits allow; the next call refuses the byte past them, so every
        // split gives the same data before the same error.
        let (budget, limit) = self.data_budget();
        if budget == 0 {
            return Err(self.limit_at(0, limit));
        }
        if take as u64 > budget {
            // Cut short: what follows is not the held tail.
            take = budget as usize;
            self.state = State::Data { held: 0 };
        } else {
            // The rest, fed again with what follows, starts with the held tail.
            self.state = State::Data { held: hold };
        }
        self.part_bytes += take as u64;
        Ok((take, Ev::Data))
    }

    /// How many more data bytes the limits allow the current part, and the limit that says
    /// so: the body's, or a field's value limit when that is the smaller (a part without a
    /// filename). `data` and `skip_data` hand out data within it.
    #[inline]
    fn data_budget(&self) -> (u64, MultipartLimit) {
        let body = self.limits.max_body_bytes - self.position;
        if self.value_part {
            let value = self.limits.max_value_bytes.saturating_sub(self.part_bytes);
            if value < body {
                return (value, MultipartLimit::ValueBytes);
            }
        }
        (body, MultipartLimit::BodyBytes)
    }

    /// The first delimiter in `rest`. Where there are vectors (AVX2, wasm simd128), first by
    /// a one-byte search for its CR, then for its last byte, then for its middle byte
    /// ([`sparse_search`]), while the byte searched for stays rare in the input; then by a
    /// packed-pair search on two of the delimiter's bytes at their distance, then a compare:
    /// first its CR and its last byte, where a near miss (the delimiter but its last byte, or
    /// but any byte of the boundary, over and over) cannot fire it, where `memmem`'s pair of
    /// "rare" bytes fires at each near miss. A false candidate says where the input got the
    /// delimiter wrong (at `j`); input whose false candidates come one per delimiter or so (a
    /// near miss in the middle, a run of the byte before the last between CR and the last
    /// byte) mostly gets it wrong there again, so the search goes on with the pair of the CR
    /// and byte `j`, which such input does not fire; near misses of two kinds by turns move
    /// it once more, to the two bytes they get wrong. Past that, each dense candidate is
    /// checked in a loop of Sunday's shifts (no call per candidate), and the end pair is
    /// taken up again.
    /// Elsewhere (and for a haystack too short for the vectors), [`Self::horspool_find`].
    fn find_delimiter(&self, rest: &[u8]) -> Option<usize> {
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        ))]
        if let Some(ends) = &self.pair {
            use memchr::arch::all::packedpair::Pair;
            let d = self.delimiter();
            let n = d.len();
            // The pair in use when it is not `ends`: the delimiter's byte `.0` and the one
            // before, (`.2`) the second move.
            let mut moved: Option<(usize, PairFinder, bool)> = None;
            let mut at = 0;
            // Data without CRs (text with LF line ends, a run of one byte) is searched for
            // its CRs alone: memchr's one-byte loop reads a vector once where the pair reads
            // it twice, about three times the pair's speed on data in cache. Data dense in
            // CRs (CRLF text, a run of CRs, dashes and line ends) is searched the same way
            // for the delimiter's last byte, a byte of the boundary, which such data seldom
            // holds; data dense in both, for its middle byte. A byte that comes sooner than
            // `SPARSE` bytes after the last hands the rest to the next search (each one found
            // costs a call), the pair last, so no input costs more than about that.
            for k in [0, n - 1, n / 2] {
                match sparse_search(rest, d, k, at) {
                    Sparse::Found(found) => return Some(found),
                    Sparse::Absent => return None,
                    Sparse::Dense(next) => at = next,
                }
            }
            loop {
                let pair = moved.as_ref().map_or(ends, |m| &m.1);
                if rest.len() - at < pair.min_haystack_len() {
                    break;
                }
                // The vectors' prefilter, then the compare here: cheaper than `find` (which
                // verifies inside its vector loop) on data that never fires the pair.
                let at_before = at;
                let found = at + pair.find_prefilter(slice(rest, at..))?;
                // A window past the end: no later one fits either.
                let window = rest.get(found..found + n)?;
                let Some(j) = mismatch(window, d) else {
                    return Some(found);
                };
                at = found + 1;
                // Only when false candidates come close (about one per delimiter, as the
                // near misses repeat): scattered ones (random input) cost less than a new
                // pair, and one at a byte the input holds often could fire more.
                if found - at_before >= 2 * n {
                    continue;
                }
                let new_pair = |i: usize, j: usize| {
                    let pair = Pair::with_indices(d, u8::try_from(i).ok()?, u8::try_from(j).ok()?);
                    PairFinder::with_pair(d, pair?)
                };
                match moved {
                    // The CR and the byte the input got wrong.
                    None => moved = new_pair(0, j).map(|f| (j, f, false)),
                    // Near misses of two kinds by turns (each fires the pair the other moved
                    // the search to): the two bytes they get wrong.
                    Some((i, _, false)) => moved = new_pair(i, j).map(|f| (j, f, true)),
                    Some((_, _, true)) => {
                        // More kinds than that: each candidate checked here while the byte
                        // past its window (Sunday's shift) sends the next window far and that
                        // window has the delimiter's ends, then the end pair again.
                        moved = None;
                        let mut q = found;
                        loop {
                            let shift = usize::from(self.sunday[usize::from(*rest.get(q + n)?)]);
                            if shift < n / 2 {
                                at = q + 1;
                                break;
                            }
                            q += shift;
                            let window = rest.get(q..q + n)?;
                            if window.first() != Some(&b'\r') || window.last() != d.last() {
                                at = q;
                                break;
                            }
                            if is_delimiter(window, d) {
                                return Some(q);
                            }
                        }
                    }
                }
            }
            return self
                .horspool_find(slice(rest, at..))
                .map(|found| at + found);
        }
        self.horspool_find(rest)
    }

    /// Whether the delimiter starts at `at` in `rest`.
    #[inline]
    fn delimiter_at(&self, rest: &[u8], at: usize) -> bool {
        let d = self.delimiter();
        rest.get(at..at + d.len())
            .is_some_and(|window| is_delimiter(window, d))
    }

    /// The first delimiter in `rest`, by Horspool's search: each delimiter-long window is
    /// looked at through its last byte (compared in full only when that byte is the
    /// delimiter's last and its first a CR), and the next window starts past every start that
    /// would put that byte where the delimiter does not have it — on ordinary data, and on a
    /// near miss (the delimiter but a byte, over and over) alike, the delimiter's length on.
    /// A substring searcher's prefilter fires at each near miss and verifies it; this costs a
    /// few instructions per window whatever the input. Where the shifts are short (the input
    /// made of the delimiter's last bytes) and windows come more than one per `DENSE` bytes,
    /// the next `DENSE_CHUNK` bytes go to the `memmem` searcher, which such input does not slow.
    fn horspool_find(&self, rest: &[u8]) -> Option<usize> {
        let delimiter = self.delimiter();
        let n = delimiter.len();
        let last = *delimiter.last()?;
        let mut at = 0;
        // Bytes skipped minus DENSE per window: below zero, the shifts are too short.
        let mut credit = CREDIT_MAX;
        while let Some(&end) = rest.get(at + n - 1) {
            if end == last && rest.get(at) == Some(&b'\r') && self.delimiter_at(rest, at) {
                return Some(at);
            }
            let shift = usize::from(self.shift[usize::from(end)]);
            at += shift;
            credit = (credit + shift as isize - DENSE as isize).min(CREDIT_MAX);
            if credit < 0 {
                let to = rest.len().min(at + DENSE_CHUNK + n - 1);
                if let Some(found) = self.finder.find(slice(rest, at..to)) {
                    return Some(at + found);
                }
                at = (to + 1).saturating_sub(n).max(at);
                credit = CREDIT_MAX;
            }
        }
        None
    }

    /// After the close delimiter: what the profile allows, then the end of the input.
    fn close(&mut self, rest: &[u8], eof: bool) -> Result<Moved, MultipartError> {
        if rest.is_empty() {
            if eof {
                self.state = State::Done;
                return Ok((0, Ev::End));
            }
            return Ok((0, Ev::More));
        }
        let after_end = |at| Err(self.error_at(at, MultipartErrorKind::AfterEnd));
        if self.profile == Profile::Lenient {
            // The epilogue: read and dropped, up to its limit.
            let budget = self.limits.max_epilogue_bytes - self.outside;
            if rest.len() > budget {
                return Err(self.limit_at(budget, MultipartLimit::EpilogueBytes));
            }
            self.outside += rest.len();
            return Ok((rest.len(), Ev::On));
        }
        if self.state == State::Closed {
            return after_end(0);
        }
        if self.profile == Profile::Strict && rest.first().is_some_and(|&b| is(b, WS)) {
            // Transport padding, counted against the epilogue limit.
            let n = rest.iter().take_while(|&&b| is(b, WS)).count();
            let budget = self.limits.max_epilogue_bytes - self.outside;
            if n > budget {
                return Err(self.limit_at(budget, MultipartLimit::EpilogueBytes));
            }
            self.outside += n;
            return Ok((n, Ev::On));
        }
        match rest {
            [b'\r'] => Ok((0, Ev::More)),
            [b'\r', b'\n', ..] => {
                self.state = State::Closed;
                Ok((2, Ev::On))
            }
            [b'\r', ..] => after_end(1),
            _ => after_end(0),
        }
    }
}

/// A delimiter byte found sooner than this after the last one (or the search's start) moves
/// `find_delimiter` from its one-byte search to the next: about where a memchr call per byte
/// found costs as much as the pair's slower loop over the bytes between (~10 ns against 0.026
/// ns a byte, less 0.009 for the one-byte search itself, on a Xeon with the data in cache).
const SPARSE: usize = 512;

/// How [`sparse_search`] ended.
enum Sparse {
    /// The delimiter starts here.
    Found(usize),
    /// No delimiter starts at or after the search's start and fits.
    Absent,
    /// The byte came too often: the search ends before this start, not found up to there.
    Dense(usize),
}

/// Looks for the delimiter `d` in `rest` from start `at` by memchr over its byte `k` alone:
/// every start `s` that holds it has `d[k]` at `s + k`, so each such byte found names the one
/// window to compare, and a byte not found rules out every start that would need it.
///
/// Out of line: inlined into `find_delimiter`, it moved the pair's loop there to where the
/// near-miss shapes ran 10-25% slower with the same instructions (loop placement; with
/// `-C llvm-args=-align-loops=64` both ran alike; BENCHMARKS.md, stop 26).
#[inline(never)]
fn sparse_search(rest: &[u8], d: &[u8], k: usize, mut at: usize) -> Sparse {
    let Some(&byte) = d.get(k) else {
        return Sparse::Dense(at);
    };
    loop {
        let Some(hit) = rest
            .get(at + k..)
            .and_then(|tail| memchr::memchr(byte, tail))
        else {
            return Sparse::Absent;
        };
        let start = at + hit;
        // A window past the end: no later one fits either.
        let Some(window) = rest.get(start..start + d.len()) else {
            return Sparse::Absent;
        };
        if is_delimiter(window, d) {
            return Sparse::Found(start);
        }
        at = start + 1;
        if hit < SPARSE {
            return Sparse::Dense(at);
        }
    }
}

/// One window per this many bytes, on average, before `find_delimiter` hands a stretch to
/// `memmem`; what a window costs next to what `memmem` costs per byte, about.
const DENSE: usize = 8;
/// How much good stretch `find_delimiter` remembers: a long run of long shifts does not
/// buy a long run of dense candidates after it.
const CREDIT_MAX: isize = 256;
/// The stretch handed to `memmem` when candidates are dense.
const DENSE_CHUNK: usize = 4096;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use memchr::arch::wasm32::simd128::packedpair::Finder as PairFinder;
/// memchr's packed-pair searcher of this target: AVX2 on x86_64 (when the CPU has it, seen
/// when the reader is made), simd128 on wasm32 built with it (`.ci/build-component.sh` and
/// the npm build do). Other targets search with [`MultipartReader::horspool_find`] alone.
#[cfg(target_arch = "x86_64")]
use memchr::arch::x86_64::avx2::packedpair::Finder as PairFinder;

/// The packed-pair searcher on `delimiter`'s first byte and its last (None without the
/// vectors, or for a delimiter longer than the pair's offsets reach).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
fn end_pair(delimiter: &[u8]) -> Option<PairFinder> {
    let last = u8::try_from(delimiter.len().checked_sub(1)?).ok()?;
    let pair = memchr::arch::all::packedpair::Pair::with_indices(delimiter, 0, last)?;
    PairFinder::with_pair(delimiter, pair)
}

/// Whether `window` (as long as `delimiter`) is `delimiter`.
#[inline]
fn is_delimiter(window: &[u8], delimiter: &[u8]) -> bool {
    window.len() == delimiter.len() && mismatch(window, delimiter).is_none()
}

/// The first index where `window` and `delimiter` (as long) differ: compared eight bytes at a
/// time, inline, a last word overlapping the one before covering what the words leave. A false
/// candidate of the search (a near miss, which adversarial inputs make one per delimiter length)
/// then costs a few instructions where a `memcmp` call costs a few dozen, and says where the
/// input got the delimiter wrong.
#[inline]
fn mismatch(window: &[u8], delimiter: &[u8]) -> Option<usize> {
    let (Some(w_last), Some(d_last)) = (window.last_chunk::<8>(), delimiter.last_chunk::<8>())
    else {
        // A delimiter shorter than a word (a boundary of 1 to 3 bytes).
        return window.iter().zip(delimiter).position(|(a, b)| a != b);
    };
    let (words, tail) = window.as_chunks::<8>();
    let (d_words, _) = delimiter.as_chunks::<8>();
    let differ = |a: &[u8; 8], b: &[u8; 8]| {
        let x = u64::from_le_bytes(*a) ^ u64::from_le_bytes(*b);
        (x != 0).then_some(x.trailing_zeros() as usize / 8)
    };
    for (i, (a, b)) in words.iter().zip(d_words).enumerate() {
        if let Some(k) = differ(a, b) {
            return Some(i * 8 + k);
        }
    }
    if tail.is_empty() {
        return None;
    }
    differ(w_last, d_last).map(|k| window.len() - 8 + k)
}

/// Sunday's shifts for `delimiter`: for each byte, the distance from its last occurrence to
/// just past the delimiter, or that plus one when it occurs nowhere; capped at 255.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
fn sunday(delimiter: &[u8]) -> [u8; 256] {
    let n = delimiter.len();
    let mut shift = [u8::try_from(n + 1).unwrap_or(u8::MAX); 256];
    for (i, &b) in delimiter.iter().enumerate() {
        shift[usize::from(b)] = u8::try_from(n - i).unwrap_or(u8::MAX);
    }
    shift
}

/// Horspool's bad-character shifts for `delimiter`: for each byte, the distance from its last
/// occurrence before the delimiter's last byte to that last byte, or the whole length when it
/// occurs nowhere before it; capped at 255 (a shorter shift is never wrong, only slower).
fn horspool(delimiter: &[u8]) -> [u8; 256] {
    let n = delimiter.len();
    let mut shift = [u8::try_from(n).unwrap_or(u8::MAX); 256];
    for (i, &b) in slice(delimiter, ..n.saturating_sub(1)).iter().enumerate() {
        shift[usize::from(b)] = u8::try_from(n - 1 - i).unwrap_or(u8::MAX);
    }
    shift
}

/// How many bytes at the end of `rest` could begin `delimiter` (which starts with its only
/// CR, so only the last CR of the tail can start such a suffix).
fn partial_delimiter(rest: &[u8], delimiter: &[u8]) -> usize {
    let from = rest.len().saturating_sub(delimiter.len() - 1);
    let tail = slice(rest, from..);
    // A short tail (a small read) by a plain loop: cheaper than `memrchr`'s setup.
    let cr = if tail.len() < 16 {
        tail.iter().rposition(|&b| b == b'\r')
    } else {
        memchr::memrchr(b'\r', tail)
    };
    let Some(cr) = cr else {
        return 0;
    };
    let tail = slice(rest, from + cr..);
    if delimiter.starts_with(tail) {
        tail.len()
    } else {
        0
    }
}

/// A boundary the profile accepts, within the limit.
fn check_boundary(boundary: &[u8], profile: Profile, max: usize) -> Result<(), MultipartError> {
    let invalid = |at: usize| MultipartError {
        kind: MultipartErrorKind::InvalidBoundary,
        offset: at as u64,
    };
    if boundary.is_empty() {
        return Err(invalid(0));
    }
    if boundary.len() > max {
        return Err(MultipartError {
            kind: MultipartErrorKind::Limit(MultipartLimit::BoundaryBytes),
            offset: max as u64,
        });
    }
    let bad = match profile {
        Profile::Strict => boundary
            .iter()
            .position(|&b| !is(b, BCHAR))
            .or_else(|| (boundary.last() == Some(&b' ')).then_some(boundary.len() - 1)),
        Profile::Fetch | Profile::Lenient => memchr::memchr2(b'\r', b'\n', boundary),
    };
    match bad {
        Some(at) => Err(invalid(at)),
        None => Ok(()),
    }
}

/// Checks one header line (without its CRLF); `Err` has the offset of the offending byte.
/// Fetch and Lenient: a token name between optional whitespace, `:`, anything but CR and LF
/// (the Fetch Standard's "parse multipart/form-data headers"). Strict: RFC 9110 §5: no
/// whitespace around the name, a value of field-vchar, SP and HTAB.
fn check_field(line: &[u8], profile: Profile) -> Result<(), usize> {
    if profile == Profile::Strict {
        // A token right up to the colon: a line starting with whitespace is obs-fold.
        let colon = line
            .iter()
            .position(|&b| !is(b, TOKEN))
            .unwrap_or(line.len());
        if colon == 0 || line.get(colon) != Some(&b':') {
            return Err(colon);
        }
        return match slice(line, colon + 1..).iter().position(|&b| !is(b, FIELD)) {
            Some(i) => Err(colon + 1 + i),
            None => Ok(()),
        };
    }
    let colon = memchr::memchr(b':', line).ok_or(line.len())?;
    let name = slice(line, ..colon);
    let start = name.iter().position(|&b| !is(b, WS)).unwrap_or(colon);
    let end = name
        .iter()
        .rposition(|&b| !is(b, WS))
        .map_or(start, |i| i + 1);
    if start == end {
        return Err(start);
    }
    match slice(name, start..end).iter().position(|&b| !is(b, TOKEN)) {
        Some(i) => Err(start + i),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_delimiters() {
        let d = b"\r\n--ab";
        assert_eq!(partial_delimiter(b"xyz", d), 0);
        assert_eq!(partial_delimiter(b"xyz\r", d), 1);
        assert_eq!(partial_delimiter(b"xyz\r\n--a", d), 5);
        assert_eq!(partial_delimiter(b"\r\n--a\r", d), 1);
        assert_eq!(partial_delimiter(b"xyz\r\n-x", d), 0);
        assert_eq!(partial_delimiter(b"", d), 0);
    }

    /// The CR-to-CR scan, its shifts and its `memmem` stretches find the first delimiter
    /// exactly where a naive search does, on inputs built from the delimiter's own bytes
    /// (thick CRs, near misses, periodic boundaries), at every length.
    #[test]
    fn search_is_naive_search() {
        let naive = |hay: &[u8], d: &[u8]| hay.windows(d.len()).position(|w| w == d);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for boundary in [&b"ab"[..], b"abab", b"----x", b"-", b"a\rb", b"XyZ0g0g"] {
            let Ok(reader) = MultipartReader::new(boundary, Profile::Lenient, Default::default())
            else {
                continue;
            };
            let d = reader.delimiter().to_vec();
            let mut alphabet = d.clone();
            alphabet.extend_from_slice(b"\r\r\r\nz");
            for round in 0..1500 {
                let len = (next() % 12_000) as usize;
                let dense = round % 4;
                // Mode 3's byte far apart: the CR, the last byte, the middle byte by turns.
                let rare = if (round / 4) % 3 == 1 {
                    d[d.len() - 1]
                } else {
                    d[d.len() / 2]
                };
                let hay: alloc::vec::Vec<u8> = (0..len)
                    .map(|_| {
                        let r = next();
                        match dense {
                            0 => alphabet[(r as usize) % alphabet.len()],
                            1 if r % 4 == 0 => b'\r',
                            // CRs far apart and now and then close (half the gaps are under
                            // SPARSE): the CR search, and its handing over to the next search.
                            3 if (round / 4) % 3 == 0 && r % 700 == 0 => b'\r',
                            3 if (round / 4) % 3 == 0 => b'-',
                            // CRs close together, the delimiter's last byte (then, with it
                            // close too, its middle byte) far apart and now and then close:
                            // the search for that byte, and its handing over to the next.
                            3 if r % 3 == 0 => b'\r',
                            3 if (round / 4) % 3 == 2 && r % 3 == 1 => d[d.len() - 1],
                            3 if r % 700 == 1 => rare,
                            3 => b'-',
                            _ => d[(r as usize >> 8) % d.len()],
                        }
                    })
                    .collect();
                let mut hay = hay;
                if round % 5 == 4 {
                    // Near misses over and over: the delimiter with a byte wrong (at one, two
                    // or three places, by turns), where the search moves its pair.
                    let flips = [0; 3].map(|_| next() as usize % d.len());
                    let mut unit = 0;
                    hay = alloc::vec::Vec::with_capacity(len + d.len());
                    while hay.len() < len {
                        let mut near = d.clone();
                        let at = flips[unit % (1 + (round / 5) % 3)];
                        near[at] = near[at].wrapping_add(1 + (next() % 3) as u8);
                        hay.extend_from_slice(&near);
                        unit += 1;
                    }
                }
                if round % 7 == 0 && len > d.len() {
                    let at = (next() as usize) % (len - d.len());
                    hay[at..at + d.len()].copy_from_slice(&d);
                }
                assert_eq!(reader.find_delimiter(&hay), naive(&hay, &d), "{round}");
            }
        }
    }

    #[test]
    fn mismatches() {
        let d: alloc::vec::Vec<u8> = (0..80u8).collect();
        for n in 1..d.len() {
            let d = &d[..n];
            assert_eq!(mismatch(d, d), None, "{n}");
            for at in 0..n {
                let mut w = d.to_vec();
                w[at] ^= 0x40;
                assert_eq!(mismatch(&w, d), Some(at), "{n} {at}");
                w[n - 1] ^= 0x01;
                assert_eq!(mismatch(&w, d), Some(at), "{n} {at} and the last");
            }
        }
    }

    #[test]
    fn delimiters_near_and_far() {
        let reader = MultipartReader::new(b"ab", Profile::Fetch, MultipartLimits::default());
        let reader = reader.unwrap_or_else(|e| panic!("{e}"));
        for (prefix, cr_at) in [
            (0, None),
            (10, None),
            (300, None),
            (10, Some(5)),
            (300, Some(299)),
        ] {
            let mut data = alloc::vec![b'x'; prefix];
            if let Some(at) = cr_at {
                data[at] = b'\r';
            }
            data.extend_from_slice(b"\r\n--ab\r\n--ab");
            assert_eq!(
                reader.find_delimiter(&data),
                Some(prefix),
                "{prefix} {cr_at:?}"
            );
            assert_eq!(reader.find_delimiter(&data[..prefix + 5]), None);
        }
    }

    #[test]
    fn skip_data_is_decode_unseen() {
        let limits = MultipartLimits {
            max_value_bytes: 10,
            ..MultipartLimits::default()
        };
        let head = b"--b\r\nContent-Disposition: form-data; name=v\r\n\r\n";
        let mut reader = MultipartReader::new(b"b", Profile::Fetch, limits).unwrap();
        assert!(!reader.skip_data(1), "not in data yet");
        let step = reader.decode(head, false).unwrap();
        assert!(matches!(step.event, Some(MultipartEvent::Part(_))));
        assert!(
            !reader.skip_data(1),
            "the part's first bytes may be an empty part's delimiter"
        );
        // A byte that cannot begin `--b`: data, and the reader is in the data.
        let step = reader.decode(b"x", false).unwrap();
        assert_eq!(step.event, Some(MultipartEvent::Data(b"x")));
        assert!(reader.in_data());
        // Over the value limit: refused whole, and decode finds the error where it always does.
        assert!(!reader.skip_data(10));
        assert!(reader.skip_data(9));
        let err = reader.decode(b"x\r\n--b--", true).unwrap_err();
        let mut whole = MultipartReader::new(b"b", Profile::Fetch, limits).unwrap();
        let body = [&head[..], &[b'x'; 11], b"\r\n--b--"].concat();
        let mut at = 0;
        let want = loop {
            match whole.decode(&body[at..], true) {
                Ok(step) => at += step.consumed,
                Err(e) => break e,
            }
        };
        assert_eq!(err, want);
        assert_eq!(
            err.kind,
            MultipartErrorKind::Limit(MultipartLimit::ValueBytes)
        );
    }

    #[test]
    fn fields() {
        assert_eq!(check_field(b"A: b", Profile::Strict), Ok(()));
        assert_eq!(check_field(b" A : b", Profile::Fetch), Ok(()));
        assert_eq!(check_field(b"A : b", Profile::Strict), Err(1));
        assert_eq!(check_field(b"A: b\0", Profile::Strict), Err(4));
        assert_eq!(check_field(b"A: b\0", Profile::Fetch), Ok(()));
        assert_eq!(check_field(b"no colon", Profile::Fetch), Err(8));
        assert_eq!(check_field(b": v", Profile::Lenient), Err(0));
        assert_eq!(check_field(b"a\"b: v", Profile::Lenient), Err(1));
    }

    #[test]
    fn boundaries() {
        let ok = |b: &[u8], p| check_boundary(b, p, 70).map_err(|e| (e.kind, e.offset));
        assert_eq!(ok(b"simple boundary", Profile::Strict), Ok(()));
        assert_eq!(
            ok(b"a@b", Profile::Strict),
            Err((MultipartErrorKind::InvalidBoundary, 1))
        );
        assert_eq!(ok(b"a@b", Profile::Fetch), Ok(()));
        assert_eq!(
            ok(b"a\rb", Profile::Lenient),
            Err((MultipartErrorKind::InvalidBoundary, 1))
        );
    }
}
