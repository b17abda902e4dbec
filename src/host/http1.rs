//! HTTP/1.1 request heads: parsing with limits (each limit maps to a status code) and the few
//! responses the shim writes.
//!
//! The head is parsed by `httparse` straight out of the loop's scratch buffer; this module adds
//! what httparse leaves to the server: the request-line and header-size limits, the one valid
//! `Host` (RFC 9112 §3.2), the body's framing decided once (RFC 9112 §6.3: chunked or one
//! `Content-Length`, anything ambiguous refused), `Expect`, and the keep-alive decision.

use core::mem::MaybeUninit;

use super::Limits;
use crate::uri;

/// The most header slots the parser keeps on the stack; `Limits::max_headers` may not exceed it.
pub const MAX_HEADERS_CAP: usize = 256;

/// Why a request head was refused; each maps to the status the shim answers before closing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadError {
    /// Malformed request line or header, a missing, repeated or invalid `Host`, an ambiguous
    /// framing (RFC 9112 §6.3: `Transfer-Encoding` with `Content-Length`, a final coding that is
    /// not `chunked`, `Transfer-Encoding` in HTTP/1.0, a bad or conflicting `Content-Length`) → 400.
    BadRequest,
    /// An `Expect` other than `100-continue` (RFC 9110 §10.1.1) → 417.
    ExpectationFailed,
    /// A body larger than `Limits::max_body` → 413.
    PayloadTooLarge,
    /// Request line longer than `Limits::max_request_line` → 414.
    UriTooLong,
    /// Header section over `Limits::max_header_bytes`, or more than `Limits::max_headers` fields → 431.
    HeadersTooLarge,
    /// A transfer coding other than `chunked` before it (RFC 9112 §6.1: the shim decodes no
    /// compression), or `CONNECT` (a 2xx would turn the connection into a tunnel, RFC 9110
    /// §9.3.6) → 501.
    NotImplemented,
}

impl HeadError {
    /// The status code and reason phrase answered for this error.
    ///
    /// ```
    /// use reqparse::host::http1::HeadError;
    /// assert_eq!(HeadError::UriTooLong.status(), (414, "URI Too Long"));
    /// ```
    pub fn status(self) -> (u16, &'static str) {
        match self {
            HeadError::BadRequest => (400, "Bad Request"),
            HeadError::ExpectationFailed => (417, "Expectation Failed"),
            HeadError::PayloadTooLarge => (413, "Content Too Large"),
            HeadError::UriTooLong => (414, "URI Too Long"),
            HeadError::HeadersTooLarge => (431, "Request Header Fields Too Large"),
            HeadError::NotImplemented => (501, "Not Implemented"),
        }
    }
}

impl core::fmt::Display for HeadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (code, reason) = self.status();
        write!(f, "{code} {reason}")
    }
}

impl std::error::Error for HeadError {}

/// A complete, accepted request head, borrowing the bytes it was parsed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head<'b> {
    /// Request method as sent.
    pub method: &'b str,
    /// Request target as sent (origin-form, absolute-form, …).
    pub target: &'b str,
    /// `1` for HTTP/1.1, `0` for HTTP/1.0.
    pub minor_version: u8,
    /// The `Host` header value (`""` for an HTTP/1.0 request without one).
    pub host: &'b str,
    /// How the body is delimited (RFC 9112 §6.3).
    pub framing: Framing,
    /// Whether the connection stays open after the response (RFC 9112 §9.3).
    pub keep_alive: bool,
    /// `Expect: 100-continue` was sent in an HTTP/1.1 request (HTTP/1.0 ignores it, RFC 9110
    /// §10.1.1).
    pub expect_continue: bool,
    /// The first `Content-Disposition` header value, if any.
    pub content_disposition: Option<&'b [u8]>,
    /// The `Content-Type` header value, if any (the last one, as `http` crates read it).
    pub content_type: Option<&'b [u8]>,
    /// The header lines as sent (after the request line, before the empty line); see
    /// [`Head::headers`].
    pub fields: &'b [u8],
    /// Bytes the head took (request line, headers and the empty line).
    pub len: usize,
}

/// How a request's body is delimited, decided once per request by RFC 9112 §6.3.
///
/// ```
/// use reqparse::host::{http1, Limits};
/// let head = http1::parse(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", &Limits::default());
/// assert_eq!(head.unwrap().unwrap().framing, http1::Framing::Chunked);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// No body (neither header, or `Content-Length: 0`).
    None,
    /// Exactly this many bytes (`Content-Length`, more than zero).
    Length(u64),
    /// The chunked transfer coding, decoded by [`crate::body::chunked`].
    Chunked,
}

impl Framing {
    /// Whether a body follows the head.
    ///
    /// ```
    /// use reqparse::host::http1::Framing;
    /// assert!(!Framing::None.has_body() && Framing::Length(1).has_body() && Framing::Chunked.has_body());
    /// ```
    pub fn has_body(self) -> bool {
        self != Framing::None
    }
}

impl<'b> Head<'b> {
    /// The header fields in order, as `(name, value)` with the value's surrounding whitespace
    /// removed. httparse has already checked every line, so this only splits them again.
    ///
    /// ```
    /// use reqparse::host::{http1, Limits};
    /// let head = http1::parse(b"GET / HTTP/1.1\r\nHost: a\r\nX-Id:  7 \r\n\r\n", &Limits::default()).unwrap().unwrap();
    /// let fields: Vec<_> = head.headers().collect();
    /// assert_eq!(fields, [(&b"Host"[..], &b"a"[..]), (&b"X-Id"[..], &b"7"[..])]);
    /// ```
    pub fn headers(&self) -> impl Iterator<Item = (&'b [u8], &'b [u8])> + 'b {
        self.fields.split(|&b| b == b'\n').filter_map(|line| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let colon = memchr::memchr(b':', line)?;
            Some((&line[..colon], line[colon + 1..].trim_ascii()))
        })
    }

    /// The target's path: up to its `?` or `#` (all of an origin-form target without query).
    ///
    /// ```
    /// use reqparse::host::{http1, Limits};
    /// let head = http1::parse(b"GET /a/b?x=1 HTTP/1.1\r\nHost: h\r\n\r\n", &Limits::default()).unwrap().unwrap();
    /// assert_eq!((head.path(), head.query()), ("/a/b", Some("x=1")));
    /// ```
    pub fn path(&self) -> &'b str {
        let end = self.target.find(['?', '#']).unwrap_or(self.target.len());
        &self.target[..end]
    }

    /// The target's query, without its `?` (and without a `#` fragment), if it has one.
    ///
    /// ```
    /// use reqparse::host::{http1, Limits};
    /// let head = http1::parse(b"GET / HTTP/1.1\r\nHost: h\r\n\r\n", &Limits::default()).unwrap().unwrap();
    /// assert_eq!(head.query(), None);
    /// ```
    pub fn query(&self) -> Option<&'b str> {
        let target = self.target.split('#').next().unwrap_or_default();
        target.split_once('?').map(|(_, q)| q)
    }

    /// The first value of the header `name` (compared ignoring ASCII case).
    ///
    /// ```
    /// use reqparse::host::{http1, Limits};
    /// let head = http1::parse(b"GET / HTTP/1.1\r\nHost: a\r\nUser-Agent: curl\r\n\r\n", &Limits::default()).unwrap().unwrap();
    /// assert_eq!(head.header("user-agent"), Some(&b"curl"[..]));
    /// ```
    pub fn header(&self, name: &str) -> Option<&'b [u8]> {
        self.headers()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
            .map(|(_, v)| v)
    }

    /// The request's HTTP version, which decides how a response spells keep-alive.
    ///
    /// ```
    /// use reqparse::host::{http1, Limits};
    /// let head = http1::parse(b"GET / HTTP/1.0\r\n\r\n", &Limits::default()).unwrap().unwrap();
    /// assert_eq!(head.version(), http1::Version::Http10);
    /// ```
    pub fn version(&self) -> Version {
        if self.minor_version >= 1 {
            Version::Http11
        } else {
            Version::Http10
        }
    }
}

/// Whether the connection stays open after a response ([`write_response`] says so in
/// `Connection` when the version needs it).
///
/// ```
/// use reqparse::host::http1::Persistence;
/// assert_ne!(Persistence::KeepAlive, Persistence::Close);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persistence {
    /// The connection stays open for the next request.
    KeepAlive,
    /// The connection closes after this response (`Connection: close`).
    Close,
}

/// The HTTP version of the request a response answers.
///
/// ```
/// use reqparse::host::http1::Version;
/// assert_ne!(Version::Http10, Version::Http11);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// HTTP/1.0: connections close unless `Connection: keep-alive` is said (RFC 9112 §9.3).
    Http10,
    /// HTTP/1.1: connections persist unless `Connection: close` is said.
    Http11,
}

/// Parses one request head from the start of `buf`.
///
/// `Ok(None)` means incomplete and still within the limits: read more.
///
/// ```
/// use reqparse::host::{http1, Limits};
/// let req = b"GET /a?b=c HTTP/1.1\r\nHost: example.com\r\n\r\nnext";
/// let head = http1::parse(req, &Limits::default()).unwrap().unwrap();
/// assert_eq!((head.method, head.target, head.host, head.len), ("GET", "/a?b=c", "example.com", 42));
/// assert_eq!(http1::parse(&req[..20], &Limits::default()), Ok(None));
/// ```
pub fn parse<'b>(buf: &'b [u8], limits: &Limits) -> Result<Option<Head<'b>>, HeadError> {
    // RFC 9112 §2.2: empty lines before the request line are ignored (httparse skips them
    // too), but only a bounded run of them, or a CRLF flood would be buffered forever.
    let start = buf
        .iter()
        .take(limits.max_request_line.saturating_add(1))
        .take_while(|&&b| b == b'\r' || b == b'\n')
        .count();
    if start > limits.max_request_line {
        return Err(HeadError::BadRequest);
    }
    // The request line is bounded before httparse sees it, so a 1 MB target is refused with
    // 414 after max_request_line bytes instead of being buffered to the header limit.
    let rest = &buf[start..];
    let window = &rest[..rest.len().min(limits.max_request_line.saturating_add(2))];
    let line_end = match memchr::memchr(b'\n', window) {
        Some(i) => {
            let line = if i > 0 && window[i - 1] == b'\r' {
                i - 1
            } else {
                i
            };
            if line > limits.max_request_line {
                return Err(HeadError::UriTooLong);
            }
            start + i + 1
        }
        None if window.len() > limits.max_request_line.saturating_add(1) => {
            return Err(HeadError::UriTooLong)
        }
        // No line feed yet, so `rest` is all of the window. httparse still reads the line as
        // far as it goes and reports the first byte that makes it invalid (`\xe3`, a NUL in
        // the method, `HTTP/2`): that is the 400 the complete line would get, answered now
        // rather than when a line feed, the header timeout or the 414 comes. A valid prefix
        // is only incomplete: read more.
        None => {
            return match httparse::Request::new(&mut []).parse(buf) {
                Err(_) => Err(HeadError::BadRequest),
                Ok(_) => Ok(None),
            }
        }
    };
    let mut slots = [MaybeUninit::<httparse::Header<'b>>::uninit(); MAX_HEADERS_CAP];
    let slots = &mut slots[..limits.max_headers.min(MAX_HEADERS_CAP)];
    let mut req = httparse::Request::new(&mut []);
    // On an incomplete header section httparse stops at the first invalid byte as well (a
    // NUL or a space in a name, a control in a value): refused at once, as the request line.
    let len = match req.parse_with_uninit_headers(buf, slots) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => {
            return if buf.len() - line_end > limits.max_header_bytes {
                Err(HeadError::HeadersTooLarge)
            } else {
                Ok(None)
            };
        }
        Err(httparse::Error::TooManyHeaders) => return Err(HeadError::HeadersTooLarge),
        Err(_) => return Err(HeadError::BadRequest),
    };
    // Header bytes excluding the final empty line.
    if len.saturating_sub(line_end).saturating_sub(2) > limits.max_header_bytes {
        return Err(HeadError::HeadersTooLarge);
    }
    let (Some(method), Some(target), Some(minor)) = (req.method, req.path, req.version) else {
        return Err(HeadError::BadRequest);
    };
    if method == "CONNECT" {
        return Err(HeadError::NotImplemented);
    }
    let mut head = Head {
        method,
        target,
        minor_version: minor,
        host: "",
        framing: Framing::None,
        keep_alive: false,
        expect_continue: false,
        content_disposition: None,
        content_type: None,
        fields: &buf[line_end..len.saturating_sub(2).max(line_end)],
        len,
    };
    let mut hosts = 0u32;
    let mut length: Option<u64> = None;
    let mut codings = Codings::None;
    let (mut close, mut keep) = (false, false);
    for h in req.headers.iter() {
        let name = h.name.as_bytes();
        if name.eq_ignore_ascii_case(b"host") {
            hosts += 1;
            if !valid_host(h.value) {
                return Err(HeadError::BadRequest);
            }
            head.host = core::str::from_utf8(h.value).map_err(|_| HeadError::BadRequest)?;
        } else if name.eq_ignore_ascii_case(b"content-length") {
            // RFC 9110 §8.6: a list of identical values may be taken as one; anything else not.
            for value in h.value.split(|&b| b == b',') {
                let n = parse_length(value).ok_or(HeadError::BadRequest)?;
                if length.is_some_and(|l| l != n) {
                    return Err(HeadError::BadRequest);
                }
                length = Some(n);
            }
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            codings = codings.add(h.value)?;
        } else if name.eq_ignore_ascii_case(b"connection") {
            for token in h.value.split(|&b| b == b',') {
                let token = token.trim_ascii();
                close |= token.eq_ignore_ascii_case(b"close");
                keep |= token.eq_ignore_ascii_case(b"keep-alive");
            }
        } else if name.eq_ignore_ascii_case(b"expect") {
            // RFC 9110 §10.1.1: a 1.0 request's Expect is ignored.
            if minor >= 1 {
                if !h.value.trim_ascii().eq_ignore_ascii_case(b"100-continue") {
                    return Err(HeadError::ExpectationFailed);
                }
                head.expect_continue = true;
            }
        } else if name.eq_ignore_ascii_case(b"content-disposition") {
            head.content_disposition = head.content_disposition.or(Some(h.value));
        } else if name.eq_ignore_ascii_case(b"content-type") {
            head.content_type = Some(h.value);
        }
    }
    // RFC 9112 §3.2: a 1.1 request without exactly one Host is a 400.
    if hosts > 1 || (hosts == 0 && minor >= 1) {
        return Err(HeadError::BadRequest);
    }
    head.framing = match (codings, length) {
        (Codings::None, None | Some(0)) => Framing::None,
        (Codings::None, Some(n)) => Framing::Length(n),
        // RFC 9112 §6.1: a 1.0 recipient cannot trust a chunked framing; §6.3 (3): with
        // Content-Length as well it "ought to be handled as an error" — the one way a second
        // request can hide inside a body. Both close the connection after the 400.
        (_, _) if minor == 0 => return Err(HeadError::BadRequest),
        (_, Some(_)) => return Err(HeadError::BadRequest),
        (Codings::Chunked, None) => Framing::Chunked,
        // RFC 9112 §6.3 (4): a request whose final coding is not chunked has no length.
        (Codings::Other, None) => return Err(HeadError::BadRequest),
    };
    // RFC 9112 §9.3: 1.1 persists unless "close"; 1.0 only with "keep-alive".
    head.keep_alive = !close && (minor >= 1 || keep);
    if let Framing::Length(n) = head.framing {
        if n > limits.max_body {
            return Err(HeadError::PayloadTooLarge);
        }
    }
    Ok(Some(head))
}

/// The `Transfer-Encoding` codings seen so far (every field line in order, RFC 9110 §5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Codings {
    None,
    /// `chunked` is the final coding, and the only one.
    Chunked,
    /// Something else is the final coding.
    Other,
}

impl Codings {
    /// Adds one field line's codings. `chunked` anywhere but last, or twice, is a 400 (RFC 9112
    /// §6.1: a sender MUST NOT apply it more than once); another coding before it is a 501, the
    /// shim decodes no compression; a field with no coding at all, or an element that is not a
    /// token, is a 400.
    fn add(mut self, value: &[u8]) -> Result<Codings, HeadError> {
        let mut any = false;
        for coding in value.split(|&b| b == b',') {
            let coding = coding.trim_ascii();
            // RFC 9110 §5.6.1: empty list elements are ignored, but the field is 1#coding.
            if coding.is_empty() {
                continue;
            }
            any = true;
            // Parameters (`;q=…`) belong to the coding before them; only its name matters.
            let name = coding
                .split(|&b| b == b';')
                .next()
                .unwrap_or_default()
                .trim_ascii();
            if name.is_empty() || !name.iter().all(|&b| is_tchar(b)) {
                return Err(HeadError::BadRequest);
            }
            self = match (self, name.eq_ignore_ascii_case(b"chunked")) {
                (Codings::Chunked, _) => return Err(HeadError::BadRequest),
                (Codings::Other, true) => return Err(HeadError::NotImplemented),
                (_, true) => Codings::Chunked,
                (_, false) => Codings::Other,
            };
        }
        if any {
            Ok(self)
        } else {
            Err(HeadError::BadRequest)
        }
    }
}

/// RFC 9110 §5.6.2 `tchar`, from the row every grammar of the core builds its token class
/// with (`crate::bytes::set_tchar`).
static TCHAR: [u8; 256] = {
    let mut t = [0u8; 256];
    crate::bytes::set_tchar(&mut t, 1);
    t
};

/// RFC 9110 §5.6.2 `tchar`.
pub(super) fn is_tchar(b: u8) -> bool {
    TCHAR[usize::from(b)] != 0
}

/// RFC 9112 §3.2: `Host = uri-host [ ":" port ]`, where uri-host is an IP-literal (`[…]`), an
/// IPv4 address or a reg-name (unreserved, pct-encoded, sub-delims); an empty value is allowed
/// (a target without authority). Anything else — a space, `/`, `@`, a bare `%` — is a 400.
/// The byte classes and the `%XX` check are the core's URI grammar (`crate::uri`); the core's
/// own host check (`build_absolute`'s) is stricter than a request's `Host` needs (it parses
/// IPv6 addresses, ranges ports, refuses an empty host), so only its pieces are used here.
fn valid_host(value: &[u8]) -> bool {
    let (host, port) = match value.strip_prefix(b"[") {
        Some(rest) => {
            let Some(close) = memchr::memchr(b']', rest) else {
                return false;
            };
            let literal = &rest[..close];
            // IPv6address / IPvFuture: hex digits, `:`, `.`, and the IPvFuture characters
            // (unreserved, sub-delims and `:`: the core's `IPV_FUTURE` class covers them all).
            if literal.is_empty() || !literal.iter().all(|&b| uri::is(b, uri::IPV_FUTURE)) {
                return false;
            }
            (&[][..], &rest[close + 1..])
        }
        None => match memchr::memrchr(b':', value) {
            Some(colon) => (&value[..colon], &value[colon..]),
            None => (value, &[][..]),
        },
    };
    let port_ok = match port {
        [] => true,
        [b':', digits @ ..] => digits.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    // RFC 3986 §3.2.2 `reg-name` (an IPv4 address is one too): unreserved and sub-delims
    // bytes, and `%XX` escapes.
    port_ok && uri::host::invalid_in(host, uri::REG_NAME, 0).is_ok()
}

/// `Content-Length` is 1*DIGIT (RFC 9110 §8.6); anything else, or an overflow, is refused.
fn parse_length(v: &[u8]) -> Option<u64> {
    let v = v.trim_ascii();
    if v.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for &b in v {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(n)
}

/// Appends a complete response with a JSON body. `Connection` is written only when the default
/// of the request's version is not what happens: `close` for [`Persistence::Close`],
/// `keep-alive` for an HTTP/1.0 connection that stays open.
///
/// ```
/// use reqparse::host::http1::{write_response, Persistence, Version};
/// let mut out = Vec::new();
/// write_response(&mut out, (200, "OK"), b"{}", Persistence::KeepAlive, Version::Http11);
/// assert_eq!(out, b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
/// ```
pub fn write_response(
    out: &mut Vec<u8>,
    status: (u16, &str),
    body: &[u8],
    persistence: Persistence,
    version: Version,
) {
    let (code, reason) = status;
    let mut response = super::Response::new(out, version, persistence, false);
    // The shim's own statuses (200–599, plain reasons) are always accepted.
    let sent = response.send(code, reason, "application/json", body);
    debug_assert!(sent.is_ok(), "{code} {reason}");
}

/// Appends the one-line JSON error body the shim answers with, e.g. `{"error":"431 …"}`.
///
/// ```
/// let mut body = String::new();
/// reqparse::host::http1::error_body(&mut body, "bad \"thing\"");
/// assert_eq!(body, r#"{"error":"bad \"thing\""}"#);
/// ```
pub fn error_body(out: &mut String, message: &str) {
    out.push_str("{\"error\":");
    json_string(out, message);
    out.push('}');
}

// The one JSON string escaper, shared with the inspect answer so every body escapes alike.
pub use crate::inspect::json_string;

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            max_request_line: 32,
            max_header_bytes: 64,
            max_headers: 4,
            max_body: 1000,
            ..Limits::default()
        }
    }

    #[test]
    fn outcomes_table() {
        let long_target = format!("GET /{} HTTP/1.1\r\n", "a".repeat(40));
        let big_header = format!("GET / HTTP/1.1\r\nHost: h\r\nX: {}\r\n\r\n", "v".repeat(60));
        type Fields<'a> = (&'a str, &'a str, &'a str, Framing, bool);
        type Case<'a> = (&'a str, &'a [u8], Result<Option<Fields<'a>>, HeadError>);
        let cases: Vec<Case> = vec![
            (
                "RFC 9112 §3 origin-form",
                b"GET /p?q HTTP/1.1\r\nHost: a\r\n\r\n",
                Ok(Some(("GET", "/p?q", "a", Framing::None, true))),
            ),
            (
                "RFC 9112 §9.3 1.0 closes",
                b"GET / HTTP/1.0\r\n\r\n",
                Ok(Some(("GET", "/", "", Framing::None, false))),
            ),
            (
                "RFC 9112 §9.3 1.0 keep-alive",
                b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
                Ok(Some(("GET", "/", "", Framing::None, true))),
            ),
            (
                "RFC 9112 §9.6 close",
                b"GET / HTTP/1.1\r\nHost: a\r\nConnection: Close\r\n\r\n",
                Ok(Some(("GET", "/", "a", Framing::None, false))),
            ),
            (
                "RFC 9110 §8.6 length",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\n",
                Ok(Some(("POST", "/", "a", Framing::Length(12), true))),
            ),
            (
                "RFC 9110 §8.6 equal repeats",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\ncontent-length: 1\r\n\r\n",
                Ok(Some(("POST", "/", "a", Framing::Length(1), true))),
            ),
            ("partial line", b"GET / HT", Ok(None)),
            ("partial line up to its CR", b"GET / HTTP/1.1\r", Ok(None)),
            ("only empty lines so far", b"\r\n\r\n", Ok(None)),
            ("nothing yet", b"", Ok(None)),
            (
                "partial line invalid from its first byte",
                b"\xe3",
                Err(HeadError::BadRequest),
            ),
            (
                "partial line with a NUL in the method",
                b"G\x00ET / HTTP/1.1\r",
                Err(HeadError::BadRequest),
            ),
            (
                "partial line with a bad version",
                b"GET / HTTP/2",
                Err(HeadError::BadRequest),
            ),
            (
                "partial line with a control in the target",
                b"GET /a\x01",
                Err(HeadError::BadRequest),
            ),
            (
                "partial header name with a NUL",
                b"GET / HTTP/1.1\r\nHo\x00",
                Err(HeadError::BadRequest),
            ),
            (
                "partial header name with a space",
                b"GET / HTTP/1.1\r\nHost: a\r\nX Y",
                Err(HeadError::BadRequest),
            ),
            (
                "partial header name",
                b"GET / HTTP/1.1\r\nHost: a\r\nX-I",
                Ok(None),
            ),
            (
                "RFC 9112 §2.2 leading empty lines",
                b"\r\n\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
                Ok(Some(("GET", "/", "a", Framing::None, true))),
            ),
            ("CRLF flood", &[b'\n'; 40], Err(HeadError::BadRequest)),
            (
                "partial headers",
                b"GET / HTTP/1.1\r\nHost: a\r\n",
                Ok(None),
            ),
            (
                "RFC 9112 §3.2 missing Host",
                b"GET / HTTP/1.1\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9112 §3.2 two Hosts",
                b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9112 §6.3 conflicting lengths",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9110 §8.6 signed length",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "length overflow",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "Kestrel MaxRequestBodySize",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1001\r\n\r\n",
                Err(HeadError::PayloadTooLarge),
            ),
            (
                "RFC 9112 §6.3 (4) chunked",
                b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
                Ok(Some(("POST", "/", "a", Framing::Chunked, true))),
            ),
            (
                "RFC 9110 §5.3 codings over two lines, §5.6.1 empty elements, any case",
                b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: ,\r\nTransfer-Encoding: , CHUNKED\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9110 §5.6.1 empty list elements ignored",
                b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: , CHUNKED\r\n\r\n",
                Ok(Some(("POST", "/", "a", Framing::Chunked, true))),
            ),
            (
                "RFC 9112 §6.3 (3) Transfer-Encoding with Content-Length",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9112 §6.3 (4) final coding not chunked",
                b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9112 §6.1 chunked twice",
                b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9112 §6.1 unknown coding before chunked",
                b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
                Err(HeadError::NotImplemented),
            ),
            (
                "RFC 9112 §6.1 Transfer-Encoding in HTTP/1.0",
                b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "smuggling: a chunked lookalike is not chunked",
                b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9110 §8.6 a list of equal lengths",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\n",
                Ok(Some(("POST", "/", "a", Framing::Length(5), true))),
            ),
            (
                "RFC 9110 §8.6 a list of different lengths",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 6\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9110 §8.6 hex length",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9110 §8.6 negative length",
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9112 §3.2 Host with a space",
                b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9112 §3.2 Host with a path",
                b"GET / HTTP/1.1\r\nHost: x/y\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9112 §3.2 Host with userinfo",
                b"GET / HTTP/1.1\r\nHost: a@evil\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 9112 §3.2 Host with a bad port",
                b"GET / HTTP/1.1\r\nHost: a:8x\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "RFC 3986 §3.2.2 IP-literal Host with port",
                b"GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n",
                Ok(Some(("GET", "/", "[::1]:8080", Framing::None, true))),
            ),
            (
                "RFC 3986 §3.2.2 pct-encoded reg-name",
                b"GET / HTTP/1.1\r\nHost: a%2Db.example\r\n\r\n",
                Ok(Some(("GET", "/", "a%2Db.example", Framing::None, true))),
            ),
            (
                "RFC 9112 §3.2 empty Host",
                b"GET / HTTP/1.1\r\nHost:\r\n\r\n",
                Ok(Some(("GET", "/", "", Framing::None, true))),
            ),
            (
                "RFC 9110 §9.3.6 CONNECT is not served",
                b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
                Err(HeadError::NotImplemented),
            ),
            (
                "RFC 9110 §10.1.1 unknown expectation",
                b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n",
                Err(HeadError::ExpectationFailed),
            ),
            (
                "RFC 9110 §10.1.1 Expect ignored in HTTP/1.0",
                b"POST / HTTP/1.0\r\nExpect: 200-ok\r\n\r\n",
                Ok(Some(("POST", "/", "", Framing::None, false))),
            ),
            (
                "garbage",
                b"\x01\x02 / HTTP/1.1\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "bad version",
                b"GET / HTTP/2.0\r\n\r\n",
                Err(HeadError::BadRequest),
            ),
            (
                "Kestrel MaxRequestLineSize complete",
                long_target.as_bytes(),
                Err(HeadError::UriTooLong),
            ),
            (
                "Kestrel MaxRequestLineSize partial",
                &long_target.as_bytes()[..36],
                Err(HeadError::UriTooLong),
            ),
            (
                "Kestrel MaxRequestHeadersTotalSize",
                big_header.as_bytes(),
                Err(HeadError::HeadersTooLarge),
            ),
            (
                "Kestrel MaxRequestHeadersTotalSize partial",
                &big_header.as_bytes()[..90],
                Err(HeadError::HeadersTooLarge),
            ),
            (
                "Kestrel MaxRequestHeaderCount",
                b"GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 1\r\nC: 1\r\nD: 1\r\n\r\n",
                Err(HeadError::HeadersTooLarge),
            ),
        ];
        for (source, input, expect) in cases {
            let got = parse(input, &limits())
                .map(|o| o.map(|h| (h.method, h.target, h.host, h.framing, h.keep_alive)));
            assert_eq!(got, expect, "{source}");
        }
    }

    #[test]
    fn line_limit_is_exact() {
        // A request line of exactly max_request_line bytes passes, one more is 414.
        for (extra, expect_ok) in [(0usize, true), (1, false)] {
            let target = "x".repeat(32 - "GET / HTTP/1.1".len() + extra);
            let req = format!("GET /{target} HTTP/1.1\r\nHost: a\r\n\r\n");
            assert_eq!(req.find('\r').unwrap(), 33 + extra - 1);
            assert_eq!(
                parse(req.as_bytes(), &limits()).is_ok(),
                expect_ok,
                "extra {extra}"
            );
        }
    }

    #[test]
    fn a_prefix_is_refused_from_the_byte_that_makes_it_invalid() {
        // (complete head, index of the byte that makes it invalid): every prefix that ends
        // before that byte is incomplete, every one that holds it is the complete head's 400.
        let cases: &[(&[u8], usize)] = &[
            (b"\xe3 / HTTP/1.1\r\nHost: a\r\n\r\n", 0),
            (b"G\x00ET / HTTP/1.1\r\nHost: a\r\n\r\n", 1),
            (b"GET /a\x01 HTTP/1.1\r\nHost: a\r\n\r\n", 6),
            (b"GET / HTTP/2.0\r\nHost: a\r\n\r\n", 11),
            (b"GET / HTTP/1.1\rX\nHost: a\r\n\r\n", 15),
            (b"GET / HTTP/1.1\r\nHo\x00st: a\r\n\r\n", 18),
            (b"GET / HTTP/1.1\r\nHost: a\r\nX Y: 1\r\n\r\n", 26),
        ];
        for &(head, bad) in cases {
            assert_eq!(
                parse(head, &limits()),
                Err(HeadError::BadRequest),
                "{head:?}"
            );
            for end in 0..head.len() {
                let expect = if end > bad {
                    Err(HeadError::BadRequest)
                } else {
                    Ok(None)
                };
                let got = parse(&head[..end], &limits()).map(|h| h.map(|h| h.len));
                assert_eq!(got, expect, "{:?}", &head[..end]);
            }
        }
    }

    #[test]
    fn host_and_token_bytes_are_the_rfc_sets() {
        // The classes borrowed from the core, byte by byte, against the RFC's own lists.
        let alnum = |b: u8| b.is_ascii_alphanumeric();
        for b in 0..=255u8 {
            // RFC 9110 §5.6.2 tchar.
            let tchar = alnum(b) || b"!#$%&'*+-.^_`|~".contains(&b);
            assert_eq!(is_tchar(b), tchar, "tchar {b:#04x}");
            // RFC 3986 §3.2.2 reg-name: unreserved and sub-delims (`:` alone is an empty host
            // with an empty port).
            let reg_name = alnum(b) || b"-._~!$&'()*+,;=".contains(&b);
            assert_eq!(valid_host(&[b]), reg_name || b == b':', "reg-name {b:#04x}");
            assert_eq!(valid_host(&[b, b'a']), reg_name, "reg-name {b:#04x}a");
            // Inside `[…]`: hex digits, `:`, `.` and the IPvFuture characters.
            let literal = alnum(b) || b":._~-!$&'()*+,;=".contains(&b);
            assert_eq!(valid_host(&[b'[', b, b']']), literal, "[{b:#04x}]");
            // pct-encoded: `%` and two hex digits.
            for l in 0..=255u8 {
                let hex = b.is_ascii_hexdigit() && l.is_ascii_hexdigit();
                assert_eq!(valid_host(&[b'a', b'%', b, l]), hex, "%{b:#04x}{l:#04x}");
            }
        }
        assert!(!valid_host(b"a%4") && !valid_host(b"a%") && valid_host(b"a%4a:80"));
    }

    #[test]
    fn head_fields() {
        let req = b"POST /up HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Disposition: attachment; filename=a.txt\r\nContent-Length: 3\r\n\r\nabc";
        let h = parse(req, &Limits::default()).unwrap().unwrap();
        assert!(h.expect_continue);
        assert_eq!(
            h.content_disposition,
            Some(&b"attachment; filename=a.txt"[..])
        );
        assert_eq!(h.len, req.len() - 3);
    }

    #[test]
    fn responses() {
        use Persistence::{Close, KeepAlive};
        use Version::{Http10, Http11};
        type Case<'a> = ((u16, &'a str), &'a [u8], Persistence, Version, &'a [u8]);
        let cases: &[Case] = &[
            ((200, "OK"), b"{}", KeepAlive, Http11, b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"),
            ((200, "OK"), b"", KeepAlive, Http10, b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n"),
            ((400, "Bad Request"), b"{}", Close, Http11, b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"),
            ((400, "Bad Request"), b"{}", Close, Http10, b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"),
        ];
        for &(status, body, ka, h11, expect) in cases {
            let mut out = Vec::new();
            write_response(&mut out, status, body, ka, h11);
            assert_eq!(out, expect);
        }
    }
}
