//! [`split_absolute`]: an absolute URI cut into its parts, borrowed, with the path decoded as
//! ASP.NET Core's `PathString.FromUriComponent` does.
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::string::String;

use super::{scheme_error, UriError, UriErrorKind};
use crate::bytes::{slice, str_slice};
use crate::percent::escape_at;

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
/// `://`, and the host must not be empty: the rule [`build_absolute`](super::build_absolute)
/// applies, so every `Parts` this returns can be built back. Allocates only when the path has
/// an escape to decode, and then once.
///
/// # Errors
/// [`UriErrorKind::InvalidScheme`] / [`UriErrorKind::MissingSchemeDelimiter`] at the first
/// byte that breaks `scheme "://"`, [`UriErrorKind::EmptyHost`] where the host should start
/// when it is empty (nothing, or only userinfo, before the port or path: `https://`,
/// `file:///etc/hosts`, `http://:80/`), and [`UriErrorKind::NulInPath`] at a `%00` in the
/// path.
///
/// ```
/// use std::borrow::Cow;
/// use reqparse::uri::{split_absolute, UriErrorKind};
/// let p = split_absolute("http://example.com/a%2Fb%C3%A9?q#f").unwrap();
/// assert_eq!(p.path, "/a%2Fbé");
/// assert!(matches!(split_absolute("http://h/x").unwrap().path, Cow::Borrowed(_)));
///
/// // An empty host is refused both ways, at the byte where it should start.
/// let e = split_absolute("https://").unwrap_err();
/// assert_eq!((e.kind, e.offset), (UriErrorKind::EmptyHost, 8));
/// assert_eq!(reqparse::uri::build_absolute("https", "", "", "", "", "").unwrap_err().kind, e.kind);
/// assert_eq!(split_absolute("http://user@:80/").unwrap_err().offset, 12);
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
    // `scheme_error` reported an offset within `bytes`.
    if !slice(bytes, scheme_end..).starts_with(b"://") {
        return Err(UriError::new(
            UriErrorKind::MissingSchemeDelimiter,
            scheme_end,
        ));
    }
    let start = scheme_end + 3;
    let rest = slice(bytes, start..);
    let mut limit = rest.len();
    let fragment_at = memchr::memchr(b'#', rest).unwrap_or(limit);
    limit = fragment_at;
    let query_at = memchr::memchr(b'?', slice(rest, ..limit)).unwrap_or(limit);
    limit = query_at;
    let path_at = memchr::memchr(b'/', slice(rest, ..limit)).unwrap_or(limit);
    // The host is what follows any userinfo; empty, or a bare `:port`, is build_absolute's
    // EmptyHost too (an IP literal starts with `[`, so a leading `:` is never part of one).
    let authority = slice(rest, ..path_at);
    let host_at = memchr::memrchr(b'@', authority).map_or(0, |at| at + 1);
    if matches!(authority.get(host_at), None | Some(b':')) {
        return Err(UriError::new(UriErrorKind::EmptyHost, start + host_at));
    }

    // All four cut points are ASCII bytes or the end, so they are char boundaries.
    let path_start = start + path_at;
    let path = decode_path(str_slice(uri, path_start..start + query_at), path_start)?;
    Ok(Parts {
        scheme: str_slice(uri, ..scheme_end),
        host: str_slice(uri, start..path_start),
        path,
        query: str_slice(uri, start + query_at..start + fragment_at),
        fragment: str_slice(uri, start + fragment_at..),
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
    while let Some(skip) = memchr::memchr(b'%', slice(bytes, i..)) {
        i += skip;
        match decode_char(slice(bytes, i..)) {
            Err(kept) => i += kept,
            Ok(('\0', _)) => return Err(UriError::new(UriErrorKind::NulInPath, at + i)),
            Ok((c, taken)) => {
                // Decoding only shrinks the text, so the input's length is enough.
                let s = out.get_or_insert_with(|| String::with_capacity(path.len()));
                // `copied` and `i` are at `%` bytes or just past an escape run: char boundaries.
                s.push_str(str_slice(path, copied..i));
                s.push(c);
                i += taken;
                copied = i;
            }
        }
    }
    Ok(match out {
        None => Cow::Borrowed(path),
        Some(mut s) => {
            s.push_str(str_slice(path, copied..));
            Cow::Owned(s)
        }
    })
}
