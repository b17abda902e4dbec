//! Heap requests (allocations and reallocations) per body and per part of each reader, over
//! the same chunks: fields-100, files-100 and file-100MiB, in 64 KiB and in 1-byte chunks.
//! Run from benches/peers (readers named after it: only those):
//!
//!     cargo run --release --ignore-rust-version --example alloc_counts [reqparse-async ...]
//!
//! Counted on the reading thread with a counting global allocator
//! (`tests/support/alloc.rs`), the chunks made outside the count (slices of one buffer, made
//! as they are asked for). What the harness itself allocates (each part's name and filename
//! as `String`s, the list of parts) is counted apart and taken off, so a row is the reader's
//! own: its state, what it hands out, what it buffers.

#[path = "../../tests/support/alloc.rs"]
#[allow(dead_code)]
mod alloc;
#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

// The bench's shapes and chunkings by name are the bench's.
#[allow(dead_code)]
mod common;
use common::{run, shape, sliced, PartOut, Work, IMPLS};

/// What the harness allocates for `parts`: the `String`s and the `Vec`'s growth, as the
/// readers' loops push them.
fn harness(parts: &[PartOut]) -> usize {
    alloc::count(|| {
        let mut out = Vec::new();
        for p in parts {
            out.push(PartOut {
                name: p.name.as_str().to_owned(),
                filename: p.filename.as_deref().map(str::to_owned),
                size: 0,
                fnv: 0,
            });
        }
        out
    })
    .0
}

fn main() {
    let only: Vec<String> = std::env::args().skip(1).collect();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    println!("| body | chunks | reader | allocations per body | per part |");
    println!("|---|---|---|---:|---:|");
    for name in ["fields-100", "files-100", "file-100MiB"] {
        let body = bytes::Bytes::from(shape(name, 100 << 20));
        for (label, read) in [("64 KiB", 64 << 10), ("1 B", 1)] {
            let want = run("reqparse", &rt, sliced(&body, read), Work::Count);
            let base = harness(&want);
            for imp in IMPLS
                .into_iter()
                .filter(|i| only.is_empty() || only.iter().any(|o| o == i))
            {
                // Warm once (the runtime's and the allocator's first-use costs), then count.
                let _ = run(imp, &rt, sliced(&body, read), Work::Count);
                let (n, got) = alloc::count(|| run(imp, &rt, sliced(&body, read), Work::Count));
                assert_eq!(got, want, "{imp}, {name} in {label} chunks");
                let own = n.saturating_sub(base);
                println!(
                    "| {name} | {label} | {imp} | {own} | {:.2} |",
                    own as f64 / want.len() as f64
                );
            }
        }
    }
}
