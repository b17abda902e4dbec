//! Building and splitting absolute URIs the way ASP.NET Core's `UriHelper` does, with one
//! exactly sized allocation per built URI.
//!
//! - [`build_absolute`] / [`build_relative`]: `BuildAbsolute` / `BuildRelative`. The output
//!   length is computed first, then written into one `String::with_capacity(len)`; no temporary
//!   strings, no reallocation.
//! - [`split_absolute`]: `FromAbsolute`. Borrows from the input; only a path with escapes to
//!   decode allocates (once).
//!
//! `query` and `fragment` travel *with* their leading `?` / `#`, like .NET's `QueryString` and
//! `FragmentString`, and are empty when absent.
//!
//! Where .NET is lenient and we are strict (each pinned by `tests/vectors/uri.json`):
//! - the scheme must match RFC 3986 §3.1 (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`);
//! - an empty host, a host byte outside RFC 3986 `reg-name`, and a port that is empty, not
//!   decimal, 0 or above 65535 are errors (.NET copies them through);
//! - a bare IPv6 address always gets brackets (.NET only brackets it on the IDN path), and
//!   its zone delimiter becomes `%25` (RFC 6874 §2).
//!
//! Where .NET throws and we cannot (the builders' inputs are plain strings): a non-empty
//! `path_base`/`path` without its leading `/` gets one, and a non-empty query (fragment)
//! without its `?` (`#`) gets one.
//!
//! Three files: this one (errors, byte classes, the builders), `host.rs` (the host argument:
//! reg-names, IP literals, port, IDNA) and `split.rs` ([`split_absolute`] and path decoding).
//! Paths are escaped by the percent toolbox's `PATH` encode set (`src/percent.rs`).
#![forbid(unsafe_code)]

use alloc::string::String;
use core::fmt;

use crate::bytes::{set, set_range, str_slice};
use crate::percent::{self, encode_into, encoded_len};

pub(crate) mod host;
mod split;

pub use split::{split_absolute, Parts};

use host::{parse_host, IdnScratch};

// ---------------------------------------------------------------------------------------------
// Byte classes
// ---------------------------------------------------------------------------------------------

// What a path keeps (RFC 3986 §3.3 `pchar` and `/`) is the percent toolbox's `PATH` set, the
// one encoder every module shares; these classes are for checking, not for escaping.

/// May follow the first letter of a scheme (RFC 3986 §3.1).
const SCHEME: u8 = 1 << 0;
/// RFC 3986 §3.2.2 `reg-name` bytes other than `%` (unreserved / sub-delims).
pub(crate) const REG_NAME: u8 = 1 << 1;
/// Inside a bare IPv6 address (RFC 3986 §3.2.2 `IPv6address`, IPv4 tail included).
const IPV6: u8 = 1 << 2;
/// RFC 3986 §2.3 unreserved: what an RFC 6874 zone id may hold unescaped.
const UNRESERVED: u8 = 1 << 3;
/// After the `.` of an RFC 3986 §3.2.2 `IPvFuture`: unreserved / sub-delims / `:`.
pub(crate) const IPV_FUTURE: u8 = 1 << 4;

const fn classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let all_names = SCHEME | REG_NAME | UNRESERVED | IPV_FUTURE;
    // ALPHA, DIGIT: everywhere a name may go.
    set_range(&mut t, b'a', b'z', all_names);
    set_range(&mut t, b'A', b'Z', all_names);
    set_range(&mut t, b'0', b'9', all_names | IPV6);
    // HEXDIG letters also spell IPv6 groups.
    set_range(&mut t, b'a', b'f', IPV6);
    set_range(&mut t, b'A', b'F', IPV6);
    // unreserved punctuation `-` `.` `_` `~`; `.` also ends an IPv4 tail, `+` `-` `.` are
    // scheme characters.
    set(&mut t, b"-._~", REG_NAME | UNRESERVED | IPV_FUTURE);
    set(&mut t, b"+-.", SCHEME);
    set(&mut t, b".", IPV6);
    // sub-delims `!` `$` `&` `'` `(` `)` `*` `+` `,` `;` `=`.
    set(&mut t, b"!$&'()*+,;=", REG_NAME | IPV_FUTURE);
    // `:` separates IPv6 groups and may follow an IPvFuture's `.`.
    set(&mut t, b":", IPV6 | IPV_FUTURE);
    // Everything else (controls, space, `"` `#` `%` `/` `<` `>` `?` `@` `[` `\` `]` `^` `` ` ``
    // `{` `|` `}`, DEL and every non-ASCII byte) is in no class.
    t
}

static CLASS: [u8; 256] = classes();

#[inline]
pub(crate) fn is(b: u8, class: u8) -> bool {
    crate::bytes::row(&CLASS, b) & class != 0
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// What went wrong; [`UriError::offset`] says where.
///
/// ```
/// use reqparse::uri::{split_absolute, UriErrorKind};
/// let err = split_absolute("example.com/x").unwrap_err();
/// assert_eq!(err.kind, UriErrorKind::MissingSchemeDelimiter);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UriErrorKind {
    /// The scheme is empty or has a byte outside RFC 3986 §3.1.
    InvalidScheme,
    /// `split_absolute`: the scheme is not followed by `://`.
    MissingSchemeDelimiter,
    /// `build_absolute`: the host (before any port) is empty; `split_absolute`: the same for
    /// the host after any userinfo, so what one refuses the other refuses too.
    EmptyHost,
    /// `build_absolute`: a host byte outside RFC 3986 §3.2.2 (or an unclosed `[`).
    InvalidHost,
    /// `build_absolute`: the Unicode host is rejected by UTS #46 ToASCII or its result breaks
    /// the DNS length limits (63 per label, 253 in all).
    InvalidIdnHost,
    /// `build_absolute`: a non-ASCII host while the `idna` feature is off.
    IdnaDisabled,
    /// `build_absolute`: the port is empty or not decimal.
    InvalidPort,
    /// `build_absolute`: the port is 0 or above 65535.
    PortOutOfRange,
    /// `split_absolute`: the path holds `%00`, which ASP.NET Core refuses too.
    NulInPath,
    /// `build_absolute`: the output would not fit in `usize`.
    TooLong,
}

impl UriErrorKind {
    fn describe(self) -> &'static str {
        match self {
            Self::InvalidScheme => "invalid scheme",
            Self::MissingSchemeDelimiter => "missing \"://\" after the scheme",
            Self::EmptyHost => "empty host",
            Self::InvalidHost => "invalid host",
            Self::InvalidIdnHost => "invalid internationalized host",
            Self::IdnaDisabled => "non-ASCII host without the `idna` feature",
            Self::InvalidPort => "invalid port",
            Self::PortOutOfRange => "port out of range 1-65535",
            Self::NulInPath => "%00 in the path",
            Self::TooLong => "URI too long",
        }
    }
}

/// A URI that cannot be built or split.
///
/// `offset` is a byte offset into the `split_absolute` input, or, for `build_absolute`, into
/// the argument the kind names (the scheme or the host).
///
/// ```
/// use reqparse::uri::{build_absolute, UriErrorKind};
/// let err = build_absolute("https", "example.com:0", "", "", "", "").unwrap_err();
/// assert_eq!((err.kind, err.offset), (UriErrorKind::PortOutOfRange, 12));
/// assert_eq!(err.to_string(), "port out of range 1-65535 at byte 12");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UriError {
    /// What went wrong.
    pub kind: UriErrorKind,
    /// Where (see the type's documentation for which string).
    pub offset: usize,
}

impl UriError {
    pub(super) const fn new(kind: UriErrorKind, offset: usize) -> Self {
        Self { kind, offset }
    }
}

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.describe(), self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UriError {}
// ---------------------------------------------------------------------------------------------
// Paths, query, fragment: length first, then write
// ---------------------------------------------------------------------------------------------

/// A path argument as written: its text (maybe without its trailing `/`, see [`Paths::new`]),
/// whether it needs the leading `/` it lacks, and its escaped length (slash excluded).
#[derive(Clone, Copy)]
struct PathPart<'a> {
    text: &'a str,
    add_slash: bool,
    escaped_len: usize,
}

impl<'a> PathPart<'a> {
    /// `add_slash` is judged on the argument before any trailing `/` is dropped.
    fn new(arg: &str, text: &'a str) -> Option<Self> {
        Some(Self {
            text,
            add_slash: !arg.is_empty() && !arg.starts_with('/'),
            escaped_len: encoded_len(text.as_bytes(), &percent::PATH)?,
        })
    }

    fn len(self) -> Option<usize> {
        self.escaped_len.checked_add(usize::from(self.add_slash))
    }

    fn write(self, out: &mut String) {
        if self.add_slash {
            out.push('/');
        }
        // Most paths need no escape at all: one copy then.
        if self.escaped_len == self.text.len() {
            out.push_str(self.text);
        } else {
            encode_into(self.text, &percent::PATH, out);
        }
    }
}

/// The path_base and path as written: `/` when both are empty, one `/` dropped between them.
#[derive(Clone, Copy)]
struct Paths<'a> {
    base: PathPart<'a>,
    path: PathPart<'a>,
}

impl<'a> Paths<'a> {
    /// `None` only if an escaped length overflows `usize`.
    fn new(path_base: &'a str, path: &'a str) -> Option<Self> {
        // Every non-empty path is written with a leading `/`, so a base ending in `/` (one we
        // add to a "/"-less base included) gives its own up.
        let base_text = match path_base.strip_suffix('/') {
            Some(stripped) if !path.is_empty() => stripped,
            _ => path_base,
        };
        Some(Self {
            base: PathPart::new(path_base, base_text)?,
            path: PathPart::new(path, path)?,
        })
    }

    fn is_empty(self) -> bool {
        self.base.text.is_empty() && self.path.text.is_empty()
    }

    fn len(self) -> Option<usize> {
        if self.is_empty() {
            return Some(1);
        }
        self.base.len()?.checked_add(self.path.len()?)
    }

    fn write(self, out: &mut String) {
        if self.is_empty() {
            out.push('/');
            return;
        }
        self.base.write(out);
        self.path.write(out);
    }
}

/// The sum of the parts' lengths; `None` if one of them or the sum overflows `usize`.
fn total(parts: &[Option<usize>]) -> Option<usize> {
    parts
        .iter()
        .try_fold(0usize, |sum, &part| sum.checked_add(part?))
}

/// A query or fragment with its leading mark (`?` / `#`) added when missing.
fn mark_len(s: &str, mark: char) -> usize {
    usize::from(!s.is_empty() && !s.starts_with(mark))
}

/// A query as written: `?` added when missing, and `#` (the only byte that would end it
/// early) escaped as `%23`.
#[derive(Clone, Copy)]
struct Query<'a> {
    text: &'a str,
    hashes: usize,
}

impl<'a> Query<'a> {
    fn new(text: &'a str) -> Self {
        let hashes = text.bytes().filter(|&b| b == b'#').count();
        Self { text, hashes }
    }

    fn len(self) -> Option<usize> {
        self.text
            .len()
            .checked_add(self.hashes.checked_mul(2)?)?
            .checked_add(mark_len(self.text, '?'))
    }

    fn write(self, out: &mut String) {
        if self.text.is_empty() {
            return;
        }
        if mark_len(self.text, '?') == 1 {
            out.push('?');
        }
        let mut rest = self.text;
        for _ in 0..self.hashes {
            let Some(i) = memchr::memchr(b'#', rest.as_bytes()) else {
                break;
            };
            // `#` is ASCII, so both sides of it are char boundaries.
            out.push_str(str_slice(rest, ..i));
            out.push_str(percent::escape(b'#'));
            rest = str_slice(rest, i + 1..);
        }
        out.push_str(rest);
    }
}

fn fragment_len(f: &str) -> Option<usize> {
    f.len().checked_add(mark_len(f, '#'))
}

fn write_fragment(out: &mut String, f: &str) {
    if f.is_empty() {
        return;
    }
    if mark_len(f, '#') == 1 {
        out.push('#');
    }
    out.push_str(f);
}

/// The relative URI (`BuildRelative`): path_base + path (or `/`), query, fragment.
///
/// The length is computed first and the output written into one allocation of exactly that
/// size. Paths keep valid `%XX` escapes and `pchar`/`/`; every other byte becomes uppercase
/// `%XX` of its UTF-8 bytes. The query escapes only `#`; the fragment is copied as is. A
/// non-empty part missing its leading `/`, `?` or `#` gets one.
///
/// An output longer than `usize::MAX` bytes cannot be allocated and aborts like any failed
/// allocation (see [`alloc::alloc::handle_alloc_error`]).
///
/// ```
/// use reqparse::uri::build_relative;
/// assert_eq!(build_relative("", "", "", ""), "/");
/// assert_eq!(build_relative("/base/", "/a b", "?x=#1", "#top"), "/base/a%20b?x=%231#top");
/// ```
pub fn build_relative(path_base: &str, path: &str, query: &str, fragment: &str) -> String {
    let paths = Paths::new(path_base, path);
    let query = Query::new(query);
    let len = paths.and_then(|p| total(&[p.len(), query.len(), fragment_len(fragment)]));
    let (Some(paths), Some(len)) = (paths, len) else {
        alloc::alloc::handle_alloc_error(core::alloc::Layout::new::<u8>());
    };
    let mut out = String::with_capacity(len);
    paths.write(&mut out);
    query.write(&mut out);
    write_fragment(&mut out, fragment);
    debug_assert_eq!(out.len(), len);
    out
}

// ---------------------------------------------------------------------------------------------
// Scheme
// ---------------------------------------------------------------------------------------------

/// Offset of the first byte that keeps `s` from being an RFC 3986 scheme, if any.
fn scheme_error(s: &[u8]) -> Option<usize> {
    match s.first() {
        Some(b) if b.is_ascii_alphabetic() => s.iter().position(|&b| !is(b, SCHEME)),
        _ => Some(0),
    }
}

/// The absolute URI (`BuildAbsolute`): `scheme://host` + [`build_relative`]'s output.
///
/// The host is checked and normalised: a Unicode host becomes punycode by UTS #46 ToASCII
/// (feature `idna`), keeping its port (`bücher.example:8080` → `xn--bcher-kva.example:8080`);
/// a bare IPv6 address gets brackets; an ASCII host keeps its case, as .NET's
/// `HostString.ToUriComponent` does. The length is computed first and the output written into
/// one allocation of exactly that size (with the Unicode-host path, UTS #46 itself needs no
/// heap for hosts of DNS size).
///
/// # Errors
/// An invalid scheme, an empty or invalid host, a Unicode host UTS #46 rejects, a non-decimal
/// port or a port of 0 or above 65535 (see [`UriErrorKind`]).
///
/// ```
/// use reqparse::uri::build_absolute;
/// assert_eq!(build_absolute("https", "localhost", "", "", "", "").unwrap(), "https://localhost/");
/// assert_eq!(
///     build_absolute("http", "bücher.example:8080", "/b", "/ä", "?q=1", "").unwrap(),
///     "http://xn--bcher-kva.example:8080/b/%C3%A4?q=1"
/// );
/// assert_eq!(build_absolute("http", "::1", "", "/", "", "").unwrap(), "http://[::1]/");
/// ```
pub fn build_absolute(
    scheme: &str,
    host: &str,
    path_base: &str,
    path: &str,
    query: &str,
    fragment: &str,
) -> Result<String, UriError> {
    if let Some(at) = scheme_error(scheme.as_bytes()) {
        return Err(UriError::new(UriErrorKind::InvalidScheme, at));
    }
    let mut scratch = IdnScratch::default();
    let host = parse_host(host, &mut scratch)?;
    let paths = Paths::new(path_base, path).ok_or(UriError::new(UriErrorKind::TooLong, 0))?;
    let query = Query::new(query);
    let len = total(&[
        Some(scheme.len()),
        Some("://".len()),
        host.len(),
        paths.len(),
        query.len(),
        fragment_len(fragment),
    ])
    .ok_or(UriError::new(UriErrorKind::TooLong, 0))?;
    let mut out = String::with_capacity(len);
    out.push_str(scheme);
    out.push_str("://");
    host.write(&mut out);
    paths.write(&mut out);
    query.write(&mut out);
    write_fragment(&mut out, fragment);
    debug_assert_eq!(out.len(), len);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every class, byte by byte, against the RFC 3986 §2.2/§2.3/§3 sets spelled out.
    #[test]
    fn byte_classes_are_the_rfc_3986_sets() {
        const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let unreserved = [ALNUM, "-._~"].concat();
        let sub_delims = "!$&'()*+,;=";
        let table: [(&str, u8, String); 5] = [
            ("§3.1 scheme", SCHEME, [ALNUM, "+-."].concat()),
            (
                "§3.2.2 reg-name",
                REG_NAME,
                [&unreserved, sub_delims].concat(),
            ),
            (
                "§3.2.2 IPv6address",
                IPV6,
                "0123456789abcdefABCDEF:.".into(),
            ),
            ("§2.3 unreserved", UNRESERVED, unreserved.clone()),
            (
                "§3.2.2 IPvFuture",
                IPV_FUTURE,
                [&unreserved, sub_delims, ":"].concat(),
            ),
        ];
        for (name, class, members) in &table {
            for b in 0..=255u8 {
                let want = members.as_bytes().contains(&b);
                assert_eq!(is(b, *class), want, "RFC 3986 {name}: byte {b:#04x}");
            }
        }
        // What paths keep is the toolbox's set: §3.3 pchar + '/'.
        let pchar = [&unreserved, sub_delims, ":@/"].concat();
        for b in 0..=255u8 {
            let want = pchar.as_bytes().contains(&b);
            assert_eq!(
                percent::PATH.keeps(b),
                want,
                "RFC 3986 pchar: byte {b:#04x}"
            );
        }
    }
}
