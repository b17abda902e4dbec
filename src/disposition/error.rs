//! Parse errors: what went wrong and at which byte.

use core::fmt;

/// What went wrong; see [`DispositionError`].
///
/// ```
/// use reqparse::disposition::{ContentDisposition, DispositionErrorKind};
/// let e = ContentDisposition::parse_str("\"inline\"", Default::default()).unwrap_err();
/// assert_eq!(e.kind, DispositionErrorKind::QuotedType);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DispositionErrorKind {
    /// The header is longer than [`MAX_HEADER_LEN`](super::MAX_HEADER_LEN).
    TooLong,
    /// More than [`MAX_PARAMS`](super::MAX_PARAMS) parameters.
    TooManyParameters,
    /// An RFC 2231 section number of [`MAX_SECTIONS`](super::MAX_SECTIONS) or more.
    SectionLimit,
    /// No disposition type (empty header, or it starts with a parameter or a separator).
    MissingType,
    /// The disposition type is a quoted string.
    QuotedType,
    /// A `;` with nothing after it.
    TrailingSemicolon,
    /// Two `;` with no parameter between them.
    EmptyParameter,
    /// A parameter name that is not a token.
    InvalidName,
    /// A parameter name not followed by `=`.
    MissingEquals,
    /// A `=` not followed by a token or a quoted string.
    MissingValue,
    /// A quoted string without its closing `"`.
    UnterminatedQuote,
    /// A byte not allowed in a quoted string (a control character).
    InvalidQuotedChar,
    /// Whitespace inside a token, or between a value and the next parameter without `;`.
    TokenWithSpace,
    /// A `,`: the header holds a single value, not a list.
    Comma,
    /// A byte that cannot follow here (for example `[` after a token, or text after a quoted
    /// string).
    UnexpectedChar,
    /// A byte above 0x7F outside a quoted string (in the type, a name or a token value) in
    /// [`Profile::Strict`](super::Profile::Strict) or [`Profile::DotNet`](super::Profile::DotNet):
    /// RFC 9110 allows obs-text only in a quoted string, so quoting the value makes it
    /// acceptable, and [`Profile::Browser`](super::Profile::Browser) accepts it unquoted.
    NonAscii,
    /// Not returned by the parser any more: every profile reads bytes that are not UTF-8 as
    /// ISO-8859-1. Kept so that existing matches still compile.
    InvalidUtf8,
    /// The same parameter twice ([`Profile::Strict`](super::Profile::Strict)).
    DuplicateParameter,
    /// A `size` that is not 1*DIGIT or does not fit in `u64`.
    InvalidSize,
    /// A date parameter that is not an RFC 5322 / RFC 1123 date-time.
    InvalidDate,
}

impl DispositionErrorKind {
    fn message(self) -> &'static str {
        use DispositionErrorKind::*;
        match self {
            TooLong => "header longer than the limit",
            TooManyParameters => "too many parameters",
            SectionLimit => "continuation section number too large",
            MissingType => "missing disposition type",
            QuotedType => "disposition type must be a token, not a quoted string",
            TrailingSemicolon => "trailing ';' without a parameter",
            EmptyParameter => "empty parameter between two ';'",
            InvalidName => "parameter name is not a token",
            MissingEquals => "parameter without '='",
            MissingValue => "parameter without a value",
            UnterminatedQuote => "quoted string without its closing '\"'",
            InvalidQuotedChar => "control character in a quoted string",
            TokenWithSpace => "whitespace inside a value or a missing ';'",
            Comma => "',' is not allowed (single value header)",
            UnexpectedChar => "unexpected character",
            NonAscii => "non-ASCII byte outside a quoted string (quote the value, or use the browser profile)",
            InvalidUtf8 => "invalid UTF-8",
            DuplicateParameter => "duplicate parameter",
            InvalidSize => "size is not a decimal number that fits in 64 bits",
            InvalidDate => "invalid date",
        }
    }
}

/// A parse error: what and where (byte offset into the header).
///
/// ```
/// use reqparse::disposition::{ContentDisposition, DispositionErrorKind};
/// let e = ContentDisposition::parse_str("attachment; filename=a, b", Default::default())
///     .unwrap_err();
/// assert_eq!((e.kind, e.offset), (DispositionErrorKind::Comma, 22));
/// assert_eq!(e.to_string(), "',' is not allowed (single value header) at byte 22");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DispositionError {
    /// What went wrong.
    pub kind: DispositionErrorKind,
    /// Byte offset of the offending byte in the header.
    pub offset: usize,
}

impl fmt::Display for DispositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.message(), self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DispositionError {}

pub(super) const fn err(kind: DispositionErrorKind, offset: usize) -> DispositionError {
    DispositionError { kind, offset }
}
