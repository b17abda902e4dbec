//! `Content-Disposition` (RFC 6266) parsing and formatting, with RFC 8187 ext-values, RFC 2231
//! continuations and, on request, RFC 2047 encoded-words.
//!
//! [`ContentDisposition::parse`] validates the whole header and allocates nothing: the type,
//! the parameters and their values are views into the input, and quoted values are unescaped
//! only when asked ([`Param::value`] borrows when there is no `\`). The effective filename
//! ([`ContentDisposition::filename`]) allocates only when something has to be decoded.
//!
//! Three [`Profile`]s decide what is accepted and what the filename is:
//! - [`Profile::Strict`] (default): the RFC 6266 §4.1 grammar, ASCII only; any violation is a
//!   [`DispositionError`] naming the byte offset.
//! - [`Profile::Browser`]: what Chromium's `net::HttpContentDisposition` accepts and returns.
//! - [`Profile::DotNet`]: what ASP.NET Core's `ContentDispositionHeaderValue` accepts and
//!   returns.
//!
//! ```
//! use reqparse::disposition::{ContentDisposition, Profile};
//!
//! let cd = ContentDisposition::parse_str(
//!     "attachment; filename=\"EURO rates\"; filename*=utf-8''%e2%82%ac%20rates",
//!     Profile::Strict,
//! )?;
//! assert!(cd.is_attachment());
//! assert_eq!(cd.filename().as_deref(), Some("€ rates"));
//! # Ok::<(), reqparse::disposition::DispositionError>(())
//! ```
//!
//! Limits (each an error, never a truncation): [`MAX_HEADER_LEN`] bytes of header,
//! [`MAX_PARAMS`] parameters, RFC 2231 section numbers below [`MAX_SECTIONS`].
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

mod build;
mod charset;
mod date;

pub use build::{DispositionBuilder, MAX_BUILDER_PARAMS};
pub use date::DateTime;

/// The longest header accepted, in bytes (16 KiB, the usual per-field limit of HTTP servers).
///
/// ```
/// use reqparse::disposition::{ContentDisposition, DispositionErrorKind, MAX_HEADER_LEN};
/// let long = "a".repeat(MAX_HEADER_LEN + 1);
/// let err = ContentDisposition::parse_str(&long, Default::default()).unwrap_err();
/// assert_eq!(err.kind, DispositionErrorKind::TooLong);
/// ```
pub const MAX_HEADER_LEN: usize = 16 * 1024;

/// The most parameters accepted in one header, in every profile.
///
/// It also bounds the work of the duplicate check and of the continuation join.
///
/// ```
/// use reqparse::disposition::{ContentDisposition, DispositionErrorKind, MAX_PARAMS};
/// let mut h = String::from("attachment");
/// for i in 0..=MAX_PARAMS {
///     h.push_str(&format!("; p{i}=v"));
/// }
/// let err = ContentDisposition::parse_str(&h, Default::default()).unwrap_err();
/// assert_eq!(err.kind, DispositionErrorKind::TooManyParameters);
/// ```
pub const MAX_PARAMS: usize = 64;

/// RFC 2231 section numbers (`filename*N`) must be below this in [`Profile::Strict`].
///
/// ```
/// use reqparse::disposition::{ContentDisposition, DispositionErrorKind};
/// let err = ContentDisposition::parse_str("attachment; filename*999=x", Default::default())
///     .unwrap_err();
/// assert_eq!(err.kind, DispositionErrorKind::SectionLimit);
/// ```
pub const MAX_SECTIONS: usize = 64;

/// Which rules parsing and the effective filename follow.
///
/// ```
/// use reqparse::disposition::{ContentDisposition, Profile};
/// let h = "attachment; filename=a.txt; filename=b.txt";
/// assert!(ContentDisposition::parse_str(h, Profile::Strict).is_err());
/// let cd = ContentDisposition::parse_str(h, Profile::DotNet)?;
/// assert_eq!(cd.filename().as_deref(), Some("a.txt"));
/// # Ok::<(), reqparse::disposition::DispositionError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// RFC 6266 §4.1 exactly, ASCII only; duplicates, missing `=`, commas, stray bytes and a
    /// trailing `;` are errors. RFC 2231 continuations are joined.
    #[default]
    Strict,
    /// Chromium's `net::HttpContentDisposition`: never rejects a header (except for the limits
    /// and non-UTF-8 bytes), stops reading parameters at the first malformed one, takes the
    /// first non-empty `filename*`/`filename`, %-decodes plain filenames, treats ISO-8859-1 as
    /// windows-1252, ignores continuations. A missing or malformed type reads as `inline`.
    Browser,
    /// ASP.NET Core's `ContentDispositionHeaderValue`: the RFC grammar but duplicates and
    /// parameters without `=` are kept (the first wins), quoted strings may hold any UTF-8,
    /// `filename` is only unquoted (no `\` unescaping), invalid `%` escapes stay literal and
    /// invalid UTF-8 becomes U+FFFD. No continuations.
    DotNet,
}

impl Profile {
    /// Every profile, the default first.
    pub const ALL: [Profile; 3] = [Profile::Strict, Profile::Browser, Profile::DotNet];

    /// The profile's name in every face (CLI flag, JSON vectors, WIT, JS): `strict`, `browser`, `dotnet`.
    ///
    /// ```
    /// use reqparse::disposition::Profile;
    /// assert_eq!(Profile::Browser.as_str(), "browser");
    /// assert_eq!("browser".parse::<Profile>(), Ok(Profile::Browser));
    /// assert!("nope".parse::<Profile>().is_err());
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Profile::Strict => "strict",
            Profile::Browser => "browser",
            Profile::DotNet => "dotnet",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::str::FromStr for Profile {
    type Err = crate::UnknownProfile;

    /// Parses a name written by [`Profile::as_str`] (exactly, lowercase).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "strict" => Ok(Profile::Strict),
            "browser" => Ok(Profile::Browser),
            "dotnet" => Ok(Profile::DotNet),
            _ => Err(crate::UnknownProfile {
                expected: "strict, browser, dotnet",
            }),
        }
    }
}

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
    /// The header is longer than [`MAX_HEADER_LEN`].
    TooLong,
    /// More than [`MAX_PARAMS`] parameters.
    TooManyParameters,
    /// An RFC 2231 section number of [`MAX_SECTIONS`] or more.
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
    /// A byte above 0x7F where [`Profile::Strict`] allows only ASCII.
    NonAscii,
    /// Bytes that are not UTF-8 (the lenient profiles accept UTF-8 text).
    InvalidUtf8,
    /// The same parameter twice ([`Profile::Strict`]).
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
            NonAscii => "non-ASCII byte",
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

const fn err(kind: DispositionErrorKind, offset: usize) -> DispositionError {
    DispositionError { kind, offset }
}

// Byte classes. One table, one bit per class.
/// tchar (RFC 9110 §5.6.2): ALPHA DIGIT ! # $ % & ' * + - . ^ _ ` | ~
const TCHAR: u8 = 1;
/// attr-char (RFC 8187 §3.2.1): tchar minus * ' %
const ATTR: u8 = 2;
/// qdtext (RFC 9110 §5.6.4), ASCII part: HTAB SP ! #-[ ]-~ (no `"`, no `\`)
const QDTEXT: u8 = 4;
/// OWS: SP HTAB
const WS: u8 = 8;
/// mime-charsetc (RFC 8187 §3.2.1): ALPHA DIGIT ! # $ % & + - ^ _ ` { } ~
const CHARSET: u8 = 16;

static CLASS: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        let alnum = c.is_ascii_alphanumeric();
        let mut v = 0;
        // tchar: letters, digits and the 15 symbols listed above
        if alnum
            || matches!(
                c,
                b'!' | b'#' | b'$' | b'%' | b'&' | b'\'' | b'*' | b'+' | b'-'
            )
            || matches!(c, b'.' | b'^' | b'_' | b'`' | b'|' | b'~')
        {
            v |= TCHAR;
            // attr-char: the same, minus the three that ext-values give a meaning
            if !matches!(c, b'*' | b'\'' | b'%') {
                v |= ATTR;
            }
        }
        // qdtext: HTAB, SP and every visible ASCII character but `"` and `\`
        if c == b'\t' || (c >= 0x20 && c <= 0x7E && c != b'"' && c != b'\\') {
            v |= QDTEXT;
        }
        // OWS: SP and HTAB
        if c == b' ' || c == b'\t' {
            v |= WS;
        }
        // mime-charsetc: letters, digits and ! # $ % & + - ^ _ ` { } ~
        if alnum
            || matches!(
                c,
                b'!' | b'#' | b'$' | b'%' | b'&' | b'+' | b'-' | b'^' | b'_' | b'`'
            )
            || matches!(c, b'{' | b'}' | b'~')
        {
            v |= CHARSET;
        }
        t[i] = v;
        i += 1;
    }
    t
}

#[inline]
fn is(b: u8, class: u8) -> bool {
    CLASS[b as usize] & class != 0
}

#[inline]
fn skip(b: &[u8], mut pos: usize, class: u8) -> usize {
    while let Some(&c) = b.get(pos) {
        if !is(c, class) {
            break;
        }
        pos += 1;
    }
    pos
}

fn is_token(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(|&c| is(c, TCHAR))
}

/// `s[from..to]`, where `s` is the longest UTF-8 prefix of the header: the scanners only
/// cut at ASCII bytes, so this fails only for a slice reaching past that prefix, and the
/// first byte that is not UTF-8 is at `s.len()`.
fn sub(s: &str, from: usize, to: usize) -> Result<&str, DispositionError> {
    s.get(from..to)
        .ok_or(err(DispositionErrorKind::InvalidUtf8, s.len()))
}

/// How a parameter value was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quoting {
    /// A token (or, in Browser, any unquoted text).
    Token,
    /// A quoted string; `escaped` when it holds a `\`.
    Quoted { escaped: bool },
    /// Browser only: an opening `"` without its closing one; the value is the rest.
    Unbalanced,
}

/// One parameter: a borrowed view of `name=value`.
///
/// ```
/// use reqparse::disposition::ContentDisposition;
/// let cd = ContentDisposition::parse_str(r#"attachment; Foo="a\"b""#, Default::default())?;
/// let p = cd.params().next().unwrap();
/// assert_eq!((p.name(), p.raw_value()), ("Foo", r#""a\"b""#));
/// assert_eq!(p.value(), r#"a"b"#);
/// # Ok::<(), reqparse::disposition::DispositionError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param<'a> {
    name: &'a str,
    raw: &'a str,
    quoting: Quoting,
    offset: usize,
}

impl<'a> Param<'a> {
    /// The name as written (compare it with `eq_ignore_ascii_case`).
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("inline; FileName=a", Default::default())?;
    /// assert_eq!(cd.params().next().unwrap().name(), "FileName");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The value as written, quotes and escapes included.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("inline; a=\"x y\"", Default::default())?;
    /// assert_eq!(cd.params().next().unwrap().raw_value(), "\"x y\"");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn raw_value(&self) -> &'a str {
        self.raw
    }

    /// Byte offset of the parameter name in the header.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("inline; a=b", Default::default())?;
    /// assert_eq!(cd.params().next().unwrap().offset(), 8);
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Whether the value was a quoted string.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("inline; a=\"b\"; c=d", Default::default())?;
    /// let q: Vec<bool> = cd.params().map(|p| p.is_quoted()).collect();
    /// assert_eq!(q, [true, false]);
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn is_quoted(&self) -> bool {
        matches!(self.quoting, Quoting::Quoted { .. })
    }

    /// The value with its quotes removed and quoted-pairs (`\x`) unescaped; borrowed unless
    /// there was a `\`. Ext-values (`name*=`) are returned as written: decoding them is
    /// [`ContentDisposition::filename`]'s job.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str(r#"inline; a="x y"; b="\\z""#, Default::default())?;
    /// let v: Vec<_> = cd.params().map(|p| p.value()).collect();
    /// assert!(matches!(v[0], Cow::Borrowed("x y")));
    /// assert_eq!(v[1], "\\z");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn value(&self) -> Cow<'a, str> {
        match self.quoting {
            Quoting::Token => Cow::Borrowed(self.raw),
            Quoting::Unbalanced => Cow::Borrowed(self.raw.get(1..).unwrap_or("")),
            Quoting::Quoted { escaped } => {
                let inner = strip_quotes(self.raw);
                if escaped {
                    Cow::Owned(unescape(inner))
                } else {
                    Cow::Borrowed(inner)
                }
            }
        }
    }
}

fn strip_quotes(raw: &str) -> &str {
    raw.strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(raw)
}

/// Removes the `\` of every quoted-pair; one exactly sized allocation.
fn unescape(inner: &str) -> String {
    let mut pairs = 0;
    let mut bytes = inner.bytes();
    while let Some(c) = bytes.next() {
        if c == b'\\' && bytes.next().is_some() {
            pairs += 1;
        }
    }
    let mut out = String::with_capacity(inner.len() - pairs);
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(n) => out.push(n),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Options for [`ContentDisposition::filename_with`].
///
/// ```
/// use reqparse::disposition::{ContentDisposition, FilenameOptions};
/// let cd = ContentDisposition::parse_str(
///     "attachment; filename=\"=?utf-8?B?w6TDtsO8LnR4dA==?=\"", Default::default())?;
/// assert_eq!(cd.filename().as_deref(), Some("=?utf-8?B?w6TDtsO8LnR4dA==?="));
/// let decoded = cd.filename_with(FilenameOptions { decode_2047: true });
/// assert_eq!(decoded.as_deref(), Some("äöü.txt"));
/// # Ok::<(), reqparse::disposition::DispositionError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FilenameOptions {
    /// Decode RFC 2047 encoded-words (`=?charset?B|Q?...?=`) in the plain `filename`, with
    /// the profile's rules (Strict: RFC 2047 §5/§6; Browser: Chromium's `DecodeWord`; DotNet:
    /// a whole quoted `B` word, as `TryDecodeMime`). Off by default: returned literally.
    pub decode_2047: bool,
}

/// A parsed `Content-Disposition` header: borrowed views, nothing allocated.
///
/// ```
/// use reqparse::disposition::{ContentDisposition, Profile};
/// let cd = ContentDisposition::parse(b"form-data; name=\"file\"; filename=\"a.txt\"", Profile::Strict)?;
/// assert_eq!(cd.disposition_type(), "form-data");
/// assert_eq!(cd.param("name").as_deref(), Some("file"));
/// assert_eq!(cd.filename().as_deref(), Some("a.txt"));
/// # Ok::<(), reqparse::disposition::DispositionError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContentDisposition<'a> {
    header: &'a str,
    kind: &'a str,
    params_at: usize,
    count: usize,
    profile: Profile,
    found: Found<'a>,
}

/// The filename parameters, noted while parsing so that `filename()` need not re-scan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Found<'a> {
    /// The first `filename`, the first `filename*`, and how many of each there are.
    plain: Option<Param<'a>>,
    star: Option<Param<'a>>,
    plains: usize,
    stars: usize,
    /// Whether a `filename*<N>` section exists.
    continued: bool,
}

impl<'a> Found<'a> {
    fn note(&mut self, p: Param<'a>) {
        let n = p.name.as_bytes();
        if n.len() < 8
            || !n
                .get(..8)
                .is_some_and(|f| f.eq_ignore_ascii_case(b"filename"))
        {
            return;
        }
        match n.get(8..) {
            Some(b"") => {
                self.plains += 1;
                self.plain = self.plain.or(Some(p));
            }
            Some(b"*") => {
                self.stars += 1;
                self.star = self.star.or(Some(p));
            }
            Some([b'*', ..]) => self.continued = true,
            _ => {}
        }
    }
}

impl<'a> ContentDisposition<'a> {
    /// Parses and validates a header value (without the `Content-Disposition:` name).
    /// Allocates nothing.
    ///
    /// # Errors
    /// A [`DispositionError`] with the offset of the first offending byte: in Strict any
    /// grammar violation; in every profile the limits and bytes that are not UTF-8.
    ///
    /// ```
    /// use reqparse::disposition::{ContentDisposition, DispositionErrorKind, Profile};
    /// let e = ContentDisposition::parse(b"attachment; filename=foo bar", Profile::Strict)
    ///     .unwrap_err();
    /// assert_eq!((e.kind, e.offset), (DispositionErrorKind::TokenWithSpace, 25));
    /// assert!(ContentDisposition::parse(b"attachment; filename=foo bar", Profile::Browser).is_ok());
    /// ```
    pub fn parse(header: &'a [u8], profile: Profile) -> Result<Self, DispositionError> {
        if header.len() > MAX_HEADER_LEN {
            return Err(err(DispositionErrorKind::TooLong, MAX_HEADER_LEN));
        }
        match profile {
            Profile::Browser => parse_browser(header),
            Profile::Strict | Profile::DotNet => {
                // Validate UTF-8 once; the scanners slice this prefix (all of it when valid).
                let text = match core::str::from_utf8(header) {
                    Ok(t) => t,
                    Err(e) => header
                        .get(..e.valid_up_to())
                        .and_then(|v| core::str::from_utf8(v).ok())
                        .unwrap_or(""),
                };
                parse_grammar(header, text, profile)
            }
        }
    }

    /// [`parse`](Self::parse) for a `&str`.
    ///
    /// # Errors
    /// As [`parse`](Self::parse).
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("INLINE", Default::default())?;
    /// assert!(cd.is_inline());
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn parse_str(header: &'a str, profile: Profile) -> Result<Self, DispositionError> {
        Self::parse(header.as_bytes(), profile)
    }

    /// The disposition type as written (compare case-insensitively). In [`Profile::Browser`]
    /// a missing or malformed type reads as `inline`, as in Chromium.
    ///
    /// ```
    /// use reqparse::disposition::{ContentDisposition, Profile};
    /// let cd = ContentDisposition::parse_str("Attachment; a=b", Profile::Strict)?;
    /// assert_eq!(cd.disposition_type(), "Attachment");
    /// let cd = ContentDisposition::parse_str("filename=x", Profile::Browser)?;
    /// assert_eq!(cd.disposition_type(), "inline");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn disposition_type(&self) -> &'a str {
        self.kind
    }

    /// The profile the header was parsed with.
    ///
    /// ```
    /// use reqparse::disposition::{ContentDisposition, Profile};
    /// let cd = ContentDisposition::parse_str("inline", Profile::DotNet)?;
    /// assert_eq!(cd.profile(), Profile::DotNet);
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Whether the type is `attachment` (any case).
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// assert!(ContentDisposition::parse_str("ATTACHMENT", Default::default())?.is_attachment());
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn is_attachment(&self) -> bool {
        self.kind.eq_ignore_ascii_case("attachment")
    }

    /// Whether the type is `inline` (any case).
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// assert!(ContentDisposition::parse_str("inline; a=b", Default::default())?.is_inline());
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn is_inline(&self) -> bool {
        self.kind.eq_ignore_ascii_case("inline")
    }

    /// The parameters in header order (duplicates included where the profile keeps them).
    /// Re-scans the validated header lazily; allocates nothing.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("inline; a=1; b=\"2\"", Default::default())?;
    /// let v: Vec<(&str, String)> = cd.params().map(|p| (p.name(), p.value().into_owned())).collect();
    /// assert_eq!(v, [("a", "1".to_string()), ("b", "2".to_string())]);
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn params(&self) -> Params<'a> {
        Params {
            header: self.header,
            pos: self.params_at,
            left: self.count,
            profile: self.profile,
        }
    }

    /// The number of parameters [`params`](Self::params) yields.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// assert_eq!(ContentDisposition::parse_str("inline; a=1; b=2", Default::default())?.param_count(), 2);
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn param_count(&self) -> usize {
        self.count
    }

    /// The first parameter named `name` (ASCII case-insensitive).
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("inline; Size=42", Default::default())?;
    /// assert_eq!(cd.find("size").map(|p| p.raw_value()), Some("42"));
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn find(&self, name: &str) -> Option<Param<'a>> {
        self.params().find(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// The unquoted value of the first parameter named `name` (ASCII case-insensitive).
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("form-data; name=\"field 1\"", Default::default())?;
    /// assert_eq!(cd.param("NAME").as_deref(), Some("field 1"));
    /// assert_eq!(cd.param("filename"), None);
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn param(&self, name: &str) -> Option<Cow<'a, str>> {
        self.find(name).map(|p| p.value())
    }

    /// The effective filename (RFC 6266 §4.3) with RFC 2047 words left as they are.
    /// Borrowed unless something had to be decoded.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str(
    ///     "attachment; filename*0*=UTF-8''foo-%c3%a4; filename*1=\".html\"", Default::default())?;
    /// assert_eq!(cd.filename().as_deref(), Some("foo-ä.html"));
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn filename(&self) -> Option<Cow<'a, str>> {
        self.filename_with(FilenameOptions::default())
    }

    /// The effective filename with options; see [`FilenameOptions`].
    ///
    /// - Strict: a valid `filename*` (UTF-8, ISO-8859-1 or US-ASCII, language ignored), else
    ///   the RFC 2231 continuation `filename*0`, `filename*1*`, ... (numeric order, stopping at
    ///   a gap; `*N*` parts percent-decoded in part 0's charset), else `filename`.
    /// - Browser: the first non-empty `filename*`, else the first non-empty decoded `filename`.
    /// - DotNet: the first `filename*` if it decodes, else the first `filename`.
    ///
    /// ```
    /// use reqparse::disposition::{ContentDisposition, FilenameOptions, Profile};
    /// let cd = ContentDisposition::parse_str(
    ///     "attachment; filename==?utf-8?Q?caf=C3=A9.txt?=", Profile::Browser)?;
    /// let o = FilenameOptions { decode_2047: true };
    /// assert_eq!(cd.filename_with(o).as_deref(), Some("café.txt"));
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn filename_with(&self, opts: FilenameOptions) -> Option<Cow<'a, str>> {
        match self.profile {
            Profile::Strict => self.filename_strict(opts),
            Profile::Browser => self.filename_browser(opts),
            Profile::DotNet => self.filename_dotnet(opts),
        }
    }

    fn filename_strict(&self, opts: FilenameOptions) -> Option<Cow<'a, str>> {
        // Strict has no duplicates: the first is the only one.
        let Found {
            plain,
            star,
            continued,
            ..
        } = self.found;
        if let Some(s) = star {
            if s.quoting == Quoting::Token {
                if let Some(v) = charset::decode_ext(s.raw, charset::ExtRules::Strict) {
                    return Some(v);
                }
            }
        }
        if continued {
            // Only now pay for the section table (a second pass over the parameters).
            let mut parts = charset::Sections::new();
            for p in self.params() {
                if let Some((base, n, encoded)) = section(p.name) {
                    if base.eq_ignore_ascii_case("filename") {
                        parts.set(n, p, encoded);
                    }
                }
            }
            if let Some(v) = parts.join() {
                return Some(v);
            }
        }
        let p = plain?;
        let v = p.value();
        if opts.decode_2047 {
            if let Some(d) = charset::decode_2047_words(&v) {
                return Some(Cow::Owned(d));
            }
        }
        Some(v)
    }

    fn filename_browser(&self, opts: FilenameOptions) -> Option<Cow<'a, str>> {
        let f = self.found;
        if f.plains <= 1 && f.stars <= 1 {
            // No duplicates: the noted parameters are the only candidates.
            if let Some(v) = f
                .star
                .and_then(|s| charset::decode_ext(s.raw, charset::ExtRules::Browser))
            {
                if !v.is_empty() {
                    return Some(v);
                }
            }
            let p = f.plain?;
            return charset::browser_filename(p.value(), opts.decode_2047)
                .filter(|v| !v.is_empty());
        }
        // Chromium takes the first *non-empty* of each, so a later duplicate may win.
        let mut plain: Option<Cow<'a, str>> = None;
        for p in self.params() {
            if plain.is_none() && p.name.eq_ignore_ascii_case("filename") {
                plain = charset::browser_filename(p.value(), opts.decode_2047)
                    .filter(|v| !v.is_empty());
            } else if p.name.eq_ignore_ascii_case("filename*") {
                if let Some(v) = charset::decode_ext(p.raw, charset::ExtRules::Browser) {
                    if !v.is_empty() {
                        return Some(v);
                    }
                }
            }
        }
        plain
    }

    fn filename_dotnet(&self, opts: FilenameOptions) -> Option<Cow<'a, str>> {
        // NameValueHeaderValue.Find: the first of each name.
        if let Some(s) = self.found.star {
            if let Some(v) = charset::decode_ext(s.raw, charset::ExtRules::DotNet) {
                return Some(v);
            }
        }
        let p = self.found.plain?;
        if opts.decode_2047 {
            if let Some(v) = charset::dotnet_mime(p.raw) {
                return Some(Cow::Owned(v));
            }
        }
        // .NET's GetName only strips the quotes (HeaderUtilities.RemoveQuotes).
        let raw = p.raw;
        Some(Cow::Borrowed(if raw.len() > 1 {
            strip_quotes(raw)
        } else {
            raw
        }))
    }

    /// The `size` parameter (RFC 2183 §2.7): `None` when absent.
    ///
    /// # Errors
    /// `Some(Err(InvalidSize))` when it is not 1*DIGIT or overflows `u64`.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("attachment; size=1024", Default::default())?;
    /// assert_eq!(cd.size(), Some(Ok(1024)));
    /// let cd = ContentDisposition::parse_str("attachment; size=1e3", Default::default())?;
    /// assert!(matches!(cd.size(), Some(Err(_))));
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn size(&self) -> Option<Result<u64, DispositionError>> {
        let p = self.find("size")?;
        let v = p.value();
        let bad = err(DispositionErrorKind::InvalidSize, p.offset);
        if v.is_empty() {
            return Some(Err(bad));
        }
        let mut n: u64 = 0;
        for c in v.bytes() {
            if !c.is_ascii_digit() {
                return Some(Err(bad));
            }
            n = match n
                .checked_mul(10)
                .and_then(|n| n.checked_add(u64::from(c - b'0')))
            {
                Some(n) => n,
                None => return Some(Err(bad)),
            };
        }
        Some(Ok(n))
    }

    fn date(&self, name: &str) -> Option<Result<DateTime, DispositionError>> {
        let p = self.find(name)?;
        Some(DateTime::parse(&p.value()).ok_or(err(DispositionErrorKind::InvalidDate, p.offset)))
    }

    /// The `creation-date` parameter (RFC 2183 §2.4), RFC 5322 or RFC 1123 form.
    ///
    /// # Errors
    /// `Some(Err(InvalidDate))` when present but not a date.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str(
    ///     "attachment; creation-date=\"Wed, 12 Feb 1997 16:29:51 -0500\"", Default::default())?;
    /// let d = cd.creation_date().unwrap()?;
    /// assert_eq!(d.unix_seconds(), 855782991);
    /// assert_eq!(d.to_string(), "Wed, 12 Feb 1997 21:29:51 GMT");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn creation_date(&self) -> Option<Result<DateTime, DispositionError>> {
        self.date("creation-date")
    }

    /// The `modification-date` parameter (RFC 2183 §2.5).
    ///
    /// # Errors
    /// As [`creation_date`](Self::creation_date).
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str(
    ///     "attachment; modification-date=\"12 Feb 97 16:29 GMT\"", Default::default())?;
    /// assert_eq!(cd.modification_date().unwrap()?.to_string(), "Wed, 12 Feb 1997 16:29:00 GMT");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn modification_date(&self) -> Option<Result<DateTime, DispositionError>> {
        self.date("modification-date")
    }

    /// The `read-date` parameter (RFC 2183 §2.6).
    ///
    /// # Errors
    /// As [`creation_date`](Self::creation_date).
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("attachment; read-date=yesterday", Default::default())?;
    /// assert!(matches!(cd.read_date(), Some(Err(_))));
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn read_date(&self) -> Option<Result<DateTime, DispositionError>> {
        self.date("read-date")
    }
}

/// `name*N` or `name*N*` (RFC 2231 §3): `(name, N, encoded)`. `N` has no leading zero, so
/// `*01` is not a section (tc2231 `attfncontlz`).
fn section(name: &str) -> Option<(&str, usize, bool)> {
    let (rest, encoded) = match name.strip_suffix('*') {
        Some(r) => (r, true),
        None => (name, false),
    };
    let star = rest.rfind('*')?;
    let base = rest.get(..star)?;
    let digits = rest.get(star + 1..)?.as_bytes();
    if base.is_empty() || digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if digits.len() > 1 && digits[0] == b'0' {
        return None;
    }
    let mut n = 0usize;
    for &d in digits {
        n = n.saturating_mul(10).saturating_add(usize::from(d - b'0'));
    }
    Some((base, n, encoded))
}

/// Iterator over the parameters of a [`ContentDisposition`]; see
/// [`ContentDisposition::params`].
///
/// ```
/// use reqparse::disposition::ContentDisposition;
/// let cd = ContentDisposition::parse_str("inline; a=1", Default::default())?;
/// let mut it = cd.params();
/// assert_eq!(it.next().map(|p| p.name()), Some("a"));
/// assert!(it.next().is_none());
/// # Ok::<(), reqparse::disposition::DispositionError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Params<'a> {
    header: &'a str,
    pos: usize,
    left: usize,
    profile: Profile,
}

impl<'a> Iterator for Params<'a> {
    type Item = Param<'a>;

    fn next(&mut self) -> Option<Param<'a>> {
        if self.left == 0 {
            return None;
        }
        let step = match self.profile {
            Profile::Browser => browser_next(self.header.as_bytes(), self.header, self.pos)
                .ok()
                .flatten(),
            _ => grammar_next(self.header.as_bytes(), self.header, self.pos, self.profile)
                .ok()
                .flatten(),
        };
        match step {
            Some((p, next)) => {
                self.pos = next;
                self.left -= 1;
                Some(p)
            }
            None => {
                self.left = 0;
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

// ---------------------------------------------------------------------------------------
// Strict and DotNet: the RFC 6266 §4.1 grammar,
//   disposition-type *( OWS ";" OWS disposition-parm )
//   disposition-parm = token BWS "=" BWS ( token / quoted-string )
// A `;` must be followed by a parameter: `*( ";" disp-ext-parm )` has no empty element, so a
// trailing `;` (tc2231 `attwithasciifilenamenqs`) and `; ;` (`attemptyparam`) are errors.
// Whitespace around `=` is allowed (tc2231 `attwithasciifilenamews1`, RFC 6266 §5's
// `FILENAME= "an example.html"`), as is OWS around the whole value.

fn parse_grammar<'a>(
    h: &[u8],
    text: &'a str,
    profile: Profile,
) -> Result<ContentDisposition<'a>, DispositionError> {
    use DispositionErrorKind as K;
    let start = skip(h, 0, WS);
    let end = skip(h, start, TCHAR);
    if end == start {
        return Err(match h.get(start) {
            Some(b'"') => err(K::QuotedType, start),
            Some(&c) if c >= 0x80 => err(K::NonAscii, start),
            _ => err(K::MissingType, start),
        });
    }
    if h.get(end) == Some(&b'=') {
        // `filename=foo.html`: a parameter where the type should be (tc2231 attmissingdisposition).
        return Err(err(K::MissingType, start));
    }
    let kind = sub(text, start, end)?;
    let mut seen = Seen::new();
    let mut found = Found::default();
    let mut pos = end;
    let mut count = 0;
    while let Some((p, next)) = grammar_next(h, text, pos, profile)? {
        if count == MAX_PARAMS {
            return Err(err(K::TooManyParameters, p.offset));
        }
        if profile == Profile::Strict {
            let sectioned = p.name.bytes().any(|c| c == b'*');
            if let Some((_, n, _)) = section(p.name).filter(|_| sectioned) {
                if n >= MAX_SECTIONS {
                    return Err(err(K::SectionLimit, p.offset));
                }
            }
            seen.insert(text.as_bytes(), p.name, p.offset)?;
        }
        found.note(p);
        count += 1;
        pos = next;
    }
    Ok(ContentDisposition {
        header: text,
        kind,
        params_at: end,
        count,
        profile,
        found,
    })
}

/// What comes after a value (or the type) when it is not `;`.
fn after_value_error(h: &[u8], value_end: usize, pos: usize) -> DispositionError {
    use DispositionErrorKind as K;
    match h.get(pos) {
        Some(b',') => err(K::Comma, pos),
        Some(&c) if c >= 0x80 => err(K::NonAscii, pos),
        Some(&c) if pos > value_end && (is(c, TCHAR) || c == b'"') => err(K::TokenWithSpace, pos),
        _ => err(K::UnexpectedChar, pos),
    }
}

/// One `OWS ";" OWS parameter` step starting at `pos` (just after the type or a value).
/// `Ok(None)` at the end of the header.
fn grammar_next<'a>(
    h: &[u8],
    text: &'a str,
    pos: usize,
    profile: Profile,
) -> Result<Option<(Param<'a>, usize)>, DispositionError> {
    use DispositionErrorKind as K;
    let mut at = skip(h, pos, WS);
    match h.get(at) {
        None => return Ok(None),
        Some(b';') => {}
        Some(_) => return Err(after_value_error(h, pos, at)),
    }
    let semi = at;
    at = skip(h, at + 1, WS);
    let name_start = at;
    at = skip(h, at, TCHAR);
    if at == name_start {
        return Err(match h.get(at) {
            None => err(K::TrailingSemicolon, semi),
            Some(b';') => err(K::EmptyParameter, at),
            Some(&c) if c >= 0x80 => err(K::NonAscii, at),
            Some(_) => err(K::InvalidName, at),
        });
    }
    let name = sub(text, name_start, at)?;
    let name_end = at;
    at = skip(h, at, WS);
    if h.get(at) != Some(&b'=') {
        // ASP.NET keeps `name` without a value (NameValueHeaderValue with a null value).
        if profile == Profile::DotNet && matches!(h.get(at), None | Some(b';')) {
            let p = Param {
                name,
                raw: "",
                quoting: Quoting::Token,
                offset: name_start,
            };
            return Ok(Some((p, name_end)));
        }
        return Err(match h.get(at) {
            Some(&c) if at == name_end && c >= 0x80 => err(K::NonAscii, at),
            Some(&c) if at == name_end && !matches!(c, b';' | b',') => err(K::UnexpectedChar, at),
            _ => err(K::MissingEquals, at),
        });
    }
    at = skip(h, at + 1, WS);
    let value_start = at;
    let quoting = if h.get(at) == Some(&b'"') {
        let (end, escaped) = quoted_end(h, at, profile)?;
        at = end;
        Quoting::Quoted { escaped }
    } else {
        at = skip(h, at, TCHAR);
        if at == value_start {
            return Err(match h.get(at) {
                Some(&c) if c >= 0x80 => err(K::NonAscii, at),
                _ => err(K::MissingValue, at),
            });
        }
        Quoting::Token
    };
    let raw = sub(text, value_start, at)?;
    Ok(Some((
        Param {
            name,
            raw,
            quoting,
            offset: name_start,
        },
        at,
    )))
}

/// The end (one past the closing `"`) of the quoted string opening at `open`.
fn quoted_end(h: &[u8], open: usize, profile: Profile) -> Result<(usize, bool), DispositionError> {
    use DispositionErrorKind as K;
    let mut at = open + 1;
    let mut escaped = false;
    loop {
        at = skip(h, at, QDTEXT);
        match h.get(at) {
            None => return Err(err(K::UnterminatedQuote, open)),
            Some(b'"') => return Ok((at + 1, escaped)),
            Some(b'\\') => {
                escaped = true;
                match h.get(at + 1) {
                    None => return Err(err(K::UnterminatedQuote, open)),
                    // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
                    Some(&c)
                        if profile == Profile::Strict
                            && !(c == b'\t' || (0x20..0x7F).contains(&c)) =>
                    {
                        return Err(if c >= 0x80 {
                            err(K::NonAscii, at + 1)
                        } else {
                            err(K::InvalidQuotedChar, at + 1)
                        });
                    }
                    Some(_) => at += 2,
                }
            }
            Some(&c) if profile == Profile::Strict => {
                return Err(if c >= 0x80 {
                    err(K::NonAscii, at)
                } else {
                    err(K::InvalidQuotedChar, at)
                });
            }
            // .NET's quoted-string takes any character but `"` (sub() checks UTF-8 later).
            Some(_) => at += 1,
        }
    }
}

/// Duplicate detection in linear time: a 256-bit filter over a hash of the lowercased name,
/// and an exact (case-insensitive) compare only with the earlier names of the same hash.
/// At most [`MAX_PARAMS`] entries, on the stack.
struct Seen {
    filter: [u64; 4],
    names: [(u16, u16, u8); MAX_PARAMS],
    len: usize,
}

impl Seen {
    fn new() -> Self {
        Seen {
            filter: [0; 4],
            names: [(0, 0, 0); MAX_PARAMS],
            len: 0,
        }
    }

    fn insert(&mut self, h: &[u8], name: &str, offset: usize) -> Result<(), DispositionError> {
        let mut x: u32 = 0x811C_9DC5;
        for b in name.bytes() {
            x = (x ^ u32::from(b.to_ascii_lowercase())).wrapping_mul(0x0100_0193);
        }
        let hash = (x ^ (x >> 8) ^ (x >> 16) ^ (x >> 24)) as u8;
        let (word, bit) = (usize::from(hash >> 6), 1u64 << (hash & 63));
        if self.filter.get(word).is_some_and(|w| w & bit != 0) {
            for &(start, len, hh) in self.names.get(..self.len).unwrap_or(&[]) {
                let earlier = h.get(usize::from(start)..usize::from(start) + usize::from(len));
                if hh == hash && earlier.is_some_and(|e| e.eq_ignore_ascii_case(name.as_bytes())) {
                    return Err(err(DispositionErrorKind::DuplicateParameter, offset));
                }
            }
        }
        if let Some(w) = self.filter.get_mut(word) {
            *w |= bit;
        }
        // Offsets fit in u16: the header is at most MAX_HEADER_LEN (16 KiB) long.
        if let Some(slot) = self.names.get_mut(self.len) {
            *slot = (offset as u16, name.len() as u16, hash);
            self.len += 1;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Browser: Chromium's HttpContentDisposition::Parse over HttpUtil::NameValuePairsIterator.
// The type is the text before the first `;` if it is a token; parameters are `;`-separated
// values (a `;` inside quotes does not split, `\` escapes inside quotes), empty ones skipped,
// and reading stops at the first value without `=`, with an empty name, or with a quote
// before its `=`.

fn parse_browser(h: &[u8]) -> Result<ContentDisposition<'_>, DispositionError> {
    let s = core::str::from_utf8(h)
        .map_err(|e| err(DispositionErrorKind::InvalidUtf8, e.valid_up_to()))?;
    let b = s.as_bytes();
    let semi = memchr::memchr(b';', b).unwrap_or(b.len());
    let (t0, t1) = trim_lws(b, 0, semi);
    let (kind, params_at) = match b.get(t0..t1) {
        Some(t) if is_token(t) => (s.get(t0..t1).unwrap_or("inline"), t1),
        _ => ("inline", 0),
    };
    let mut count = 0;
    let mut found = Found::default();
    let mut pos = params_at;
    while let Some((p, next)) = browser_next(h, s, pos)? {
        if count == MAX_PARAMS {
            return Err(err(DispositionErrorKind::TooManyParameters, p.offset));
        }
        found.note(p);
        count += 1;
        pos = next;
    }
    Ok(ContentDisposition {
        header: s,
        kind,
        params_at,
        count,
        profile: Profile::Browser,
        found,
    })
}

fn trim_lws(b: &[u8], mut from: usize, mut to: usize) -> (usize, usize) {
    while from < to && b.get(from).is_some_and(|&c| is(c, WS)) {
        from += 1;
    }
    while to > from && b.get(to - 1).is_some_and(|&c| is(c, WS)) {
        to -= 1;
    }
    (from, to)
}

/// End of the `;`-delimited value starting at `pos`, honouring quotes.
fn browser_value_end(b: &[u8], mut pos: usize) -> usize {
    let mut quoted = false;
    while let Some(&c) = b.get(pos) {
        match c {
            b'"' => quoted = !quoted,
            b'\\' if quoted => pos += 1,
            b';' if !quoted => return pos,
            _ => {}
        }
        pos += 1;
    }
    b.len()
}

fn browser_next<'a>(
    h: &[u8],
    text: &'a str,
    mut pos: usize,
) -> Result<Option<(Param<'a>, usize)>, DispositionError> {
    loop {
        if pos >= h.len() {
            return Ok(None);
        }
        if h.get(pos) == Some(&b';') {
            pos += 1;
        }
        let end = browser_value_end(h, pos);
        let (v0, v1) = trim_lws(h, pos, end);
        let next = end;
        if v0 == v1 {
            // Empty values are skipped (ValuesIterator's ignore_empty_values).
            if end >= h.len() {
                return Ok(None);
            }
            pos = end;
            continue;
        }
        let item = h.get(v0..v1).unwrap_or(&[]);
        let Some(eq) = memchr::memchr(b'=', item) else {
            return Ok(None);
        };
        if eq == 0 || memchr::memchr(b'"', item.get(..eq).unwrap_or(&[])).is_some() {
            return Ok(None);
        }
        let (n0, n1) = trim_lws(h, v0, v0 + eq);
        let (r0, r1) = trim_lws(h, v0 + eq + 1, v1);
        let name = sub(text, n0, n1)?;
        let raw = sub(text, r0, r1)?;
        let rb = raw.as_bytes();
        let quoting = match rb.first() {
            Some(b'"') if rb.len() > 1 && rb.last() == Some(&b'"') => Quoting::Quoted {
                escaped: memchr::memchr(b'\\', rb).is_some(),
            },
            Some(b'"') => Quoting::Unbalanced,
            _ => Quoting::Token,
        };
        return Ok(Some((
            Param {
                name,
                raw,
                quoting,
                offset: n0,
            },
            next,
        )));
    }
}
