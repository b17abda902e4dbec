//! An upload endpoint on the host shim: `POST /upload` with a `multipart/form-data` body answers
//! one line per file part, `<sha256>  <size>  <filename>`, computed while the data streams in
//! (nothing is buffered: a 1 GiB file costs the same memory as a 1 KiB one). Anything else is
//! a 404; an upload that is not multipart is a 415.
//!
//! ```text
//! cargo run --example upload_hash --features host -- 127.0.0.1:8081
//! curl -F file=@photo.jpg -F other=@notes.txt http://127.0.0.1:8081/upload
//! ```

use std::fmt::Write as _;

use reqparse::host::{BodyEvent, Config, Handler, Head, Reading, Response, Server, Service};
use sha2::{Digest, Sha256};

/// The handler: shared by the loops, it only makes one `Hasher` per loop.
pub struct UploadHash;

impl Handler for UploadHash {
    type Service = Hasher;

    fn service(&self) -> std::io::Result<Hasher> {
        Ok(Hasher)
    }
}

/// One loop's service: it keeps nothing between requests.
pub struct Hasher;

/// One request while its body arrives.
pub enum Upload {
    NotFound,
    /// The lines so far, and the file part being hashed.
    Files {
        lines: String,
        current: Option<(String, u64, Sha256)>,
        error: Option<String>,
        multipart: bool,
    },
}

impl Service for Hasher {
    type Exchange = Upload;

    fn head(&mut self, head: &Head<'_>) -> (Upload, Reading) {
        let exchange = if head.method == "POST" && head.path() == "/upload" {
            Upload::Files {
                lines: String::new(),
                current: None,
                error: None,
                multipart: false,
            }
        } else {
            Upload::NotFound
        };
        // Parse: the shim runs the multipart reader and hands over parts and their data.
        (exchange, Reading::Parse)
    }

    fn body(&mut self, upload: &mut Upload, event: BodyEvent<'_>) {
        let Upload::Files {
            lines,
            current,
            error,
            multipart,
        } = upload
        else {
            return; // a 404's body is read and dropped
        };
        match event {
            BodyEvent::Part(part) => {
                *multipart = true;
                // Only file parts are hashed; text fields are skipped.
                *current = part.filename().map(|name| {
                    // A basename, so `C:\photos\a.jpg` or `../a.jpg` print as `a.jpg`.
                    (name.basename().to_string(), 0, Sha256::new())
                });
            }
            BodyEvent::PartData(data) => {
                if let Some((_, size, hash)) = current {
                    *size += data.len() as u64;
                    hash.update(data);
                }
            }
            BodyEvent::PartEnd => {
                if let Some((name, size, hash)) = current.take() {
                    let hex: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
                    let _ = writeln!(lines, "{hex}  {size}  {name}");
                }
            }
            BodyEvent::Invalid(e) => *error = Some(e.to_string()),
            BodyEvent::Data(_)
            | BodyEvent::Pair(_)
            | BodyEvent::Trailer { .. }
            | BodyEvent::End { .. } => {}
        }
    }

    fn respond(&mut self, upload: Upload, response: &mut Response<'_>) {
        let text = "text/plain; charset=utf-8";
        let sent = match upload {
            Upload::NotFound => response.send(404, "Not Found", text, b"try POST /upload\n"),
            Upload::Files { error: Some(e), .. } => {
                response.send(400, "Bad Request", text, format!("{e}\n").as_bytes())
            }
            Upload::Files {
                multipart: false, ..
            } => response.send(
                415,
                "Unsupported Media Type",
                text,
                b"send multipart/form-data\n",
            ),
            Upload::Files { lines, .. } => response.send(200, "OK", text, lines.as_bytes()),
        };
        // Every status and header above is valid; a refusal would be a bug here.
        sent.expect("a valid response");
    }
}

fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8081".into());
    let config = Config {
        addr: addr
            .parse()
            .map_err(|e| std::io::Error::other(format!("{addr}: {e}")))?,
        ..Config::default()
    };
    let server = Server::bind(config)?;
    eprintln!(
        "upload_hash listening on http://{}/upload",
        server.local_addr()
    );
    server.run_with(&UploadHash)
}
