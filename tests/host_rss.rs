//! Memory goes back to the OS after load: connections that each hold a partial head (so the
//! pool rents segments for them) are reset, the pool's idle release frees the segments, and the
//! process's resident set is back near where it started, not just the pool's own count.
//!
//! One test fn in its own binary: the RSS is the whole process's, so nothing else may run.
#![cfg(all(feature = "host", target_os = "linux"))]

mod support;

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use reqparse::host::Config;
use support::host::Running;

/// Resident bytes of this process (the second field of /proc/self/statm, in pages).
fn rss() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|f| f.parse().ok())
        .expect("statm's resident field");
    // SAFETY: sysconf has no preconditions.
    pages * unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize
}

const MIB: f64 = (1 << 20) as f64;

#[test]
fn rss_returns_to_baseline_after_reset_connections() {
    const CONNS: usize = 500;
    // 60 header lines of 200 bytes and no final empty line: 12 KB of incomplete head each,
    // kept in three 4 KiB segments.
    let mut head = b"GET /held HTTP/1.1\r\nHost: t\r\n".to_vec();
    for i in 0..60 {
        head.extend_from_slice(format!("X-Pad-{i:02}: {}\r\n", "a".repeat(188)).as_bytes());
    }
    let server = Running::start(Config {
        threads: 2,
        pool_idle_release: Duration::from_millis(50),
        ..Config::default()
    });
    // A small round first touches what stays for good (each loop's scratch buffer, its slab
    // and event buffers); the baseline is taken after it, the big round is measured against it.
    let mut baseline = 0;
    for (round, conns) in [(0, 16), (1, CONNS)] {
        let clients: Vec<TcpStream> = (0..conns)
            .map(|_| {
                let mut s = TcpStream::connect(server.addr).expect("connect");
                s.write_all(&head).expect("send the partial head");
                s
            })
            .collect();
        let held = server.wait_stats("every partial head held in segments", |s| {
            s.connections == conns && s.rented_segments >= conns * 3
        });
        let peak = rss();
        for s in &clients {
            socket2::SockRef::from(s)
                .set_linger(Some(Duration::ZERO))
                .unwrap();
        }
        drop(clients); // each close is a reset
        server.assert_drained();
        server.wait_stats("the pool's idle release", |s| s.pooled_bytes == 0);
        let after = rss();
        eprintln!(
            "round {round}: {} connections, {} segments rented; RSS {:.2} MiB at the peak, \
             {:.2} MiB once the pool released them",
            conns,
            held.rented_segments,
            peak as f64 / MIB,
            after as f64 / MIB
        );
        if round == 0 {
            baseline = after;
            continue;
        }
        assert!(
            peak > baseline + (4 << 20),
            "the load must show in RSS for the test to mean anything: peak {:.2} MiB, \
             baseline {:.2} MiB",
            peak as f64 / MIB,
            baseline as f64 / MIB
        );
        assert!(
            after < baseline + (1 << 20),
            "RSS stays {:.2} MiB above its baseline ({:.2} MiB) after the pool freed its segments",
            (after as f64 - baseline as f64) / MIB,
            baseline as f64 / MIB
        );
    }
}
