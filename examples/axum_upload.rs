//! An axum upload endpoint on `reqparse::axum::Multipart`: each file part is streamed, chunk
//! by chunk as it arrives, to a SHA-256 and to a file in a temporary folder; form values are
//! read as text. Limits are set on the route with an `Extension`.
//!
//! ```text
//! cargo run --example axum_upload --features axum            # serves http://127.0.0.1:3000
//! curl -F title=Holiday -F photo=@Cargo.toml http://127.0.0.1:3000/upload
//! cargo run --example axum_upload --features axum -- --demo  # uploads a sample to itself, exits
//! ```
//!
//! A file's name is the client's, never a path to open: it is saved under its
//! `Filename::portable` reading (no directories, no device names), prefixed with the part's
//! number. A body over the limits is answered 413, a malformed one 400, each with the error's
//! text, which names the limit and the part (`multipart body over max_part_bytes at byte
//! 1048736 (part 1)`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Extension, Router};
use reqparse::axum::{Multipart, MultipartConfig, Rejection};
use reqparse::body::multipart::MultipartLimits;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Where the files go.
#[derive(Clone)]
struct Uploads(Arc<PathBuf>);

/// What stops an upload: the body (413, 400: the reader's own answer) or the disk (500).
enum UploadError {
    Body(Rejection),
    Disk(std::io::Error),
}

impl From<Rejection> for UploadError {
    fn from(e: Rejection) -> Self {
        UploadError::Body(e)
    }
}

impl From<reqparse::axum::Error> for UploadError {
    fn from(e: reqparse::axum::Error) -> Self {
        UploadError::Body(e.into())
    }
}

impl From<std::io::Error> for UploadError {
    fn from(e: std::io::Error) -> Self {
        UploadError::Disk(e)
    }
}

impl IntoResponse for UploadError {
    fn into_response(self) -> Response {
        match self {
            UploadError::Body(e) => e.into_response(),
            UploadError::Disk(e) => {
                (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response()
            }
        }
    }
}

async fn upload(
    Extension(Uploads(dir)): Extension<Uploads>,
    mut multipart: Multipart,
) -> Result<String, UploadError> {
    let mut report = String::new();
    while let Some(mut part) = multipart.next_part().await? {
        let name = part.name().into_owned();
        let Some(filename) = part.filename().map(|f| f.portable()) else {
            // A value: bounded by max_value_bytes, all of them by max_text_bytes.
            let _ = writeln!(report, "{name} = {:?}", part.text().await?);
            continue;
        };
        // Decided from the part's headers, before its data: executables are not kept (read
        // past, under the body's limit only), avatars are small (413 past 1 MiB).
        if filename.to_ascii_lowercase().ends_with(".exe") {
            let _ = writeln!(report, "{name}: {filename} skipped");
            part.skip();
            continue;
        }
        if name == "avatar" {
            part.set_limit(1 << 20);
        }
        let path = dir.join(format!("{}-{filename}", part.index()));
        let mut file = tokio::fs::File::create(&path).await?;
        let (mut hash, mut size) = (Sha256::new(), 0u64);
        // Each chunk is a slice of what the connection read: hashed and written, not copied.
        while let Some(chunk) = part.chunk().await? {
            hash.update(&chunk);
            file.write_all(&chunk).await?;
            size += chunk.len() as u64;
        }
        file.flush().await?;
        let _ = writeln!(
            report,
            "{name}: {} ({size} bytes, sha256 {:x})",
            path.display(),
            hash.finalize()
        );
    }
    Ok(report)
}

fn app(dir: PathBuf) -> Router {
    let config = MultipartConfig {
        limits: MultipartLimits {
            max_body_bytes: 64 << 20,
            max_parts: 32,
            max_files: 8,
            max_file_bytes: 32 << 20,
            ..MultipartLimits::default()
        },
        ..MultipartConfig::default()
    };
    Router::new()
        .route("/upload", post(upload).layer(Extension(config)))
        .layer(Extension(Uploads(Arc::new(dir))))
}

/// `--demo`: one upload to the server just started, its answer printed.
async fn demo(addr: std::net::SocketAddr) -> std::io::Result<String> {
    let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n\
        --XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"C:\\\\photos\\\\beach.jpg\"\r\n\
        Content-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0 not really a JPEG\r\n--XyZ--\r\n";
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let head = format!(
        "POST /upload HTTP/1.1\r\nHost: {addr}\r\nContent-Type: multipart/form-data; boundary=XyZ\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body).await?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await?;
    Ok(answer)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let demo_run = std::env::args().any(|a| a == "--demo");
    let addr = std::env::args()
        .skip(1)
        .find(|a| a != "--demo")
        .unwrap_or_else(|| {
            if demo_run {
                "127.0.0.1:0"
            } else {
                "127.0.0.1:3000"
            }
            .into()
        });
    let dir = std::env::temp_dir().join(format!("reqparse-axum-upload-{}", std::process::id()));
    tokio::fs::create_dir_all(&dir).await?;
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let local = listener.local_addr()?;
    eprintln!("files go to {}", dir.display());
    if !demo_run {
        eprintln!("listening on http://{local}/upload");
        return axum::serve(listener, app(dir)).await;
    }
    let serve = axum::serve(listener, app(dir.clone()));
    let server = tokio::spawn(async move { serve.await });
    let answer = demo(local).await?;
    server.abort();
    println!("{answer}");
    tokio::fs::remove_dir_all(&dir).await?;
    if answer.starts_with("HTTP/1.1 200") {
        Ok(())
    } else {
        Err(std::io::Error::other("the upload was refused"))
    }
}
