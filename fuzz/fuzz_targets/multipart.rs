//! The multipart/form-data reader over arbitrary bytes, in every profile, whole and split into
//! reads whose size comes from the input's first byte: no panic, the same parts and the same
//! error at the same offset (and in the same part). The per-part decisions (a limit, a skip)
//! come from the first byte too, and the file, field, text and name limits are small enough
//! to be reached. And what Fetch read, written again, reads back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reqparse::body::multipart::{
    write, MultipartEvent, MultipartLimits, MultipartReader, Profile, WritePart,
};

/// (name, filename, content type, data) of each part.
type Parts = Vec<(String, Option<String>, Option<Vec<u8>>, Vec<u8>)>;

/// The parts read (the last perhaps cut short), and the error's offset, kind and part.
type Outcome = (Parts, Option<(u64, &'static str, Option<usize>)>);

/// What the caller decides for part `i` once its headers are read, from `decide`'s bits:
/// nothing, a skip, or a limit of `i` bytes.
fn decide(reader: &mut MultipartReader, decide: u8, i: usize) {
    match (decide >> (i % 4 * 2)) & 3 {
        1 => assert!(reader.skip_part()),
        2 => assert!(reader.limit_part(i as u64)),
        _ => {}
    }
}

fn decode(
    input: &[u8],
    read_size: usize,
    profile: Profile,
    limits: MultipartLimits,
    decisions: u8,
) -> Outcome {
    let mut reader = MultipartReader::new(b"XyZ", profile, limits).expect("a valid boundary");
    let (mut parts, mut pending) = (Parts::new(), Vec::new());
    let reads: Vec<&[u8]> = input.chunks(read_size.max(1)).collect();
    for i in 0..reads.len().max(1) {
        pending.extend_from_slice(reads.get(i).copied().unwrap_or_default());
        let eof = i + 1 >= reads.len();
        loop {
            let step = match reader.decode(&pending, eof) {
                Ok(step) => step,
                Err(e) => return (parts, Some((e.offset, e.kind.name(), e.part))),
            };
            let consumed = step.consumed;
            let mut end = false;
            match step.event {
                Some(MultipartEvent::Part(p)) => {
                    assert!(p.name_bytes().len() <= limits.max_name_bytes);
                    parts.push((
                        p.name().into_owned(),
                        p.filename().map(|f| f.as_str().to_owned()),
                        p.content_type().map(<[u8]>::to_vec),
                        Vec::new(),
                    ));
                    decide(&mut reader, decisions, p.index());
                }
                Some(MultipartEvent::Data(d)) => parts.last_mut().expect("a part").3.extend_from_slice(d),
                Some(MultipartEvent::PartEnd) => {}
                Some(MultipartEvent::End) => end = true,
                None => {
                    assert!(!eof, "no event at the end of the input");
                    pending.drain(..consumed);
                    assert!(pending.len() < limits.max_header_bytes, "held {}", pending.len());
                    break;
                }
            }
            pending.drain(..consumed);
            if end {
                return (parts, None);
            }
        }
    }
    unreachable!("the last read has eof set")
}

fuzz_target!(|input: &[u8]| {
    // The input as a Content-Type value: a boundary, when there is one, is borrowed from it.
    if let Ok(b) = reqparse::body::multipart::boundary(input) {
        assert!(input.as_ptr_range().contains(&b.as_ptr()) || b.is_empty());
    }
    let Some((&first, body)) = input.split_first() else { return };
    let limits = MultipartLimits {
        max_parts: 8,
        max_headers: 4,
        max_header_bytes: 128,
        max_value_bytes: 256,
        max_body_bytes: 4096,
        max_preamble_bytes: 64,
        max_epilogue_bytes: 64,
        max_files: 3,
        max_fields: 5,
        max_file_bytes: 512,
        max_text_bytes: 384,
        max_name_bytes: 24,
        max_filename_bytes: 32,
        ..MultipartLimits::default()
    };
    // The read size from the first byte's low bits, the decisions from its high ones (none
    // when they are 0, so that the write round trip below runs).
    let decisions = first >> 5;
    for profile in Profile::ALL {
        let whole = decode(body, body.len(), profile, limits, decisions);
        assert_eq!(decode(body, usize::from(first % 17), profile, limits, decisions), whole);
        let (parts, None) = &whole else { continue };
        if decisions != 0 {
            continue;
        }
        if profile != Profile::Fetch {
            continue;
        }
        let spec: Option<Vec<WritePart<'_>>> = parts
            .iter()
            .map(|(name, filename, content_type, data)| {
                let content_type = match content_type {
                    Some(t) => Some(std::str::from_utf8(t).ok()?),
                    None => None,
                };
                Some(WritePart { name, filename: filename.as_deref(), content_type, data })
            })
            .collect();
        let Some(Ok(again)) = spec.map(|s| write("XyZ", &s)) else { continue };
        let (read_back, error) = decode(&again, again.len(), Profile::Fetch, MultipartLimits::default(), 0);
        assert_eq!((&read_back, error), (parts, None));
    }
});
