//! Throughput of the host shim serving bodies, against a minimal hyper server doing the same
//! work (hyper 1 on tokio + multer 3): every request is a `multipart/form-data` POST whose file
//! parts are hashed (SHA-256) as they stream in, answered with one line per file part
//! (`<sha256>  <size>  <filename>`), keep-alive.
//!
//! `cargo bench --bench serve --features host` runs, for each server and 1 and 2 server
//! threads, a closed-loop client (this binary again, in another process: `client ADDR CONNS
//! SECONDS SHAPE`) that keeps CONNS connections busy for SECONDS and prints requests/s and MB/s
//! of request bodies. Shapes: `small` (a 1 KiB form of three fields and a small file, what a
//! typical upload form sends) and `upload` (one 1 MiB file). Before timing, each server's answer
//! to each shape is checked against the sha256 the client computed.
//!
//! The same servers under wrk: `scripts/serve-wrk.sh` (POST bodies from `write-shape`).
//! On the 2-core machine client and server share the cores: the numbers are a ratio, not a
//! capacity.

use std::fmt::Write as _;
use std::io::Read;

use reqparse::body::multipart::{write, WritePart};
use reqparse::host::{Config, Server};
use sha2::{Digest, Sha256};

const BOUNDARY: &str = "----benchBoundary0123456789";

#[path = "support/loopback.rs"]
mod loopback;

fn main() {
    let args = loopback::args();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    if loopback::shape_mode(&args, BOUNDARY, shape) {
        return;
    }
    match args.as_slice() {
        ["server-ours", threads] => server_ours(threads.parse().expect("threads")),
        ["server-hyper", threads] => server_hyper(threads.parse().expect("threads")),
        _ => loopback::compare(
            ["server-ours", "server-hyper"],
            ["reqparse", "hyper+multer"],
        ),
    }
}

/// The hex SHA-256 of `data`.
fn hex(hash: Sha256) -> String {
    hash.finalize().iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The request body of `shape` and the answer both servers must give.
fn shape(name: &str) -> (Vec<u8>, String) {
    let file: Vec<u8> = match name {
        "small" => (0..700u32).map(|i| (i * 7 % 251) as u8).collect(),
        "upload" => (0..1u32 << 20).map(|i| (i * 31 % 253) as u8).collect(),
        other => panic!("no shape {other}"),
    };
    let mut parts = vec![WritePart {
        name: "file",
        filename: Some("data.bin"),
        content_type: Some("application/octet-stream"),
        data: &file,
    }];
    if name == "small" {
        for (n, v) in [
            ("title", "Holiday photos"),
            ("tags", "sea, sun"),
            ("note", "line one\r\nline two"),
        ] {
            parts.insert(
                0,
                WritePart {
                    name: n,
                    filename: None,
                    content_type: None,
                    data: v.as_bytes(),
                },
            );
        }
    }
    let body = write(BOUNDARY, &parts).expect("body");
    let answer = format!(
        "{}  {}  data.bin\n",
        hex(Sha256::new_with_prefix(&file)),
        file.len()
    );
    (body, answer)
}

// ---- ours: the shim with the upload handler of examples/upload_hash.rs ------------------

// The example's handler is the one measured: it hashes each file part as it streams in and
// answers `<sha256>  <size>  <filename>` per file, which is what the hyper server below does.
#[allow(dead_code)]
#[path = "../examples/upload_hash.rs"]
mod upload_hash;

fn server_ours(threads: usize) {
    let server = Server::bind(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        threads,
        ..Config::default()
    })
    .expect("bind");
    println!("ADDR {}", server.local_addr());
    let stop = server.shutdown_handle();
    std::thread::spawn(move || {
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
        stop.shutdown();
    });
    server.run_with(&upload_hash::UploadHash).expect("run");
}

// ---- hyper + multer: the same work --------------------------------------------------------

fn server_hyper(threads: usize) {
    use http_body_util::{BodyExt, Full};
    use hyper::body::Bytes;
    use hyper::{Request, Response};

    loopback::tokio_server(threads, false, |listener| async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let service =
                    hyper::service::service_fn(|req: Request<hyper::body::Incoming>| async move {
                        let boundary = req
                            .headers()
                            .get("content-type")
                            .and_then(|v| v.to_str().ok())
                            .and_then(|v| multer::parse_boundary(v).ok());
                        let mut lines = String::new();
                        if let Some(boundary) = boundary {
                            let mut mp = multer::Multipart::new(
                                req.into_body().into_data_stream(),
                                boundary,
                            );
                            while let Ok(Some(mut field)) = mp.next_field().await {
                                let name = field.file_name().map(str::to_owned);
                                let (mut size, mut hash) = (0u64, Sha256::new());
                                while let Ok(Some(chunk)) = field.chunk().await {
                                    size += chunk.len() as u64;
                                    hash.update(&chunk);
                                }
                                if let Some(name) = name {
                                    let _ = writeln!(lines, "{}  {size}  {name}", hex(hash));
                                }
                            }
                        }
                        let resp = Response::builder()
                            .header("content-type", "text/plain")
                            .body(Full::new(Bytes::from(lines)))
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
