//! `Engine::Wasm`: the server answers through the component in wasmtime, byte for byte what the
//! native engine answers (heads and bodies), and an engine error is a 500 with a one-line JSON body after which
//! the loop keeps serving. Runs the bundled component (`component/reqparse.component.wasm`).
#![cfg(all(feature = "host", feature = "engine-wasm"))]

mod support;

use reqparse::engine::Limits as EngineLimits;
use reqparse::host::{Config, Engine};
use support::host::Running;

fn engine(limits: EngineLimits) -> Engine {
    Engine::Wasm(support::component::engine_with(limits))
}

#[test]
fn wasm_engine_answers_like_native() {
    let server = Running::start(Config {
        threads: 2,
        engine: engine(EngineLimits::default()),
        ..Config::default()
    });
    let native_server = Running::start(Config {
        threads: 1,
        ..Config::default()
    });
    // (source, method, target, Content-Disposition)
    let cases: &[(&str, &str, &str, Option<&str>)] = &[
        ("WPT urlencoded-parser plain", "GET", "/a?x=1&y=2", None),
        (
            "WPT urlencoded-parser percent and plus",
            "GET",
            "/s?q=a+b%20c&%E2%82%AC=1",
            None,
        ),
        (
            "RFC 3986 §3.3 dot segments as written",
            "GET",
            "/a/../b?",
            None,
        ),
        ("WPT invalid percent", "GET", "/p?x=%zz", None),
        (
            "tc2231 attwithasciifilename",
            "POST",
            "/up",
            Some("attachment; filename=\"foo.html\""),
        ),
        (
            "tc2231 attwithfn2231utf8",
            "PUT",
            "/up",
            Some("attachment; filename*=UTF-8''foo-%c3%a4-%e2%82%ac.html"),
        ),
        (
            "tc2231 attemptyparam",
            "POST",
            "/up",
            Some("attachment; ;filename=foo"),
        ),
    ];
    let (mut c, mut n) = (server.connect(), native_server.connect());
    for &(source, method, target, cd) in cases {
        let cd_line = cd
            .map(|v| format!("Content-Disposition: {v}\r\n"))
            .unwrap_or_default();
        let req = format!("{method} {target} HTTP/1.1\r\nHost: example.com:8080\r\n{cd_line}\r\n");
        c.send(req.as_bytes());
        n.send(req.as_bytes());
        let r = c.response().unwrap_or_else(|e| panic!("{source}: {e}"));
        assert_eq!(r.status, 200, "{source}: {}", r.body);
        assert_eq!(r.body, n.response().unwrap().body, "{source}");
    }
    // Bodies: a multipart upload, chunked, and a form.
    let bodies: &[(&str, &str)] = &[
        (
            "RFC 7578 §4 chunked upload",
            "Content-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n\
             47\r\n--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\n\r\nhi\r\n\r\n\
             5\r\n--b--\r\n0\r\n\r\n",
        ),
        (
            "RFC 7578 §4.1 no boundary",
            "Content-Type: multipart/form-data\r\nContent-Length: 3\r\n\r\nabc",
        ),
        (
            "Fetch multipart: junk before the first delimiter",
            "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 8\r\n\r\njunk\r\n--",
        ),
        (
            "RFC 2046 §5.1.1 only the close delimiter",
            "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 5\r\n\r\n--b--",
        ),
        (
            "bytes: hashed only",
            "Content-Type: application/octet-stream\r\nContent-Length: 5\r\n\r\nhello",
        ),
        (
            "WHATWG urlencoded form",
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\na=1&b=%41",
        ),
    ];
    for &(source, rest) in bodies {
        let req = format!("POST /upload HTTP/1.1\r\nHost: example.com:8080\r\n{rest}");
        c.send(req.as_bytes());
        n.send(req.as_bytes());
        let (wasm, native) = (c.response().unwrap(), n.response().unwrap());
        assert_eq!((wasm.status, &wasm.body), (200, &native.body), "{source}");
        assert!(
            native.body.contains("\"body\":{\"framing\""),
            "{source}: {}",
            native.body
        );
    }
    drop((c, n));
    server.assert_drained();
    native_server.assert_drained();
}

#[test]
fn engine_error_is_a_500_and_the_loop_goes_on() {
    let server = Running::start(Config {
        threads: 1,
        engine: engine(EngineLimits {
            max_input_bytes: 100,
            ..EngineLimits::default()
        }),
        ..Config::default()
    });
    let mut c = server.connect();
    c.send(format!("GET /{} HTTP/1.1\r\nHost: a\r\n\r\n", "x".repeat(200)).as_bytes());
    let r = c.response().unwrap();
    assert_eq!(r.status, 500);
    assert_eq!(r.header("connection"), Some("close"));
    assert!(
        r.body.starts_with("{\"error\":\"") && !r.body.contains('\n'),
        "{}",
        r.body
    );
    assert!(c.closed_by_server());
    let mut ok = server.connect();
    assert_eq!(ok.get("/small").status, 200);
    drop(ok);
    server.assert_drained();
}
