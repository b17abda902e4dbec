//! Heap accounting for the host shim, with a counting global allocator (one test fn, so the
//! cases run one after another and nothing else allocates meanwhile):
//! - parsing a request head allocates nothing;
//! - a keep-alive request in steady state allocates nothing in the shim (only what the
//!   inspector allocates for its answer);
//! - an idle keep-alive connection costs at most 128 bytes of heap (issue 5's goal).
#![cfg(feature = "host")]

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;

use reqparse::host::{http1, Config, Limits};
use support::alloc::{heap_requests, live_bytes};
use support::host::Running;

#[global_allocator]
static GLOBAL: support::alloc::Counting = support::alloc::Counting;

const REQ: &[u8] = b"GET /steady?a=1&b=2 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: t\r\n\r\n";

/// Sends REQ and reads one response of `len` bytes into a stack buffer (no heap on this side).
fn round_trip(s: &mut TcpStream, len: usize) {
    s.write_all(REQ).unwrap();
    let mut buf = [0u8; 4096];
    let mut got = 0;
    while got < len {
        let n = s.read(&mut buf[..len - got]).unwrap();
        assert!(n > 0, "closed early");
        got += n;
    }
}

#[test]
fn heap_accounting() {
    // 1. Parsing: every outcome, no allocation.
    let limits = Limits::default();
    let long = [b'a'; 9000];
    let inputs: [&[u8]; 6] = [
        REQ,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n",
        b"GET / HTTP/1.1\r\n",
        b"GET / HTTP/1.1\r\n\r\n",
        b"\x00\x01",
        &long,
    ];
    for input in inputs {
        let before = heap_requests();
        let _ = std::hint::black_box(http1::parse(input, &limits));
        assert_eq!(
            heap_requests() - before,
            0,
            "parse {:?}",
            &input[..input.len().min(20)]
        );
    }

    // 2. Steady-state keep-alive requests: the shim allocates nothing per request.
    let server = Running::start(Config {
        threads: 1,
        ..Config::default()
    });
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.write_all(REQ).unwrap();
    let mut first = [0u8; 4096];
    let mut n = 0;
    let len = loop {
        n += s.read(&mut first[n..]).unwrap();
        let text = std::str::from_utf8(&first[..n]).unwrap();
        if let Some(end) = text.find("\r\n\r\n") {
            let cl: usize = text[..end]
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .unwrap()
                .parse()
                .unwrap();
            if n >= end + 4 + cl {
                break end + 4 + cl;
            }
        }
    };
    for _ in 0..200 {
        round_trip(&mut s, len);
    }
    let before = heap_requests();
    for _ in 0..1000 {
        round_trip(&mut s, len);
    }
    let per_request = (heap_requests() - before) as f64 / 1000.0;
    // What the inspector itself allocates for this head (the absolute URL it builds, …): the
    // shim must add nothing to it.
    let head = reqparse::inspect::RequestHead {
        method: "GET",
        scheme: "http",
        host: "example.com",
        target: "/steady?a=1&b=2",
        content_disposition: None,
    };
    let mut json = String::with_capacity(4096);
    let before = heap_requests();
    reqparse::inspect::inspect(&head, &mut json);
    let inspector = (heap_requests() - before) as f64;
    assert!(
        per_request == inspector,
        "allocations per request: {per_request}, of which the inspector's own: {inspector}"
    );
    drop(s);
    server.assert_drained();

    // 3. Idle keep-alive connections: heap per connection (slab record + timer entry).
    const N: usize = 1000;
    let mut conns: Vec<TcpStream> = Vec::with_capacity(N);
    let base = live_bytes();
    for _ in 0..N {
        let mut c = TcpStream::connect(server.addr).unwrap();
        round_trip(&mut c, len);
        conns.push(c);
    }
    server.wait_stats("N idle connections", |s| s.connections == N);
    let per_conn = (live_bytes() - base) as f64 / N as f64;
    println!("heap per idle connection: {per_conn:.1} B");
    assert!(
        per_conn <= 128.0,
        "heap per idle connection: {per_conn:.1} B"
    );
    drop(conns);
    server.assert_drained();
}
