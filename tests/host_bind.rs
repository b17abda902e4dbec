//! Binding: only a server's own loops share its port. A port that another socket listens on
//! (another server of ours, with `SO_REUSEPORT` too, or any other listener) is an error that
//! names it, from `Server::bind` and, as exit status 1 with one line, from `reqparse serve`.
//! And `reqparse serve --addr` takes host names that resolve to loopback (`localhost:8080`).
#![cfg(feature = "host")]

mod support;

use std::io;
use std::net::{SocketAddr, TcpListener};

use reqparse::host::{Config, Server};

fn bind(addr: SocketAddr, threads: usize) -> io::Result<Server> {
    Server::bind(Config {
        addr,
        threads,
        ..Config::default()
    })
}

fn assert_in_use(result: io::Result<Server>, addr: SocketAddr) {
    let e = result.expect_err("a busy port must not bind");
    assert_eq!(e.kind(), io::ErrorKind::AddrInUse, "{e}");
    assert!(
        e.to_string().contains(&addr.to_string()),
        "names {addr}: {e}"
    );
}

#[test]
fn a_busy_port_is_an_error_naming_it() {
    // Two servers (two loops each, all SO_REUSEPORT) on one port: the second is refused. On
    // 127.0.0.2, which the other tests of this binary (binding 127.0.0.1:0 at the same time)
    // cannot take from under us once the first server frees the port (seen once in CI).
    let first = bind("127.0.0.2:0".parse().unwrap(), 2).expect("bind the first server");
    let addr = first.local_addr();
    assert_ne!(addr.port(), 0);
    assert_in_use(bind(addr, 2), addr);
    // Port 0 never lands on the busy port either.
    let other = bind("127.0.0.2:0".parse().unwrap(), 2).unwrap();
    assert_ne!(other.local_addr(), addr);
    drop(other);
    // Once the first server is gone the port is free again (the probe left nothing behind).
    // Under load (a CI run beside a fuzz run) the rebind was refused once as busy right after
    // the listeners closed; what held the port for that moment was not found, so the rebind
    // may take up to 2 s, and a port still busy then fails the test.
    drop(first);
    let mut again = bind(addr, 2);
    for _ in 0..100 {
        match &again {
            Err(e) if e.kind() == io::ErrorKind::AddrInUse => {
                std::thread::sleep(std::time::Duration::from_millis(20));
                again = bind(addr, 2);
            }
            _ => break,
        }
    }
    let again = again.expect("the port is free again");
    assert_eq!(again.local_addr(), addr);
    drop(again);

    // A listener that is not ours (no SO_REUSEPORT) holds the port: refused too.
    let foreign = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = foreign.local_addr().unwrap();
    assert_in_use(bind(addr, 1), addr);
}

#[cfg(feature = "cli")]
mod cli {
    use super::support::serve::{command, refused, Serve};

    #[test]
    fn second_serve_on_a_busy_port_exits_1_naming_it() {
        let first = Serve::start(command(&["--addr", "127.0.0.1:0", "--threads", "2"]));
        let (code, stderr) = refused(&["--addr", &first.addr, "--threads", "2"]);
        assert_eq!(code, Some(1), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr:?}");
        assert!(
            stderr.starts_with("reqparse: ") && stderr.contains(&first.addr),
            "names {}: {stderr:?}",
            first.addr
        );
        assert!(stderr.contains("in use"), "{stderr:?}");
        // The first one still answers, alone.
        first.answers_then_stops(libc::SIGTERM, "the first server");
    }

    #[test]
    fn addr_takes_host_names_that_resolve_to_loopback() {
        let server = Serve::start(command(&["--addr", "localhost:0", "--threads", "1"]));
        let addr: std::net::SocketAddr = server.addr.parse().unwrap();
        assert!(addr.ip().is_loopback(), "{addr}");
        server.answers_then_stops(libc::SIGINT, "--addr localhost:0");
    }

    #[test]
    fn addr_refuses_names_that_are_not_loopback() {
        // (argument, what the message says). `10.1` and `0` are not IP literals to Rust, but
        // the system resolver reads them as inet_aton does (10.0.0.1, 0.0.0.0): names that
        // resolve to a non-loopback address on any machine, without DNS.
        let cases = [
            ("10.1:8080", "resolves to 10.0.0.1, not a loopback address"),
            ("0:8080", "give its IP (e.g. 0.0.0.0:8080)"),
            (
                "no-such-host.invalid:8080",
                "cannot resolve \"no-such-host.invalid\"",
            ),
            ("localhost", "expected IP:PORT or HOST:PORT"),
            ("localhost:http", "\"http\" is not a port number"),
        ];
        for (arg, message) in cases {
            let (code, stderr) = refused(&["--addr", arg]);
            // A value clap's parser refuses is a usage error: exit status 2.
            assert_eq!(code, Some(2), "{arg}: {stderr}");
            assert!(stderr.contains(message), "{arg}: {stderr:?}");
        }
    }
}
