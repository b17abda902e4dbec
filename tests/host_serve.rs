//! `serve()` end to end: a child process (this test binary again) serves on an ephemeral port,
//! answers a request, and stops cleanly with exit status 0 on SIGINT and on SIGTERM.
#![cfg(feature = "host")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::Duration;

const CHILD: &str = "REQPARSE_SERVE_CHILD";

#[test]
fn serve_stops_cleanly_on_sigint_and_sigterm() {
    if std::env::var_os(CHILD).is_some() {
        let config = reqparse::host::Config {
            addr: "127.0.0.1:0".parse().unwrap(),
            threads: 2,
            ..Default::default()
        };
        reqparse::host::serve(config).expect("serve");
        println!("SERVE RETURNED");
        return;
    }
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.args([
            "--exact",
            "serve_stops_cleanly_on_sigint_and_sigterm",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        // SAFETY: only async-signal-safe calls between fork and exec. The harness's own threads
        // must not take the signal (its default action would kill the child), so the child
        // starts with both blocked everywhere, as an interactive process that called serve()
        // first would have them.
        unsafe {
            cmd.pre_exec(|| {
                let mut set: libc::sigset_t = core::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, libc::SIGINT);
                libc::sigaddset(&mut set, libc::SIGTERM);
                libc::pthread_sigmask(libc::SIG_BLOCK, &set, core::ptr::null_mut());
                Ok(())
            });
        }
        let mut child = cmd.spawn().unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("first stderr line: {line:?}"))
            .to_string();
        let mut s = TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(b"GET /hello?x=1 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
        // An idle keep-alive connection is open when the signal arrives: it must not hold the stop up.
        let _idle = TcpStream::connect(&addr).unwrap();
        // SAFETY: plain kill(2) on our own child's pid.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        let status = child.wait().unwrap();
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert!(status.success(), "signal {signal}: {status:?}\n{out}");
        assert!(out.contains("SERVE RETURNED"), "signal {signal}: {out}");
    }
}
