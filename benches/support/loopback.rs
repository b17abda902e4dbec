//! The loopback client and the server processes of the end-to-end benches (`benches/serve.rs`,
//! `benches/axum.rs`): each bench binary is also its own servers and its own client, run as
//! child processes (`<server kind> THREADS` prints `ADDR host:port` and serves until its stdin
//! closes; `client ADDR CONNS SECONDS SHAPE` prints `RESULT <requests/s> <MB/s of bodies>`).
//! Included by `#[path]`; the bench gives the shapes (body and expected answer) and the
//! servers.
// Each bench uses a part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// A `POST /upload` of `body` as `multipart/form-data` with `boundary`, keep-alive.
pub fn request(boundary: &str, body: &[u8]) -> Vec<u8> {
    let head = format!(
        "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    [head.as_bytes(), body].concat()
}

/// Reads one response; returns its status and body.
pub fn read_response(s: &mut BufReader<TcpStream>) -> (u16, String) {
    let mut len = 0usize;
    let mut line = String::new();
    let mut status = 0;
    loop {
        line.clear();
        assert!(
            s.read_line(&mut line).expect("read") > 0,
            "server closed the connection"
        );
        let l = line.trim_end().to_ascii_lowercase();
        if status == 0 {
            status = l.get(9..12).and_then(|c| c.parse().ok()).expect("status");
            continue;
        }
        if l.is_empty() {
            break;
        }
        if let Some(v) = l.strip_prefix("content-length:") {
            len = v.trim().parse().expect("length");
        }
    }
    let mut body = vec![0; len];
    s.read_exact(&mut body).expect("body");
    (status, String::from_utf8(body).expect("utf-8"))
}

/// The `client` mode: CONNS connections each posting `body` for SECONDS, one request in
/// flight per connection, the first answer of each checked against `(200, answer)`; prints
/// `RESULT`.
pub fn client(
    addr: SocketAddr,
    conns: usize,
    secs: f64,
    (boundary, body): (&str, &[u8]),
    answer: &str,
) {
    let req = request(boundary, body);
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let threads: Vec<_> = (0..conns)
        .map(|_| {
            let req = req.to_vec();
            let answer = answer.to_owned();
            std::thread::spawn(move || {
                let mut w = TcpStream::connect(addr).expect("connect");
                w.set_nodelay(true).unwrap();
                let mut r = BufReader::new(w.try_clone().unwrap());
                let mut n = 0u64;
                while Instant::now() < deadline {
                    w.write_all(&req).expect("write");
                    let got = read_response(&mut r);
                    if n == 0 {
                        assert_eq!(got, (200, answer.clone()), "the server's answer");
                    }
                    n += 1;
                }
                n
            })
        })
        .collect();
    let total: u64 = threads
        .into_iter()
        .map(|t| t.join().expect("client thread"))
        .sum();
    let rps = total as f64 / secs;
    println!("RESULT {rps:.0} {:.1}", rps * body.len() as f64 / 1e6);
}

/// This binary's arguments, criterion's `--bench` left out.
pub fn args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--bench"))
        .collect()
}

/// The modes every end-to-end bench has over its shapes (`shape(name)`: a body and the answer
/// expected to it): `write-shape SHAPE PATH` writes the body to a file and prints its
/// Content-Type (for wrk), `client ADDR CONNS SECONDS SHAPE` runs [`client`]. `false`: `args`
/// is neither, for the bench's own modes.
pub fn shape_mode(
    args: &[&str],
    boundary: &str,
    shape: impl Fn(&str) -> (Vec<u8>, String),
) -> bool {
    match args {
        ["write-shape", name, path] => {
            std::fs::write(path, shape(name).0).expect("write the body");
            println!("multipart/form-data; boundary={boundary}");
        }
        ["client", addr, conns, secs, name] => {
            let (body, answer) = shape(name);
            client(
                addr.parse().expect("addr"),
                conns.parse().expect("conns"),
                secs.parse().expect("seconds"),
                (boundary, &body),
                &answer,
            );
        }
        _ => return false,
    }
    true
}

/// This binary again, with `args`, its stdin and stdout piped.
pub fn spawn(args: &[&str]) -> (Child, BufReader<ChildStdout>) {
    let exe = std::env::current_exe().expect("current_exe");
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let out = BufReader::new(child.stdout.take().expect("stdout"));
    (child, out)
}

/// A child's next line of output, trimmed.
pub fn line(out: &mut BufReader<ChildStdout>) -> String {
    let mut l = String::new();
    out.read_line(&mut l).expect("child output");
    l.trim().to_string()
}

/// A server mode on tokio: a multi-thread runtime of `threads` workers (its time driver too
/// when `time`), a listener on an ephemeral loopback port (printed as `ADDR host:port`) that
/// `serve` serves; the process exits when its stdin closes.
pub fn tokio_server<F>(threads: usize, time: bool, serve: impl FnOnce(tokio::net::TcpListener) -> F)
where
    F: std::future::Future<Output = ()>,
{
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    rt.worker_threads(threads).enable_io();
    if time {
        rt.enable_time();
    }
    let rt = rt.build().expect("runtime");
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        println!("ADDR {}", listener.local_addr().expect("addr"));
        std::thread::spawn(|| {
            let _ = std::io::stdin().read_to_end(&mut Vec::new());
            std::process::exit(0);
        });
        serve(listener).await;
    });
}

/// A server of this binary (`kind`, `threads`) and its address; dropped, its stdin closes and
/// it exits.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    pub fn start(kind: &str, threads: &str) -> Server {
        let (child, mut out) = spawn(&[kind, threads]);
        let addr = line(&mut out);
        let addr = addr.strip_prefix("ADDR ").expect("ADDR line").to_string();
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

/// The closed-loop comparison of the two server `kinds` (column headers `labels`): for shapes
/// `small` and `upload` and 1 and 2 server threads, each server under the `client` mode,
/// requests/s and their ratio. Run without `--bench` (`cargo test`), runs of 0.2 s over 2
/// connections: a smoke run of seconds. `REQPARSE_SERVE_SECS`, `REQPARSE_SERVE_CONNS` set them.
pub fn compare(kinds: [&str; 2], labels: [&str; 2]) {
    let bench = std::env::args().any(|a| a == "--bench");
    let (secs, conns) = if bench { ("5", "16") } else { ("0.2", "2") };
    let secs = std::env::var("REQPARSE_SERVE_SECS").unwrap_or_else(|_| secs.into());
    let conns = std::env::var("REQPARSE_SERVE_CONNS").unwrap_or_else(|_| conns.into());
    println!(
        "closed-loop client, {conns} connections, {secs} s per run; requests/s (MB/s of bodies)"
    );
    println!(
        "{:<8} {:>7} {:>18} {:>18} {:>7}",
        "shape", "threads", labels[0], labels[1], "ratio"
    );
    for shape_name in ["small", "upload"] {
        for threads in ["1", "2"] {
            let mut rps = Vec::new();
            let mut cells = Vec::new();
            for kind in kinds {
                let server = Server::start(kind, threads);
                let (mut client, mut cout) =
                    spawn(&["client", &server.addr, &conns, &secs, shape_name]);
                let result = line(&mut cout);
                let mut it = result
                    .strip_prefix("RESULT ")
                    .expect("RESULT line")
                    .split(' ');
                let (r, mb): (f64, f64) = (
                    it.next().unwrap().parse().unwrap(),
                    it.next().unwrap().parse().unwrap(),
                );
                let _ = client.wait();
                drop(server);
                rps.push(r);
                cells.push(format!("{r:.0} ({mb:.0})"));
            }
            println!(
                "{:<8} {:>7} {:>18} {:>18} {:>6.2}x",
                shape_name,
                threads,
                cells[0],
                cells[1],
                rps[0] / rps[1]
            );
        }
    }
}
