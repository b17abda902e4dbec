//! What `reqparse serve` answers for one request: the request head in, one JSON object out.
//!
//! It is no_std + alloc like the core, so that the native server and the WebAssembly component
//! produce the answer with the very same code: `--engine wasm` is one call into the guest, which
//! runs this function there. It is not part of the core, though: it sits behind the `inspect`
//! feature, which `host`, `component` and `engine-wasm` turn on, so a bare core build carries no
//! JSON.
//!
//! The answer has this shape (keys always present, in this order):
//!
//! ```json
//! {"method":"GET",
//!  "url":"http://localhost:8080/a%20b?x=1",   // uri::build_absolute, or null
//!  "url_error":null,                          // or {"offset":N,"message":"..."}
//!  "path":"/a%20b",                           // as written in the target ("" for
//!                                             // `OPTIONS *` and `CONNECT`, RFC 9112 §3.3)
//!  "query":[["x","1"]],                       // pairs decoded with query::Profile::Whatwg
//!  "query_error":null,                        // first query::Profile::Strict error, or
//!                                             // {"offset":N,"message":"..."}, N counted from the `?`
//!  "content_disposition":null}                // {"type","filename","parameters"} or {"error":{...}}
//! ```
//!
//! The function holds no limit of its own: its input is a request head the caller has already
//! bounded (the host shim's header limits, the component engine's input cap), and the answer
//! grows linearly with it.
#![forbid(unsafe_code)]

use alloc::string::String;
use core::fmt::{self, Write};

use crate::{disposition, query, uri};

/// The parts of a request head that [`inspect`] reads.
///
/// # Example
///
/// ```
/// use reqparse::inspect::RequestHead;
///
/// let head = RequestHead {
///     method: "GET",
///     scheme: "http",
///     host: "localhost:8080",
///     target: "/search?q=rust",
///     content_disposition: None,
/// };
/// assert_eq!(head.target, "/search?q=rust");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestHead<'a> {
    /// The request method as sent (`GET`, `POST`...).
    pub method: &'a str,
    /// The scheme the connection speaks (`http` or `https`).
    pub scheme: &'a str,
    /// The `Host` header: host and optional port.
    pub host: &'a str,
    /// The request target: origin form (`/path?query`) or absolute form (`http://h/p`).
    pub target: &'a str,
    /// The raw `Content-Disposition` header value, if the request had one.
    pub content_disposition: Option<&'a [u8]>,
}

/// Appends to `out` the JSON object describing what reqparse made of `head`.
///
/// Bad input is reported inside the JSON (`url_error`, `query_error`,
/// `content_disposition.error`), never by failing: the server answers every request it could
/// read.
///
/// # Example
///
/// ```
/// use reqparse::inspect::{inspect, RequestHead};
///
/// let head = RequestHead {
///     method: "GET",
///     scheme: "http",
///     host: "localhost",
///     target: "/a?x=1+2&y",
///     content_disposition: Some(b"attachment; filename=\"r.pdf\""),
/// };
/// let mut out = String::new();
/// inspect(&head, &mut out);
/// assert!(out.starts_with(r#"{"method":"GET","url":"http://localhost/a?x=1+2&y","url_error":null,"path":"/a","query":[["x","1 2"],["y",""]],"query_error":null,"#));
/// assert!(out.ends_with(r#""content_disposition":{"type":"attachment","filename":"r.pdf","parameters":[["filename","r.pdf"]]}}"#));
/// ```
pub fn inspect(head: &RequestHead<'_>, out: &mut String) {
    out.push_str("{\"method\":");
    json_string(out, head.method);

    let (scheme, host, path, query_str) = split_target(head);
    out.push_str(",\"url\":");
    match uri::build_absolute(scheme, host, "", path, query_str, "") {
        Ok(url) => {
            json_string(out, &url);
            out.push_str(",\"url_error\":null");
        }
        Err(e) => {
            out.push_str("null,\"url_error\":");
            json_error(out, e.offset, &e);
        }
    }
    out.push_str(",\"path\":");
    json_string(out, path);

    out.push_str(",\"query\":[");
    let mut scratch = String::new();
    let mut strict_error = None;
    for (i, pair) in query::pairs(query_str).enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        scratch.clear();
        // Whatwg decoding never fails: bad bytes become U+FFFD.
        let _ = pair.decode_name_into(query::Profile::Whatwg, &mut scratch);
        json_string(out, &scratch);
        out.push(',');
        scratch.clear();
        let _ = pair.decode_value_into(query::Profile::Whatwg, &mut scratch);
        json_string(out, &scratch);
        out.push(']');
        if strict_error.is_none() {
            scratch.clear();
            strict_error = pair
                .decode_name_into(query::Profile::Strict, &mut scratch)
                .and_then(|()| pair.decode_value_into(query::Profile::Strict, &mut scratch))
                .err();
        }
    }
    out.push_str("],\"query_error\":");
    match strict_error {
        // The offset counts from the start of the query, its `?` included, as the message says.
        Some(e) => json_error(out, e.offset, &e),
        None => out.push_str("null"),
    }

    out.push_str(",\"content_disposition\":");
    match head.content_disposition {
        None => out.push_str("null"),
        Some(value) => disposition_json(out, value),
    }
    out.push('}');
}

/// Scheme, host, path and query (with its `?`) of the target. The connection's scheme and
/// the `Host` header are used unless the target is in absolute form (RFC 9112 §3.2.2), whose
/// own authority wins.
fn split_target<'a>(head: &RequestHead<'a>) -> (&'a str, &'a str, &'a str, &'a str) {
    let (mut scheme, mut host, mut target) = (head.scheme, head.host, head.target);
    // RFC 9112 §3.3: the target URI of asterisk-form (`OPTIONS *`) and authority-form
    // (`CONNECT host:port`) has an empty path; authority-form names the authority itself.
    if target == "*" {
        return (scheme, host, "", "");
    }
    if head.method == "CONNECT" {
        return (scheme, target, "", "");
    }
    if !target.starts_with('/') {
        if let Some(colon) = target.find("://") {
            let rest = &target[colon + 3..];
            let authority_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            scheme = &target[..colon];
            host = &rest[..authority_len];
            target = &rest[authority_len..];
        }
    }
    let target = target.split('#').next().unwrap_or_default();
    match target.find('?') {
        Some(q) => (scheme, host, &target[..q], &target[q..]),
        None => (scheme, host, target, ""),
    }
}

fn disposition_json(out: &mut String, value: &[u8]) {
    let parsed = match disposition::ContentDisposition::parse(value, disposition::Profile::Strict) {
        Ok(parsed) => parsed,
        Err(e) => {
            out.push_str("{\"error\":");
            json_error(out, e.offset, &e);
            out.push('}');
            return;
        }
    };
    out.push_str("{\"type\":");
    json_str_lower(out, parsed.disposition_type());
    out.push_str(",\"filename\":");
    match parsed.filename() {
        Some(name) => json_string(out, &name),
        None => out.push_str("null"),
    }
    out.push_str(",\"parameters\":[");
    for (i, param) in parsed.params().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        json_str_lower(out, param.name());
        out.push(',');
        json_string(out, &param.value());
        out.push(']');
    }
    out.push_str("]}");
}

fn json_error(out: &mut String, offset: usize, message: &dyn fmt::Display) {
    let _ = write!(out, "{{\"offset\":{offset},\"message\":\"");
    let _ = write!(JsonEscaped(out), "{message}");
    out.push_str("\"}");
}

/// Appends `s` to `out` as a JSON string literal (RFC 8259 §7), quotes included.
///
/// `"` and `\` get a backslash; newline, carriage return and tab their short forms (`\n`, `\r`,
/// `\t`); every other control character, U+0000 to U+001F and also DEL (U+007F), becomes
/// `\u00xx`; everything else is copied as it is. JSON does not require escaping DEL, but it is a
/// control character like the others, and an answer that may end up on a terminal or in a log
/// should not carry one raw. This is the one JSON escaper of the crate: the host's error bodies
/// use it too.
///
/// ```
/// let mut out = String::new();
/// reqparse::inspect::json_string(&mut out, "a\"\\\n\u{1}\u{7f}é");
/// assert_eq!(out, r#""a\"\\\n\u0001\u007fé""#);
/// ```
pub fn json_string(out: &mut String, s: &str) {
    out.push('"');
    let _ = JsonEscaped(out).write_str(s);
    out.push('"');
}

fn json_str_lower(out: &mut String, s: &str) {
    out.push('"');
    let start = out.len();
    let _ = JsonEscaped(out).write_str(s);
    out[start..].make_ascii_lowercase();
    out.push('"');
}

/// A `fmt::Write` that escapes what it is given as the inside of a JSON string (RFC 8259 §7).
struct JsonEscaped<'a>(&'a mut String);

impl Write for JsonEscaped<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut plain = 0;
        for (i, b) in s.bytes().enumerate() {
            let escape = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x00..=0x1f | 0x7f => "",
                _ => continue,
            };
            self.0.push_str(&s[plain..i]);
            if escape.is_empty() {
                write!(self.0, "\\u{b:04x}")?;
            } else {
                self.0.push_str(escape);
            }
            plain = i + 1;
        }
        self.0.push_str(&s[plain..]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(target: &str, cd: Option<&[u8]>) -> String {
        let head = RequestHead {
            method: "POST",
            scheme: "http",
            host: "example.com:8080",
            target,
            content_disposition: cd,
        };
        let mut out = String::new();
        inspect(&head, &mut out);
        out
    }

    #[test]
    fn json_escapes_controls_quotes_and_backslashes() {
        let mut out = String::new();
        json_string(&mut out, "a\"b\\c\n\u{1}\u{7f}é");
        assert_eq!(out, r#""a\"b\\c\n\u0001\u007fé""#);
    }

    #[test]
    fn json_escape_of_every_ascii_character() {
        // Every ASCII character alone: controls and DEL as \u00xx (short forms for \n \r \t),
        // `"` and `\` with a backslash, the rest as they are; a few characters past ASCII too.
        for c in (0u8..=0x7f)
            .map(char::from)
            .chain(['\u{80}', 'é', '\u{2028}'])
        {
            let expect = match c {
                '"' => "\\\"".to_string(),
                '\\' => "\\\\".to_string(),
                '\n' => "\\n".to_string(),
                '\r' => "\\r".to_string(),
                '\t' => "\\t".to_string(),
                '\0'..='\u{1f}' | '\u{7f}' => format!("\\u{:04x}", c as u32),
                c => c.to_string(),
            };
            let mut out = String::new();
            json_string(&mut out, &c.to_string());
            assert_eq!(out, format!("\"{expect}\""), "U+{:04X}", c as u32);
        }
        // Runs between escapes are copied whole, and Display input is escaped alike.
        let mut out = String::new();
        json_error(&mut out, 7, &"x\u{7f}y\"z");
        assert_eq!(out, r#"{"offset":7,"message":"x\u007fy\"z"}"#);
    }

    #[test]
    fn strict_query_error_offset_counts_from_the_question_mark() {
        let out = answer("/p?a=%zz", None);
        assert!(
            out.contains(r#""query":[["a","%zz"]],"query_error":{"offset":3,"#),
            "{out}"
        );
    }

    #[test]
    fn absolute_form_target_uses_its_own_authority() {
        let out = answer("http://other.example/x/y?z=1#frag", None);
        assert!(
            out.contains(r#""url":"http://other.example/x/y?z=1""#),
            "{out}"
        );
        assert!(out.contains(r#""path":"/x/y""#), "{out}");
    }

    #[test]
    fn disposition_bytes_are_read_as_sent() {
        // The host passes the header value's bytes: ISO-8859-1 obs-text (tc2231
        // attwithfilenamepctandiso) and raw UTF-8 (a multipart filename) both parse.
        let out = answer("/", Some(b"attachment; filename=\"\xe4-%41.html\""));
        assert!(out.contains(r#""filename":"ä-%41.html""#), "{out}");
        let out = answer(
            "/",
            Some("form-data; name=\"f\"; filename=\"résumé.pdf\"".as_bytes()),
        );
        assert!(out.contains(r#""filename":"résumé.pdf""#), "{out}");
    }

    #[test]
    fn bad_disposition_is_reported_with_its_offset() {
        let out = answer("/", Some(b"attachment; filename"));
        assert!(
            out.contains(r#""content_disposition":{"error":{"offset":"#),
            "{out}"
        );
    }
}
