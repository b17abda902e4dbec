//! `Content-Disposition` (RFC 6266) parsing and formatting, with RFC 8187 ext-values, RFC 2231
//! continuations and, on request, RFC 2047 encoded-words.
//!
//! [`ContentDisposition::parse`] validates the whole header and allocates nothing: the type,
//! the parameters and their values are views into the input, and quoted values are unescaped
//! only when asked ([`Param::value`] borrows when there is no `\`). The effective filename
//! ([`ContentDisposition::filename`]) allocates only when something has to be decoded.
//!
//! # Header bytes
//!
//! A header value is bytes, and parsing takes bytes. A quoted string may hold obs-text
//! (0x80-0xFF, RFC 9110 §5.6.4 `qdtext`/`quoted-pair`), which is how browsers send raw UTF-8
//! filenames in multipart bodies (RFC 7578 §4.2) and how older servers send ISO-8859-1 ones
//! (tc2231 `attwithisofnplain`). In every profile, a value that holds such bytes reads as
//! **UTF-8 when its bytes are valid UTF-8, and as ISO-8859-1 otherwise** (each byte the code
//! point of its value); the decision is per value, on the bytes as written. Offsets
//! ([`Param::offset`], [`DispositionError::offset`]) are byte offsets into the input; the
//! bytes themselves stay reachable ([`Param::raw_value_bytes`]); [`Param::is_latin1`] says
//! which reading applied, and [`Param::raw_value`] (a `&str` view) is `""` for a Latin-1
//! value, which has no text as written. Outside a quoted string (the type, names, token
//! values) RFC 9110 allows no obs-text: [`Profile::Strict`] and [`Profile::DotNet`] refuse it
//! with [`DispositionErrorKind::NonAscii`], whose message says what would accept it (quoting
//! the value, or [`Profile::Browser`], which reads unquoted values by the same rule).
//!
//! ```
//! use reqparse::disposition::{ContentDisposition, Profile};
//!
//! // tc2231 attwithfilenamepctandiso: 0xE4 alone is not UTF-8, so it is ISO-8859-1 `ä`.
//! let cd = ContentDisposition::parse(b"attachment; filename=\"\xe4-%41.html\"", Profile::Strict)?;
//! assert_eq!(cd.filename().as_deref(), Some("ä-%41.html"));
//! // A multipart part as browsers send it: raw UTF-8, borrowed.
//! let cd = ContentDisposition::parse(
//!     "form-data; name=\"upload\"; filename=\"résumé 2024 – final.pdf\"".as_bytes(),
//!     Profile::Strict,
//! )?;
//! assert_eq!(cd.filename().as_deref(), Some("résumé 2024 – final.pdf"));
//! # Ok::<(), reqparse::disposition::DispositionError>(())
//! ```
//!
//! # Profiles
//!
//! Three [`Profile`]s decide what is accepted and what the filename is:
//! - [`Profile::Strict`] (default): the RFC 6266 §4.1 grammar (with RFC 9110's obs-text in
//!   quoted strings); any violation is a [`DispositionError`] naming the byte offset.
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
//!
//! [`DispositionBuilder`] writes headers with one allocation, and only headers that
//! [`Profile::Strict`] parses back to the type, filename and parameters it was given: anything
//! else (a name that is not a token, a repeated parameter, a header over a limit) is a
//! [`BuildError`].
//!
//! The grammar of [`Profile::Strict`] and [`Profile::DotNet`] is in `grammar.rs`, Chromium's in
//! `browser.rs`, the effective filename in `filename.rs`; values are decoded by `ext_value.rs`
//! (RFC 8187, RFC 2231), `encoded_word.rs` (RFC 2047) and `charset.rs`.
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

mod browser;
mod build;
mod charset;
mod date;
mod encoded_word;
mod error;
mod ext_value;
mod filename;
mod grammar;
mod kind;
mod owned;

pub use build::{BuildError, DispositionBuilder, MAX_BUILDER_PARAMS};
pub use date::DateTime;
pub use error::{DispositionError, DispositionErrorKind};
pub use filename::FilenameOptions;
pub use kind::DispositionType;
pub use owned::OwnedContentDisposition;

use browser::{browser_next, parse_browser};
use error::err;
use filename::Found;
use grammar::{grammar_next_with, parse_grammar, parse_grammar_with};

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

// Offsets are kept as u16 and counts as u8 (ContentDisposition stays small and cheap to return).
const _: () = assert!(MAX_HEADER_LEN < u16::MAX as usize && MAX_PARAMS < u8::MAX as usize);

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
    /// RFC 6266 §4.1 exactly; bytes above 0x7F only in quoted strings (RFC 9110 obs-text, read
    /// as UTF-8 or else ISO-8859-1); duplicates, missing `=`, commas, stray bytes and a trailing
    /// `;` are errors. RFC 2231 continuations are joined.
    #[default]
    Strict,
    /// Chromium's `net::HttpContentDisposition`: never rejects a header (except for the
    /// limits), stops reading parameters at the first malformed one (and at a name that is not
    /// UTF-8), takes the first non-empty `filename*`/`filename`, %-decodes plain filenames,
    /// treats an ISO-8859-1 `filename*` charset as windows-1252, ignores continuations. Raw
    /// bytes above 0x7F, quoted or not, read as UTF-8 or else ISO-8859-1 (Chromium with a
    /// Latin-1 referrer charset). A missing or malformed type reads as `inline`.
    Browser,
    /// ASP.NET Core's `ContentDispositionHeaderValue`: the RFC grammar but duplicates and
    /// parameters without `=` are kept (the first wins), quoted strings may hold any byte but
    /// `"` (above 0x7F: UTF-8, or else ISO-8859-1),
    /// `filename` is only unquoted (no `\` unescaping), invalid `%` escapes stay literal and
    /// invalid UTF-8 becomes U+FFFD. No continuations.
    DotNet,
}

crate::profile_names!(disposition: Strict => "strict", Browser => "browser", DotNet => "dotnet");

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
    /// A token (ASCII) in Strict and DotNet; UTF-8 in Browser (checked while scanning).
    name: &'a [u8],
    raw: &'a [u8],
    quoting: Quoting,
    /// The value holds bytes above 0x7F that are not UTF-8: it reads as ISO-8859-1.
    latin1: bool,
    offset: u32,
}

impl<'a> Param<'a> {
    /// The scanners' constructor (`offset` is below [`MAX_HEADER_LEN`]).
    fn new(name: &'a [u8], raw: &'a [u8], quoting: Quoting, latin1: bool, offset: usize) -> Self {
        Param {
            name,
            raw,
            quoting,
            latin1,
            offset: offset as u32,
        }
    }

    /// The name as written (compare it with `eq_ignore_ascii_case`).
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("inline; FileName=a", Default::default())?;
    /// assert_eq!(cd.params().next().unwrap().name(), "FileName");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn name(&self) -> &'a str {
        // A token, or (Browser) text the scanner checked is UTF-8.
        crate::bytes::as_str(self.name)
    }

    /// The value as written, quotes and escapes included, when it is ASCII or UTF-8.
    ///
    /// A value whose bytes are not UTF-8 (it reads as ISO-8859-1, see [`is_latin1`](Self::is_latin1))
    /// has no `&str` as written: `raw_value()` is then `""`, and
    /// [`raw_value_bytes`](Self::raw_value_bytes) has the bytes, [`value`](Self::value) the text.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str("inline; a=\"x y\"", Default::default())?;
    /// assert_eq!(cd.params().next().unwrap().raw_value(), "\"x y\"");
    /// let cd = ContentDisposition::parse(b"inline; a=\"\xe4\"", Default::default())?;
    /// assert_eq!(cd.params().next().unwrap().raw_value(), "");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn raw_value(&self) -> &'a str {
        if self.latin1 {
            return "";
        }
        crate::bytes::as_str(self.raw)
    }

    /// The value's bytes as written, quotes and escapes included: what the header held,
    /// whatever its encoding.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse(b"inline; a=\"\xe4\"", Default::default())?;
    /// assert_eq!(cd.params().next().unwrap().raw_value_bytes(), b"\"\xe4\"");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn raw_value_bytes(&self) -> &'a [u8] {
        self.raw
    }

    /// Whether the value holds bytes above 0x7F that are not UTF-8, so that it reads as
    /// ISO-8859-1 (each byte the code point of the same number). ASCII and UTF-8 values
    /// answer `false`.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse(b"inline; a=\"\xe4\"; b=\"\xc3\xa4\"", Default::default())?;
    /// let p: Vec<_> = cd.params().map(|p| (p.is_latin1(), p.value().into_owned())).collect();
    /// assert_eq!(p, [(true, "ä".to_string()), (false, "ä".to_string())]);
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn is_latin1(&self) -> bool {
        self.latin1
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
        self.offset as usize
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
        let (inner, escaped) = match self.quoting {
            Quoting::Token => (self.raw, false),
            // The raw value starts with the `"` that made it unbalanced.
            Quoting::Unbalanced => (crate::bytes::slice(self.raw, 1..), false),
            Quoting::Quoted { escaped } => (strip_quotes(self.raw), escaped),
        };
        if self.latin1 {
            return Cow::Owned(latin1(inner, escaped));
        }
        // Checked UTF-8 (or ASCII) while scanning; the quotes cut at ASCII bytes.
        let text = crate::bytes::as_str(inner);
        if escaped {
            Cow::Owned(unescape(text))
        } else {
            Cow::Borrowed(text)
        }
    }

    /// The inside of a quoted value that holds quoted-pairs, when it is ASCII: for a face
    /// that unescapes it into a buffer of its own ([`unescape_ascii`]) rather than through
    /// [`Param::value`]'s allocation and copy (the npm package's answer buffer:
    /// src/faces/js/strings.rs).
    // Only the npm face unescapes into a buffer of its own so far (as src/body/feed.rs).
    #[cfg_attr(not(all(feature = "js", target_arch = "wasm32")), allow(dead_code))]
    pub(crate) fn escaped_ascii(&self) -> Option<&'a [u8]> {
        match self.quoting {
            Quoting::Quoted { escaped: true } if !self.latin1 => {
                let inner = strip_quotes(self.raw);
                inner.is_ascii().then_some(inner)
            }
            _ => None,
        }
    }

    /// The value as text when it is ASCII or UTF-8 (`None` for a Latin-1 value), quotes
    /// included: what the ext-value decoders read.
    fn raw_text(&self) -> Option<&'a str> {
        (!self.latin1).then(|| crate::bytes::as_str(self.raw))
    }
}

fn strip_quotes(raw: &[u8]) -> &[u8] {
    raw.strip_prefix(b"\"")
        .and_then(|r| r.strip_suffix(b"\""))
        .unwrap_or(raw)
}

/// Removes the `\` of every quoted-pair; one allocation. The text between two quoted-pairs is
/// copied whole, not char by char: decoding and re-encoding each char made this 40% of the npm
/// package's time on a 2 KB header of 40 values holding quoted-pairs (js/BENCHMARKS.md,
/// "Measured decisions"). Each `\` is found by a plain byte loop: values are short, and
/// `str::split_once`'s searcher cost more than the loop on them. A `\` ends no char, so each
/// piece is whole chars; a last lone `\` is kept.
fn unescape(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some((before, pair)) = rest
        .bytes()
        .position(|b| b == b'\\')
        .and_then(|at| rest.split_at_checked(at))
    {
        out.push_str(before);
        let mut chars = pair.chars();
        chars.next();
        out.push(chars.next().unwrap_or('\\'));
        rest = chars.as_str();
    }
    out.push_str(rest);
    out
}

/// [`unescape`] of ASCII bytes, appended to `out`: each `\` dropped, the byte after it kept
/// (a last lone `\` too).
#[cfg_attr(not(all(feature = "js", target_arch = "wasm32")), allow(dead_code))]
pub(crate) fn unescape_ascii(inner: &[u8], out: &mut Vec<u8>) {
    let mut rest = inner;
    while let Some((before, pair)) = rest
        .iter()
        .position(|&b| b == b'\\')
        .and_then(|at| rest.split_at_checked(at))
    {
        out.extend_from_slice(before);
        match pair {
            [_, c, after @ ..] => {
                out.push(*c);
                rest = after;
            }
            _ => {
                out.push(b'\\');
                rest = &[];
            }
        }
    }
    out.extend_from_slice(rest);
}

/// ISO-8859-1 bytes as text (each byte the code point of its value), quoted-pairs unescaped
/// when `escaped`; one exactly sized allocation.
fn latin1(inner: &[u8], escaped: bool) -> String {
    let bytes = || {
        let mut it = inner.iter().copied();
        core::iter::from_fn(move || match it.next()? {
            b'\\' if escaped => Some(it.next().unwrap_or(b'\\')),
            c => Some(c),
        })
    };
    let len = bytes().map(|b| if b < 0x80 { 1 } else { 2 }).sum();
    let mut out = String::with_capacity(len);
    out.extend(bytes().map(char::from));
    out
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
    header: &'a [u8],
    /// A token (ASCII), or Browser's `inline`.
    kind: &'a [u8],
    params_at: u16,
    count: u8,
    profile: Profile,
    found: Found,
    /// Read by [`ContentDisposition::parse_form_data`]: `\` literal in quoted strings.
    literal: bool,
    /// Read by [`ContentDisposition::parse_folded`]: folds are whitespace.
    folds: bool,
}

impl<'a> ContentDisposition<'a> {
    /// Parses and validates a header value (without the `Content-Disposition:` name).
    /// Allocates nothing.
    ///
    /// Bytes above 0x7F in a quoted string read as UTF-8, or else ISO-8859-1 (see the
    /// [module docs](self#header-bytes)).
    ///
    /// # Errors
    /// A [`DispositionError`] with the offset of the first offending byte: in Strict any
    /// grammar violation (a byte above 0x7F outside a quoted string among them), in DotNet
    /// the violations it does not forgive, in every profile the limits.
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
            // The two commonest headers of all, whole (as the grammar would read them: a bare
            // token type): one compare instead of the token scan.
            Profile::Strict | Profile::DotNet if header == b"inline" || header == b"attachment" => {
                Ok(Tally::default().finish(header, header, header.len(), profile))
            }
            Profile::Strict | Profile::DotNet => parse_grammar(header, profile),
        }
    }

    /// Parses the `Content-Disposition` of a multipart/form-data part the way browsers write it
    /// (HTML's multipart/form-data encoding: `"` sent as `%22`, CR and LF as `%0D` and `%0A`, a
    /// backslash sent raw, non-ASCII as raw UTF-8): [`Profile::DotNet`]'s grammar, except that
    /// a quoted string ends at the first `"` and a `\` in it is an ordinary character, not a
    /// quoted-pair, so a Windows path keeps its backslashes. Nothing is decoded: `%22` stays
    /// as written. The [`profile`](Self::profile) is `DotNet` (its filename rules apply).
    /// Allocates nothing.
    ///
    /// # Errors
    /// As [`parse`](Self::parse) with [`Profile::DotNet`].
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_form_data(br#"form-data; name="a%22b"; filename="C:\photos\a.jpg""#)?;
    /// assert_eq!(cd.param("name").as_deref(), Some("a%22b"));
    /// assert_eq!(cd.filename().as_deref(), Some(r"C:\photos\a.jpg"));
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn parse_form_data(header: &'a [u8]) -> Result<Self, DispositionError> {
        if header.len() > MAX_HEADER_LEN {
            return Err(err(DispositionErrorKind::TooLong, MAX_HEADER_LEN));
        }
        let mut cd = parse_grammar_with::<true, false>(header, Profile::DotNet)?;
        cd.literal = true;
        Ok(cd)
    }

    /// [`parse`](Self::parse) with [`Profile::DotNet`] of a folded header value (a multipart
    /// part's, which the lenient profile unfolds): a line break (CRLF or LF) followed by SP
    /// or HTAB is whitespace where whitespace may be, and part of a quoted string's value in
    /// one (the caller unfolds such values).
    pub(crate) fn parse_folded(header: &'a [u8]) -> Result<Self, DispositionError> {
        if header.len() > MAX_HEADER_LEN {
            return Err(err(DispositionErrorKind::TooLong, MAX_HEADER_LEN));
        }
        let mut cd = parse_grammar_with::<false, true>(header, Profile::DotNet)?;
        cd.folds = true;
        Ok(cd)
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

    /// The disposition type as written (compare case-insensitively, or use
    /// [`kind`](Self::kind)). In [`Profile::Browser`]
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
        crate::bytes::as_str(self.kind)
    }

    /// The disposition type's bytes as written: [`disposition_type`](Self::disposition_type)
    /// without its UTF-8 check, for a caller that compares them (a multipart part's
    /// `form-data`, once a part).
    pub(crate) fn type_bytes(&self) -> &'a [u8] {
        self.kind
    }

    /// The disposition type for comparing: `inline`, `attachment` and `form-data` in any case
    /// are their [`DispositionType`] variant, any other type is [`DispositionType::Other`] as
    /// written. Its [`as_str`](DispositionType::as_str) is the lowercase name the CLI, the
    /// component and the npm package print for a registered type.
    ///
    /// ```
    /// use reqparse::disposition::{ContentDisposition, DispositionType, Profile};
    /// let cd = ContentDisposition::parse_str("Form-Data; name=a", Profile::Strict)?;
    /// assert_eq!(cd.kind(), DispositionType::FormData);
    /// assert_eq!(cd.kind().as_str(), "form-data");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn kind(&self) -> DispositionType<'a> {
        DispositionType::from_type(self.disposition_type())
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
        self.kind.eq_ignore_ascii_case(b"attachment")
    }

    /// Whether the type is `inline` (any case).
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// assert!(ContentDisposition::parse_str("inline; a=b", Default::default())?.is_inline());
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn is_inline(&self) -> bool {
        self.kind.eq_ignore_ascii_case(b"inline")
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
            pos: usize::from(self.params_at),
            left: usize::from(self.count),
            profile: self.profile,
            literal: self.literal,
            folds: self.folds,
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
        usize::from(self.count)
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
        self.params()
            .find(|p| p.name.eq_ignore_ascii_case(name.as_bytes()))
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
        let bad = err(DispositionErrorKind::InvalidSize, p.offset());
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
        Some(DateTime::parse(&p.value()).ok_or(err(DispositionErrorKind::InvalidDate, p.offset())))
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

/// What both parsers gather while they walk the parameters: how many (at most
/// [`MAX_PARAMS`]) and the filename parameters.
#[derive(Default)]
struct Tally {
    count: u8,
    found: Found,
}

impl Tally {
    /// Counts `p`; the parameter past [`MAX_PARAMS`] is an error at its offset.
    fn add(&mut self, header: &[u8], p: &Param<'_>) -> Result<(), DispositionError> {
        if usize::from(self.count) == MAX_PARAMS {
            return Err(err(DispositionErrorKind::TooManyParameters, p.offset()));
        }
        self.found.note(header, p);
        self.count += 1;
        Ok(())
    }

    /// `params_at` is at most the header's length, below [`MAX_HEADER_LEN`].
    fn finish<'a>(
        self,
        header: &'a [u8],
        kind: &'a [u8],
        params_at: usize,
        profile: Profile,
    ) -> ContentDisposition<'a> {
        ContentDisposition {
            header,
            kind,
            params_at: params_at as u16,
            count: self.count,
            profile,
            found: self.found,
            literal: false,
            folds: false,
        }
    }
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
    header: &'a [u8],
    pos: usize,
    left: usize,
    profile: Profile,
    literal: bool,
    folds: bool,
}

impl<'a> Iterator for Params<'a> {
    type Item = Param<'a>;

    fn next(&mut self) -> Option<Param<'a>> {
        if self.left == 0 {
            return None;
        }
        let step = match self.profile {
            Profile::Browser => browser_next(self.header, self.pos),
            _ if self.literal => {
                grammar_next_with::<true, false>(self.header, self.pos, self.profile)
                    .ok()
                    .flatten()
            }
            _ if self.folds => {
                grammar_next_with::<false, true>(self.header, self.pos, self.profile)
                    .ok()
                    .flatten()
            }
            _ => grammar_next_with::<false, false>(self.header, self.pos, self.profile)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescape_ascii_answers_what_unescape_does() {
        let cases = [
            "",
            "a",
            r#"the \"q\" part"#,
            r"C:\\dir",
            r"end\",
            r"\",
            r"a\bc\\\d",
        ];
        for inner in cases {
            let mut out = Vec::new();
            unescape_ascii(inner.as_bytes(), &mut out);
            assert_eq!(out, unescape(inner).as_bytes(), "{inner:?}");
        }
        let mut out = b"kept ".to_vec();
        unescape_ascii(br#"\"x\""#, &mut out);
        assert_eq!(out, br#"kept "x""#);
    }
}
