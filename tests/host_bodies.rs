//! The host shim serving bodies over real loopback sockets: every RFC 9112 §6.3 framing rule
//! (each with a second request hidden in the body that must never be answered), chunked and
//! multipart uploads in one write and in 1-byte writes, `Expect: 100-continue`, form bodies,
//! resets mid-body, and the upload page.
#![cfg(feature = "host")]

mod support;

// The example's handler, run here so the example is tested, not only compiled.
#[allow(dead_code)]
#[path = "../examples/upload_hash.rs"]
mod upload_hash;

use std::time::Duration;

use reqparse::body::multipart::{write, WritePart};
use reqparse::host::{Config, Limits};
use sha2::{Digest, Sha256};
use support::host::{Client, Running};

fn config() -> Config {
    Config {
        threads: 1,
        limits: Limits {
            close_linger: Duration::from_millis(200),
            ..Limits::default()
        },
        ..Config::default()
    }
}

/// A request that hides a second one: if the server ever read the body the wrong way, it would
/// answer `GET /smuggled`.
const SMUGGLED: &str = "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n";

/// Sends `req`, expects one answer with `status` and then the close, never a second answer.
fn refused(server: &Running, source: &str, req: &[u8], status: u16) {
    let mut c = server.connect();
    c.send(req);
    let r = c.response().unwrap_or_else(|e| panic!("{source}: {e}"));
    assert_eq!(r.status, status, "{source}: {}", r.body);
    assert_eq!(r.header("connection"), Some("close"), "{source}");
    assert!(!r.body.contains("smuggled"), "{source}");
    assert!(c.closed_by_server(), "{source}: a second answer followed");
}

#[test]
fn framing_rules_refuse_and_close_before_a_smuggled_request() {
    let server = Running::start(config());
    let te_cl = format!(
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n{SMUGGLED}"
    );
    let cases: Vec<(&str, String, u16)> = vec![
        ("RFC 9112 §6.3 (3) Transfer-Encoding and Content-Length", te_cl),
        (
            "RFC 9112 §6.3 (3) Content-Length before Transfer-Encoding",
            format!("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n5\r\nhello\r\n0\r\n\r\n{SMUGGLED}"),
        ),
        (
            "RFC 9112 §6.3 (4) final coding not chunked",
            format!("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, identity\r\n\r\n{SMUGGLED}"),
        ),
        (
            "RFC 9112 §6.3 (4) only another coding",
            format!("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n{SMUGGLED}"),
        ),
        (
            "RFC 9112 §6.1 Transfer-Encoding in HTTP/1.0",
            format!("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n{SMUGGLED}"),
        ),
        (
            "RFC 9110 §8.6 Content-Length +5",
            format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello{SMUGGLED}"),
        ),
        (
            "RFC 9110 §8.6 Content-Length 0x5",
            format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\nhello{SMUGGLED}"),
        ),
        (
            "RFC 9110 §8.6 Content-Length 5, 6",
            format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 6\r\n\r\nhello{SMUGGLED}"),
        ),
        (
            "RFC 9110 §8.6 Content-Length -1",
            format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n{SMUGGLED}"),
        ),
        (
            "RFC 9110 §8.6 Content-Length overflow",
            format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 18446744073709551616\r\n\r\n{SMUGGLED}"),
        ),
        (
            "RFC 9112 §6.3 (5) two different Content-Length fields",
            format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 0\r\n\r\nhello{SMUGGLED}"),
        ),
        (
            "CVE-2025-55315 a lone LF in a chunk extension",
            format!("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;x\nhello\r\n0\r\n\r\n{SMUGGLED}"),
        ),
        (
            "RFC 9112 §7.1 an empty chunk-size line",
            format!("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\n{SMUGGLED}"),
        ),
        (
            "RFC 9112 §7.1 chunk data without its CRLF",
            format!("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n{SMUGGLED}"),
        ),
        (
            "RFC 9112 §7.1 chunk size overflow",
            format!("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n{SMUGGLED}"),
        ),
    ]
    .into_iter()
    .map(|(source, req)| (source, req, 400))
    .collect();
    for (source, req, status) in &cases {
        refused(&server, source, req.as_bytes(), *status);
    }
    refused(
        &server,
        "RFC 9112 §6.1 a coding the shim does not decode",
        format!("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n{SMUGGLED}").as_bytes(),
        501,
    );
    server.assert_drained();
}

#[test]
fn a_chunked_body_over_max_body_is_413() {
    let server = Running::start(Config {
        limits: Limits {
            max_body: 10,
            ..config().limits
        },
        ..config()
    });
    let req = format!(
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\nworld!\r\n0\r\n\r\n{SMUGGLED}"
    );
    refused(&server, "Limits::max_body over chunks", req.as_bytes(), 413);
    server.assert_drained();
}

fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `body` in chunks of `size` bytes; the large ones carry an extension (small chunks with one
/// each would go over `max_extension_bytes`, as they should).
fn chunked(body: &[u8], size: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let ext = if size >= 1000 { ";ext=\"v\"" } else { "" };
    for chunk in body.chunks(size) {
        out.extend_from_slice(format!("{:x}{ext}\r\n", chunk.len()).as_bytes());
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\nChecksum: x\r\n\r\n");
    out
}

/// A multipart upload: a text field and a file whose data holds near-miss delimiters.
fn upload() -> (Vec<u8>, Vec<u8>) {
    let file: Vec<u8> = (0..20_000u32)
        .flat_map(|i| match i % 997 {
            0 => b"\r\n--boundar".to_vec(),
            1 => b"\r\n-".to_vec(),
            _ => vec![(i % 251) as u8],
        })
        .collect();
    let body = write(
        "boundary42",
        &[
            WritePart {
                name: "note",
                filename: None,
                content_type: None,
                data: b"line one\r\nline two",
            },
            WritePart {
                name: "file",
                filename: Some("résumé 2024.pdf"),
                content_type: Some("application/pdf"),
                data: &file,
            },
        ],
    )
    .unwrap();
    (body, file)
}

fn assert_upload_answer(source: &str, json: &str, file: &[u8], framing: &str) {
    let v: serde_json::Value =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{source}: {e}: {json}"));
    let body = &v["body"];
    assert_eq!(body["framing"], framing, "{source}");
    assert_eq!(body["kind"], "multipart", "{source}");
    assert_eq!(body["error"], serde_json::Value::Null, "{source}: {json}");
    let parts = body["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2, "{source}");
    assert_eq!(parts[0]["name"], "note");
    assert_eq!(parts[0]["value"], "line one\r\nline two");
    assert_eq!(parts[0]["filename"], serde_json::Value::Null);
    assert_eq!(parts[1]["filename"], "résumé 2024.pdf");
    assert_eq!(parts[1]["content_type"], "application/pdf");
    assert_eq!(parts[1]["size"], file.len());
    assert_eq!(parts[1]["sha256"], sha256_hex(file), "{source}");
    assert_eq!(parts[1]["value"], serde_json::Value::Null);
}

#[test]
fn uploads_by_length_and_chunked_in_one_write_and_in_1_byte_writes() {
    let server = Running::start(config());
    let (body, file) = upload();
    let head = |framing: &str| {
        format!("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=boundary42\r\n{framing}\r\n\r\n")
    };
    let by_length = [
        head(&format!("Content-Length: {}", body.len())).as_bytes(),
        &body,
    ]
    .concat();
    let by_chunks = [
        head("Transfer-Encoding: chunked").as_bytes(),
        &chunked(&body, 1000),
    ]
    .concat();
    let small_chunks = [
        head("Transfer-Encoding: chunked").as_bytes(),
        &chunked(&body[..], 7),
    ]
    .concat();
    let cases: [(&str, &[u8], usize, &str); 4] = [
        (
            "Content-Length, one write",
            &by_length,
            usize::MAX,
            "length",
        ),
        ("chunked, one write", &by_chunks, usize::MAX, "chunked"),
        (
            "chunked 7-byte chunks, 1-byte writes",
            &small_chunks,
            1,
            "chunked",
        ),
        ("Content-Length, 1-byte writes", &by_length, 1, "length"),
    ];
    let mut c = server.connect();
    for (source, req, write_size, framing) in cases {
        // Keep-alive: every upload on the same connection, then a GET after them.
        for piece in req.chunks(write_size.min(req.len())) {
            c.send(piece);
        }
        let r = c.response().unwrap();
        assert_eq!(r.status, 200, "{source}");
        assert_upload_answer(source, &r.body, &file, framing);
    }
    assert!(c.get("/after").body.contains("/after"));
    drop(c);
    server.assert_drained();
}

#[test]
fn expect_100_continue_only_when_the_body_will_be_read() {
    let server = Running::start(config());
    let mut c = server.connect();
    c.send(b"POST /f HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\n");
    let interim = c.response().unwrap();
    assert_eq!(interim.status, 100);
    c.send(b"a=1&b=%41");
    let r = c.response().unwrap();
    assert_eq!(r.status, 200);
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["body"]["kind"], "form");
    assert_eq!(
        v["body"]["pairs"],
        serde_json::json!([["a", "1"], ["b", "A"]])
    );
    // Still open: keep-alive after a 100-continue exchange.
    assert!(c.get("/next").body.contains("/next"));
    // Too large: 413 at once, no 100, and the connection closes (the body is never read).
    let mut big = server.connect();
    big.send(b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 999999999999\r\n\r\n");
    let r = big.response().unwrap();
    assert_eq!(r.status, 413);
    assert!(big.closed_by_server());
    drop(c);
    server.assert_drained();
}

#[test]
fn content_errors_answer_in_the_json_and_keep_the_connection() {
    let server = Running::start(config());
    let mut c = server.connect();
    // The framing is fine, the multipart body inside it is not: reported, read through, and
    // the next request on the connection is answered.
    let body = b"not a multipart body";
    c.send(format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: {}\r\n\r\n", body.len()).as_bytes());
    c.send(body);
    let r = c.response().unwrap();
    assert_eq!(r.status, 200);
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["body"]["error"]["offset"], 0, "{}", r.body);
    assert_eq!(v["body"]["size"], body.len());
    assert!(c.get("/next").body.contains("/next"));
    drop(c);
    server.assert_drained();
}

#[test]
fn resets_mid_body_leave_nothing_behind() {
    let server = Running::start(config());
    for framing in ["Content-Length: 100000", "Transfer-Encoding: chunked"] {
        for _ in 0..20 {
            let mut c: Client = server.connect();
            c.send(format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=x\r\n{framing}\r\n\r\n").as_bytes());
            c.send(b"1000\r\n--x\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\npartial");
            drop(c);
        }
    }
    server.assert_drained();
}

#[test]
fn the_upload_page_and_options_asterisk() {
    let server = Running::start(config());
    let mut c = server.connect();
    let page = c.get("/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(page.body.contains("enctype=\"multipart/form-data\""));
    assert!(page.body.contains("action=\"/upload\""));
    // RFC 9112 §3.3: the target URI of asterisk-form has an empty path.
    c.send(b"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n");
    let r = c.response().unwrap();
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    // (An http URL serializes an empty path as "/", RFC 9110 §4.2.3.)
    assert_eq!(
        (&v["url"], &v["path"]),
        (&"http://x/".into(), &"".into()),
        "{}",
        r.body
    );
    drop(c);
    server.assert_drained();
}

#[test]
fn the_upload_hash_example_hashes_file_parts() {
    let server = Running::start_with(config(), upload_hash::UploadHash);
    let (body, file) = upload();
    let mut c = server.connect();
    c.send(format!("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=boundary42\r\nContent-Length: {}\r\n\r\n", body.len()).as_bytes());
    c.send(&body);
    let r = c.response().unwrap();
    assert_eq!(
        (r.status, r.body),
        (
            200,
            format!("{}  {}  résumé 2024.pdf\n", sha256_hex(&file), file.len())
        )
    );
    assert_eq!(c.get("/").status, 404);
    c.send(b"POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi");
    assert_eq!(c.response().unwrap().status, 415);
    drop(c);
    server.assert_drained();
}

/// Answers every request with 16 MiB, far more than the socket buffers hold.
struct Big;
struct BigService;

impl reqparse::host::Handler for Big {
    type Service = BigService;
    fn service(&self) -> std::io::Result<BigService> {
        Ok(BigService)
    }
}

impl reqparse::host::Service for BigService {
    type Exchange = ();
    fn head(&mut self, _: &reqparse::host::Head<'_>) -> ((), reqparse::host::Reading) {
        ((), reqparse::host::Reading::Raw)
    }
    fn body(&mut self, _: &mut (), _: reqparse::host::BodyEvent<'_>) {}
    fn respond(&mut self, _: (), response: &mut reqparse::host::Response<'_>) {
        response
            .send(200, "OK", "application/octet-stream", &vec![b'x'; 16 << 20])
            .unwrap();
    }
}

#[test]
fn a_stop_finishes_the_answers_in_flight() {
    use std::io::Read;
    let server = Running::start_with(
        Config {
            threads: 1,
            limits: Limits {
                close_linger: Duration::from_secs(5),
                ..Limits::default()
            },
            ..Config::default()
        },
        Big,
    );
    let mut c = server.connect();
    c.send(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    // The answer is written (most of it parked in the output pipe), then the server is told to
    // stop before the client reads a byte.
    server.wait_stats("the answer written", |s| s.responses == 1);
    let stopping = server.stop_in_background();
    std::thread::sleep(Duration::from_millis(100));
    let r = c.response().unwrap();
    assert_eq!((r.status, r.body.len()), (200, 16 << 20));
    let mut rest = Vec::new();
    let _ = c.r.read_to_end(&mut rest);
    assert!(rest.is_empty(), "nothing after the answer");
    stopping.join().unwrap();
}
