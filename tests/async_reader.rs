//! The async readers over a tokio `AsyncRead` (feature `tokio`): every case of
//! `tests/vectors/multipart.json` and `form.json` read through a reader that returns a few
//! bytes per read (and `Pending` between some) gives the sync reader's outcome; a failed read
//! is the source's error, never a wait; a file on disk reads as its bytes.
#![cfg(feature = "tokio")]

mod support;

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use reqparse::stream::{Error, FormConfig, FormPairs, Multipart, MultipartConfig};
use support::body::multipart::{decisions, decode_case, limits, profiles, Decision, Outcome};
use support::stream::{fail, read};
use support::vectors;
use tokio::io::{AsyncRead, ReadBuf};

/// An `AsyncRead` over `data` that returns at most `step` bytes per read, `Pending` (woken at
/// once) before every third read, and `fail`'s error once `data` is read, if any.
struct Trickle {
    data: Vec<u8>,
    at: usize,
    step: usize,
    reads: usize,
    fail: Option<io::ErrorKind>,
}

impl Trickle {
    fn new(data: &[u8], step: usize) -> Self {
        Trickle {
            data: data.to_vec(),
            at: 0,
            step,
            reads: 0,
            fail: None,
        }
    }
}

impl AsyncRead for Trickle {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.reads += 1;
        if self.reads.is_multiple_of(3) {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let n = self
            .step
            .min(self.data.len() - self.at)
            .min(buf.remaining());
        if n == 0 {
            if let Some(kind) = self.fail {
                return Poll::Ready(Err(io::Error::new(kind, "the connection was reset")));
            }
        }
        let at = self.at;
        buf.put_slice(&self.data[at..at + n]);
        self.at += n;
        Poll::Ready(Ok(()))
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The outcome of reading a multipart body from `reader`, the case's decisions applied.
async fn read_multipart<R: AsyncRead>(
    reader: R,
    boundary: &[u8],
    config: MultipartConfig,
    decisions: &[(usize, Decision)],
) -> Outcome {
    match Multipart::from_reader(reader, boundary, config) {
        Ok(multipart) => read(multipart, decisions, |_| {}).await,
        Err(e) => fail(Outcome::default(), e),
    }
}

#[test]
fn multipart_vectors_through_small_reads() {
    let rt = runtime();
    vectors::run("multipart.json", 60, |case, failures| {
        let source = vectors::required(case, "source");
        let boundary = vectors::required(case, "boundary").as_bytes();
        let input = vectors::input_bytes(case);
        let limits = limits(case);
        let decisions = decisions(case);
        for profile in profiles(case) {
            let mut want = decode_case(&[&input], boundary, profile, limits, &decisions);
            want.mime_types.clear();
            let config = MultipartConfig { profile, limits };
            for step in [1, 3, 7, 64 * 1024] {
                let reader = Trickle::new(&input, step);
                let got = rt.block_on(read_multipart(reader, boundary, config, &decisions));
                if got != want {
                    failures.push(format!("{source} [{profile}] reads of {step}: {got:?}"));
                    break;
                }
            }
        }
    });
}

#[test]
fn form_vectors_through_small_reads() {
    let rt = runtime();
    vectors::run("form.json", 10, |case, failures| {
        let source = vectors::required(case, "source");
        let input = vectors::required(case, "input").as_bytes();
        let profile = vectors::profile(case);
        let limits = support::body::form::limits(case);
        let want = support::body::form::decode(&[input], profile, limits);
        let config = FormConfig { profile, limits };
        for step in [1, 5, 64 * 1024] {
            let got = rt.block_on(async {
                FormPairs::from_reader(Trickle::new(input, step), config)
                    .collect()
                    .await
            });
            let same = match (&got, &want) {
                (Ok(pairs), Ok(w)) => {
                    pairs.len() == w.len()
                        && pairs
                            .iter()
                            .zip(w)
                            .all(|((n, v), (wn, wv, _))| n == wn && v == wv)
                }
                (Err(Error::Form(e)), Err((_, offset))) => e.offset == *offset,
                _ => false,
            };
            if !same {
                failures.push(format!("{source}: reads of {step}: {got:?}, want {want:?}"));
                break;
            }
        }
    });
}

#[test]
fn a_failed_read_is_the_sources_error() {
    let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=a\r\n\r\npartial";
    let mut reader = Trickle::new(body, 4);
    reader.fail = Some(io::ErrorKind::ConnectionReset);
    let err = runtime().block_on(async {
        let mut multipart = Multipart::from_reader(reader, b"b", MultipartConfig::default())?;
        let part = multipart.next_part().await?.unwrap();
        part.bytes().await
    });
    let err = err.unwrap_err();
    assert!(matches!(err, Error::Source(_)), "{err:?}");
    assert_eq!(err.status(), 400);
    assert!(
        err.to_string().contains("the connection was reset"),
        "{err}"
    );
}

#[test]
fn a_file_reads_as_its_bytes() {
    let data: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let mut body =
        b"--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"d.bin\"\r\n\r\n".to_vec();
    body.extend_from_slice(&data);
    body.extend_from_slice(b"\r\n--XyZ--\r\n");
    let path = std::env::temp_dir().join(format!("reqparse-reader-{}", std::process::id()));
    std::fs::write(&path, &body).unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let (got, chunks) = rt
        .block_on(async {
            let file = tokio::fs::File::open(&path).await?;
            let mut multipart = Multipart::from_reader(file, b"XyZ", MultipartConfig::default())?;
            let mut part = multipart.next_part().await?.unwrap();
            let (mut got, mut chunks) = (Vec::new(), 0);
            while let Some(chunk) = part.chunk().await? {
                assert!(chunk.len() <= 64 * 1024);
                got.extend_from_slice(&chunk);
                chunks += 1;
            }
            assert!(multipart.next_part().await?.is_none());
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>((got, chunks))
        })
        .unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(got, data);
    assert!(
        chunks >= 5,
        "{chunks} chunks for 300,000 bytes in reads of 64 KiB"
    );
}
