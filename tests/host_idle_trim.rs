//! A loop that goes idle has the allocator return the pages its work freed (glibc's
//! `malloc_trim`): once per idle period — after no event for a while, whether a keep-alive
//! connection is still open or all of them closed — and never while requests keep coming.
//! The RSS this gives back is measured outside the tests (the `trim_when_idle` comment in
//! src/host/event_loop.rs); here `Stats::idle_trims` counts the trims.
#![cfg(feature = "host")]

mod support;

use std::thread::sleep;
use std::time::{Duration, Instant};

use reqparse::host::Config;
use support::host::Running;

#[test]
fn an_idle_loop_trims_once_per_idle_period_and_never_while_busy() {
    // `pool_idle_release` of 1 s: the loop trims after 1 s without an event.
    let server = Running::start(Config {
        threads: 1,
        pool_idle_release: Duration::from_secs(1),
        ..Config::default()
    });
    let trims = || server.stats.stats().idle_trims;

    // A loop that has not worked yet has nothing to give back.
    sleep(Duration::from_millis(1300));
    assert_eq!(trims(), 0, "no trim before any work");

    // Busy: a request every 50 ms for 2.5 s, far under the idle time between them.
    let mut c = server.connect();
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(2500) {
        assert_eq!(c.get("/busy").status, 200);
        assert_eq!(trims(), 0, "no trim while requests come");
        sleep(Duration::from_millis(50));
    }

    // Idle with the keep-alive connection still open: one trim, and only one.
    server.wait_stats("a trim after 1 s without an event", |s| {
        s.idle_trims == 1 && s.connections == 1
    });
    sleep(Duration::from_millis(1500));
    assert_eq!(trims(), 1, "once per idle period");

    // The close is work again (the connection's memory is freed): one more trim once idle.
    drop(c);
    server.wait_stats("a trim after the last connection closed", |s| {
        s.idle_trims == 2 && s.connections == 0
    });
    sleep(Duration::from_millis(1500));
    assert_eq!(trims(), 2, "once per idle period");
    server.assert_drained();
}
