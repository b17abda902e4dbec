//! The chunked decoder against `tests/vectors/chunked.json`, whole and split into reads at
//! every point (and one byte at a time), plus a property test of split invariance on
//! generated bodies and the allocation count of the data path.

mod support;

use proptest::prelude::*;
use reqparse::body::chunked::{Chunk, ChunkedDecoder, ChunkedLimits};
use support::body::chunked::{decode, expected, limits};
use support::vectors;

#[global_allocator]
static GLOBAL: support::alloc::Counting = support::alloc::Counting;

#[test]
fn vectors_whole_and_split() {
    vectors::run("chunked.json", 40, |case, failures| {
        let source = vectors::required(case, "source");
        let input = vectors::input_bytes(case);
        let limits = limits(case);
        let whole = decode(&[&input], limits);
        let want = expected(case, input.len() as u64);
        if whole.shape() != want {
            failures.push(format!("{source}: got {} want {want}", whole.shape()));
            return;
        }
        // Every split into two reads, and one byte at a time: the same outcome.
        for at in 0..=input.len() {
            let (a, b) = input.split_at(at);
            let split = decode(&[a, b], limits);
            if split != whole {
                failures.push(format!("{source}: split at {at}: {split:?}"));
                return;
            }
        }
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        if decode(&bytes, limits) != whole {
            failures.push(format!("{source}: one byte at a time differs"));
        }
    });
}

#[test]
fn data_path_allocates_nothing() {
    let body = b"5;a=b\r\nhello\r\n10\r\n0123456789abcdef\r\n0\r\nX: y\r\n\r\n";
    let (n, events) = support::alloc::count(|| {
        let mut decoder = ChunkedDecoder::default();
        let (mut input, mut events) = (&body[..], 0);
        while let Ok(step) = decoder.decode(input) {
            input = &input[step.consumed..];
            events += 1;
            if matches!(step.event, Some(Chunk::End) | None) {
                break;
            }
        }
        events
    });
    assert_eq!((n, events), (0, 4));
}

/// A chunked body: chunks of the given data with optional extensions, then trailers.
fn body() -> impl Strategy<Value = Vec<u8>> {
    let chunk = (
        prop::collection::vec(any::<u8>(), 1..40),
        prop::option::of("[a-z]{1,6}(=[a-z0-9]{1,4})?"),
    );
    let trailer = ("[A-Za-z-]{1,8}", "[ -~]{0,12}");
    (
        prop::collection::vec(chunk, 0..6),
        prop::collection::vec(trailer, 0..3),
    )
        .prop_map(|(chunks, trailers)| {
            let mut b = Vec::new();
            for (data, ext) in chunks {
                b.extend_from_slice(format!("{:x}", data.len()).as_bytes());
                if let Some(ext) = ext {
                    b.extend_from_slice(format!(";{ext}").as_bytes());
                }
                b.extend_from_slice(b"\r\n");
                b.extend_from_slice(&data);
                b.extend_from_slice(b"\r\n");
            }
            b.extend_from_slice(b"0\r\n");
            for (n, v) in trailers {
                b.extend_from_slice(format!("{n}: {v}\r\n").as_bytes());
            }
            b.extend_from_slice(b"\r\n");
            b
        })
}

/// A body, sometimes with one byte changed: errors must be split-invariant too.
fn maybe_broken() -> impl Strategy<Value = Vec<u8>> {
    (body(), any::<Option<(prop::sample::Index, u8)>>()).prop_map(|(mut b, change)| {
        if let Some((at, byte)) = change {
            let i = at.index(b.len());
            b[i] = [b'\r', b'\n', b';', b' ', b'"', b'0', b'g', byte][usize::from(byte % 8)];
        }
        b
    })
}

proptest! {
    #[test]
    fn split_invariance(input in maybe_broken(), cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6)) {
        let limits = ChunkedLimits::default();
        let whole = decode(&[&input], limits);
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(input.len() + 1)).collect();
        points.sort_unstable();
        let mut reads = Vec::new();
        let mut last = 0;
        for p in points {
            reads.push(&input[last..p]);
            last = p;
        }
        reads.push(&input[last..]);
        prop_assert_eq!(&decode(&reads, limits), &whole);
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        prop_assert_eq!(&decode(&bytes, limits), &whole);
    }

    #[test]
    fn generated_bodies_decode(input in body()) {
        let out = decode(&[&input], ChunkedLimits::default());
        prop_assert_eq!(out.error, None);
        prop_assert_eq!(out.consumed, input.len() as u64);
    }
}
