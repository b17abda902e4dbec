//! The multipart bodies the body benches read, and what every reader's answer is compared by:
//! shared by `benches/body.rs` and the peers crate (`benches/peers/common.rs`, built on its own,
//! includes this file by path), so that both measure the very same bytes.

// Not every bench uses every body.
#![allow(dead_code)]

use reqparse::body::multipart::{write, WritePart};

pub const BOUNDARY: &str = "----WebKitFormBoundary7MA4YWxkTrZu0gW";

/// One part as every reader reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartOut {
    pub name: String,
    pub filename: Option<String>,
    pub size: u64,
    pub fnv: u64,
}

pub const FNV0: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over the part's data in the pieces it came in (order-preserving, split-invariant).
pub fn fnv(mut h: u64, data: &[u8]) -> u64 {
    for &b in data {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// What the timed closures compute: enough to check agreement, cheap next to parsing (a size
/// and the first 64 bytes' checksum per piece would differ by split; the full FNV costs
/// ~1 ns/B, so the timed loops count bytes only and the FNV is taken in the agreement run).
/// `Check`: every data byte through the checksum (the agreement run); `Count`: the sizes only
/// (the timed run: the readers' cost, not the checksum's).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Work {
    Check,
    Count,
}

/// A part whose headers were read, no data yet.
pub fn part(name: String, filename: Option<String>) -> PartOut {
    PartOut {
        name,
        filename,
        size: 0,
        fnv: FNV0,
    }
}

/// Adds `data` to the last part.
pub fn part_data(out: &mut [PartOut], data: &[u8], work: Work) {
    if let Some(p) = out.last_mut() {
        p.size += data.len() as u64;
        if work == Work::Check {
            p.fnv = fnv(p.fnv, data);
        }
    }
}

/// multer 3 (axum's `Multipart`) over `source`, without its size limits: each field a part.
pub async fn multer_parts<'a, S, E>(source: S, work: Work) -> Vec<PartOut>
where
    S: futures_util::Stream<Item = Result<bytes::Bytes, E>> + Send + 'a,
    E: Into<Box<dyn std::error::Error + Send + Sync>> + 'a,
{
    let constraints = multer::Constraints::new().size_limit(
        multer::SizeLimit::new()
            .whole_stream(u64::MAX)
            .per_field(u64::MAX),
    );
    let mut mp = multer::Multipart::with_constraints(source, BOUNDARY, constraints);
    let mut out = Vec::new();
    while let Some(mut field) = mp.next_field().await.unwrap() {
        out.push(part(
            field.name().unwrap_or_default().to_owned(),
            field.file_name().map(str::to_owned),
        ));
        while let Some(data) = field.chunk().await.unwrap() {
            part_data(&mut out, &data, work);
        }
    }
    out
}

/// A short field, then one file part of `data`.
pub fn file_body(data: &[u8]) -> Vec<u8> {
    write(
        BOUNDARY,
        &[
            WritePart {
                name: "note",
                filename: None,
                content_type: None,
                data: b"a short field",
            },
            WritePart {
                name: "upload",
                filename: Some("video.bin"),
                content_type: Some("application/octet-stream"),
                data,
            },
        ],
    )
    .unwrap()
}

/// 100 small fields.
pub fn fields_body() -> Vec<u8> {
    let values: Vec<String> = (0..100)
        .map(|i| format!("value number {i} of the form"))
        .collect();
    let names: Vec<String> = (0..100).map(|i| format!("field{i}")).collect();
    let parts: Vec<WritePart<'_>> = names
        .iter()
        .zip(&values)
        .map(|(n, v)| WritePart {
            name: n,
            filename: None,
            content_type: None,
            data: v.as_bytes(),
        })
        .collect();
    write(BOUNDARY, &parts).unwrap()
}

/// 100 files of 1 KiB each (a batch of thumbnails, a form of attachments).
pub fn files_body() -> Vec<u8> {
    let data = pseudo_random(100 << 10);
    let names: Vec<(String, String)> = (0..100)
        .map(|i| (format!("file{i}"), format!("photo-{i}.jpg")))
        .collect();
    let parts: Vec<WritePart<'_>> = names
        .iter()
        .enumerate()
        .map(|(i, (n, f))| WritePart {
            name: n,
            filename: Some(f),
            content_type: Some("image/jpeg"),
            data: &data[i << 10..(i + 1) << 10],
        })
        .collect();
    write(BOUNDARY, &parts).unwrap()
}

/// `n` bytes of xorshift noise: data that holds no delimiter by chance.
pub fn pseudo_random(n: usize) -> Vec<u8> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// `unit` repeated to 1 MiB.
pub fn cycle(unit: &[u8]) -> Vec<u8> {
    unit.iter().copied().cycle().take(1 << 20).collect()
}
