//! The host argument of [`build_absolute`](super::build_absolute): a reg-name, an IPv4 or IPv6
//! address, an IP literal (RFC 3986 §3.2.2, RFC 6874 zones), an optional port, and Unicode
//! hosts through UTS #46 ToASCII (feature `idna`). Checked and split once, then measured and
//! written by the builder.
#![forbid(unsafe_code)]

use alloc::string::String;

use super::{is, UriError, UriErrorKind, IPV6, IPV_FUTURE, REG_NAME, UNRESERVED};
use crate::bytes::{slice, str_slice};
use crate::percent::escape_at;

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
pub(super) struct Host<'a> {
    form: HostForm<'a>,
    /// The port's digits (without `:`), already checked to be 1..=65535.
    port: Option<&'a str>,
}

impl Host<'_> {
    pub(super) fn len(self) -> Option<usize> {
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

    pub(super) fn write(self, out: &mut String) {
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
pub(crate) fn invalid_in(s: &[u8], class: u8, at: usize) -> Result<(), UriError> {
    let mut i = 0;
    while let Some(&b) = s.get(i) {
        if is(b, class) {
            i += 1;
        } else if b == b'%' && escape_at(slice(s, i..)).is_some() {
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
                // `v` and `.` are ASCII: character boundaries.
                let version = str_slice(inner, 1..dot);
                if let Some(bad) = version.bytes().position(|b| !b.is_ascii_hexdigit()) {
                    return Err(UriError::new(UriErrorKind::InvalidHost, 2 + bad));
                }
                match str_slice(inner, dot + 1..)
                    .bytes()
                    .position(|b| !is(b, IPV_FUTURE))
                {
                    Some(bad) => Err(UriError::new(UriErrorKind::InvalidHost, dot + 2 + bad)),
                    None => Ok(()),
                }
            }
            _ => Err(UriError::new(UriErrorKind::InvalidHost, 1)),
        };
    }
    match inner.find("%25") {
        Some(p) => {
            // `%25` is ASCII: character boundaries on both sides.
            check_ipv6(str_slice(inner, ..p), 1)?;
            // In a URI the zone's own bytes may be escaped too (RFC 6874 §2 `ZoneID`).
            check_zone(str_slice(inner, p + 3..), 1 + p + 3, true)
        }
        None => check_ipv6(inner, 1),
    }
}

/// Checks and splits the host argument; a Unicode host's ToASCII form goes into `scratch`.
pub(super) fn parse_host<'a>(
    host: &'a str,
    scratch: &'a mut IdnScratch,
) -> Result<Host<'a>, UriError> {
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
    if bytes.first() == Some(&b'[') {
        let Some(close) = memchr::memchr(b']', bytes) else {
            return Err(UriError::new(UriErrorKind::InvalidHost, bytes.len()));
        };
        // `[`, `]` and `:` are ASCII: every cut below is at a character boundary.
        check_ip_literal(str_slice(host, 1..close))?;
        let port = match bytes.get(close + 1) {
            None => None,
            Some(b':') => {
                let port = str_slice(host, close + 2..);
                check_port(port, close + 2)?;
                Some(port)
            }
            Some(_) => return Err(UriError::new(UriErrorKind::InvalidHost, close + 1)),
        };
        return Ok(Host {
            form: HostForm::Verbatim(str_slice(host, ..=close)),
            port,
        });
    }

    let mut colons = memchr::memchr_iter(b':', bytes);
    let first_colon = colons.next();
    if first_colon.is_some() && colons.next().is_some() {
        // Two colons or more: a bare IPv6 address (the only such host, as .NET reasons too),
        // with an optional `%zone`; it cannot carry a port.
        let (addr, zone) = match memchr::memchr(b'%', bytes) {
            // `%` and `:` are ASCII: character boundaries.
            Some(p) => (str_slice(host, ..p), Some(str_slice(host, p + 1..))),
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
            let port = str_slice(host, c + 1..);
            check_port(port, c + 1)?;
            (str_slice(host, ..c), Some(port))
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
pub(super) type IdnScratch = Option<idn::AsciiHost>;
#[cfg(not(feature = "idna"))]
pub(super) type IdnScratch = Option<core::convert::Infallible>;

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
    pub(in crate::uri) struct AsciiHost {
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
