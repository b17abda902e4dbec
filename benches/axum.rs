//! End to end over loopback: axum 0.8 with `reqparse::axum::Multipart` against axum 0.8 with
//! its own `axum::extract::Multipart` (multer 3 underneath), the same handler work on both
//! (issue 41): each file part's data hashed (SHA-256) chunk by chunk as it arrives, each field's
//! text echoed, answered with one JSON object of the fields and the files' hashes, keep-alive.
//! The two servers' answers to the same body are byte for byte the same; `check` proves it (and
//! that both are the answer this binary computed) before anything is timed.
//!
//! Modes (the first argument):
//!
//! - `write-shape small|upload PATH`: a shape's request body into PATH; prints its Content-Type
//!   (for wrk: `scripts/axum-wrk.sh`, with `scripts/wrk-post.lua`).
//! - `server-reqparse N`, `server-axum N`: a tokio runtime of N worker threads serving
//!   `POST /upload` on 127.0.0.1 (an ephemeral port); prints `ADDR host:port`, serves until its
//!   stdin closes.
//! - `check`: starts both servers (one thread each), sends each shape to both (twice on one
//!   connection), fails unless every answer is the expected one.
//! - `client ADDR CONNS SECONDS SHAPE`: a closed-loop client keeping CONNS connections busy,
//!   printing `RESULT <requests/s> <MB/s of bodies>`.
//! - `counts`: instructions per request of each server (user space, all threads), under
//!   callgrind: the server run for N and for 2N requests of a shape on one connection, every
//!   answer checked, (I(2N) - I(N)) / N; exact whatever the machine's load (BENCHMARKS.md, "How
//!   to measure"). N is 200 for `small` and 4 for `upload`, `REQPARSE_COUNTS_N=small,upload`
//!   sets them. Under valgrind SHA-256 runs without the CPU's SHA extensions (valgrind hides
//!   them), so the hashing both servers share weighs more than it does natively.
//! - no mode (`cargo bench --bench axum --features axum,tokio`): `check`, then each server
//!   under the closed-loop client (16 connections, 5 s), shapes `small` and `upload`, 1 and 2
//!   server threads, with the ratio. Run without `--bench` (`cargo test`), the same in 0.2 s
//!   runs over 2 connections: a smoke run of seconds.
//!
//! Shapes: `small`, a ~1 KB form (three text fields and a 500-byte file, what a typical upload
//! form sends) and `upload`, a 1 MiB file with two fields. Both servers take bodies up to
//! [`LIMIT`] (axum's `DefaultBodyLimit` and reqparse's `MultipartLimits`, the same on both), so
//! `scripts/upload-rss.py --server axum-reqparse|axum-multer` can stream a 1 GiB upload through
//! them and watch their memory. On the 2-core machine client and server share the cores: the
//! numbers are a ratio, not a capacity.

use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::serve::ListenerExt;
use axum::{Extension, Router};
use reqparse::axum::{MultipartConfig, Rejection};
use reqparse::body::multipart::{write, MultipartLimits, WritePart};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// A browser's boundary (Chromium and Safari send `----WebKitFormBoundary` + 16 characters).
const BOUNDARY: &str = "----WebKitFormBoundaryrBq7Ds4GoV2yL9aK";

#[path = "support/loopback.rs"]
mod loopback;
use loopback::{line, read_response, request, Server};

/// The largest body either server takes: over the 1 GiB upload of `scripts/upload-rss.py`.
const LIMIT: u64 = 2 << 30;

fn main() {
    let args = loopback::args();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    if loopback::shape_mode(&args, BOUNDARY, shape) {
        return;
    }
    match args.as_slice() {
        ["server-reqparse", threads] => serve(threads.parse().expect("threads"), app_reqparse()),
        ["server-axum", threads] => serve(threads.parse().expect("threads"), app_axum()),
        ["check"] => check(),
        ["counts"] => counts(),
        [] => {
            check();
            loopback::compare(
                ["server-reqparse", "server-axum"],
                ["axum+reqparse", "axum+multer"],
            );
        }
        other => {
            eprintln!("unknown arguments {other:?}; see the doc comment of benches/axum.rs");
            std::process::exit(2);
        }
    }
}

// ---- what both servers answer ---------------------------------------------------------------

/// The answer: every field's text and every file's size and SHA-256, in the body's order.
#[derive(Serialize, Default)]
struct Answer {
    fields: Vec<Field>,
    files: Vec<File>,
}

#[derive(Serialize)]
struct Field {
    name: String,
    value: String,
}

#[derive(Serialize)]
struct File {
    name: String,
    filename: String,
    size: u64,
    sha256: String,
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        let json = serde_json::to_string(&self).unwrap_or_default();
        ([(header::CONTENT_TYPE, "application/json")], json).into_response()
    }
}

/// The hex SHA-256 of what `hash` was fed. By table, not `write!` a byte: formatting cost
/// 13,000 instructions a request (callgrind), work both servers share that would only dilute
/// the extractors' difference.
fn hex(hash: Sha256) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(64);
    for b in hash.finalize() {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

/// The request body of `shape` and the answer both servers must give to it.
fn shape(name: &str) -> (Vec<u8>, String) {
    let (file, fields): (Vec<u8>, &[(&str, &str)]) = match name {
        "small" => (
            (0..500u32).map(|i| (i * 7 % 251) as u8).collect(),
            &[
                ("title", "Holiday photos"),
                ("tags", "sea, sun"),
                ("note", "line one\r\nline two"),
            ],
        ),
        "upload" => (
            (0..1u32 << 20).map(|i| (i * 31 % 253) as u8).collect(),
            &[("title", "Raw scan"), ("album", "2026")],
        ),
        other => panic!("no shape {other} (small, upload)"),
    };
    let mut parts: Vec<WritePart> = fields
        .iter()
        .map(|&(name, value)| WritePart {
            name,
            filename: None,
            content_type: None,
            data: value.as_bytes(),
        })
        .collect();
    parts.push(WritePart {
        name: "file",
        filename: Some("data.bin"),
        content_type: Some("application/octet-stream"),
        data: &file,
    });
    let body = write(BOUNDARY, &parts).expect("body");
    let answer = Answer {
        fields: fields
            .iter()
            .map(|&(name, value)| Field {
                name: name.into(),
                value: value.into(),
            })
            .collect(),
        files: vec![File {
            name: "file".into(),
            filename: "data.bin".into(),
            size: file.len() as u64,
            sha256: hex(Sha256::new_with_prefix(&file)),
        }],
    };
    (body, serde_json::to_string(&answer).expect("json"))
}

// ---- the servers: the same route, the same work, each with its extractor --------------------

/// The one handler body of both servers: for each part of `$multipart` (from `$next`), its
/// name and filename (`$names`, as `(String, Option<String>)`); a field's text echoed, a file's
/// data hashed chunk by chunk as it arrives.
macro_rules! answer {
    ($multipart:ident.$next:ident(), |$part:ident| $names:expr) => {{
        let mut answer = Answer::default();
        while let Some(mut $part) = $multipart.$next().await? {
            let (name, filename): (String, Option<String>) = $names;
            let Some(filename) = filename else {
                let value = $part.text().await?;
                answer.fields.push(Field { name, value });
                continue;
            };
            let (mut hash, mut size) = (Sha256::new(), 0u64);
            while let Some(chunk) = $part.chunk().await? {
                hash.update(&chunk);
                size += chunk.len() as u64;
            }
            answer.files.push(File {
                name,
                filename,
                size,
                sha256: hex(hash),
            });
        }
        Ok(answer)
    }};
}

/// reqparse's extractor: each chunk is a `Bytes` slice of what the connection read.
async fn upload_reqparse(mut multipart: reqparse::axum::Multipart) -> Result<Answer, Rejection> {
    answer!(multipart.next_part(), |part| (
        part.name().into_owned(),
        part.filename().map(|f| f.as_str().to_owned())
    ))
}

/// axum's extractor (multer): the same loop through its `Field`.
async fn upload_axum(
    mut multipart: axum::extract::Multipart,
) -> Result<Answer, axum::extract::multipart::MultipartError> {
    answer!(multipart.next_field(), |field| (
        field.name().unwrap_or_default().to_owned(),
        field.file_name().map(str::to_owned)
    ))
}

/// reqparse's limits raised to [`LIMIT`] for the body and a file (its others are defaults);
/// axum's body limit raised to the same (reqparse's extractor does not read it: src/axum.rs).
fn app_reqparse() -> Router {
    let config = MultipartConfig {
        limits: MultipartLimits {
            max_body_bytes: LIMIT,
            max_file_bytes: LIMIT,
            ..MultipartLimits::default()
        },
        ..MultipartConfig::default()
    };
    Router::new()
        .route("/upload", post(upload_reqparse).layer(Extension(config)))
        .layer(DefaultBodyLimit::max(LIMIT as usize))
}

/// axum's body limit raised to [`LIMIT`] (its default is 2 MB); multer's own constraints are
/// unlimited as axum builds it.
fn app_axum() -> Router {
    Router::new()
        .route("/upload", post(upload_axum))
        .layer(DefaultBodyLimit::max(LIMIT as usize))
}

fn serve(threads: usize, app: Router) {
    loopback::tokio_server(threads, true, |listener| async move {
        // Small answers go out at once on both (what benches/serve.rs's servers do too).
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, app).await.expect("serve");
    });
}

/// Each shape to both servers, twice on one keep-alive connection: every answer must be 200
/// and the answer computed here, byte for byte (so the two servers' answers are equal too).
fn check() {
    let servers = [
        Server::start("server-reqparse", "1"),
        Server::start("server-axum", "1"),
    ];
    for shape_name in ["small", "upload"] {
        let (body, answer) = shape(shape_name);
        let req = request(BOUNDARY, &body);
        for (server, kind) in servers.iter().zip(["reqparse", "axum"]) {
            let mut w = TcpStream::connect(&server.addr).expect("connect");
            let mut r = BufReader::new(w.try_clone().expect("clone"));
            for _ in 0..2 {
                w.write_all(&req).expect("write");
                let got = read_response(&mut r);
                assert_eq!(
                    got,
                    (200, answer.clone()),
                    "{kind}'s answer to {shape_name}"
                );
            }
        }
        println!(
            "check {shape_name}: {} B body, both answers {} B, equal: {}",
            body.len(),
            answer.len(),
            if answer.len() > 200 {
                &answer[..200]
            } else {
                &answer
            }
        );
    }
}

/// The instructions `valgrind --tool=callgrind` counts in a `kind` server (one worker thread)
/// answering `n` requests of `shape_name` on one connection, startup and exit included: all of
/// them, and those in `sha2::` functions (`callgrind_annotate`'s per-function totals).
fn callgrind_total(kind: &str, shape_name: &str, n: u64) -> (u64, u64) {
    let exe = std::env::current_exe().expect("current_exe");
    let out = std::env::temp_dir().join(format!(
        "reqparse-axum-{}-{kind}-{shape_name}-{n}.callgrind",
        std::process::id()
    ));
    let mut child = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(&exe)
        .args([kind, "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("valgrind (apt-get install valgrind)");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let addr = line(&mut stdout);
    let addr = addr.strip_prefix("ADDR ").expect("ADDR line");
    let (body, answer) = shape(shape_name);
    let req = request(BOUNDARY, &body);
    {
        let mut w = TcpStream::connect(addr).expect("connect");
        let mut r = BufReader::new(w.try_clone().expect("clone"));
        for _ in 0..n {
            w.write_all(&req).expect("write");
            assert_eq!(
                read_response(&mut r),
                (200, answer.clone()),
                "{kind}'s answer"
            );
        }
    }
    drop(child.stdin.take());
    let _ = child.wait();
    let annotated = Command::new("callgrind_annotate")
        .arg("--threshold=100")
        .arg(&out)
        .output()
        .expect("callgrind_annotate");
    let _ = std::fs::remove_file(&out);
    let text = String::from_utf8_lossy(&annotated.stdout);
    // Lines are `1,234,567 (12.34%)  file:function [object]`.
    let count = |l: &str| -> u64 {
        let n = l
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .replace(',', "");
        n.parse().unwrap_or(0)
    };
    let total = text
        .lines()
        .find(|l| l.contains("PROGRAM TOTALS"))
        .map(count)
        .expect("callgrind's total");
    let sha = text
        .lines()
        .filter(|l| l.contains(":sha2::"))
        .map(count)
        .sum();
    (total, sha)
}

fn counts() {
    let ns = std::env::var("REQPARSE_COUNTS_N").unwrap_or_else(|_| "200,4".into());
    let ns: Vec<u64> = ns.split(',').map(|n| n.parse().expect("N")).collect();
    println!("instructions per request (callgrind, user space, server with one worker thread);");
    println!("all of them, then without SHA-256's (the same on both, software under valgrind)");
    println!(
        "{:<8} {:>5} {:>14} {:>14} {:>7} {:>14} {:>14} {:>7}",
        "shape",
        "N",
        "axum+reqparse",
        "axum+multer",
        "ratio",
        "reqparse-sha",
        "multer-sha",
        "ratio"
    );
    for (shape_name, &n) in ["small", "upload"].iter().zip(&ns) {
        let per: Vec<(f64, f64)> = ["server-reqparse", "server-axum"]
            .iter()
            .map(|kind| {
                let (all1, sha1) = callgrind_total(kind, shape_name, n);
                let (all2, sha2) = callgrind_total(kind, shape_name, 2 * n);
                let all = all2.saturating_sub(all1) as f64 / n as f64;
                let sha = sha2.saturating_sub(sha1) as f64 / n as f64;
                (all, all - sha)
            })
            .collect();
        println!(
            "{:<8} {:>5} {:>14.0} {:>14.0} {:>6.2}x {:>14.0} {:>14.0} {:>6.2}x",
            shape_name,
            n,
            per[0].0,
            per[1].0,
            per[1].0 / per[0].0,
            per[0].1,
            per[1].1,
            per[1].1 / per[0].1
        );
    }
}
