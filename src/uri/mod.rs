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
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

use crate::percent::{escape_at, HEX_UPPER};

// ---------------------------------------------------------------------------------------------
// Byte classes
// ---------------------------------------------------------------------------------------------

/// Copied as is in a path: RFC 3986 §3.3 `pchar` minus `pct-encoded`, plus the `/` separator.
const PATH: u8 = 1 << 0;
/// May follow the first letter of a scheme (RFC 3986 §3.1).
const SCHEME: u8 = 1 << 1;
/// RFC 3986 §3.2.2 `reg-name` bytes other than `%` (unreserved / sub-delims).
const REG_NAME: u8 = 1 << 2;
/// Inside a bare IPv6 address (RFC 3986 §3.2.2 `IPv6address`, IPv4 tail included).
const IPV6: u8 = 1 << 3;
/// RFC 3986 §2.3 unreserved: what an RFC 6874 zone id may hold unescaped.
const UNRESERVED: u8 = 1 << 4;
/// After the `.` of an RFC 3986 §3.2.2 `IPvFuture`: unreserved / sub-delims / `:`.
const IPV_FUTURE: u8 = 1 << 5;

use crate::bytes::{set, set_range};

const fn classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let all_names = PATH | SCHEME | REG_NAME | UNRESERVED | IPV_FUTURE;
    // ALPHA, DIGIT: everywhere a name may go.
    set_range(&mut t, b'a', b'z', all_names);
    set_range(&mut t, b'A', b'Z', all_names);
    set_range(&mut t, b'0', b'9', all_names | IPV6);
    // HEXDIG letters also spell IPv6 groups.
    set_range(&mut t, b'a', b'f', IPV6);
    set_range(&mut t, b'A', b'F', IPV6);
    // unreserved punctuation `-` `.` `_` `~`; `.` also ends an IPv4 tail, `+` `-` `.` are
    // scheme characters.
    set(&mut t, b"-._~", PATH | REG_NAME | UNRESERVED | IPV_FUTURE);
    set(&mut t, b"+-.", SCHEME);
    set(&mut t, b".", IPV6);
    // sub-delims `!` `$` `&` `'` `(` `)` `*` `+` `,` `;` `=`.
    set(&mut t, b"!$&'()*+,;=", PATH | REG_NAME | IPV_FUTURE);
    // `:` separates IPv6 groups; `:` and `@` are pchar; `/` separates segments.
    set(&mut t, b":", PATH | IPV6 | IPV_FUTURE);
    set(&mut t, b"@/", PATH);
    // Everything else (controls, space, `"` `#` `%` `<` `>` `?` `[` `\` `]` `^` `` ` `` `{`
    // `|` `}`, DEL and every non-ASCII byte) is in no class.
    t
}

static CLASS: [u8; 256] = classes();

#[inline]
fn is(b: u8, class: u8) -> bool {
    CLASS[b as usize] & class != 0
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
    /// `build_absolute`: the host (before any port) is empty.
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
    const fn new(kind: UriErrorKind, offset: usize) -> Self {
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

/// Whether the path byte at `bytes[i]` is copied as is: `pchar`, `/`, or the `%` of a valid
/// escape (whose two hex digits are `pchar` themselves, so every byte can be judged alone).
#[inline]
fn path_keeps(bytes: &[u8], i: usize, b: u8) -> bool {
    is(b, PATH) || (b == b'%' && escape_at(&bytes[i..]).is_some())
}

/// Length of `s` once written by [`write_path`]; `None` only if it overflows `usize`.
fn path_len(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let escaped = (0..bytes.len())
        .zip(bytes)
        .filter(|&(i, &b)| !path_keeps(bytes, i, b))
        .count();
    // Each escaped byte becomes three.
    s.len().checked_add(escaped.checked_mul(2)?)
}

/// `%00%01...%FF`: the escape of byte `b` is `ESCAPES[3 * b..3 * b + 3]`, so writing one is a
/// single 3-byte copy (measured cheaper than three `push`es).
const ESCAPES: &str = {
    const fn table() -> [u8; 768] {
        let mut t = [0u8; 768];
        let mut b = 0;
        while b < 256 {
            t[3 * b] = b'%';
            t[3 * b + 1] = HEX_UPPER[b >> 4];
            t[3 * b + 2] = HEX_UPPER[b & 0xF];
            b += 1;
        }
        t
    }
    const BYTES: [u8; 768] = table();
    // Evaluated at compile time: the table is ASCII, so this never fails at run time.
    match core::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("escape table is ASCII"),
    }
};

fn push_escape(out: &mut String, b: u8) {
    let i = 3 * usize::from(b);
    out.push_str(&ESCAPES[i..i + 3]);
}

fn write_path(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut run = 0; // start of the bytes kept but not yet copied
    for (i, &b) in bytes.iter().enumerate() {
        if path_keeps(bytes, i, b) {
            continue;
        }
        // A non-empty run starts after a kept ASCII byte or after the last byte of an escaped
        // char (every byte of a multi-byte char is escaped), so it lies on char boundaries.
        if run < i {
            out.push_str(&s[run..i]);
        }
        push_escape(out, b);
        run = i + 1;
    }
    if run < bytes.len() {
        out.push_str(&s[run..]);
    }
}

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
            escaped_len: path_len(text)?,
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
            write_path(out, self.text);
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
            out.push_str(&rest[..i]);
            out.push_str("%23");
            rest = &rest[i + 1..];
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
// Scheme and host
// ---------------------------------------------------------------------------------------------

/// Offset of the first byte that keeps `s` from being an RFC 3986 scheme, if any.
fn scheme_error(s: &[u8]) -> Option<usize> {
    match s.first() {
        Some(b) if b.is_ascii_alphabetic() => s.iter().position(|&b| !is(b, SCHEME)),
        _ => Some(0),
    }
}

/// How the host (without its port) is written.
#[derive(Clone, Copy)]
enum HostForm<'a> {
    /// Copied as is: a reg-name, an IPv4 address, an already bracketed IP literal, or the
    /// ToASCII form of a Unicode host.
    Verbatim(&'a str),
    /// `[addr]` or `[addr%25zone]` for a bare IPv6 address (RFC 3986 §3.2.2, RFC 6874 §2).
    Ipv6 {
        addr: &'a str,
        zone: Option<&'a str>,
    },
}

#[derive(Clone, Copy)]
struct Host<'a> {
    form: HostForm<'a>,
    /// The port's digits (without `:`), already checked to be 1..=65535.
    port: Option<&'a str>,
}

impl Host<'_> {
    fn len(self) -> Option<usize> {
        let name = match self.form {
            HostForm::Verbatim(s) => s.len(),
            // `[` + addr + `]`, and `%25` + zone.
            HostForm::Ipv6 { addr, zone } => addr
                .len()
                .checked_add(2)?
                .checked_add(zone.map_or(0, |z| z.len() + 3))?,
        };
        name.checked_add(self.port.map_or(0, |p| p.len() + 1))
    }

    fn write(self, out: &mut String) {
        match self.form {
            HostForm::Verbatim(s) => out.push_str(s),
            HostForm::Ipv6 { addr, zone } => {
                out.push('[');
                out.push_str(addr);
                if let Some(zone) = zone {
                    out.push_str("%25");
                    out.push_str(zone);
                }
                out.push(']');
            }
        }
        if let Some(port) = self.port {
            out.push(':');
            out.push_str(port);
        }
    }
}

/// Checks `port` (the text after `:`, which sits at `at` in the host) is a decimal 1..=65535.
fn check_port(port: &str, at: usize) -> Result<(), UriError> {
    if port.is_empty() {
        return Err(UriError::new(UriErrorKind::InvalidPort, at));
    }
    let mut value: u32 = 0;
    for (i, b) in port.bytes().enumerate() {
        if !b.is_ascii_digit() {
            return Err(UriError::new(UriErrorKind::InvalidPort, at + i));
        }
        value = value * 10 + u32::from(b - b'0');
        if value > 65535 {
            return Err(UriError::new(UriErrorKind::PortOutOfRange, at));
        }
    }
    if value == 0 {
        return Err(UriError::new(UriErrorKind::PortOutOfRange, at));
    }
    Ok(())
}

/// Offset of the first byte of `s` (which starts at `at`) outside `class` and not a valid
/// `%XX` escape.
fn invalid_in(s: &[u8], class: u8, at: usize) -> Result<(), UriError> {
    let mut i = 0;
    while let Some(&b) = s.get(i) {
        if is(b, class) {
            i += 1;
        } else if b == b'%' && escape_at(&s[i..]).is_some() {
            i += 3;
        } else {
            return Err(UriError::new(UriErrorKind::InvalidHost, at + i));
        }
    }
    Ok(())
}

/// Checks an IPv6 address in RFC 4291 §2.2 text form (as `core::net` parses it, IPv4 tail
/// included); `at` is where it starts in the host.
fn check_ipv6(addr: &str, at: usize) -> Result<(), UriError> {
    if let Some(bad) = addr.bytes().position(|b| !is(b, IPV6)) {
        return Err(UriError::new(UriErrorKind::InvalidHost, at + bad));
    }
    match addr.parse::<core::net::Ipv6Addr>() {
        Ok(_) => Ok(()),
        Err(_) => Err(UriError::new(UriErrorKind::InvalidHost, at)),
    }
}

/// Checks an RFC 6874 zone id: non-empty, unreserved bytes, and `%XX` escapes only when it
/// is already in URI form (`in_uri`).
fn check_zone(zone: &str, at: usize, in_uri: bool) -> Result<(), UriError> {
    if zone.is_empty() {
        return Err(UriError::new(UriErrorKind::InvalidHost, at));
    }
    if in_uri {
        return invalid_in(zone.as_bytes(), UNRESERVED, at);
    }
    match zone.bytes().position(|b| !is(b, UNRESERVED)) {
        Some(bad) => Err(UriError::new(UriErrorKind::InvalidHost, at + bad)),
        None => Ok(()),
    }
}

/// Checks the inside of `[...]` (which starts at byte 1 of the host): RFC 3986 §3.2.2
/// `IPvFuture` (`v` HEXDIG... `.` ...), or an IPv6 address with an optional RFC 6874 `%25zone`.
fn check_ip_literal(inner: &str) -> Result<(), UriError> {
    if inner.starts_with(['v', 'V']) {
        return match inner.find('.') {
            Some(dot) if dot > 1 && dot + 1 < inner.len() => {
                if let Some(bad) = inner[1..dot].bytes().position(|b| !b.is_ascii_hexdigit()) {
                    return Err(UriError::new(UriErrorKind::InvalidHost, 2 + bad));
                }
                match inner[dot + 1..].bytes().position(|b| !is(b, IPV_FUTURE)) {
                    Some(bad) => Err(UriError::new(UriErrorKind::InvalidHost, dot + 2 + bad)),
                    None => Ok(()),
                }
            }
            _ => Err(UriError::new(UriErrorKind::InvalidHost, 1)),
        };
    }
    match inner.find("%25") {
        Some(p) => {
            check_ipv6(&inner[..p], 1)?;
            // In a URI the zone's own bytes may be escaped too (RFC 6874 §2 `ZoneID`).
            check_zone(&inner[p + 3..], 1 + p + 3, true)
        }
        None => check_ipv6(inner, 1),
    }
}

/// Checks and splits the host argument; a Unicode host's ToASCII form goes into `scratch`.
fn parse_host<'a>(host: &'a str, scratch: &'a mut IdnScratch) -> Result<Host<'a>, UriError> {
    let bytes = host.as_bytes();
    if bytes.is_empty() {
        return Err(UriError::new(UriErrorKind::EmptyHost, 0));
    }
    // The common case, `localhost` or `example.com`, in one pass.
    if bytes.iter().all(|&b| is(b, REG_NAME)) {
        return Ok(Host {
            form: HostForm::Verbatim(host),
            port: None,
        });
    }

    // `[IP-literal]` with an optional `:port`, kept as written.
    if bytes[0] == b'[' {
        let Some(close) = memchr::memchr(b']', bytes) else {
            return Err(UriError::new(UriErrorKind::InvalidHost, bytes.len()));
        };
        check_ip_literal(&host[1..close])?;
        let port = match bytes.get(close + 1) {
            None => None,
            Some(b':') => {
                let port = &host[close + 2..];
                check_port(port, close + 2)?;
                Some(port)
            }
            Some(_) => return Err(UriError::new(UriErrorKind::InvalidHost, close + 1)),
        };
        return Ok(Host {
            form: HostForm::Verbatim(&host[..=close]),
            port,
        });
    }

    let mut colons = memchr::memchr_iter(b':', bytes);
    let first_colon = colons.next();
    if first_colon.is_some() && colons.next().is_some() {
        // Two colons or more: a bare IPv6 address (the only such host, as .NET reasons too),
        // with an optional `%zone`; it cannot carry a port.
        let (addr, zone) = match memchr::memchr(b'%', bytes) {
            Some(p) => (&host[..p], Some(&host[p + 1..])),
            None => (host, None),
        };
        check_ipv6(addr, 0)?;
        if let Some(zone) = zone {
            check_zone(zone, addr.len() + 1, false)?;
        }
        return Ok(Host {
            form: HostForm::Ipv6 { addr, zone },
            port: None,
        });
    }

    let (name, port) = match first_colon {
        Some(c) => {
            let port = &host[c + 1..];
            check_port(port, c + 1)?;
            (&host[..c], Some(port))
        }
        None => (host, None),
    };
    if name.is_empty() {
        return Err(UriError::new(UriErrorKind::EmptyHost, 0));
    }
    let form = if name.is_ascii() {
        invalid_in(name.as_bytes(), REG_NAME, 0)?;
        HostForm::Verbatim(name)
    } else {
        HostForm::Verbatim(unicode_host(name, scratch)?)
    };
    Ok(Host { form, port })
}

/// Where a Unicode host's ToASCII form is written: on the stack, and only once a Unicode host
/// shows up (`None` until then).
#[cfg(feature = "idna")]
type IdnScratch = Option<idn::AsciiHost>;
#[cfg(not(feature = "idna"))]
type IdnScratch = Option<core::convert::Infallible>;

#[cfg(feature = "idna")]
fn unicode_host<'a>(name: &str, scratch: &'a mut IdnScratch) -> Result<&'a str, UriError> {
    let out = scratch.insert(idn::AsciiHost::new());
    idn::to_ascii(name, out).ok_or(UriError::new(UriErrorKind::InvalidIdnHost, 0))
}

#[cfg(not(feature = "idna"))]
fn unicode_host<'a>(name: &str, _: &'a mut IdnScratch) -> Result<&'a str, UriError> {
    let at = name.bytes().position(|b| !b.is_ascii()).unwrap_or(0);
    Err(UriError::new(UriErrorKind::IdnaDisabled, at))
}

/// UTS #46 ToASCII straight into a fixed stack buffer of DNS size: the host costs no heap
/// (idna itself keeps hosts of DNS size on the stack too), and the output length is known
/// before the URI's one allocation.
#[cfg(feature = "idna")]
mod idn {
    use core::fmt;
    use idna::uts46::{
        verify_dns_length, AsciiDenyList, ErrorPolicy, Hyphens, ProcessingSuccess, Uts46,
    };

    /// The longest host DNS allows: 253 bytes, plus a root dot.
    const MAX: usize = 254;

    /// ToASCII output. Writing past [`MAX`] only marks it too long (such a host is invalid
    /// anyway): the sink must not fail, because idna 1.1 turns a sink error met while writing
    /// punycode into a panic (`unreachable!` in `From<PunycodeEncodeError>`; found by
    /// `fuzz/fuzz_targets/uri.rs`).
    pub(super) struct AsciiHost {
        buf: [u8; MAX],
        len: usize,
        too_long: bool,
    }

    impl AsciiHost {
        pub(super) const fn new() -> Self {
            Self {
                buf: [0; MAX],
                len: 0,
                too_long: false,
            }
        }
    }

    impl fmt::Write for AsciiHost {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let end = self.len + s.len();
            match self.buf.get_mut(self.len..end) {
                Some(slot) => {
                    slot.copy_from_slice(s.as_bytes());
                    self.len = end;
                }
                None => self.too_long = true,
            }
            Ok(())
        }
    }

    /// The ToASCII form of the (non-ASCII) `name`, or `None` if UTS #46 rejects it or it breaks
    /// the DNS limits (RFC 1034 §3.1: 63 bytes per label, 253 in all besides a root dot), which
    /// .NET's `IdnMapping` enforces too.
    pub(super) fn to_ascii<'a>(name: &str, out: &'a mut AsciiHost) -> Option<&'a str> {
        let done = Uts46::new().process(
            name.as_bytes(),
            // The WHATWG URL forbidden host code points: no `/`, `?`, `#`, `@`... can hide in
            // a mapped host.
            AsciiDenyList::URL,
            Hyphens::Allow,
            ErrorPolicy::FailFast,
            |_, _, _| false,
            out,
            None,
        );
        // Passthrough would mean `name` was ASCII, which the caller excluded.
        if done != Ok(ProcessingSuccess::WroteToSink) {
            return None;
        }
        if out.too_long {
            return None;
        }
        let ascii = core::str::from_utf8(out.buf.get(..out.len)?).ok()?;
        verify_dns_length(ascii, true).then_some(ascii)
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

// ---------------------------------------------------------------------------------------------
// Splitting
// ---------------------------------------------------------------------------------------------

/// The parts of an absolute URI, borrowed from it (`UriHelper.FromAbsolute`).
///
/// ```
/// use reqparse::uri::split_absolute;
/// let p = split_absolute("https://user@example.com:8443/a%20b?x=1#top").unwrap();
/// assert_eq!(
///     (p.scheme, p.host, &*p.path, p.query, p.fragment),
///     ("https", "user@example.com:8443", "/a b", "?x=1", "#top")
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Parts<'a> {
    /// Before `://`, as written.
    pub scheme: &'a str,
    /// The whole authority as written: userinfo (as .NET keeps it), host, port. Punycode
    /// stays punycode (.NET's `HostString.FromUriComponent` would decode it, at the price of
    /// an allocation).
    pub host: &'a str,
    /// From the first `/` of the authority's end, percent-decoded as ASP.NET Core's
    /// `PathString.FromUriComponent`: `%2F` and escapes that do not form valid UTF-8 stay as
    /// written; borrowed when nothing was decoded. Empty when absent.
    pub path: Cow<'a, str>,
    /// From the first `?` before the fragment, `?` included; empty when absent.
    pub query: &'a str,
    /// From the first `#`, `#` included; empty when absent.
    pub fragment: &'a str,
}

/// Splits an absolute URI into scheme, host, path (decoded), query and fragment.
///
/// Like .NET's `FromAbsolute`, the fragment starts at the first `#`, the query at the first
/// `?` before it, the path at the first `/` before that, and everything between `://` and the
/// path is the host. Stricter than .NET: the scheme must be RFC 3986 §3.1 and be followed by
/// `://`. Allocates only when the path has an escape to decode, and then once.
///
/// # Errors
/// [`UriErrorKind::InvalidScheme`] / [`UriErrorKind::MissingSchemeDelimiter`] at the first
/// byte that breaks `scheme "://"`, and [`UriErrorKind::NulInPath`] at a `%00` in the path.
///
/// ```
/// use std::borrow::Cow;
/// use reqparse::uri::split_absolute;
/// let p = split_absolute("http://example.com/a%2Fb%C3%A9?q#f").unwrap();
/// assert_eq!(p.path, "/a%2Fbé");
/// assert!(matches!(split_absolute("http://h/x").unwrap().path, Cow::Borrowed(_)));
/// ```
pub fn split_absolute(uri: &str) -> Result<Parts<'_>, UriError> {
    let bytes = uri.as_bytes();
    let scheme_end = match scheme_error(bytes) {
        Some(0) => return Err(UriError::new(UriErrorKind::InvalidScheme, 0)),
        Some(end) => end,
        None => {
            return Err(UriError::new(
                UriErrorKind::MissingSchemeDelimiter,
                bytes.len(),
            ))
        }
    };
    if !bytes[scheme_end..].starts_with(b"://") {
        return Err(UriError::new(
            UriErrorKind::MissingSchemeDelimiter,
            scheme_end,
        ));
    }
    let start = scheme_end + 3;
    let rest = &bytes[start..];
    let mut limit = rest.len();
    let fragment_at = memchr::memchr(b'#', rest).unwrap_or(limit);
    limit = fragment_at;
    let query_at = memchr::memchr(b'?', &rest[..limit]).unwrap_or(limit);
    limit = query_at;
    let path_at = memchr::memchr(b'/', &rest[..limit]).unwrap_or(limit);

    // All four cut points are ASCII bytes or the end, so they are char boundaries.
    let path_start = start + path_at;
    let path = decode_path(&uri[path_start..start + query_at], path_start)?;
    Ok(Parts {
        scheme: &uri[..scheme_end],
        host: &uri[start..path_start],
        path,
        query: &uri[start + query_at..start + fragment_at],
        fragment: &uri[start + fragment_at..],
    })
}

/// An escape's byte, unless it is `%2F`, which stays encoded so that it cannot become a
/// segment separator (ASP.NET Core `UrlDecoder.SkipUnescape`).
fn path_escape(bytes: &[u8]) -> Option<u8> {
    escape_at(bytes).filter(|&b| b != b'/')
}

/// The char a `%XX...` run at the start of `bytes` decodes to and the bytes it took, or
/// `Err(taken)` when those bytes are kept as written. Mirrors ASP.NET Core's
/// `UrlDecoder.DecodeCore`: when a sequence fails, its lead escape and every continuation
/// escape accepted so far are kept, and decoding resumes after them.
fn decode_char(bytes: &[u8]) -> Result<(char, usize), usize> {
    let Some(lead) = path_escape(bytes) else {
        // A `%` that is no escape: the `%` alone is copied.
        return Err(1);
    };
    // (escapes in the char, smallest code point that needs that many, lead's payload bits)
    let (n, min, mut cp) = match lead {
        0x00..=0x7F => return Ok((char::from(lead), 3)),
        0xC0..=0xDF => (2, 0x80, u32::from(lead & 0x1F)),
        0xE0..=0xEF => (3, 0x800, u32::from(lead & 0x0F)),
        0xF0..=0xF7 => (4, 0x1_0000, u32::from(lead & 0x07)),
        // A continuation byte or F8..FF cannot start a char.
        _ => return Err(3),
    };
    let mut taken = 3;
    for _ in 1..n {
        match bytes.get(taken..).and_then(path_escape) {
            Some(b) if b & 0xC0 == 0x80 => cp = cp << 6 | u32::from(b & 0x3F),
            _ => return Err(taken),
        }
        taken += 3;
    }
    // Overlong forms fail .NET's `expectValueMin` check; surrogates and values above
    // U+10FFFF fail its `Rune.TryCreate`, as they fail `char::from_u32` here.
    match char::from_u32(cp) {
        Some(c) if cp >= min => Ok((c, taken)),
        _ => Err(taken),
    }
}

/// Percent-decodes a path as `PathString.FromUriComponent` (non-form `UrlDecoder`) does.
/// `at` is the path's offset in the URI, for errors.
fn decode_path(path: &str, at: usize) -> Result<Cow<'_, str>, UriError> {
    let bytes = path.as_bytes();
    let Some(first) = memchr::memchr(b'%', bytes) else {
        return Ok(Cow::Borrowed(path));
    };
    // `out` stays `None` while every escape so far is kept as written.
    let mut out: Option<String> = None;
    let mut copied = 0; // bytes of `path` already in `out`
    let mut i = first;
    while let Some(skip) = memchr::memchr(b'%', &bytes[i..]) {
        i += skip;
        match decode_char(&bytes[i..]) {
            Err(kept) => i += kept,
            Ok(('\0', _)) => return Err(UriError::new(UriErrorKind::NulInPath, at + i)),
            Ok((c, taken)) => {
                // Decoding only shrinks the text, so the input's length is enough.
                let s = out.get_or_insert_with(|| String::with_capacity(path.len()));
                // `copied` and `i` are at `%` bytes or just past an escape run: char boundaries.
                s.push_str(&path[copied..i]);
                s.push(c);
                i += taken;
                copied = i;
            }
        }
    }
    Ok(match out {
        None => Cow::Borrowed(path),
        Some(mut s) => {
            s.push_str(&path[copied..]);
            Cow::Owned(s)
        }
    })
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
        let table: [(&str, u8, String); 6] = [
            (
                "§3.3 pchar + '/'",
                PATH,
                [&unreserved, sub_delims, ":@/"].concat(),
            ),
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
    }
}
