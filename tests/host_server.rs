//! The host shim driven over real loopback sockets: answers, keep-alive, pipelining, every
//! limit and fault of issue 5, and the pool and connection table back to empty afterwards.
#![cfg(feature = "host")]

mod support;

use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use reqparse::host::{Config, Limits, MinDataRate, Thresholds};
use support::host::{Client, Running};

fn config() -> Config {
    Config {
        threads: 2,
        ..Config::default()
    }
}

fn short(limits: Limits) -> Config {
    Config {
        threads: 1,
        limits,
        timer_tick: Duration::from_millis(5),
        ..Config::default()
    }
}

/// [`short`] with the default limits but for what `set` changes.
fn short_with(set: impl FnOnce(&mut Limits)) -> Config {
    let mut limits = Limits::default();
    set(&mut limits);
    short(limits)
}

/// The server closed `c`, and not before `timeout` (less 20 ms of slack) had passed since
/// `start`.
fn assert_closed_after(c: &mut Client, start: Instant, timeout: Duration) {
    assert!(c.closed_by_server());
    assert!(
        start.elapsed() >= timeout - Duration::from_millis(20),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn answers_json_and_keeps_alive() {
    let server = Running::start(config());
    let mut c = server.connect();
    // (target → url built by uri::build_absolute, query pairs decoded by the WHATWG profile)
    let cases = [
        (
            "/a?x=1",
            "http://test/a?x=1",
            serde_json::json!([["x", "1"]]),
        ),
        ("/b", "http://test/b", serde_json::json!([])),
        (
            "/c?%7B=%22&k",
            "http://test/c?%7B=%22&k",
            serde_json::json!([["{", "\""], ["k", ""]]),
        ),
    ];
    for (target, url, query) in cases {
        let r = c.get(target);
        assert_eq!(r.status, 200, "{target}");
        assert_eq!(r.header("content-type"), Some("application/json"));
        assert_eq!(
            r.header("connection"),
            None,
            "1.1 keep-alive needs no header"
        );
        let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(v["method"], "GET", "{target}");
        assert_eq!(v["url"], url, "{target}");
        assert_eq!(v["query"], query, "{target}");
    }
    // Content-Disposition goes through the disposition parser (RFC 6266 §4.3 filename*).
    c.send(b"POST /up HTTP/1.1\r\nHost: test\r\nContent-Disposition: attachment; filename=\"a.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf\r\nContent-Length: 0\r\n\r\n");
    let v: serde_json::Value = serde_json::from_str(&c.response().unwrap().body).unwrap();
    assert_eq!(
        v["content_disposition"]["filename"], "r\u{e9}sum\u{e9}.pdf",
        "{v}"
    );
    assert_eq!(
        server.stats.stats().connections,
        1,
        "one socket carried every request"
    );
    drop(c);
    server.assert_drained();
}

#[test]
fn a_browser_gets_the_answer_as_a_page() {
    let server = Running::start(config());
    let mut c = server.connect();
    let body = "--b\r\nContent-Disposition: form-data; name=\"</script><i>\"\r\n\r\n{{ANSWER}} & <b>\r\n--b--";
    let request = |accept: &str| {
        format!(
            "POST /up?q=1 HTTP/1.1\r\nHost: test\r\nAccept: {accept}\r\n\
             Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    // What a browser's navigation sends: the page, the answer inside it with every `<`
    // escaped (nothing the client sent can end the script element or add markup).
    c.send(request("text/html,application/xhtml+xml,*/*;q=0.8").as_bytes());
    let page = c.response().unwrap();
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let start = page.body.find(r#"id="answer">"#).unwrap() + r#"id="answer">"#.len();
    let end = start + page.body[start..].find("</script>").unwrap();
    let embedded: serde_json::Value = serde_json::from_str(&page.body[start..end]).unwrap();
    assert!(!page.body[start..end].contains('<'));
    assert!(
        page.body.contains("&lt;/script&gt;&lt;i&gt;"),
        "the text section, escaped"
    );
    assert!(!page.body.contains("<i>"));
    // Anyone else (and a browser that refuses HTML) gets the same answer as JSON.
    for accept in ["application/json", "*/*", "text/html;q=0"] {
        c.send(request(accept).as_bytes());
        let r = c.response().unwrap();
        assert_eq!(
            r.header("content-type"),
            Some("application/json"),
            "{accept}"
        );
        let json: serde_json::Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(json, embedded, "{accept}");
        assert_eq!(json["body"]["parts"][0]["name"], "</script><i>");
        assert_eq!(json["body"]["parts"][0]["value"], "{{ANSWER}} & <b>");
    }
    drop(c);
    server.assert_drained();
}

#[test]
fn http10_closes_unless_keep_alive() {
    let server = Running::start(config());
    // (source, request, expected Connection header, closed afterwards)
    let cases: &[(&str, &[u8], Option<&str>, bool)] = &[
        (
            "RFC 9112 §9.3 1.0 default",
            b"GET / HTTP/1.0\r\n\r\n",
            Some("close"),
            true,
        ),
        (
            "RFC 9112 §9.3 1.0 keep-alive",
            b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
            Some("keep-alive"),
            false,
        ),
        (
            "RFC 9112 §9.6 1.1 close",
            b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
            Some("close"),
            true,
        ),
        (
            "RFC 9110 §9.3.2 HEAD has no content",
            b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n",
            None,
            false,
        ),
    ];
    for &(source, req, conn_header, closed) in cases {
        let mut c = server.connect();
        c.send(req);
        let head_only = req.starts_with(b"HEAD");
        let mut r = c
            .response_to(head_only)
            .unwrap_or_else(|e| panic!("{source}: {e}"));
        if head_only {
            assert!(
                r.header("content-length")
                    .unwrap()
                    .parse::<usize>()
                    .unwrap()
                    > 0,
                "{source}"
            );
            // The next bytes must be the next response, not a body.
            c.send(b"GET /next HTTP/1.1\r\nHost: a\r\n\r\n");
            r = c.response().unwrap();
            assert!(r.body.contains("/next"), "{source}: {}", r.body);
        }
        assert_eq!(r.status, 200, "{source}");
        assert_eq!(r.header("connection"), conn_header, "{source}");
        if closed {
            assert!(c.closed_by_server(), "{source}");
        } else {
            c.send(b"GET /again HTTP/1.1\r\nHost: a\r\n\r\n");
            assert_eq!(c.response().unwrap().status, 200, "{source}");
        }
    }
    server.assert_drained();
}

#[test]
fn pipelining_beyond_the_per_turn_limit_keeps_order() {
    let server = Running::start(Config {
        threads: 1,
        limits: Limits {
            max_pipelined: 4,
            ..Limits::default()
        },
        ..Config::default()
    });
    let mut c = server.connect();
    let mut batch = Vec::new();
    for i in 0..50 {
        batch.extend_from_slice(format!("GET /p{i} HTTP/1.1\r\nHost: a\r\n\r\n").as_bytes());
    }
    c.send(&batch);
    for i in 0..50 {
        let r = c.response().unwrap();
        assert!(
            r.body.contains(&format!("\"/p{i}\"")),
            "response {i}: {}",
            r.body
        );
    }
    // A request split across writes is still one request.
    c.send(b"GET /sp");
    std::thread::sleep(Duration::from_millis(20));
    c.send(b"lit HTTP/1.1\r\nHo");
    std::thread::sleep(Duration::from_millis(20));
    c.send(b"st: a\r\n\r\n");
    assert!(c.response().unwrap().body.contains("/split"));
    drop(c);
    // More than one turn's worth of requests, then FIN: every one is still answered.
    let mut c = server.connect();
    let batch: String = (0..20)
        .map(|i| format!("GET /f{i} HTTP/1.1\r\nHost: a\r\n\r\n"))
        .collect();
    c.send(batch.as_bytes());
    c.w.shutdown(Shutdown::Write).unwrap();
    for i in 0..20 {
        let r = c.response().unwrap_or_else(|e| panic!("response {i}: {e}"));
        assert!(
            r.body.contains(&format!("\"/f{i}\"")),
            "response {i}: {}",
            r.body
        );
    }
    assert!(c.closed_by_server());
    server.assert_drained();
}

#[test]
fn limits_answer_with_status_and_close() {
    let server = Running::start(config());
    let long_line = format!("GET /{} HTTP/1.1\r\nHost: a\r\n\r\n", "a".repeat(9000));
    let big_headers = format!(
        "GET / HTTP/1.1\r\nHost: a\r\nX-Big: {}\r\n\r\n",
        "b".repeat(33 * 1024)
    );
    let many_headers = {
        let mut s = String::from("GET / HTTP/1.1\r\nHost: a\r\n");
        for i in 0..100 {
            s.push_str(&format!("X-{i}: v\r\n"));
        }
        s + "\r\n"
    };
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        (
            "Kestrel MaxRequestLineSize 8 KiB",
            long_line.into_bytes(),
            414,
        ),
        (
            "Kestrel MaxRequestHeadersTotalSize 32 KiB",
            big_headers.into_bytes(),
            431,
        ),
        (
            "Kestrel MaxRequestHeaderCount 100",
            many_headers.into_bytes(),
            431,
        ),
        (
            "RFC 9112 §3 malformed request line",
            b"GET\x01/ HTTP/1.1\r\n\r\n".to_vec(),
            400,
        ),
        (
            "RFC 9112 §3.2 missing Host",
            b"GET / HTTP/1.1\r\n\r\n".to_vec(),
            400,
        ),
        (
            "RFC 9112 §6.3 conflicting Content-Length",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"
                .to_vec(),
            400,
        ),
        (
            "ASP.NET Core MultipartBodyLengthLimit 128 MiB",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 134217729\r\n\r\n".to_vec(),
            413,
        ),
        (
            "RFC 9112 §6.3 Transfer-Encoding with Content-Length",
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n".to_vec(),
            400,
        ),
        (
            "RFC 9112 §6.1 a coding the shim cannot decode",
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n".to_vec(),
            501,
        ),
        (
            "RFC 9110 §9.3.6 CONNECT",
            b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n".to_vec(),
            501,
        ),
        (
            "RFC 9112 §3.2 invalid Host",
            b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n".to_vec(),
            400,
        ),
        (
            "RFC 9110 §10.1.1 unknown expectation",
            b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\n".to_vec(),
            417,
        ),
        (
            "not HTTP at all",
            b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n".to_vec(),
            400,
        ),
    ];
    for (source, req, status) in cases {
        let mut c = server.connect();
        c.send(&req);
        let r = c.response().unwrap_or_else(|e| panic!("{source}: {e}"));
        assert_eq!(r.status, status, "{source}: {}", r.body);
        assert_eq!(r.header("connection"), Some("close"), "{source}");
        assert!(r.body.starts_with("{\"error\":\""), "{source}: {}", r.body);
        assert!(c.closed_by_server(), "{source}");
    }
    // The 414 is sent after at most 8 KiB of a 1 MB line: the server does not wait for the rest.
    let mut c = server.connect();
    c.send(b"GET /");
    let _ = c.w.write_all(&[b'a'; 16 * 1024]);
    assert_eq!(c.response().unwrap().status, 414);
    server.assert_drained();
}

#[test]
fn slowloris_is_cut_off_by_the_header_timeout() {
    let drip = b"GET / HTTP/1.1\r\nHost: a\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let timeout = Duration::from_millis(300);
    let server = Running::start(short_with(|l| l.header_timeout = timeout));
    // One byte every 40 ms: the header timer is not pushed back by trickling bytes.
    let mut c = server.connect();
    let start = Instant::now();
    let mut sent = 0;
    while c.w.write_all(&drip[sent..sent + 1]).is_ok()
        && sent + 1 < drip.len()
        && start.elapsed() < timeout * 3
    {
        sent += 1;
        std::thread::sleep(Duration::from_millis(40));
        if server.stats.stats().connections == 0 {
            break;
        }
    }
    let r = c.response().expect("a 408 before the close");
    assert_eq!(r.status, 408);
    let elapsed = start.elapsed();
    assert!(elapsed >= timeout, "cut after {elapsed:?}");
    assert!(c.closed_by_server());
    // A connection that never sends anything is closed silently after the same time.
    let mut idle = server.connect();
    let start = Instant::now();
    assert_closed_after(&mut idle, start, timeout);
    server.assert_drained();
}

#[test]
fn idle_keep_alive_connection_is_closed_after_the_timeout() {
    let timeout = Duration::from_millis(250);
    let server = Running::start(short_with(|l| l.keep_alive_timeout = timeout));
    let mut c = server.connect();
    assert_eq!(c.get("/").status, 200);
    let start = Instant::now();
    assert_eq!(
        server.stats.stats().rented_segments,
        0,
        "an idle connection holds no segment"
    );
    assert_closed_after(&mut c, start, timeout);
    server.assert_drained();
}

#[test]
fn body_is_read_and_min_data_rate_enforced() {
    let server = Running::start(short(Limits {
        min_data_rate: Some(MinDataRate {
            bytes_per_second: 10_000,
            grace: Duration::from_millis(200),
        }),
        ..Limits::default()
    }));
    // A 100 KB body in several writes, then a pipelined GET: the body is read through (its
    // size in the answer), and the GET after it is answered as the next request.
    let mut c = server.connect();
    c.send(b"POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\nContent-Disposition: attachment; filename=\"x.bin\"\r\n\r\n");
    for _ in 0..10 {
        c.send(&[b'G'; 10_000]);
    }
    c.send(b"GET /after HTTP/1.1\r\nHost: a\r\n\r\n");
    let r = c.response().unwrap();
    assert_eq!(r.status, 200);
    assert!(
        r.body.contains(r#""size":100000,"kind":"bytes""#),
        "{}",
        r.body
    );
    assert!(c.response().unwrap().body.contains("/after"));
    // A body that stalls: 10 bytes of 1 MB, then nothing. 408 after grace + 10 B at 10 kB/s.
    let mut slow = server.connect();
    slow.send(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\n\r\n0123456789");
    let start = Instant::now();
    let r = slow.response().unwrap();
    assert_eq!(r.status, 408, "{}", r.body);
    assert!(r.body.contains("min_data_rate"), "{}", r.body);
    assert!(slow.closed_by_server());
    let elapsed = start.elapsed();
    assert!(
        elapsed >= Duration::from_millis(190) && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
    drop(c);
    server.assert_drained();
}

#[test]
fn reset_and_half_close() {
    let server = Running::start(config());
    // Reset in the middle of a head: SO_LINGER 0 makes close() send RST.
    for _ in 0..5 {
        let c = server.connect();
        let mut w = c.w;
        w.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
        let sock = socket2::SockRef::from(&w);
        sock.set_linger(Some(Duration::ZERO)).unwrap();
    }
    server.assert_drained();
    // Half-close: request, then FIN; the answer still arrives, then the server closes too.
    let mut c = server.connect();
    c.send(b"GET /half HTTP/1.1\r\nHost: a\r\n\r\nGET /half2 HTTP/1.1\r\nHost: a\r\n\r\n");
    c.w.shutdown(Shutdown::Write).unwrap();
    assert!(c.response().unwrap().body.contains("/half"));
    assert!(c.response().unwrap().body.contains("/half2"));
    assert!(c.closed_by_server());
    // Half-close in the middle of a head: nothing to answer, just a close.
    let mut c = server.connect();
    c.send(b"GET /part");
    c.w.shutdown(Shutdown::Write).unwrap();
    assert!(c.closed_by_server());
    server.assert_drained();
}

#[test]
fn many_connections_at_once() {
    let server = Running::start(config());
    let mut clients: Vec<_> = (0..300).map(|_| server.connect()).collect();
    for (i, c) in clients.iter_mut().enumerate() {
        c.send(format!("GET /c{i} HTTP/1.1\r\nHost: a\r\n\r\n").as_bytes());
    }
    for (i, c) in clients.iter_mut().enumerate() {
        assert!(c.response().unwrap().body.contains(&format!("/c{i}\"")));
    }
    let s = server.wait_stats("300 idle connections", |s| s.connections == 300);
    assert_eq!(
        s.rented_segments, 0,
        "idle keep-alive connections hold no segment"
    );
    drop(clients);
    server.assert_drained();
}

#[test]
fn slow_reader_back_pressure_keeps_every_response() {
    // Tiny output thresholds: the server stops reading while the client is not reading.
    let server = Running::start(Config {
        threads: 1,
        limits: Limits {
            output: Thresholds {
                pause: 4096,
                resume: 1024,
            },
            ..Limits::default()
        },
        ..Config::default()
    });
    let mut c = server.connect();
    let n = 3000;
    let mut batch = Vec::new();
    for i in 0..n {
        batch.extend_from_slice(
            format!("GET /r{i}?{} HTTP/1.1\r\nHost: a\r\n\r\n", "q".repeat(200)).as_bytes(),
        );
    }
    let mut w = c.w.try_clone().unwrap();
    let writer = std::thread::spawn(move || w.write_all(&batch));
    std::thread::sleep(Duration::from_millis(100));
    for i in 0..n {
        let r = c.response().unwrap();
        assert!(r.body.contains(&format!("/r{i}?")), "response {i}");
    }
    writer.join().unwrap().unwrap();
    drop(c);
    server.assert_drained();
}

#[test]
fn a_full_pool_costs_the_hoarders_not_the_newcomers() {
    // One 4 KiB segment for the whole loop.
    let server = Running::start(Config {
        threads: 1,
        pool_max_bytes: 4096,
        ..Config::default()
    });
    // A holds the only segment with an incomplete head.
    let mut a = server.connect();
    a.send(b"GET /a HTTP/1.1\r\nHost: a\r\n");
    server.wait_stats("A's tail in the segment", |s| s.rented_segments == 1);
    // B's complete request needs no segment: it is answered straight from the scratch.
    let mut b = server.connect();
    b.send(b"GET /b HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(b.response().unwrap().body.contains("/b"));
    assert_eq!(server.stats.stats().shed, 0);
    // C's head is incomplete and needs the segment: A, the oldest unfinished head, is shed.
    let mut c = server.connect();
    c.send(b"GET /c HTTP/1.1\r\nHost: a\r\n");
    server.wait_stats("A shed for C", |s| s.shed == 1 && s.connections == 2);
    assert!(a.closed_by_server());
    // Now C holds the segment with its unfinished head; D, a newcomer, sheds C in turn: the
    // unfinished head that has waited longest always goes first.
    let mut d = server.connect();
    d.send(b"GET /d HTTP/1.1\r\nHost: a\r\n");
    server.wait_stats("C shed for D", |s| s.shed == 2);
    assert!(c.closed_by_server());
    d.send(b"\r\n");
    assert!(d.response().unwrap().body.contains("/d"));
    let s = server.wait_stats("the segment back", |s| s.rented_segments == 0);
    assert!(s.pooled_bytes <= 4096, "never more than the cap: {s:?}");
    drop((b, d));
    server.assert_drained();
}

#[test]
fn surplus_segments_are_released_after_idle_time() {
    let server = Running::start(Config {
        threads: 1,
        pool_idle_release: Duration::from_millis(50),
        ..Config::default()
    });
    let mut clients: Vec<_> = (0..20).map(|_| server.connect()).collect();
    for c in &mut clients {
        c.send(b"GET /partial HTTP/1.1\r\n");
    }
    server.wait_stats("20 tails held", |s| s.rented_segments == 20);
    for c in &mut clients {
        c.send(b"Host: a\r\n\r\n");
        assert_eq!(c.response().unwrap().status, 200);
    }
    server.wait_stats("segments back in the pool", |s| s.rented_segments == 0);
    server.wait_stats("surplus released", |s| s.pooled_bytes == 0);
    drop(clients);
    server.assert_drained();
}

#[test]
fn stale_events_never_touch_a_new_connection() {
    // Rapid open/close churn reuses slab slots; every answer must match its own request.
    let server = Running::start(Config {
        threads: 1,
        ..Config::default()
    });
    for round in 0..200 {
        let mut c = server.connect();
        let r = c.get(&format!("/g{round}"));
        assert!(r.body.contains(&format!("/g{round}\"")));
        if round % 3 == 0 {
            let _ = socket2::SockRef::from(&c.w).set_linger(Some(Duration::ZERO));
        }
    }
    let _ = TcpStream::connect(server.addr);
    server.assert_drained();
}
