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

const fn set(t: &mut [u8; 256], bytes: &[u8], class: u8) {
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] |= class;
        i += 1;
    }
}

const fn set_range(t: &mut [u8; 256], lo: u8, hi: u8, class: u8) {
    let mut b = lo as usize;
    while b <= hi as usize {
        t[b] |= class;
        b += 1;
    }
}

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

/// Length of `s` once written by [`write_path`]: pchar and valid `%XX` kept, the rest `%XX`.
/// `None` only when the count overflows `usize`.
fn path_len(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut len = bytes.len();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if is(b, PATH) {
            i += 1;
        } else if b == b'%' && escape_at(&bytes[i..]).is_some() {
            i += 3;
        } else {
            // One byte becomes three.
            len = len.checked_add(2)?;
            i += 1;
        }
    }
    Some(len)
}

fn push_escape(out: &mut String, b: u8) {
    out.push('%');
    out.push(char::from(HEX_UPPER[usize::from(b >> 4)]));
    out.push(char::from(HEX_UPPER[usize::from(b & 0xF)]));
}

fn write_path(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if is(b, PATH) {
            i += 1;
            continue;
        }
        if b == b'%' && escape_at(&bytes[i..]).is_some() {
            i += 3;
            continue;
        }
        // `run` and `i` are char boundaries: every byte before `i` is either ASCII (kept or an
        // escape) or part of a multi-byte char that the loop below escaped to its end.
        out.push_str(&s[run..i]);
        push_escape(out, b);
        i += 1;
        run = i;
        // Skip the rest of a multi-byte char here, so `run` never points inside one.
        while let Some(&c) = bytes.get(i) {
            if c & 0xC0 != 0x80 {
                break;
            }
            push_escape(out, c);
            i += 1;
            run = i;
        }
    }
    out.push_str(&s[run..]);
}

/// A path argument as written: its text (maybe without its trailing `/`, see [`Paths::new`])
/// and whether it needs the leading `/` it lacks.
#[derive(Clone, Copy)]
struct PathPart<'a> {
    add_slash: bool,
    text: &'a str,
}

impl<'a> PathPart<'a> {
    fn new(s: &'a str) -> Self {
        Self {
            add_slash: !s.is_empty() && !s.starts_with('/'),
            text: s,
        }
    }

    fn len(self) -> Option<usize> {
        path_len(self.text)?.checked_add(usize::from(self.add_slash))
    }

    fn write(self, out: &mut String) {
        if self.add_slash {
            out.push('/');
        }
        write_path(out, self.text);
    }
}

/// The path_base and path as written: `/` when both are empty, one `/` dropped between them.
#[derive(Clone, Copy)]
struct Paths<'a> {
    base: PathPart<'a>,
    path: PathPart<'a>,
}

impl<'a> Paths<'a> {
    fn new(path_base: &'a str, path: &'a str) -> Self {
        let mut base = PathPart::new(path_base);
        let path = PathPart::new(path);
        if !path.text.is_empty() {
            // Every non-empty path is written with a leading `/`, so a base ending in `/` (the
            // one we add to a bare "/"-less base included) gives one up.
            if let Some(stripped) = base.text.strip_suffix('/') {
                base.text = stripped;
            }
        }
        Self { base, path }
    }

    fn len(self) -> Option<usize> {
        if self.base.text.is_empty() && self.path.text.is_empty() {
            return Some(1);
        }
        self.base.len()?.checked_add(self.path.len()?)
    }

    fn write(self, out: &mut String) {
        if self.base.text.is_empty() && self.path.text.is_empty() {
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

/// Length of the query once `#` became `%23` (the only byte that would end it early).
fn query_len(q: &str) -> Option<usize> {
    let hashes = memchr::memchr_iter(b'#', q.as_bytes()).count();
    q.len()
        .checked_add(hashes.checked_mul(2)?)?
        .checked_add(mark_len(q, '?'))
}

fn write_query(out: &mut String, q: &str) {
    if mark_len(q, '?') == 1 {
        out.push('?');
    }
    let mut run = 0;
    for i in memchr::memchr_iter(b'#', q.as_bytes()) {
        // `#` is ASCII, so both ends are char boundaries.
        out.push_str(&q[run..i]);
        out.push_str("%23");
        run = i + 1;
    }
    out.push_str(&q[run..]);
}

fn fragment_len(f: &str) -> Option<usize> {
    f.len().checked_add(mark_len(f, '#'))
}

fn write_fragment(out: &mut String, f: &str) {
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
    let Some(len) = total(&[paths.len(), query_len(query), fragment_len(fragment)]) else {
        alloc::alloc::handle_alloc_error(core::alloc::Layout::new::<u8>());
    };
    let mut out = String::with_capacity(len);
    paths.write(&mut out);
    write_query(&mut out, query);
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
    /// Copied as is: a reg-name, an IPv4 address, or an already bracketed IP literal.
    Verbatim(&'a str),
    /// `[addr]` or `[addr%25zone]` for a bare IPv6 address (RFC 3986 §3.2.2, RFC 6874 §2).
    Ipv6 {
        addr: &'a str,
        zone: Option<&'a str>,
    },
    /// UTS #46 ToASCII of a Unicode host, `len` bytes long.
    #[cfg(feature = "idna")]
    Idn { name: &'a str, len: usize },
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
            #[cfg(feature = "idna")]
            HostForm::Idn { len, .. } => len,
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
            #[cfg(feature = "idna")]
            HostForm::Idn { name, .. } => idn::write(out, name),
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

fn parse_host(host: &str) -> Result<Host<'_>, UriError> {
    let bytes = host.as_bytes();
    if bytes.is_empty() {
        return Err(UriError::new(UriErrorKind::EmptyHost, 0));
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
        Some(c) => (&host[..c], Some(&host[c + 1..])),
        None => (host, None),
    };
    if name.is_empty() {
        return Err(UriError::new(UriErrorKind::EmptyHost, 0));
    }
    if let (Some(c), Some(port)) = (first_colon, port) {
        check_port(port, c + 1)?;
    }
    let form = if name.is_ascii() {
        invalid_in(name.as_bytes(), REG_NAME, 0)?;
        HostForm::Verbatim(name)
    } else {
        unicode_host(name)?
    };
    Ok(Host { form, port })
}

#[cfg(feature = "idna")]
fn unicode_host(name: &str) -> Result<HostForm<'_>, UriError> {
    match idn::ascii_len(name) {
        Some(len) => Ok(HostForm::Idn { name, len }),
        None => Err(UriError::new(UriErrorKind::InvalidIdnHost, 0)),
    }
}

#[cfg(not(feature = "idna"))]
fn unicode_host(name: &str) -> Result<HostForm<'_>, UriError> {
    let at = name.bytes().position(|b| !b.is_ascii()).unwrap_or(0);
    Err(UriError::new(UriErrorKind::IdnaDisabled, at))
}

/// UTS #46 ToASCII run twice through `core::fmt::Write` sinks: once to count (and check the
/// DNS limits), once straight into the output, so the host costs no string of its own.
#[cfg(feature = "idna")]
mod idn {
    use alloc::string::String;
    use core::fmt;
    use idna::uts46::{AsciiDenyList, ErrorPolicy, Hyphens, ProcessingSuccess, Uts46};

    /// What the count pass learns: the length, and whether the DNS limits hold.
    struct Counter {
        len: usize,
        label: usize,
        bad: bool,
    }

    impl fmt::Write for Counter {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            for b in s.bytes() {
                if b == b'.' {
                    self.bad |= self.label == 0;
                    self.label = 0;
                } else {
                    self.label += 1;
                    self.bad |= self.label > 63;
                }
            }
            self.len += s.len();
            Ok(())
        }
    }

    fn run<W: fmt::Write>(name: &str, sink: &mut W) -> Option<ProcessingSuccess> {
        Uts46::new()
            .process(
                name.as_bytes(),
                // The WHATWG URL forbidden host code points: no `/`, `?`, `#`, `@`... can hide
                // in a mapped host.
                AsciiDenyList::URL,
                Hyphens::Allow,
                ErrorPolicy::FailFast,
                |_, _, _| false,
                sink,
                None,
            )
            .ok()
    }

    /// The ToASCII length, or `None` if UTS #46 or the DNS limits (RFC 1034 §3.1: 63 per
    /// label, 253 in all without the root dot; .NET's `IdnMapping` enforces them too) reject it.
    pub(super) fn ascii_len(name: &str) -> Option<usize> {
        let mut c = Counter {
            len: 0,
            label: 0,
            bad: false,
        };
        // Passthrough means `name` was ASCII, which the caller excluded.
        if run(name, &mut c)? != ProcessingSuccess::WroteToSink {
            return None;
        }
        // Empty labels (`a..b`, `.a`) and labels over 63 bytes are out; one trailing root dot
        // (which left `label` at 0) is allowed and does not count towards the 253.
        if c.bad {
            return None;
        }
        let without_root = if c.label == 0 {
            c.len.checked_sub(1)?
        } else {
            c.len
        };
        if without_root == 0 || without_root > 253 {
            return None;
        }
        Some(c.len)
    }

    pub(super) fn write(out: &mut String, name: &str) {
        // Same input, same output as the count pass, which succeeded.
        let _ = run(name, out);
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
    let host = parse_host(host)?;
    let paths = Paths::new(path_base, path);
    let len = total(&[
        Some(scheme.len()),
        Some("://".len()),
        host.len(),
        paths.len(),
        query_len(query),
        fragment_len(fragment),
    ])
    .ok_or(UriError::new(UriErrorKind::TooLong, 0))?;
    let mut out = String::with_capacity(len);
    out.push_str(scheme);
    out.push_str("://");
    host.write(&mut out);
    paths.write(&mut out);
    write_query(&mut out, query);
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
    /// The whole authority as written: userinfo (as .NET keeps it), host, port.
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

/// How many escapes (consumed) and which bytes a `%XX...` run at the start of `bytes` decodes
/// to: one UTF-8 char, or `Err(consumed)` when the run is kept as written. Mirrors the
/// consumption of ASP.NET Core's `UrlDecoder.DecodeCore`: the lead escape and every
/// continuation escape accepted so far are kept when the sequence fails.
fn decode_char(bytes: &[u8]) -> Result<([u8; 4], usize), usize> {
    let Some(lead) = path_escape(bytes) else {
        // A `%` that is no escape: the `%` alone is copied.
        return Err(1);
    };
    let n = match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        // A continuation byte or F8..FF cannot start a char.
        _ => return Err(3),
    };
    let mut buf = [lead, 0, 0, 0];
    let mut consumed = 3;
    for slot in buf.iter_mut().take(n).skip(1) {
        match bytes.get(consumed..).and_then(path_escape) {
            Some(b) if b & 0xC0 == 0x80 => *slot = b,
            _ => return Err(consumed),
        }
        consumed += 3;
    }
    // Overlong forms, surrogates and values above U+10FFFF fail here, as they fail .NET's
    // `expectValueMin` and `Rune.TryCreate` checks.
    match core::str::from_utf8(&buf[..n]) {
        Ok(_) => Ok((buf, n)),
        Err(_) => Err(consumed),
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
        if escape_at(&bytes[i..]) == Some(0) {
            return Err(UriError::new(UriErrorKind::NulInPath, at + i));
        }
        match decode_char(&bytes[i..]) {
            Err(kept) => i += kept,
            Ok((buf, n)) => {
                let s = out.get_or_insert_with(|| String::with_capacity(path.len()));
                // `copied` and `i` are at `%` bytes or just past an escape run: char boundaries.
                s.push_str(&path[copied..i]);
                // `decode_char` checked `buf[..n]` is UTF-8.
                if let Ok(c) = core::str::from_utf8(&buf[..n]) {
                    s.push_str(c);
                }
                i += 3 * n;
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
