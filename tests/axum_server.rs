//! The axum extractors (feature `axum`) in a real axum server over loopback: an upload
//! answered 200 with each file's SHA-256, a limit 413, a malformed body 400 and another media
//! type 415, each with the error's text; the same for the urlencoded `Form`; limits set per
//! route with an `Extension`.
#![cfg(feature = "axum")]

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

use axum::routing::post;
use axum::{Extension, Router};
use reqparse::axum::{Form, FormConfig, Multipart, MultipartConfig, Rejection};
use reqparse::body::form::FormLimits;
use reqparse::body::multipart::MultipartLimits;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Each part: its name, and its size and SHA-256 read chunk by chunk (a file) or its text.
async fn upload(mut multipart: Multipart) -> Result<String, Rejection> {
    let mut report = String::new();
    while let Some(mut part) = multipart.next_part().await? {
        let name = part.name().into_owned();
        if part.filename().is_none() {
            let _ = writeln!(report, "{name}={}", part.text().await?);
            continue;
        }
        let (mut hash, mut size) = (Sha256::new(), 0);
        while let Some(chunk) = part.chunk().await? {
            hash.update(&chunk);
            size += chunk.len();
        }
        let _ = writeln!(report, "{name}: {size} bytes, sha256 {:x}", hash.finalize());
    }
    Ok(report)
}

async fn form(Form(pairs): Form) -> String {
    pairs.iter().map(|(n, v)| format!("{n}={v}\n")).collect()
}

fn app() -> Router {
    let small = MultipartConfig {
        limits: MultipartLimits {
            max_body_bytes: 1024,
            ..MultipartLimits::default()
        },
        ..MultipartConfig::default()
    };
    let few = FormConfig {
        limits: FormLimits {
            max_pairs: 2,
            ..FormLimits::default()
        },
        ..FormConfig::default()
    };
    Router::new()
        .route("/upload", post(upload))
        .route("/small", post(upload).layer(Extension(small)))
        .route("/form", post(form))
        .route("/few", post(form).layer(Extension(few)))
}

/// One request on a new connection; the status and the body of the answer.
async fn request(addr: SocketAddr, path: &str, content_type: &str, body: &[u8]) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {content_type}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {answer:?}"));
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body.to_owned())
}

fn multipart_body(file: &[u8]) -> Vec<u8> {
    let mut body = b"--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n\
        --XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\
        Content-Type: image/jpeg\r\n\r\n"
        .to_vec();
    body.extend_from_slice(file);
    body.extend_from_slice(b"\r\n--XyZ--\r\n");
    body
}

const MULTIPART: &str = "multipart/form-data; boundary=XyZ";
const FORM: &str = "application/x-www-form-urlencoded";

#[test]
fn answers_200_413_400_and_415() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move { axum::serve(listener, app()).await });
        let cases = async {
            let file: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
            let (status, text) = request(addr, "/upload", MULTIPART, &multipart_body(&file)).await;
            assert_eq!(status, 200, "{text}");
            let sha = format!("{:x}", Sha256::digest(&file));
            assert_eq!(
                text,
                format!("title=Holiday\nphoto: 200000 bytes, sha256 {sha}\n")
            );

            let (status, text) =
                request(addr, "/small", MULTIPART, &multipart_body(&[b'x'; 2000])).await;
            assert_eq!(
                (status, text.as_str()),
                (
                    413,
                    "multipart body over max_body_bytes at byte 1024 (part 1)"
                )
            );

            let bad = b"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\nx\r\n\r\n1\r\n--XyZ--";
            let (status, text) = request(addr, "/upload", MULTIPART, bad).await;
            assert_eq!(
                (status, text.as_str()),
                (400, "bare LF in a part's headers at byte 47 (part 0)")
            );

            let (status, text) = request(addr, "/upload", "multipart/form-data", b"").await;
            assert_eq!(status, 400, "{text}");

            let (status, text) = request(addr, "/upload", "text/plain", b"x").await;
            assert_eq!(
                (status, text.as_str()),
                (415, "Content-Type is not multipart/form-data at byte 0")
            );

            let (status, text) = request(addr, "/form", FORM, b"a=1&b=x+y").await;
            assert_eq!((status, text.as_str()), (200, "a=1\nb=x y\n"));

            let (status, text) = request(addr, "/few", FORM, b"a=1&b=2&c=3").await;
            assert_eq!(
                (status, text.as_str()),
                (413, "form body over max_pairs at byte 8")
            );

            let (status, text) = request(addr, "/form", "application/json", b"{}").await;
            assert_eq!(status, 415, "{text}");
        };
        tokio::time::timeout(Duration::from_secs(60), cases)
            .await
            .expect("the server answered within 60 s");
        server.abort();
    });
}
