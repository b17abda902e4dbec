//! The async multipart readers side by side, over the same `Stream` of `Bytes` chunks on the
//! same current-thread tokio runtime: `reqparse-async` (`reqparse::stream::Multipart`),
//! `reqparse` (the sync `MultipartReader` over the same chunks), `s3s-multipart` 0.17 and
//! `multer` 3. Run (from benches/peers; s3s-multipart declares rust-version 1.96):
//!
//!     cargo bench --ignore-rust-version
//!
//! Ids are `peers/<impl>/<shape>-<chunks>` (64KiB, 1KiB, 1B; the 100 MiB file not in 1-byte
//! chunks: a hundred million `Bytes` would not fit in memory), as `benches/body.rs` names
//! them, and the harness is its (`benches/support/mod.rs`): criterion by default,
//! `REQPARSE_COUNT=<id>` to run one case under callgrind, `REQPARSE_COUNT=list` to list them.
//! Before anything is timed, every reader's answer (each part's name, filename, size and an
//! FNV-1a checksum of its data) is asserted equal to the sync reader's.

use std::hint::black_box;

use criterion::Throughput;

#[path = "../support/mod.rs"]
mod support;
use support::Suite;

mod common;
use common::{run, shape, Work, IMPLS, READS, SHAPES};

/// Whether `input` is built: all of them, except when one case is counted under callgrind
/// (`REQPARSE_COUNT=<id>`), where building (and checking) bodies it does not run would take
/// minutes.
fn wanted(input: &str) -> bool {
    match std::env::var("REQPARSE_COUNT") {
        Ok(id) if id != "list" => id.ends_with(&format!("/{input}")),
        _ => true,
    }
}

/// The large file's size: 100 MiB, or `REQPARSE_PEERS_LARGE` bytes (a quick check of the
/// harness).
fn large() -> usize {
    std::env::var("REQPARSE_PEERS_LARGE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100 << 20)
}

fn build(s: &mut Suite) {
    let rt: &'static tokio::runtime::Runtime = Box::leak(Box::new(
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap(),
    ));
    for name in SHAPES {
        for (suffix, read) in READS {
            if name.starts_with("file-100MiB") && read == 1 {
                continue;
            }
            let input = format!("{name}-{suffix}");
            if !wanted(&input) {
                continue;
            }
            let body = shape(name, large());
            let len = body.len() as u64;
            let chunks: &'static [bytes::Bytes] =
                Box::leak(common::chunks(body, read).into_boxed_slice());
            let ours = run("reqparse", rt, chunks.iter().cloned(), Work::Check);
            for imp in IMPLS {
                let theirs = run(imp, rt, chunks.iter().cloned(), Work::Check);
                assert_eq!(ours, theirs, "{imp}, {input}");
            }
            eprintln!(
                "peers/*/{input}: {} parts, {} data bytes, all agree",
                ours.len(),
                ours.iter().map(|p| p.size).sum::<u64>()
            );
            for imp in IMPLS {
                let t = Some(Throughput::Bytes(len));
                s.add("peers", imp, &input, t, move || {
                    run(imp, rt, black_box(chunks).iter().cloned(), Work::Count)
                });
            }
        }
    }
}

fn main() {
    support::main(build);
}
