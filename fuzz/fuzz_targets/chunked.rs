//! The chunked decoder over arbitrary bytes, whole and split into reads whose sizes come from
//! the input's first byte: no panic, the same outcome for both, and never more held back than
//! an incomplete line's limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reqparse::body::chunked::{Chunk, ChunkedDecoder, ChunkedLimits};

/// Data, trailers, consumed bytes, or the error's kind and offset.
type Outcome = (Vec<u8>, Vec<(Vec<u8>, Vec<u8>)>, u64, Option<(&'static str, u64)>);

fn decode(input: &[u8], read_size: usize, limits: ChunkedLimits) -> Outcome {
    let mut decoder = ChunkedDecoder::new(limits);
    let (mut data, mut trailers) = (Vec::new(), Vec::new());
    let mut pending = Vec::new();
    'reads: for read in input.chunks(read_size.max(1)) {
        pending.extend_from_slice(read);
        loop {
            let step = match decoder.decode(&pending) {
                Ok(step) => step,
                Err(e) => return (data, trailers, 0, Some((e.kind.name(), e.offset))),
            };
            assert!(step.consumed <= pending.len());
            let end = match step.event {
                Some(Chunk::Data(d)) => {
                    assert!(!d.is_empty());
                    data.extend_from_slice(d);
                    false
                }
                Some(Chunk::Trailer { name, value }) => {
                    trailers.push((name.to_vec(), value.to_vec()));
                    false
                }
                Some(Chunk::End) => true,
                None => {
                    pending.drain(..step.consumed);
                    assert!(pending.len() < limits.max_line_bytes.max(limits.max_trailer_bytes));
                    continue 'reads;
                }
            };
            pending.drain(..step.consumed);
            if end {
                break 'reads;
            }
        }
    }
    let error = decoder.finish().err().map(|e| (e.kind.name(), e.offset));
    (data, trailers, decoder.position(), error)
}

fuzz_target!(|input: &[u8]| {
    let Some((&first, body)) = input.split_first() else { return };
    // Small limits, so that the fuzzer reaches every one of them.
    let limits = ChunkedLimits {
        max_line_bytes: 64,
        max_extension_bytes: 96,
        overhead_grace: 128,
        max_body_bytes: 4096,
        max_trailer_bytes: 128,
        max_trailer_fields: 4,
        ..ChunkedLimits::default()
    };
    let whole = decode(body, body.len(), limits);
    assert_eq!(decode(body, usize::from(first % 17), limits), whole);
    assert_eq!(decode(body, 1, limits), whole);
});
