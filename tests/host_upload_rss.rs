//! Uploads stream through `reqparse serve` in bounded memory: a 64 MiB multipart upload by
//! Content-Length and the same chunked, generated as they are sent, each answered with the
//! right size and SHA-256 while the server's resident memory (VmRSS sampled, and the kernel's
//! peak VmHWM) stays within 8 MiB of what it was before the first request.
//!
//! The 1 GiB version of the same proof, with the release binary and from a cold start, is
//! `scripts/upload-rss.py` (numbers in BENCHMARKS.md); this one is small enough for every test
//! run, and measures after a small warm-up upload (see the test).
#![cfg(all(feature = "cli", target_os = "linux"))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use sha2::{Digest, Sha256};

const SIZE: u64 = 64 << 20;
const LIMIT_KIB: u64 = 8 * 1024;
const BOUNDARY: &str = "----reqparse-upload-rss-7d1f0c2a9b";

fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Resets the kernel's peak RSS (VmHWM) to the current RSS; false where that is refused.
fn reset_peak(pid: u32) -> bool {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").is_ok()
}

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reqparse"))
        .args(["serve", "--addr", "127.0.0.1:0", "--threads", "1"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("first stderr line: {line:?}"))
        .to_string();
    Server { child, addr }
}

/// The file data: 64 KiB blocks of xorshift bytes with no CR (no delimiter can appear), each
/// block different, so a block lost or repeated changes the hash.
fn block(n: u64, out: &mut [u8]) {
    let mut x = n.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for b in out {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *b = match x as u8 {
            b'\r' => b'\n',
            v => v,
        };
    }
}

/// Sends one multipart upload of `size` bytes of file data, by length or chunked, and returns
/// the answer's body member, the file's SHA-256 and the peak RSS seen while it ran.
fn upload(server: &Server, chunked: bool, size: u64) -> (serde_json::Value, String, u64) {
    let pid = server.child.id();
    let head_part = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    );
    let tail_part = format!("\r\n--{BOUNDARY}--\r\n");
    let length = head_part.len() as u64 + size + tail_part.len() as u64;
    let coding = if chunked {
        "Transfer-Encoding: chunked".to_string()
    } else {
        format!("Content-Length: {length}")
    };
    let head = format!(
        "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; boundary={BOUNDARY}\r\n\
         {coding}\r\nConnection: close\r\n\r\n"
    );

    let peak_reset = reset_peak(pid);
    let stop = Arc::new(AtomicBool::new(false));
    let sampled = Arc::new(AtomicU64::new(0));
    let sampler = {
        let (stop, sampled) = (stop.clone(), sampled.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                sampled.fetch_max(status_kib(pid, "VmRSS"), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };

    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    let mut send = |piece: &[u8]| {
        if chunked {
            s.write_all(format!("{:x}\r\n", piece.len()).as_bytes())
                .unwrap();
            s.write_all(piece).unwrap();
            s.write_all(b"\r\n").unwrap();
        } else {
            s.write_all(piece).unwrap();
        }
    };
    let mut hash = Sha256::new();
    let mut data = vec![0u8; 64 * 1024];
    send(head_part.as_bytes());
    for n in 0..size / data.len() as u64 {
        block(n, &mut data);
        hash.update(&data);
        send(&data);
    }
    send(tail_part.as_bytes());
    if chunked {
        s.write_all(b"0\r\n\r\n").unwrap();
    }
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();

    stop.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    // Without the reset, VmHWM would hold the start-up peak: the samples alone then.
    let hwm = if peak_reset {
        status_kib(pid, "VmHWM")
    } else {
        0
    };
    let peak = sampled.load(Ordering::Relaxed).max(hwm);
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    let json = answer.split_once("\r\n\r\n").unwrap().1;
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let hex = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(v["body"]["size"], length);
    (v["body"].clone(), hex, peak)
}

#[test]
fn a_64_mib_upload_by_length_and_chunked_streams_in_bounded_memory() {
    let server = serve();
    std::thread::sleep(Duration::from_millis(100));
    let pid = server.child.id();
    // One small upload each way first: what the first request pages in of the binary's code
    // (RssFile: 4 MiB of a debug build with wasmtime linked in) is not what a body costs.
    // scripts/upload-rss.py measures from a cold start, with the release binary.
    for chunked in [false, true] {
        upload(&server, chunked, 64 * 1024);
    }
    let baseline = status_kib(pid, "VmRSS");
    eprintln!(
        "start: RssAnon {} KiB, RssFile {} KiB",
        status_kib(pid, "RssAnon"),
        status_kib(pid, "RssFile")
    );
    for chunked in [false, true] {
        let (body, sha256, peak) = upload(&server, chunked, SIZE);
        let framing = if chunked { "chunked" } else { "length" };
        eprintln!(
            "{framing}: VmRSS {baseline} KiB before, peak {peak} KiB; now RssAnon {} KiB, RssFile {} KiB",
            status_kib(pid, "RssAnon"),
            status_kib(pid, "RssFile")
        );
        assert_eq!(body["framing"], framing);
        assert_eq!(body["error"], serde_json::Value::Null, "{body}");
        let part = &body["parts"][0];
        assert_eq!(part["filename"], "big.bin");
        assert_eq!(part["size"], SIZE);
        assert_eq!(part["sha256"], sha256.as_str(), "{framing}");
        assert!(
            peak < baseline + LIMIT_KIB,
            "{framing}: RSS grew from {baseline} KiB to {peak} KiB"
        );
    }
}
