//! For the host tests: a server on an ephemeral loopback port in a thread, and a minimal
//! HTTP/1.1 response reader over std sockets.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use reqparse::host::{Config, Server, ShutdownHandle, Stats, StatsHandle};

pub struct Running {
    pub addr: SocketAddr,
    pub stats: StatsHandle,
    stop: ShutdownHandle,
    thread: Option<JoinHandle<io::Result<()>>>,
}

impl Running {
    pub fn start(config: Config) -> Running {
        Running::spawn(config, Server::run)
    }

    /// A server answering with `handler` instead of the inspection answer.
    #[allow(dead_code)]
    pub fn start_with<H: reqparse::host::Handler + Send + 'static>(
        config: Config,
        handler: H,
    ) -> Running {
        Running::spawn(config, move |server| server.run_with(&handler))
    }

    fn spawn(
        config: Config,
        run: impl FnOnce(Server) -> io::Result<()> + Send + 'static,
    ) -> Running {
        let server = Server::bind(Config {
            addr: "127.0.0.1:0".parse().unwrap(),
            ..config
        })
        .expect("bind");
        let addr = server.local_addr();
        let stats = server.stats_handle();
        let stop = server.shutdown_handle();
        let thread = Some(std::thread::spawn(move || run(server)));
        Running {
            addr,
            stats,
            stop,
            thread,
        }
    }

    pub fn connect(&self) -> Client {
        let s = TcpStream::connect(self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        Client {
            r: BufReader::new(s.try_clone().unwrap()),
            w: s,
        }
    }

    /// Polls `stats()` until `ok` holds or 10 s pass (never a fixed sleep).
    pub fn wait_stats(&self, what: &str, ok: impl Fn(&Stats) -> bool) -> Stats {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let s = self.stats.stats();
            if ok(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {s:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Every client gone: no connection record and no rented segment is left.
    /// Stops the server from another thread (its `run` returns once the answers in flight
    /// are flushed); the handle joins that thread. The server thread itself is joined on drop.
    #[allow(dead_code)]
    pub fn stop_in_background(&self) -> JoinHandle<()> {
        let stop = self.stop.clone();
        std::thread::spawn(move || stop.shutdown())
    }

    pub fn assert_drained(&self) {
        self.wait_stats("0 connections and 0 rented segments", |s| {
            s.connections == 0 && s.rented_segments == 0
        });
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.shutdown();
        if let Some(t) = self.thread.take() {
            let r = t.join().expect("server thread panicked");
            if !std::thread::panicking() {
                r.expect("server returned an error");
            }
        }
    }
}

#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub struct Client {
    pub r: BufReader<TcpStream>,
    pub w: TcpStream,
}

impl Client {
    pub fn send(&mut self, bytes: &[u8]) {
        self.w.write_all(bytes).expect("send");
    }

    pub fn get(&mut self, target: &str) -> Response {
        self.send(format!("GET {target} HTTP/1.1\r\nHost: test\r\n\r\n").as_bytes());
        self.response().expect("response")
    }

    /// Reads one response (with a Content-Length body, as the shim always sends).
    pub fn response(&mut self) -> io::Result<Response> {
        self.response_to(false)
    }

    /// Reads one response; `head_request` means no content follows the header (RFC 9110 §9.3.2).
    pub fn response_to(&mut self, head_request: bool) -> io::Result<Response> {
        let mut line = String::new();
        if self.r.read_line(&mut line)? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let status = line
            .strip_prefix("HTTP/1.1 ")
            .and_then(|l| l.get(..3))
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| io::Error::other(format!("bad status line {line:?}")))?;
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.r.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let (n, v) = l
                .split_once(':')
                .ok_or_else(|| io::Error::other(format!("bad header {l:?}")))?;
            headers.push((n.to_string(), v.trim().to_string()));
        }
        let mut resp = Response {
            status,
            headers,
            body: String::new(),
        };
        let len: usize = if head_request {
            0
        } else {
            resp.header("content-length")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        let mut body = vec![0; len];
        self.r.read_exact(&mut body)?;
        resp.body = String::from_utf8(body).map_err(io::Error::other)?;
        Ok(resp)
    }

    /// True when the server closed the connection (EOF, or a reset after it closed).
    pub fn closed_by_server(&mut self) -> bool {
        let mut b = [0u8; 1];
        match self.r.read(&mut b) {
            Ok(0) => true,
            Err(e) if e.kind() == io::ErrorKind::ConnectionReset => true,
            _ => false,
        }
    }
}
