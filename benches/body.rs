//! Request bodies: our sans-io readers against the strongest Rust peers, in the same run, on the
//! shapes of issue 11. Every id is `group/impl/input`; see BENCHMARKS.md, "How to measure".
//!
//! - `multipart/*`: `reqparse` (`MultipartReader`, Fetch profile, the default) against form-net
//!   0.6 (`MultipartParser`, its sans-io core, limits raised to the same budgets, made once and
//!   `reset` for each body as its docs say to pool them) and multer 3
//!   (async, over a stream of `Bytes` on a current-thread tokio runtime built outside the timed
//!   loop), and with the feature `async` our own async reader (`reqparse::stream::Multipart`,
//!   `reqparse-async`) over the same chunks on the same runtime: a 100 MiB file part, 100 small fields, the same fields in 1-byte reads, and three
//!   adversarial 1 MiB file parts (all CR, near-miss delimiters, dash-dense, and the shapes
//!   against our CR-to-CR search listed where they are built). Reads are 64 KiB
//!   unless the input name says otherwise.
//! - `form/*`: `FormReader` against form-net's `UrlencodedParser`, both made once and `reset`
//!   for each body (each name and value decoded
//!   with its own borrow-when-plain path, `name_str`/`decode_name`): 100 pairs and 1-byte reads.
//! - `chunked/*`: `ChunkedDecoder` over 100 MiB in 64 KiB chunks against copying the same data
//!   bytes (`copy`: the floor any decoder is measured against; `copy-wire`: the same copy from
//!   where the data sits in the wire, as a decoder's borrowed slices give it).
//!
//! Before anything is timed every peer's output — each part's name, filename, size and an
//! FNV-1a checksum of its data, each pair decoded — is compared with ours through the very
//! functions that are timed; a disagreement stops the bench.

use std::hint::black_box;

use criterion::Throughput;
use reqparse::body::chunked::{Chunk, ChunkedDecoder};
use reqparse::body::form::{FormEvent, FormLimits, FormReader};
use reqparse::body::multipart::{MultipartEvent, MultipartLimits, MultipartReader, Profile};

mod support;
use support::Suite;

#[path = "support/bodies.rs"]
mod bodies;
use bodies::{
    cycle, fields_body, file_body, files_body, multer_parts, part, part_data, pseudo_random,
    PartOut, Work, BOUNDARY,
};

fn ours_multipart(body: &[u8], read: usize, work: Work, limits: MultipartLimits) -> Vec<PartOut> {
    let mut reader = MultipartReader::new(BOUNDARY.as_bytes(), Profile::Fetch, limits).unwrap();
    let mut out = Vec::new();
    // The caller's buffer holds what arrived; what the reader leaves is fed again with the
    // next read (here it is already in place: the body is in memory).
    let (mut pos, mut avail) = (0, 0);
    loop {
        let eof = avail == body.len();
        let step = reader.decode(&body[pos..avail], eof).unwrap();
        pos += step.consumed;
        match step.event {
            Some(MultipartEvent::Part(p)) => out.push(part(
                p.name().into_owned(),
                p.filename().map(|f| f.into_cow().into_owned()),
            )),
            Some(MultipartEvent::Data(d)) => part_data(&mut out, d, work),
            Some(MultipartEvent::PartEnd) => {}
            Some(MultipartEvent::End) => return out,
            None => avail = (avail + read).min(body.len()),
        }
    }
}

fn form_net_limits(body_len: usize) -> form_net::Limits {
    let n = body_len as u64 + 1;
    form_net::Limits::DEFAULT
        .with_max_body_bytes(n)
        .with_max_file_bytes(n)
        .with_max_value_bytes(4 << 20)
        .with_max_text_bytes(n)
        .with_max_parts(1024)
        .with_max_fields(1024)
        .with_max_files(1024)
}

type FormNetMultipart = form_net::MultipartParser<Vec<u8>>;

/// form-net's parser, made once per input and `reset` for each body: its documented way to
/// pool parsers (no allocation per body).
fn form_net_parser(limits: &form_net::Limits) -> FormNetMultipart {
    let boundary = form_net::Boundary::new(BOUNDARY.as_bytes()).unwrap();
    form_net::MultipartParser::new(boundary, limits, &form_net::Policy::DEFAULT).unwrap()
}

fn form_net_multipart(
    body: &[u8],
    read: usize,
    work: Work,
    parser: &mut FormNetMultipart,
) -> Vec<PartOut> {
    parser.reset(form_net::Boundary::new(BOUNDARY.as_bytes()).unwrap());
    let mut out = Vec::new();
    form_net_reads(body, read, |rest, last| {
        let step = parser.parse(rest, last).unwrap();
        let next = match step.event {
            form_net::Event::PartStart(head) => {
                let filename = head.filename().map(|f| f.as_str().unwrap().to_owned());
                out.push(part(head.name().to_owned(), filename));
                Next::Go
            }
            form_net::Event::Data(d) => {
                part_data(&mut out, d, work);
                Next::Go
            }
            form_net::Event::End => Next::Stop,
            form_net::Event::NeedInput => Next::More,
            _ => Next::Go,
        };
        (step.consumed, next)
    });
    out
}

/// What a form-net step asks of [`form_net_reads`]: the rest of this read, the next read, or
/// nothing more (the end).
enum Next {
    Go,
    More,
    Stop,
}

/// Hands `body` to a form-net parser `read` bytes at a time, as a server's reads come: `step`
/// parses what is left of a read (`true` for the last read) and says how many bytes it
/// consumed and what it needs next.
fn form_net_reads(body: &[u8], read: usize, mut step: impl FnMut(&[u8], bool) -> (usize, Next)) {
    for (i, chunk) in body.chunks(read).enumerate() {
        let last = (i + 1) * read >= body.len();
        let mut rest = chunk;
        loop {
            let (consumed, next) = step(rest, last);
            rest = &rest[consumed..];
            match next {
                Next::Go => {}
                Next::More => break,
                Next::Stop => return,
            }
        }
    }
}

/// The chunks as the async readers take a body: a stream of owned `Bytes` (cloning one is a
/// reference-count bump).
fn chunk_stream(
    chunks: &[bytes::Bytes],
) -> impl futures_util::Stream<Item = Result<bytes::Bytes, std::convert::Infallible>> + '_ {
    futures_util::stream::iter(chunks.iter().cloned().map(Ok))
}

fn multer_multipart(
    rt: &tokio::runtime::Runtime,
    chunks: &[bytes::Bytes],
    work: Work,
) -> Vec<PartOut> {
    rt.block_on(multer_parts(chunk_stream(chunks), work))
}

/// `reqparse::stream::Multipart` (feature `async`) over the same `Bytes` chunks, on the same
/// runtime as multer: the async reader axum users get, against the one axum's own `Multipart`
/// wraps.
#[cfg(feature = "async")]
fn ours_async_multipart(
    rt: &tokio::runtime::Runtime,
    chunks: &[bytes::Bytes],
    work: Work,
    limits: MultipartLimits,
) -> Vec<PartOut> {
    rt.block_on(async {
        let stream = chunk_stream(chunks);
        let config = reqparse::stream::MultipartConfig {
            profile: Profile::Fetch,
            limits,
        };
        let mut mp =
            reqparse::stream::Multipart::with_config(stream, BOUNDARY.as_bytes(), config).unwrap();
        let mut out = Vec::new();
        while let Some(mut part) = mp.next_part().await.unwrap() {
            out.push(bodies::part(
                part.name().into_owned(),
                part.filename().map(|f| f.as_str().to_owned()),
            ));
            while let Some(data) = part.chunk().await.unwrap() {
                part_data(&mut out, &data, work);
            }
        }
        out
    })
}

fn multipart_cases(s: &mut Suite) {
    let near_miss: Vec<u8> = b"\r\n------WebKitFormBoundary7MA4YWxkTrZu0g"
        .iter()
        .copied()
        .cycle()
        .take(1 << 20)
        .collect();
    type Make<'a> = Box<dyn Fn() -> Vec<u8> + 'a>;
    let inputs: Vec<(&str, Make<'_>, usize)> = vec![
        (
            "file-100MiB",
            Box::new(|| file_body(&pseudo_random(large()))),
            64 << 10,
        ),
        ("fields-100", Box::new(fields_body), 64 << 10),
        ("fields-100-1B-reads", Box::new(fields_body), 1),
        ("files-100", Box::new(files_body), 64 << 10),
        (
            "all-CR-1MiB",
            Box::new(|| file_body(&vec![b'\r'; 1 << 20])),
            64 << 10,
        ),
        (
            "near-miss-1MiB",
            Box::new(|| file_body(&near_miss)),
            64 << 10,
        ),
        (
            "dash-dense-1MiB",
            Box::new(|| file_body(&vec![b'-'; 1 << 20])),
            64 << 10,
        ),
        // More shapes against a search that starts at CRs and skips by a window's last byte:
        // `CRLF--` every 4 bytes; the delimiter minus its first boundary byte, repeated; the
        // delimiter with its middle byte's case flipped, repeated; a CR, the delimiter's
        // last byte a delimiter's length on, and between them the byte before its last; random
        // bytes of the delimiter's alphabet; a CR before each byte that the delimiter has just
        // before its last (Horspool's shortest shift), one CR in three.
        (
            "crlf-dash-1MiB",
            Box::new(|| file_body(&cycle(b"\r\n--"))),
            64 << 10,
        ),
        (
            "near-miss-head-1MiB",
            Box::new(|| file_body(&cycle(&[b"\r\n--", &BOUNDARY.as_bytes()[1..]].concat()))),
            64 << 10,
        ),
        (
            "near-miss-middle-1MiB",
            Box::new(|| {
                let mut unit = [b"\r\n--", BOUNDARY.as_bytes()].concat();
                let mid = unit.len() / 2;
                unit[mid] ^= 0x20;
                file_body(&cycle(&unit))
            }),
            64 << 10,
        ),
        (
            "ends-short-shift-1MiB",
            Box::new(|| {
                let b = BOUNDARY.as_bytes();
                let mut unit = vec![b[b.len() - 2]; 4 + b.len()];
                unit[0] = b'\r';
                unit[3 + b.len()] = b[b.len() - 1];
                file_body(&cycle(&unit))
            }),
            64 << 10,
        ),
        // Two near misses by turns, one byte wrong in the middle and then the byte after it:
        // each fires the pair that a false candidate of the other moves the search to.
        (
            "near-miss-turns-1MiB",
            Box::new(|| {
                let d = [b"\r\n--", BOUNDARY.as_bytes()].concat();
                let mid = d.len() / 2;
                let (mut a, mut b) = (d.clone(), d);
                a[mid] ^= 0x20;
                b[mid + 1] ^= 0x20;
                file_body(&cycle(&[a, b].concat()))
            }),
            64 << 10,
        ),
        (
            "alphabet-1MiB",
            Box::new(|| {
                let delimiter = [b"\r\n--", BOUNDARY.as_bytes()].concat();
                let picks = pseudo_random(1 << 20);
                let data: Vec<u8> = picks
                    .iter()
                    .map(|&r| delimiter[usize::from(r) % delimiter.len()])
                    .collect();
                file_body(&data)
            }),
            64 << 10,
        ),
        (
            "cr-short-shift-1MiB",
            Box::new(|| {
                let b = BOUNDARY.as_bytes();
                file_body(&cycle(&[b'\r', b[b.len() - 2], b[b.len() - 2]]))
            }),
            64 << 10,
        ),
    ];
    let rt: &'static tokio::runtime::Runtime = Box::leak(Box::new(
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap(),
    ));
    let limits = MultipartLimits {
        max_body_bytes: 1 << 30,
        ..MultipartLimits::default()
    };
    for (name, body, read) in inputs {
        if !wanted("multipart", name) {
            continue;
        }
        let body: &'static [u8] = Box::leak(body().into_boxed_slice());
        let fl: &'static form_net::Limits = Box::leak(Box::new(form_net_limits(body.len())));
        let chunks: &'static [bytes::Bytes] = Box::leak(
            body.chunks(read)
                .map(bytes::Bytes::copy_from_slice)
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        );
        let ours = ours_multipart(body, read, Work::Check, limits);
        assert_eq!(
            ours,
            form_net_multipart(body, read, Work::Check, &mut form_net_parser(fl)),
            "form-net, {name}"
        );
        assert_eq!(
            ours,
            multer_multipart(rt, chunks, Work::Check),
            "multer, {name}"
        );
        #[cfg(feature = "async")]
        assert_eq!(
            ours,
            ours_async_multipart(rt, chunks, Work::Check, limits),
            "reqparse-async, {name}"
        );
        eprintln!(
            "multipart/{name}: {} parts, {} data bytes, all three agree",
            ours.len(),
            ours.iter().map(|p| p.size).sum::<u64>()
        );
        let t = Some(Throughput::Bytes(body.len() as u64));
        s.add("multipart", "reqparse", name, t.clone(), move || {
            ours_multipart(black_box(body), read, Work::Count, limits)
        });
        let fp = std::cell::RefCell::new(form_net_parser(fl));
        s.add("multipart", "form-net", name, t.clone(), move || {
            form_net_multipart(black_box(body), read, Work::Count, &mut fp.borrow_mut())
        });
        // multer takes owned `Bytes` chunks: cloning one is a reference-count bump.
        s.add("multipart", "multer", name, t.clone(), move || {
            multer_multipart(rt, black_box(chunks), Work::Count)
        });
        #[cfg(feature = "async")]
        s.add("multipart", "reqparse-async", name, t, move || {
            ours_async_multipart(rt, black_box(chunks), Work::Count, limits)
        });
    }
}

fn ours_form(body: &[u8], read: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut reader = ours_form_reader();
    ours_form_each(body, read, &mut reader, |n, v| {
        out.push((n.to_owned(), v.to_owned()))
    });
    out
}

/// Made once and `reset` for each body (keeping its scratch), as form-net's is.
fn ours_form_reader() -> FormReader {
    FormReader::new(reqparse::query::Profile::Whatwg, FormLimits::default())
}

fn ours_form_each(
    body: &[u8],
    read: usize,
    reader: &mut FormReader,
    mut each: impl FnMut(&str, &str),
) {
    reader.reset();
    let (mut pos, mut avail) = (0, read.min(body.len()));
    loop {
        let eof = avail == body.len();
        let step = reader.decode(&body[pos..avail], eof).unwrap();
        pos += step.consumed;
        match step.event {
            Some(FormEvent::Pair(p)) => each(p.name, p.value),
            Some(FormEvent::End) => return,
            None => avail = (avail + read).min(body.len()),
        }
    }
}

type FormNetForm = form_net::UrlencodedParser<Vec<u8>>;

/// form-net's urlencoded parser, made once and `reset` for each body (as the multipart one).
fn form_net_form_parser() -> FormNetForm {
    form_net::UrlencodedParser::new(&form_net::Limits::DEFAULT).unwrap()
}

fn form_net_form_each(
    body: &[u8],
    read: usize,
    parser: &mut FormNetForm,
    buf: &mut [u8],
    mut each: impl FnMut(&str, &str),
) {
    parser.reset();
    let policy = form_net::PercentPolicy::Literal;
    let (name_buf, value_buf) = buf.split_at_mut(buf.len() / 2);
    form_net_reads(body, read, |rest, last| {
        let step = parser.parse(rest, last).unwrap();
        let next = match step.event {
            form_net::UrlencodedEvent::Pair(p) => {
                let n = match p.name_str() {
                    Some(s) => s,
                    None => p.decode_name(name_buf, policy).unwrap(),
                };
                let v = match p.value_str() {
                    Some(s) => s,
                    None => p.decode_value(value_buf, policy).unwrap(),
                };
                each(n, v);
                Next::Go
            }
            form_net::UrlencodedEvent::NeedInput => Next::More,
            form_net::UrlencodedEvent::End => Next::Stop,
            _ => Next::Go,
        };
        (step.consumed, next)
    });
}

fn form_cases(s: &mut Suite) {
    let body: String = (0..100)
        .map(|i| format!("field{i}=value+number+{i}%20of%20the%20form%E2%82%AC"))
        .collect::<Vec<_>>()
        .join("&");
    let body: &'static [u8] = Box::leak(body.into_bytes().into_boxed_slice());
    for (name, read) in [("pairs-100", 64 << 10), ("pairs-100-1B-reads", 1)] {
        if !wanted("form", name) {
            continue;
        }
        let ours = ours_form(body, read);
        let mut theirs = Vec::new();
        form_net_form_each(
            body,
            read,
            &mut form_net_form_parser(),
            &mut vec![0; 4096],
            |n, v| theirs.push((n.to_owned(), v.to_owned())),
        );
        assert_eq!(ours, theirs, "form-net, {name}");
        eprintln!("form/{name}: {} pairs, both agree", ours.len());
        let t = Some(Throughput::Bytes(body.len() as u64));
        let reader = std::cell::RefCell::new(ours_form_reader());
        s.add("form", "reqparse", name, t.clone(), move || {
            let mut n = 0;
            let mut reader = reader.borrow_mut();
            ours_form_each(black_box(body), read, &mut reader, |k, v| {
                n += k.len() + v.len()
            });
            n
        });
        let buf: &'static mut [u8] = Box::leak(vec![0u8; 4096].into_boxed_slice());
        let buf = std::cell::RefCell::new(buf);
        let fp = std::cell::RefCell::new(form_net_form_parser());
        s.add("form", "form-net", name, t, move || {
            let mut n = 0;
            let mut parser = fp.borrow_mut();
            form_net_form_each(
                black_box(body),
                read,
                &mut parser,
                &mut buf.borrow_mut(),
                |k, v| n += k.len() + v.len(),
            );
            n
        });
    }
}

fn chunked_cases(s: &mut Suite) {
    if !wanted("chunked", "100MiB-64KiB-chunks") {
        return;
    }
    let data = pseudo_random(large());
    let mut wire = Vec::with_capacity(data.len() + 64 * 1024);
    for chunk in data.chunks(64 << 10) {
        wire.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        wire.extend_from_slice(chunk);
        wire.extend_from_slice(b"\r\n");
    }
    wire.extend_from_slice(b"0\r\n\r\n");
    let wire: &'static [u8] = Box::leak(wire.into_boxed_slice());
    let data: &'static [u8] = Box::leak(data.into_boxed_slice());
    let out: &'static mut [u8] = Box::leak(vec![0u8; data.len()].into_boxed_slice());
    let out = std::cell::RefCell::new(out);
    let decode = |wire: &[u8], out: &mut [u8]| -> usize {
        let mut decoder = ChunkedDecoder::default();
        let (mut pos, mut n) = (0, 0);
        loop {
            let step = decoder.decode(&wire[pos..]).unwrap();
            pos += step.consumed;
            match step.event {
                // Copied out, as a caller that hands the data on would: the copy is the floor.
                Some(Chunk::Data(d)) => {
                    out[n..n + d.len()].copy_from_slice(d);
                    n += d.len();
                }
                Some(Chunk::Trailer { .. }) => {}
                Some(Chunk::End) | None => return n,
            }
        }
    };
    assert_eq!(decode(wire, &mut out.borrow_mut()), data.len());
    assert_eq!(&out.borrow()[..], data, "decoded data");
    let t = Some(Throughput::Bytes(data.len() as u64));
    s.add(
        "chunked",
        "reqparse",
        "100MiB-64KiB-chunks",
        t.clone(),
        move || decode(black_box(wire), &mut out.borrow_mut()),
    );
    // The same copy from where the data sits in the wire (each chunk 7 bytes of size line
    // further on, so its loads are not aligned as `copy`'s are): what any decoder that hands
    // out borrowed slices of the wire costs a caller that copies them, framing aside.
    let mut spans = Vec::new();
    let mut at = 0;
    for chunk in data.chunks(64 << 10) {
        at += format!("{:x}\r\n", chunk.len()).len();
        spans.push(at..at + chunk.len());
        at += chunk.len() + 2;
    }
    let spans: &'static [std::ops::Range<usize>] = Box::leak(spans.into_boxed_slice());
    assert!(spans
        .iter()
        .map(|r| &wire[r.clone()])
        .eq(data.chunks(64 << 10)));
    let out3: &'static mut [u8] = Box::leak(vec![0u8; data.len()].into_boxed_slice());
    let out3 = std::cell::RefCell::new(out3);
    s.add(
        "chunked",
        "copy-wire",
        "100MiB-64KiB-chunks",
        t.clone(),
        move || {
            let mut out = out3.borrow_mut();
            let mut n = 0;
            for span in black_box(spans) {
                out[n..n + span.len()].copy_from_slice(&wire[span.clone()]);
                n += span.len();
            }
            n
        },
    );
    let out2: &'static mut [u8] = Box::leak(vec![0u8; data.len()].into_boxed_slice());
    let out2 = std::cell::RefCell::new(out2);
    s.add("chunked", "copy", "100MiB-64KiB-chunks", t, move || {
        let mut out = out2.borrow_mut();
        for (i, chunk) in black_box(data).chunks(64 << 10).enumerate() {
            out[i << 16..(i << 16) + chunk.len()].copy_from_slice(chunk);
        }
        out.len()
    });
}

/// Whether the cases of `input` are built: all of them, except when one case is counted under
/// callgrind (`REQPARSE_COUNT=<id>`), where building (and checking) a 100 MiB body it does not
/// run would take minutes.
fn wanted(group: &str, input: &str) -> bool {
    match std::env::var("REQPARSE_COUNT") {
        Ok(id) if id != "list" => {
            id.starts_with(&format!("{group}/")) && id.ends_with(&format!("/{input}"))
        }
        _ => true,
    }
}

/// The large inputs' size: 100 MiB when benchmarking or counting, 1 MiB in `cargo test`'s
/// smoke run (a debug build), which only checks that every case runs and agrees.
fn large() -> usize {
    let measuring =
        std::env::args().any(|a| a == "--bench") || std::env::var_os("REQPARSE_COUNT").is_some();
    if measuring {
        100 << 20
    } else {
        1 << 20
    }
}

fn build(s: &mut Suite) {
    multipart_cases(s);
    form_cases(s);
    chunked_cases(s);
}

fn main() {
    support::main(build);
}
