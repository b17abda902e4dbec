//! What the peers bench and the allocation counts share: the bodies (the shapes of
//! `benches/body.rs`, built by the same `benches/support/bodies.rs`), their chunks, and each
//! reader run over the same chunks to the same answer.

use bytes::Bytes;
use reqparse::body::multipart::{MultipartEvent, MultipartLimits, MultipartReader, Profile};

#[path = "../support/bodies.rs"]
mod bodies;
use bodies::{
    cycle, fields_body, file_body, files_body, multer_parts, part, part_data, pseudo_random,
    BOUNDARY,
};
pub use bodies::{PartOut, Work};

/// Our limits raised to the bodies' sizes (the peers are run without limits).
pub fn limits() -> MultipartLimits {
    MultipartLimits {
        max_body_bytes: 1 << 30,
        ..MultipartLimits::default()
    }
}

/// `body` cut into `read`-byte chunks, each a `Bytes::slice` of one buffer (as a server's
/// reads hand them out: shared, reference-counted).
pub fn chunks(body: Vec<u8>, read: usize) -> Vec<Bytes> {
    sliced(&Bytes::from(body), read).collect()
}

/// The chunks of `body`, `read` bytes each, made as they are asked for (slices of `body`: a
/// 100 MiB body in 1-byte chunks is never held as a hundred million `Bytes`).
pub fn sliced(body: &Bytes, read: usize) -> impl Iterator<Item = Bytes> + Send + '_ {
    (0..body.len())
        .step_by(read)
        .map(move |a| body.slice(a..(a + read).min(body.len())))
}

/// The readers' chunks: any iterator of `Bytes` (cloning one from a slice is a reference-count
/// bump).
pub trait Chunks: Iterator<Item = Bytes> + Send + Unpin {}
impl<I: Iterator<Item = Bytes> + Send + Unpin> Chunks for I {}

fn stream<E>(
    chunks: impl Chunks,
) -> impl futures_util::Stream<Item = Result<Bytes, E>> + Send + Unpin {
    futures_util::stream::iter(chunks.map(Ok))
}

/// The sync `MultipartReader` over the same chunks, as a sync caller reads them: each chunk
/// where it is, and what the reader leaves copied into a buffer that the next chunk is
/// appended to.
pub fn reqparse_sync(chunks: impl Chunks, work: Work) -> Vec<PartOut> {
    let mut reader = MultipartReader::new(BOUNDARY.as_bytes(), Profile::Fetch, limits()).unwrap();
    let mut out = Vec::new();
    let mut held: Vec<u8> = Vec::new();
    let mut chunks = chunks.peekable();
    while let Some(chunk) = chunks.next() {
        let eof = chunks.peek().is_none();
        let from_held = !held.is_empty();
        if from_held {
            held.extend_from_slice(&chunk);
        }
        let input: &[u8] = if from_held { &held } else { &chunk };
        let mut pos = 0;
        loop {
            let step = reader.decode(&input[pos..], eof).unwrap();
            pos += step.consumed;
            match step.event {
                Some(MultipartEvent::Part(p)) => out.push(part(
                    p.name().into_owned(),
                    p.filename().map(|f| f.as_str().to_owned()),
                )),
                Some(MultipartEvent::Data(d)) => part_data(&mut out, d, work),
                Some(MultipartEvent::PartEnd) => {}
                Some(MultipartEvent::End) => return out,
                None => break,
            }
        }
        if from_held {
            held.drain(..pos);
        } else {
            held.extend_from_slice(&chunk[pos..]);
        }
    }
    panic!("reqparse: the body ended early");
}

/// `reqparse::stream::Multipart` over the chunks.
pub fn reqparse_async(
    rt: &tokio::runtime::Runtime,
    chunks: impl Chunks,
    work: Work,
) -> Vec<PartOut> {
    rt.block_on(async {
        let config = reqparse::stream::MultipartConfig {
            profile: Profile::Fetch,
            limits: limits(),
        };
        let source = stream::<std::convert::Infallible>(chunks);
        let mut mp =
            reqparse::stream::Multipart::with_config(source, BOUNDARY.as_bytes(), config).unwrap();
        let mut out = Vec::new();
        while let Some(mut p) = mp.next_part().await.unwrap() {
            out.push(part(
                p.name().into_owned(),
                p.filename().map(|f| f.as_str().to_owned()),
            ));
            while let Some(data) = p.chunk().await.unwrap() {
                part_data(&mut out, &data, work);
            }
        }
        out
    })
}

/// multer 3 (axum's `Multipart`), without its size limits.
pub fn multer(rt: &tokio::runtime::Runtime, chunks: impl Chunks, work: Work) -> Vec<PartOut> {
    rt.block_on(multer_parts(
        stream::<std::convert::Infallible>(chunks),
        work,
    ))
}

/// s3s-multipart 0.17: each part's header fields read (its `Content-Disposition` parsed by the
/// crate's own `parse_content_disposition`), then its data; a 64 KiB header block bound.
pub fn s3s(rt: &tokio::runtime::Runtime, chunks: impl Chunks, work: Work) -> Vec<PartOut> {
    rt.block_on(async {
        let boundary = s3s_multipart::Boundary::new(BOUNDARY.as_bytes()).unwrap();
        let source = stream::<s3s_multipart::Error>(chunks);
        let mut mp = s3s_multipart::Multipart::new(source, &boundary, 64 << 10);
        let mut out = Vec::new();
        while let Some(mut p) = mp.next_part().await.unwrap() {
            let (mut name, mut filename) = (String::new(), None);
            while let Some(h) = p.next_header().await.unwrap() {
                if h.name.eq_ignore_ascii_case("content-disposition") {
                    let cd = s3s_multipart::parse_content_disposition(h.value).unwrap();
                    name = String::from_utf8_lossy(cd.name.unwrap_or_default()).into_owned();
                    filename = cd
                        .file_name
                        .map(|f| String::from_utf8_lossy(f).into_owned());
                }
            }
            out.push(part(name, filename));
            while let Some(data) = p.next_data().await.unwrap() {
                part_data(&mut out, &data, work);
            }
        }
        out
    })
}

/// The readers by id (`reqparse` is the sync reader, as in `benches/body.rs`).
pub const IMPLS: [&str; 4] = ["reqparse", "reqparse-async", "s3s-multipart", "multer"];

pub fn run(
    imp: &str,
    rt: &tokio::runtime::Runtime,
    chunks: impl Chunks,
    work: Work,
) -> Vec<PartOut> {
    match imp {
        "reqparse" => reqparse_sync(chunks, work),
        "reqparse-async" => reqparse_async(rt, chunks, work),
        "s3s-multipart" => s3s(rt, chunks, work),
        "multer" => multer(rt, chunks, work),
        _ => unreachable!("no reader {imp}"),
    }
}

/// The shapes, by name: `benches/body.rs`'s (the large file at `large` bytes), and 100 small
/// files. Built only when asked for (the 100 MiB body takes a while).
pub fn shape(name: &str, large: usize) -> Vec<u8> {
    let b = BOUNDARY.as_bytes();
    let delimiter = [b"\r\n--", b].concat();
    match name {
        "file-100MiB" => file_body(&pseudo_random(large)),
        "fields-100" => fields_body(),
        "files-100" => files_body(),
        "all-CR-1MiB" => file_body(&vec![b'\r'; 1 << 20]),
        "near-miss-1MiB" => file_body(&cycle(&delimiter[..delimiter.len() - 1])),
        "dash-dense-1MiB" => file_body(&vec![b'-'; 1 << 20]),
        "crlf-dash-1MiB" => file_body(&cycle(b"\r\n--")),
        "near-miss-head-1MiB" => file_body(&cycle(&[b"\r\n--", &b[1..]].concat())),
        "near-miss-middle-1MiB" => {
            let mut unit = delimiter.clone();
            let mid = unit.len() / 2;
            unit[mid] ^= 0x20;
            file_body(&cycle(&unit))
        }
        "ends-short-shift-1MiB" => {
            let mut unit = vec![b[b.len() - 2]; 4 + b.len()];
            unit[0] = b'\r';
            unit[3 + b.len()] = b[b.len() - 1];
            file_body(&cycle(&unit))
        }
        "near-miss-turns-1MiB" => {
            let mid = delimiter.len() / 2;
            let (mut x, mut y) = (delimiter.clone(), delimiter.clone());
            x[mid] ^= 0x20;
            y[mid + 1] ^= 0x20;
            file_body(&cycle(&[x, y].concat()))
        }
        "alphabet-1MiB" => {
            let picks = pseudo_random(1 << 20);
            file_body(
                &picks
                    .iter()
                    .map(|&r| delimiter[usize::from(r) % delimiter.len()])
                    .collect::<Vec<_>>(),
            )
        }
        "cr-short-shift-1MiB" => file_body(&cycle(&[b'\r', b[b.len() - 2], b[b.len() - 2]])),
        _ => unreachable!("no shape {name}"),
    }
}

pub const SHAPES: [&str; 13] = [
    "file-100MiB",
    "fields-100",
    "files-100",
    "all-CR-1MiB",
    "near-miss-1MiB",
    "dash-dense-1MiB",
    "crlf-dash-1MiB",
    "near-miss-head-1MiB",
    "near-miss-middle-1MiB",
    "ends-short-shift-1MiB",
    "near-miss-turns-1MiB",
    "alphabet-1MiB",
    "cr-short-shift-1MiB",
];

/// The chunk sizes, by the suffix of the input's name.
pub const READS: [(&str, usize); 3] = [("64KiB", 64 << 10), ("1KiB", 1 << 10), ("1B", 1)];
