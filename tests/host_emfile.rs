//! EMFILE on accept: the loop backs off on a timer instead of spinning, and accepts the waiting
//! connections once descriptors are free again. Alone in its binary: it lowers the process-wide
//! RLIMIT_NOFILE.
#![cfg(feature = "host")]

mod support;

use std::io::{Read, Write};
use std::time::Duration;

use reqparse::host::{Config, Limits};
use support::host::Running;

fn nofile() -> libc::rlimit {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `lim` is a valid out pointer for getrlimit.
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) }, 0);
    lim
}

fn set_nofile(lim: libc::rlimit) {
    // SAFETY: `lim` is a valid rlimit; lowering the soft limit is always permitted.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lim) }, 0);
}

#[test]
fn emfile_on_accept_backs_off_then_recovers() {
    let backoff = Duration::from_millis(50);
    let server = Running::start(Config {
        threads: 1,
        limits: Limits {
            accept_backoff: backoff,
            ..Limits::default()
        },
        ..Config::default()
    });
    // Client sockets exist before the limit bites; connecting them needs no new descriptor.
    let clients: Vec<socket2::Socket> = (0..6)
        .map(|_| socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap())
        .collect();
    let saved = nofile();
    let max_fd = std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u64>().ok())
        .max()
        .unwrap();
    set_nofile(libc::rlimit {
        rlim_cur: max_fd + 1,
        rlim_max: saved.rlim_max,
    });
    // Fill every hole below the limit: now no descriptor at all can be allocated.
    let mut fillers = Vec::new();
    while let Ok(f) = std::fs::File::open("/dev/null") {
        fillers.push(f);
    }
    for c in &clients {
        c.connect(&server.addr.into()).unwrap();
    }
    server.wait_stats("a first EMFILE", |s| s.accept_backoffs >= 1);
    std::thread::sleep(backoff * 6);
    let s = server.stats.stats();
    // Retrying on a timer: about one attempt per backoff period, not a busy loop.
    assert!(
        (2..=12).contains(&s.accept_backoffs),
        "backoffs in 6 periods: {s:?}"
    );
    assert_eq!(s.connections, 0);
    drop(fillers);
    set_nofile(saved);
    let mut clients: Vec<std::net::TcpStream> = clients.into_iter().map(Into::into).collect();
    for (i, c) in clients.iter_mut().enumerate() {
        c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        c.write_all(
            format!("GET /e{i} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .unwrap();
        let mut answer = String::new();
        c.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
        assert!(answer.contains(&format!("/e{i}\"")), "{answer}");
    }
    drop(clients);
    server.assert_drained();
}
