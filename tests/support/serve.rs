//! `reqparse serve` as a child process: started, its `listening on http://ADDR` line read, asked
//! one request, stopped by a signal, and waited for with a deadline (never a hang).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStderr, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// `reqparse serve ARGS...`, with stdout and stderr piped.
pub fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_reqparse"));
    cmd.arg("serve")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Runs `reqparse serve ARGS...`, which must exit by itself (a refusal) within 10 s: its
/// status code and stderr.
pub fn refused(args: &[&str]) -> (Option<i32>, String) {
    let mut child = command(args).spawn().expect("spawn reqparse serve");
    let status = wait_for(&mut child, "refuse");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (status.code(), stderr)
}

/// Waits up to 10 s for `child` to exit; kills it and panics after that.
fn wait_for(child: &mut Child, what: &str) -> ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("reqparse serve did not {what} within 10 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A running `reqparse serve`; killed on drop if it is still running.
pub struct Serve {
    child: Child,
    stderr: BufReader<ChildStderr>,
    /// What followed `listening on http://` on its first stderr line.
    pub addr: String,
}

impl Serve {
    /// Spawns `cmd` and reads its first stderr line, which must be `listening on http://ADDR`.
    pub fn start(mut cmd: Command) -> Serve {
        let mut child = cmd.spawn().expect("spawn reqparse serve");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let Some(addr) = line.trim().strip_prefix("listening on http://") else {
            let mut rest = String::new();
            let _ = stderr.read_to_string(&mut rest);
            let _ = child.kill();
            panic!("first stderr line {line:?}, then {rest:?}");
        };
        let addr = addr.to_owned();
        Serve {
            child,
            stderr,
            addr,
        }
    }

    /// One `GET target` on a new connection (`Connection: close`): the whole answer.
    pub fn get(&self, target: &str) -> String {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(
            s,
            "GET {target} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        answer
    }

    pub fn signal(&self, signal: libc::c_int) {
        // SAFETY: plain kill(2) on our own child's pid.
        let rc = unsafe { libc::kill(self.child.id() as libc::pid_t, signal) };
        assert_eq!(rc, 0, "kill({signal})");
    }

    /// Checks that it answers a GET with 200, then sends `signal` with an idle keep-alive
    /// connection open (which must not hold the stop up) and asserts exit status 0.
    pub fn answers_then_stops(self, signal: libc::c_int, what: &str) {
        let answer = self.get("/hello?x=1");
        assert!(
            answer.starts_with("HTTP/1.1 200 OK\r\n"),
            "{what}: {answer}"
        );
        let _idle = TcpStream::connect(&self.addr).unwrap();
        self.signal(signal);
        let (status, stderr) = self.wait();
        assert_eq!(
            status.code(),
            Some(0),
            "{what}, signal {signal}: {status:?}\n{stderr}"
        );
        // No thread was left that could take the signal (see the warning in host::serve).
        assert!(!stderr.contains("warning"), "{what}: {stderr}");
    }

    /// Waits up to 10 s for the exit (killing it after that) and returns the status and the
    /// rest of its stderr.
    pub fn wait(mut self) -> (ExitStatus, String) {
        let status = wait_for(&mut self.child, "exit");
        let mut rest = String::new();
        self.stderr.read_to_string(&mut rest).unwrap();
        (status, rest)
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        // Only when a test failed before waiting: do not leave a server behind.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
