//! The handler API: what the shim runs for each request. `reqparse serve`'s inspection answer
//! is one [`Handler`] ([`Inspect`](super::Inspect)); `examples/upload_hash.rs` is another.
//!
//! A [`Handler`] is shared by the loops; each loop asks it once for its own [`Service`] (state
//! that needs no lock: buffers, a wasm instance). For each request the service gets the head
//! ([`Service::head`]), then every event of the body as it arrives, already through the body
//! readers ([`Service::body`]), then writes the answer ([`Service::respond`]). Nothing waits
//! for the whole body: a 1 GiB upload is a stream of borrowed slices.

use std::io::Write as _;

use super::body::BodyEvent;
use super::http1::{Head, Persistence, Version};

/// Serves requests; shared by every loop of a server (see the module documentation).
///
/// ```
/// use reqparse::host::{BodyEvent, Handler, Head, Reading, Response, Service};
///
/// /// Answers every request with the number of body bytes it had.
/// struct CountBytes;
/// struct Counter;
///
/// impl Handler for CountBytes {
///     type Service = Counter;
///     fn service(&self) -> std::io::Result<Counter> {
///         Ok(Counter)
///     }
/// }
///
/// impl Service for Counter {
///     type Exchange = u64;
///     fn head(&mut self, _head: &Head<'_>) -> (u64, Reading) {
///         (0, Reading::Raw)
///     }
///     fn body(&mut self, count: &mut u64, event: BodyEvent<'_>) {
///         if let BodyEvent::Data(data) = event {
///             *count += data.len() as u64;
///         }
///     }
///     fn respond(&mut self, count: u64, response: &mut Response<'_>) {
///         let body = format!("{count}\n");
///         let _ = response.send(200, "OK", "text/plain", body.as_bytes());
///     }
/// }
///
/// let server = reqparse::host::Server::bind(reqparse::host::Config {
///     addr: "127.0.0.1:0".parse().unwrap(),
///     threads: 1,
///     ..Default::default()
/// })?;
/// server.shutdown_handle().shutdown(); // stop at once: this only shows the types
/// server.run_with(&CountBytes)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait Handler: Sync {
    /// The per-loop service.
    type Service: Service;

    /// Called once on each loop's thread before it serves; an error stops the server.
    fn service(&self) -> std::io::Result<Self::Service>;
}

/// One loop's request handler (see [`Handler`]).
pub trait Service {
    /// What the service keeps for one request while its body arrives.
    type Exchange;

    /// A request head was accepted: the request's state, and how its body is to be read.
    /// Called before the body's first byte is read (an `Expect: 100-continue` is answered
    /// after it returns).
    fn head(&mut self, head: &Head<'_>) -> (Self::Exchange, Reading);

    /// The next event of the body, in order.
    fn body(&mut self, exchange: &mut Self::Exchange, event: BodyEvent<'_>);

    /// The body is over (at once for a request without one): write the answer. A service
    /// that writes none gets a 500 sent for it.
    fn respond(&mut self, exchange: Self::Exchange, response: &mut Response<'_>);
}

/// How a request's body reaches [`Service::body`].
///
/// ```
/// use reqparse::host::Reading;
/// assert_ne!(Reading::Parse, Reading::Raw);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Through the reader its `Content-Type` names: `application/x-www-form-urlencoded` →
    /// [`BodyEvent::Pair`]s, `multipart/form-data` → [`BodyEvent::Part`]s and their data,
    /// anything else → [`BodyEvent::Data`].
    Parse,
    /// As bytes ([`BodyEvent::Data`]), the transfer coding removed.
    Raw,
}

/// Why [`Response::send`] refused to write.
///
/// ```
/// use reqparse::host::ResponseError;
/// assert_eq!(ResponseError::InvalidHeader.to_string(), "response header name or value not allowed");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResponseError {
    /// A status outside 200–599 (1xx are the shim's to send), or a reason phrase with a
    /// control character.
    InvalidStatus,
    /// A header name that is not a token, a value with CR, LF or NUL, or a header the shim
    /// writes itself (`Content-Length`, `Connection`, `Transfer-Encoding`).
    InvalidHeader,
    /// A response was already sent for this request.
    AlreadySent,
}

impl core::fmt::Display for ResponseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            ResponseError::InvalidStatus => "response status or reason not allowed",
            ResponseError::InvalidHeader => "response header name or value not allowed",
            ResponseError::AlreadySent => "a response was already sent",
        })
    }
}

impl std::error::Error for ResponseError {}

/// Writes the answer to one request. The bytes go straight to the socket after
/// [`Service::respond`] returns; only what the kernel does not take waits in pooled segments.
#[derive(Debug)]
pub struct Response<'o> {
    out: &'o mut Vec<u8>,
    version: Version,
    persistence: Persistence,
    /// A `HEAD` request: the same headers, no content (RFC 9110 §9.3.2).
    head_only: bool,
    sent: bool,
}

impl<'o> Response<'o> {
    pub(crate) fn new(
        out: &'o mut Vec<u8>,
        version: Version,
        persistence: Persistence,
        head_only: bool,
    ) -> Response<'o> {
        Response {
            out,
            version,
            persistence,
            head_only,
            sent: false,
        }
    }

    /// Whether a response was sent.
    pub(crate) fn sent(&self) -> bool {
        self.sent
    }

    /// What the connection does after this response.
    pub(crate) fn persistence(&self) -> Persistence {
        self.persistence
    }

    /// Closes the connection after this response (`Connection: close` is written).
    ///
    /// ```
    /// # use reqparse::host::Response;
    /// fn answer(response: &mut Response<'_>) {
    ///     response.close();
    ///     let _ = response.send(403, "Forbidden", "text/plain", b"no\n");
    /// }
    /// ```
    pub fn close(&mut self) {
        self.persistence = Persistence::Close;
    }

    /// Writes a complete response: status line, `Content-Type`, `Content-Length`, the
    /// `Connection` header when needed, and `body`.
    ///
    /// ```
    /// # use reqparse::host::Response;
    /// fn answer(response: &mut Response<'_>) {
    ///     response.send(200, "OK", "text/plain; charset=utf-8", b"hello\n").unwrap();
    /// }
    /// ```
    pub fn send(
        &mut self,
        status: u16,
        reason: &str,
        content_type: &str,
        body: &[u8],
    ) -> Result<(), ResponseError> {
        self.send_with(status, reason, &[("Content-Type", content_type)], body)
    }

    /// [`Response::send`] with any headers (`Content-Length` and `Connection` are the shim's).
    ///
    /// ```
    /// # use reqparse::host::Response;
    /// fn answer(response: &mut Response<'_>) {
    ///     let headers = [("Content-Type", "text/html"), ("Cache-Control", "no-store")];
    ///     response.send_with(200, "OK", &headers, b"<p>hi</p>").unwrap();
    /// }
    /// ```
    pub fn send_with(
        &mut self,
        status: u16,
        reason: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<(), ResponseError> {
        if self.sent {
            return Err(ResponseError::AlreadySent);
        }
        if !(200..=599).contains(&status) || reason.bytes().any(|b| b.is_ascii_control()) {
            return Err(ResponseError::InvalidStatus);
        }
        if !headers.iter().all(|&(n, v)| allowed_header(n, v)) {
            return Err(ResponseError::InvalidHeader);
        }
        // Writing into a Vec cannot fail.
        let _ = write!(self.out, "HTTP/1.1 {status} {reason}\r\n");
        for (name, value) in headers {
            let _ = write!(self.out, "{name}: {value}\r\n");
        }
        let _ = write!(self.out, "Content-Length: {}\r\n", body.len());
        match (self.persistence, self.version) {
            (Persistence::Close, _) => self.out.extend_from_slice(b"Connection: close\r\n"),
            (Persistence::KeepAlive, Version::Http10) => {
                self.out.extend_from_slice(b"Connection: keep-alive\r\n")
            }
            (Persistence::KeepAlive, Version::Http11) => {}
        }
        self.out.extend_from_slice(b"\r\n");
        if !self.head_only {
            self.out.extend_from_slice(body);
        }
        self.sent = true;
        Ok(())
    }
}

/// A header a service may write: a token name the shim does not own, a value without CR, LF
/// or NUL (RFC 9110 §5.5), so no response can be split by what a handler puts in it.
fn allowed_header(name: &str, value: &str) -> bool {
    let owned = ["content-length", "connection", "transfer-encoding"];
    !name.is_empty()
        && name.bytes().all(super::http1::is_tchar)
        && !owned.iter().any(|o| name.eq_ignore_ascii_case(o))
        && !value.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_writing_table() {
        use Persistence::{Close, KeepAlive};
        type Case<'a> = (
            (u16, &'a str, &'a [(&'a str, &'a str)]),
            Persistence,
            Version,
            bool,
            Result<&'a str, ResponseError>,
        );
        let cases: &[Case] = &[
            (
                (200, "OK", &[("Content-Type", "text/plain")]),
                KeepAlive,
                Version::Http11,
                false,
                Ok("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi"),
            ),
            (
                (200, "OK", &[]),
                KeepAlive,
                Version::Http10,
                true,
                Ok("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n"),
            ),
            (
                (404, "Not Found", &[]),
                Close,
                Version::Http11,
                false,
                Ok("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi"),
            ),
            (
                (100, "Continue", &[]),
                KeepAlive,
                Version::Http11,
                false,
                Err(ResponseError::InvalidStatus),
            ),
            (
                (200, "O\r\nK", &[]),
                KeepAlive,
                Version::Http11,
                false,
                Err(ResponseError::InvalidStatus),
            ),
            (
                (200, "OK", &[("X", "a\r\nSet-Cookie: x")]),
                KeepAlive,
                Version::Http11,
                false,
                Err(ResponseError::InvalidHeader),
            ),
            (
                (200, "OK", &[("Content-Length", "9")]),
                KeepAlive,
                Version::Http11,
                false,
                Err(ResponseError::InvalidHeader),
            ),
            (
                (200, "OK", &[("X Y", "1")]),
                KeepAlive,
                Version::Http11,
                false,
                Err(ResponseError::InvalidHeader),
            ),
        ];
        for &((status, reason, headers), persistence, version, head_only, expect) in cases {
            let mut out = Vec::new();
            let mut response = Response::new(&mut out, version, persistence, head_only);
            let got = response.send_with(status, reason, headers, b"hi");
            assert_eq!(got.is_ok(), expect.is_ok(), "{status} {reason}");
            if got.is_ok() {
                assert_eq!(
                    response.send(200, "OK", "x", b""),
                    Err(ResponseError::AlreadySent)
                );
            }
            match expect {
                Ok(text) => assert_eq!(String::from_utf8(out).unwrap(), text),
                Err(e) => assert_eq!((got, out.len()), (Err(e), 0)),
            }
        }
    }
}
