//! The async multipart reader (feature `async`): every case of `tests/vectors/multipart.json`
//! in random chunkings (one byte at a time included, with `Pending`s between chunks) gives the
//! sync reader's outcome; data comes out as slices of the source's chunks, and the data path
//! allocates nothing once warm; a dropped part is skipped; a part handed off with
//! `into_stream` is read elsewhere while the reader waits for it; and no body, truncated or
//! malformed, makes the reader wait forever.
#![cfg(feature = "async")]

mod support;

use bytes::Bytes;
use reqparse::body::multipart::{MultipartErrorKind, MultipartLimit, MultipartLimits, Profile};
use reqparse::stream::{Error, Multipart, MultipartConfig, Stream};
use support::body::multipart::{
    decisions, decode, decode_case, expected, limits, profiles, Decision, Outcome,
};
use support::stream::{chunkings, fail, read, run, Chunks, Rng};
use support::vectors;

#[global_allocator]
static GLOBAL: support::alloc::Counting = support::alloc::Counting;

/// The async reader over `chunks`.
fn read_chunks(
    chunks: Vec<Bytes>,
    pending: bool,
    boundary: &[u8],
    config: MultipartConfig,
    decisions: &[(usize, Decision)],
    check: impl FnMut(&Bytes),
) -> Outcome {
    match Multipart::with_config(Chunks::new(chunks, pending), boundary, config) {
        Ok(multipart) => run(read(multipart, decisions, check)),
        Err(e) => fail(Outcome::default(), e),
    }
}

#[test]
fn vectors_in_random_chunkings() {
    let mut seed = 0;
    vectors::run("multipart.json", 60, |case, failures| {
        let source = vectors::required(case, "source");
        let boundary = vectors::required(case, "boundary").as_bytes();
        let input = vectors::input_bytes(case);
        let limits = limits(case);
        let want = expected(case);
        let decisions = decisions(case);
        for profile in profiles(case) {
            let mut whole = decode_case(&[&input], boundary, profile, limits, &decisions);
            // The async reader's outcome is compared without MIME types.
            whole.mime_types.clear();
            if whole.shape() != want {
                failures.push(format!(
                    "{source} [{profile}]: the sync reader: {}",
                    whole.shape()
                ));
                continue;
            }
            seed += 1;
            let config = MultipartConfig { profile, limits };
            for (i, (label, chunks)) in chunkings(&input, seed, 12).into_iter().enumerate() {
                let got = read_chunks(chunks, i % 2 == 1, boundary, config, &decisions, |_| {});
                if got != whole {
                    failures.push(format!(
                        "{source} [{profile}] {label}: got {} want {}",
                        got.shape(),
                        whole.shape()
                    ));
                    break;
                }
            }
        }
    });
}

/// Whether `data` lies inside one of `chunks` (in ascending address order, as slices of one
/// `Bytes` are), by address: the same allocation, not a copy.
fn inside(data: &Bytes, chunks: &[Bytes]) -> bool {
    let (start, end) = (data.as_ptr() as usize, data.as_ptr() as usize + data.len());
    let at = chunks.partition_point(|c| c.as_ptr() as usize + c.len() < end);
    chunks.get(at).is_some_and(|c| {
        let (a, b) = (c.as_ptr() as usize, c.as_ptr() as usize + c.len());
        a <= start && end <= b
    })
}

/// `input` in chunks of `min..min + spread` bytes, slices of one `Bytes`.
fn chunks_of(input: &Bytes, rng: &mut Rng, min: usize, spread: usize) -> Vec<Bytes> {
    let mut chunks = Vec::new();
    let mut at = 0;
    while at < input.len() {
        let end = (at + min + rng.below(spread)).min(input.len());
        chunks.push(input.slice(at..end));
        at = end;
    }
    chunks
}

#[test]
fn data_are_slices_of_the_source_chunks() {
    // In chunks no shorter than the delimiter, the bytes a chunk's end holds back (the first
    // bytes of what may be a delimiter) come from that one chunk, and are handed out as a
    // slice of it too: every piece of data shares the source's allocation. The chunks arrive
    // one at a time (`Pending` between them), as they are under 256 bytes: tiny chunks ready
    // together are gathered (`small_chunks_ready_together_are_gathered`).
    let mut rng = Rng::new(7);
    let mut pieces = 0;
    vectors::run("multipart.json", 60, |case, failures| {
        let source = vectors::required(case, "source");
        let boundary = vectors::required(case, "boundary").as_bytes();
        let input = Bytes::from(vectors::input_bytes(case));
        let n = boundary.len() + 4;
        for profile in profiles(case) {
            let config = MultipartConfig {
                profile,
                limits: limits(case),
            };
            for _ in 0..8 {
                let chunks = chunks_of(&input, &mut rng, n, 24);
                let mut outside = 0;
                read_chunks(chunks.clone(), true, boundary, config, &[], |data| {
                    pieces += 1;
                    outside += usize::from(!inside(data, &chunks));
                });
                if outside > 0 {
                    failures.push(format!("{source} [{profile}]: {outside} pieces copied"));
                }
            }
        }
    });
    assert!(pieces > 1000, "{pieces} pieces");
}

/// A body with one file part of `size` bytes of `pattern` (near misses of the delimiter
/// `\r\n--XyZ0123`), a value before it and one after.
fn upload(size: usize, pattern: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let data: Vec<u8> = pattern.iter().copied().cycle().take(size).collect();
    let mut body =
        b"--XyZ0123\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n\
        --XyZ0123\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n\
        Content-Type: application/octet-stream\r\n\r\n"
            .to_vec();
    body.extend_from_slice(&data);
    body.extend_from_slice(
        b"\r\n--XyZ0123\r\nContent-Disposition: form-data; name=\"after\"\r\n\r\nyes\r\n--XyZ0123--\r\n",
    );
    (body, data)
}

#[test]
fn big_file_is_sliced_from_its_chunks_whatever_the_cuts() {
    // Chunk sizes coprime with the pattern's period: chunks end after every prefix of the
    // delimiter's near misses (`\r`, `\r\n`, `\r\n-`, … `\r\n--XyZ012`).
    // Chunks under 256 bytes arrive one at a time (`Pending` between them): ready together,
    // they would be gathered (`small_chunks_ready_together_are_gathered`).
    let (body, data) = upload(300_000, b"ab\r\n--XyZ012x\r\r\n-");
    let body = Bytes::from(body);
    for size in [10, 13, 64, 256, 1000, 4099, 16384] {
        let chunks: Vec<Bytes> = (0..body.len())
            .step_by(size)
            .map(|at| body.slice(at..(at + size).min(body.len())))
            .collect();
        let mut outside = 0;
        let out = read_chunks(
            chunks.clone(),
            size < 256,
            b"XyZ0123",
            MultipartConfig::default(),
            &[],
            |d| {
                outside += usize::from(!inside(d, &chunks));
            },
        );
        assert_eq!(out.error, None, "chunks of {size}");
        assert_eq!(out.parts.len(), 3);
        assert!(
            out.parts[1].data == data,
            "chunks of {size}: the file differs"
        );
        assert_eq!(outside, 0, "chunks of {size}: {outside} pieces copied");
    }
}

#[test]
fn small_chunks_ready_together_are_gathered() {
    // The rule of the module documentation ("Zero copy"): a chunk under 256 bytes with the
    // next one ready is copied with the small chunks ready after it into one buffer of at
    // most 4 KiB; 256 bytes or more, or a chunk the source answers `Pending` after, is read
    // where it is. (Chunks shorter than the delimiter are left out: the bytes held across
    // several of them are copied whether gathered or not.)
    let (body, data) = upload(100_000, b"ab\r\n--XyZ012x\r\r\n-");
    let body = Bytes::from(body);
    for (size, pending, gathered) in [
        (1, false, true),
        (255, false, true),
        (255, true, false),
        (256, false, false),
    ] {
        let chunks: Vec<Bytes> = (0..body.len())
            .step_by(size)
            .map(|at| body.slice(at..(at + size).min(body.len())))
            .collect();
        let (mut pieces, mut outside, mut longest) = (0, 0, 0);
        let out = read_chunks(
            chunks.clone(),
            pending,
            b"XyZ0123",
            MultipartConfig::default(),
            &[],
            |d| {
                pieces += 1;
                outside += usize::from(!inside(d, &chunks));
                longest = longest.max(d.len());
            },
        );
        let case = format!("chunks of {size}, pending {pending}");
        assert_eq!(out.error, None, "{case}");
        assert!(out.parts[1].data == data, "{case}: the file differs");
        if gathered {
            // Every piece is a slice of a gathered buffer: none of the source's chunks.
            assert_eq!(
                outside, pieces,
                "{case}: {outside} of {pieces} pieces copied"
            );
            assert!(
                longest > size && longest <= 4096,
                "{case}: longest piece {longest}"
            );
        } else {
            assert_eq!(outside, 0, "{case}: {outside} of {pieces} pieces copied");
            assert!(longest <= size, "{case}: longest piece {longest}");
        }
    }
}

#[test]
fn steady_state_data_path_allocates_nothing() {
    let (body, data) = upload(2 << 20, b"ab\r\n--XyZ012x\r\r\n-");
    let body = Bytes::from(body);
    // Slices of one `Bytes`, made before counting (a server's reads share its buffer).
    let chunks: Vec<Bytes> = (0..body.len())
        .step_by(16 * 1024 + 7)
        .map(|at| body.slice(at..(at + 16 * 1024 + 7).min(body.len())))
        .collect();
    let count = chunks.len();
    run(async move {
        let mut multipart = Multipart::new(Chunks::new(chunks, false), b"XyZ0123").unwrap();
        // Dropped unread (a `Part` only borrows the reader: `let _` ends it here).
        let _ = multipart.next_part().await.unwrap().unwrap();
        let mut part = multipart.next_part().await.unwrap().unwrap();
        let mut read = 0;
        // Warm up: the window's buffer takes its size at the first chunk that ends in a
        // delimiter's first bytes.
        while read < 256 * 1024 {
            read += part.chunk().await.unwrap().unwrap().len();
        }
        let mut pieces = 0;
        let (allocations, ()) = support::alloc::count(|| {
            // One poll at a time, on this thread: every chunk is ready.
            let waker = std::task::Waker::noop();
            let mut cx = std::task::Context::from_waker(waker);
            loop {
                match part.poll_chunk(&mut cx) {
                    std::task::Poll::Ready(Ok(Some(d))) => {
                        read += d.len();
                        pieces += 1;
                    }
                    std::task::Poll::Ready(Ok(None)) => break,
                    other => panic!("{other:?}"),
                }
            }
        });
        assert_eq!(read, data.len());
        assert!(pieces > count, "{pieces} pieces from {count} chunks");
        assert_eq!(
            allocations, 0,
            "{allocations} allocations for {pieces} pieces"
        );
    });
}

#[test]
fn a_dropped_part_is_skipped() {
    let (body, _) = upload(100_000, b"0123456789\r\n");
    let body = Bytes::from(body);
    for size in [1, 7, 1000] {
        let chunks = (0..body.len())
            .step_by(size)
            .map(|at| body.slice(at..(at + size).min(body.len())))
            .collect();
        run(async {
            let mut multipart = Multipart::new(Chunks::new(chunks, true), b"XyZ0123").unwrap();
            // Dropped unread (a `Part` only borrows the reader: `let _` ends it here).
            let _ = multipart.next_part().await.unwrap();
            let mut file = multipart.next_part().await.unwrap().unwrap();
            assert_eq!(file.name(), "file");
            // Mid-data: one piece read, the rest left.
            assert!(file.chunk().await.unwrap().is_some());
            // `file` is not used again: its borrow ends, the rest is skipped.
            let after = multipart.next_part().await.unwrap().unwrap();
            assert_eq!((after.index(), after.name()), (2, "after".into()));
            assert_eq!(after.text().await.unwrap(), "yes");
            assert!(multipart.next_part().await.unwrap().is_none());
            // After the end: the end again.
            assert!(multipart.next_part().await.unwrap().is_none());
        });
    }
}

#[test]
fn a_part_read_as_a_stream() {
    use futures_util::StreamExt;
    let (body, data) = upload(50_000, b"xyz\r\n");
    let chunks = (0..body.len())
        .step_by(999)
        .map(|at| Bytes::copy_from_slice(&body[at..(at + 999).min(body.len())]))
        .collect();
    run(async {
        let mut multipart = Multipart::new(Chunks::new(chunks, true), b"XyZ0123").unwrap();
        multipart.next_part().await.unwrap();
        let mut file = multipart.next_part().await.unwrap().unwrap();
        let mut got = Vec::new();
        while let Some(piece) = file.next().await {
            got.extend_from_slice(&piece.unwrap());
        }
        assert!(got == data);
        // A part's stream ends: no item after its end.
        assert!(file.next().await.is_none());
        assert_eq!(
            multipart.next_part().await.unwrap().unwrap().name(),
            "after"
        );
    });
}

#[test]
fn into_stream_is_forwarded_while_the_reader_goes_on() {
    use futures_util::StreamExt;
    let (body, data) = upload(200_000, b"0123456789abcdef\r\n-");
    let chunks: Vec<Bytes> = (0..body.len())
        .step_by(4096)
        .map(|at| Bytes::copy_from_slice(&body[at..(at + 4096).min(body.len())]))
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    runtime.block_on(async move {
        // Forwarded whole: the reader's next part comes once the forwarder has read the end.
        let mut multipart = Multipart::new(Chunks::new(chunks.clone(), true), b"XyZ0123").unwrap();
        assert_eq!(
            multipart
                .next_part()
                .await
                .unwrap()
                .unwrap()
                .text()
                .await
                .unwrap(),
            "Holiday"
        );
        let upload = multipart.next_part().await.unwrap().unwrap().into_stream();
        let forwarder = tokio::spawn(async move {
            let mut sent = Vec::new();
            let mut upload = upload;
            while let Some(piece) = upload.next().await {
                sent.extend_from_slice(&piece.unwrap());
                tokio::task::yield_now().await;
            }
            sent
        });
        let after = multipart.next_part().await.unwrap().unwrap();
        assert_eq!(after.name(), "after");
        assert_eq!(after.text().await.unwrap(), "yes");
        assert!(multipart.next_part().await.unwrap().is_none());
        assert!(forwarder.await.unwrap() == data);

        // Forwarded in part, then dropped by the forwarder: the reader skips the rest.
        let mut multipart = Multipart::new(Chunks::new(chunks, true), b"XyZ0123").unwrap();
        multipart.next_part().await.unwrap();
        let mut upload = multipart.next_part().await.unwrap().unwrap().into_stream();
        let forwarder = tokio::spawn(async move {
            let first = upload.next().await.unwrap().unwrap();
            tokio::task::yield_now().await;
            first.len()
        });
        let after = multipart.next_part().await.unwrap().unwrap();
        assert_eq!(after.text().await.unwrap(), "yes");
        assert!(forwarder.await.unwrap() > 0);
    });
}

#[test]
fn handed_off_parts_are_static_and_send() {
    fn forwardable<T: Stream + Send + 'static>(_: &T) {}
    fn sendable<T: Send>(_: &T) {}
    let body =
        Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=f\r\n\r\nx\r\n--b--");
    run(async {
        let mut multipart = Multipart::new(Chunks::new(vec![body], false), b"b").unwrap();
        sendable(&multipart);
        let part = multipart.next_part().await.unwrap().unwrap();
        sendable(&part);
        let stream = part.into_stream();
        forwardable(&stream);
    });
}

/// A body of two parts with a value and a file.
const BODY: &[u8] = b"--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n\
    --b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\n\
    Content-Type: text/plain\r\n\r\nline 1\r\nline 2\r\n--b--\r\n";

#[test]
fn no_truncation_or_change_makes_the_reader_wait() {
    // Every prefix of a body, and the body with one byte changed at every place: the reader
    // answers the sync reader's outcome (an error at the end of what came, for most
    // prefixes), in every chunking, and `run` fails any wait without a wake.
    let mut inputs: Vec<Vec<u8>> = (0..=BODY.len()).map(|n| BODY[..n].to_vec()).collect();
    for at in 0..BODY.len() {
        for byte in [b'\r', b'\n', b'-', b'x'] {
            let mut changed = BODY.to_vec();
            changed[at] = byte;
            inputs.push(changed);
        }
    }
    let config = MultipartConfig::default();
    for (seed, input) in inputs.iter().enumerate() {
        let want = decode(&[input], b"b", Profile::Fetch, config.limits);
        for (label, chunks) in chunkings(input, seed as u64, 3) {
            for pending in [false, true] {
                let got = read_chunks(chunks.clone(), pending, b"b", config, &[], |_| {});
                assert_eq!(got, want, "{:?} {label}", String::from_utf8_lossy(input));
            }
        }
    }
    // An empty source: no first delimiter.
    let got = read_chunks(Vec::new(), true, b"b", config, &[], |_| {});
    assert_eq!(got.error, Some(("expected-boundary", 0)));
}

#[test]
fn a_source_error_is_final() {
    let cut = Bytes::from_static(&BODY[..55]);
    let source = Chunks::failing(vec![cut], std::io::Error::other("connection reset"));
    run(async {
        let mut multipart = Multipart::new(source, b"b").unwrap();
        let mut part = multipart.next_part().await.unwrap().unwrap();
        let err = loop {
            match part.chunk().await {
                Ok(Some(_)) => {}
                Ok(None) => panic!("the part ended"),
                Err(e) => break e,
            }
        };
        assert!(matches!(err, Error::Source(_)), "{err:?}");
        assert_eq!(err.to_string(), "reading the body failed: connection reset");
        assert!((err.status(), err.is_limit(), err.is_malformed()) == (400, false, false));
        // The part's data has ended with its error; the reader answers it again.
        assert!(part.chunk().await.unwrap().is_none());
        assert!(matches!(multipart.next_part().await, Err(Error::Source(_))));
        assert!(matches!(multipart.next_part().await, Err(Error::Source(_))));
    });
}

#[test]
fn limits_are_413_and_malformed_bodies_400() {
    let limits = MultipartLimits {
        max_value_bytes: 3,
        ..MultipartLimits::default()
    };
    let config = MultipartConfig {
        profile: Profile::Fetch,
        limits,
    };
    run(async {
        let source = Chunks::new(vec![Bytes::from_static(BODY)], true);
        let mut multipart = Multipart::with_config(source, b"b", config).unwrap();
        let part = multipart.next_part().await.unwrap().unwrap();
        let err = part.bytes().await.unwrap_err();
        let Error::Multipart(e) = &err else {
            panic!("{err:?}")
        };
        assert_eq!(
            e.kind,
            MultipartErrorKind::Limit(MultipartLimit::ValueBytes)
        );
        assert!((err.status(), err.is_limit(), err.offset()) == (413, true, Some(52)));

        let bad = Bytes::from_static(b"--b\r\nContent-Disposition: form-data\r\n\r\n");
        let mut multipart = Multipart::new(Chunks::new(vec![bad], true), b"b").unwrap();
        let err = multipart.next_part().await.unwrap_err();
        assert!((err.status(), err.is_malformed()) == (400, true));
        assert_eq!(
            err.to_string(),
            "Content-Disposition without a name at byte 26 (part 0)"
        );
    });
    let ct = b"multipart/form-data; boundary=\"x\\\"y\"";
    let source = Chunks::new(Vec::new(), false);
    let err = Multipart::from_content_type(source, ct, config).unwrap_err();
    assert!(
        matches!(err, Error::ContentType(_)) && err.status() == 400,
        "{err}"
    );
}
