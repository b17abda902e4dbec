//! A request head is refused as soon as a byte makes it invalid, not when its line feed, the
//! 30 s header timeout or the 8 KiB request-line limit comes: a peer that sends `\xe3` and
//! nothing more gets the 400 a complete bad line gets, and the connection closes. A head that
//! is merely slow (a valid prefix) is still held until it completes or times out.
#![cfg(feature = "host")]

mod support;

use std::io::{ErrorKind, Read};
use std::time::{Duration, Instant};

use reqparse::host::Config;
use support::host::{Client, Running};

/// The answer to `bytes` (sent without a line feed after them), which must come within a
/// second although the header timeout is the default 30 s; the connection then closes.
fn refused_at_once(server: &Running, bytes: &[u8]) -> (u16, String) {
    let mut c = server.connect();
    c.r.get_ref()
        .set_read_timeout(Some(Duration::from_secs(1)))
        .unwrap();
    let start = Instant::now();
    c.send(bytes);
    let resp = c
        .response()
        .unwrap_or_else(|e| panic!("{bytes:?}: no answer within a second ({e})"));
    assert!(start.elapsed() < Duration::from_secs(1), "{bytes:?}");
    assert_eq!(resp.header("connection"), Some("close"), "{bytes:?}");
    assert!(c.closed_by_server(), "{bytes:?}: the connection closes");
    (resp.status, resp.body)
}

/// The answer to a complete head, line feeds and all.
fn answer(server: &Running, bytes: &[u8]) -> (u16, String) {
    let mut c = server.connect();
    c.send(bytes);
    let resp = c.response().expect("response");
    (resp.status, resp.body)
}

/// Nothing is answered for `wait`: the connection is open and holding its partial head.
fn held(c: &mut Client, wait: Duration) {
    c.r.get_ref().set_read_timeout(Some(wait)).unwrap();
    let mut b = [0u8; 1];
    match c.r.read(&mut b) {
        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
        other => panic!("a valid prefix must be held, got {other:?}"),
    }
    c.r.get_ref()
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
}

#[test]
fn invalid_bytes_are_refused_without_a_line_feed() {
    let server = Running::start(Config {
        threads: 1,
        ..Config::default()
    });
    // What the complete bad line gets.
    let complete = answer(&server, b"\xe3 / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(complete.0, 400, "{complete:?}");
    let cases: &[(&str, &[u8])] = &[
        ("a non-ASCII first byte", b"\xe3"),
        ("a NUL in the method", b"G\x00ET / HTTP/1.1\r"),
        ("a control in the target", b"GET /a\x01b"),
        ("a bad version", b"GET / HTTP/2.0"),
        (
            "a NUL in a header name",
            b"GET / HTTP/1.1\r\nHost: a\r\nX-\x00",
        ),
        ("a space in a header name", b"GET / HTTP/1.1\r\nHo st"),
    ];
    for &(what, bytes) in cases {
        assert_eq!(refused_at_once(&server, bytes), complete, "{what}");
    }
    server.assert_drained();
}

#[test]
fn a_valid_slow_prefix_is_held() {
    let server = Running::start(Config {
        threads: 1,
        ..Config::default()
    });
    let mut c = server.connect();
    // The request line and a header name arrive in pieces; none makes the head invalid.
    for piece in [&b"GE"[..], b"T /slow HTTP/1.", b"1\r", b"\nHost: a\r\nX-I"] {
        c.send(piece);
        held(&mut c, Duration::from_millis(300));
    }
    c.send(b"d: 7\r\n\r\n");
    let resp = c.response().expect("the completed head is answered");
    assert_eq!(resp.status, 200, "{}", resp.body);
    assert!(resp.body.contains("/slow"), "{}", resp.body);
    drop(c);
    server.assert_drained();
}
