//! Memory of idle keep-alive connections: reqparse's host shim against a minimal hyper server.
//!
//! `cargo bench --bench idle --features host -- --conns 1000,5000,10000` spawns this binary as a
//! server (ours, then hyper) and as a separate client process that opens N keep-alive
//! connections, sends one request on each, reads the answer and then idles. The server counts
//! its heap with a counting global allocator and reads its RSS from /proc; the table gives
//! bytes per idle connection (after minus before, divided by N).
//!
//! Other modes (used by the main mode, or by hand for `wrk`):
//! - `server-ours [--addr A] [--threads T] [--control] [--wasm]`, `server-hyper [...]`: run a
//!   server (`--wasm`: through the component, needs `--features host,engine-wasm`); with
//!   `--control` it prints `ADDR a` and answers `stats` lines on stdin, and exits on stdin EOF.
//! - `client N ADDR`: open N idle connections, print `READY`, wait for stdin EOF.
//!
//! Run without `--bench` (as `cargo test --benches` does) it is a quick smoke run with N = 50.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, ChildStdin, ChildStdout};
use std::sync::atomic::{AtomicIsize, Ordering};

#[path = "support/loopback.rs"]
mod loopback;

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same layout contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: `ptr` came from System.alloc with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same layout contract as our caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        // SAFETY: `ptr` came from System with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    raise_nofile();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let threads: usize = opt("--threads").map_or(1, |t| t.parse().expect("--threads N"));
    let addr: SocketAddr = opt("--addr")
        .unwrap_or_else(|| "127.0.0.1:0".into())
        .parse()
        .expect("--addr");
    let control = args.iter().any(|a| a == "--control");
    match args.first().map(String::as_str) {
        Some("server-ours") => server_ours(addr, threads, control),
        Some("server-hyper") => server_hyper(addr, threads, control),
        Some("client") => {
            let n = args[1].parse().expect("client N ADDR");
            client(n, args[2].parse().expect("client N ADDR"));
        }
        _ => {
            let bench = args.iter().any(|a| a == "--bench");
            let conns: Vec<usize> = match opt("--conns") {
                Some(list) if bench => list
                    .split(',')
                    .map(|n| n.parse().expect("--conns"))
                    .collect(),
                None if bench => vec![1000, 5000, 10000],
                _ => vec![50],
            };
            let worst = compare(&conns, threads);
            // The goal, checked on every run (the smoke run in CI included).
            assert!(
                worst <= 128.0,
                "heap per idle connection {worst:.1} B is over 128 B"
            );
        }
    }
}

fn raise_nofile() {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: valid out pointer, then a valid rlimit; raising the soft limit to the hard one is allowed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
            lim.rlim_cur = lim.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        }
    }
}

fn rss_bytes() -> i64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: i64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    // SAFETY: sysconf has no preconditions.
    pages * unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as i64
}

/// The control protocol on stdin/stdout, run in its own thread: `stats` → one `STATS` line.
fn control_thread(addr: SocketAddr, on_eof: impl FnOnce() + Send + 'static) {
    println!("ADDR {addr}");
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if line.trim() == "stats" {
                println!("STATS {} {}", LIVE.load(Ordering::SeqCst), rss_bytes());
            }
        }
        on_eof();
    });
}

fn server_ours(addr: SocketAddr, threads: usize, control: bool) {
    use reqparse::host::{Config, Engine, Server};
    // `--wasm` (with the engine-wasm feature): answer through the component, for wrk.
    let engine = if std::env::args().any(|a| a == "--wasm") {
        wasm_engine()
    } else {
        Engine::Native
    };
    let server = Server::bind(Config {
        addr,
        threads,
        engine,
        ..Config::default()
    })
    .expect("bind");
    if control {
        let stop = server.shutdown_handle();
        control_thread(server.local_addr(), move || stop.shutdown());
    } else {
        eprintln!("reqparse host shim on http://{}", server.local_addr());
    }
    server.run().expect("run");
}

#[cfg(feature = "engine-wasm")]
fn wasm_engine() -> reqparse::host::Engine {
    let engine =
        reqparse::engine::WasmEngine::load(None).expect("run .ci/build-component.sh first");
    reqparse::host::Engine::Wasm(engine)
}

#[cfg(not(feature = "engine-wasm"))]
fn wasm_engine() -> reqparse::host::Engine {
    panic!("--wasm needs --features host,engine-wasm")
}

fn server_hyper(addr: SocketAddr, threads: usize, control: bool) {
    use http_body_util::Full;
    use hyper::body::Bytes;
    use hyper::{Request, Response};

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_io()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await.expect("bind");
        let local = listener.local_addr().expect("addr");
        if control {
            control_thread(local, || std::process::exit(0));
        } else {
            eprintln!("hyper on http://{local}");
        }
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let service =
                    hyper::service::service_fn(|req: Request<hyper::body::Incoming>| async move {
                        // A body of the same kind as ours: method, host and target as JSON.
                        let host = req
                            .headers()
                            .get("host")
                            .and_then(|h| h.to_str().ok())
                            .unwrap_or("");
                        let mut body = String::new();
                        body.push_str("{\"method\":");
                        reqparse::host::http1::json_string(&mut body, req.method().as_str());
                        body.push_str(",\"host\":");
                        reqparse::host::http1::json_string(&mut body, host);
                        body.push_str(",\"target\":");
                        let target = req.uri().path_and_query().map_or("/", |p| p.as_str());
                        reqparse::host::http1::json_string(&mut body, target);
                        body.push('}');
                        let resp = Response::builder()
                            .header("content-type", "application/json")
                            .body(Full::new(Bytes::from(body)))
                            .expect("response");
                        Ok::<_, std::convert::Infallible>(resp)
                    });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    });
}

const REQUEST: &[u8] =
    b"GET /idle?a=1&b=two HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: idle-bench\r\n\r\n";

/// Reads one response with a Content-Length body from a blocking socket.
fn read_response(s: &mut TcpStream, buf: &mut Vec<u8>) {
    buf.clear();
    let mut chunk = [0u8; 4096];
    loop {
        let n = s.read(&mut chunk).expect("read");
        assert!(n > 0, "server closed the connection");
        buf.extend_from_slice(&chunk[..n]);
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        if buf.len() >= end + 4 + len {
            return;
        }
    }
}

fn client(n: usize, addr: SocketAddr) {
    let mut conns = Vec::with_capacity(n);
    let mut buf = Vec::new();
    for _ in 0..n {
        let mut s = TcpStream::connect(addr).expect("connect");
        s.write_all(REQUEST).expect("write");
        read_response(&mut s, &mut buf);
        conns.push(s);
    }
    println!("READY");
    let mut sink = String::new();
    let _ = std::io::stdin().read_to_string(&mut sink);
    drop(conns);
}

struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Proc {
    fn spawn(args: &[&str]) -> Proc {
        let (mut child, stdout) = loopback::spawn(args);
        let stdin = child.stdin.take();
        Proc {
            child,
            stdin,
            stdout,
        }
    }

    fn line(&mut self) -> String {
        loopback::line(&mut self.stdout)
    }

    fn stats(&mut self) -> (i64, i64) {
        let stdin = self.stdin.as_mut().expect("stdin");
        writeln!(stdin, "stats").expect("ask stats");
        let line = self.line();
        let mut it = line
            .split_whitespace()
            .skip(1)
            .map(|v| v.parse::<i64>().expect("stats"));
        (it.next().unwrap_or(0), it.next().unwrap_or(0))
    }

    fn finish(mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

/// Prints the table; returns the largest heap bytes per idle connection seen for ours.
fn compare(conns: &[usize], threads: usize) -> f64 {
    let mut worst: f64 = 0.0;
    println!(
        "idle keep-alive connections, server threads = {threads}; heap from a counting allocator, RSS from /proc/self/statm"
    );
    println!(
        "{:<8} {:>7} {:>14} {:>14}",
        "server", "conns", "heap B/conn", "RSS B/conn"
    );
    let threads = threads.to_string();
    for &n in conns {
        let mut rows = Vec::new();
        for kind in ["server-ours", "server-hyper"] {
            let mut server = Proc::spawn(&[kind, "--threads", &threads, "--control"]);
            let addr = server.line();
            let addr = addr.strip_prefix("ADDR ").expect("ADDR line").to_string();
            // One request first, so one-time buffers (scratch, runtime, first task) are in the
            // baseline rather than spread over the idle connections.
            let mut warm = TcpStream::connect(&addr).expect("warm-up connect");
            warm.write_all(REQUEST).expect("warm-up write");
            read_response(&mut warm, &mut Vec::new());
            drop(warm);
            std::thread::sleep(std::time::Duration::from_millis(100));
            let (heap0, rss0) = server.stats();
            let mut client = Proc::spawn(&["client", &n.to_string(), &addr]);
            assert_eq!(client.line(), "READY", "client failed");
            // Let the server finish its last reads before measuring.
            std::thread::sleep(std::time::Duration::from_millis(200));
            let (heap1, rss1) = server.stats();
            let heap = (heap1 - heap0) as f64 / n as f64;
            let rss = (rss1 - rss0) as f64 / n as f64;
            println!("{:<8} {:>7} {:>14.1} {:>14.1}", &kind[7..], n, heap, rss);
            rows.push(heap);
            client.finish();
            server.finish();
        }
        worst = worst.max(rows[0]);
        if rows[0] > 0.0 {
            println!("{:<8} {:>7} {:>13.0}x", "ratio", n, rows[1] / rows[0]);
        }
    }
    worst
}
