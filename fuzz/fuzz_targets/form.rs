//! The form body reader over arbitrary bytes, in every profile, whole and split into reads
//! whose size comes from the input's first byte: no panic and the same pairs or error; and
//! the same pairs as the query enumerator over the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reqparse::body::form::{FormEvent, FormLimits, FormReader};
use reqparse::query::{Pairs, Profile};

/// Pairs (name, value, offset), or the error's offset.
type Outcome = Result<Vec<(String, String, u64)>, u64>;

fn decode(input: &[u8], read_size: usize, profile: Profile, limits: FormLimits) -> Outcome {
    let mut reader = FormReader::new(profile, limits);
    let (mut pairs, mut pending) = (Vec::new(), Vec::new());
    let reads: Vec<&[u8]> = input.chunks(read_size.max(1)).collect();
    for i in 0..reads.len().max(1) {
        pending.extend_from_slice(reads.get(i).copied().unwrap_or_default());
        let eof = i + 1 >= reads.len();
        loop {
            let step = reader.decode(&pending, eof).map_err(|e| e.offset)?;
            let (consumed, event) = (step.consumed, step.event.map(|e| match e {
                FormEvent::Pair(p) => Some((p.name.to_owned(), p.value.to_owned(), p.offset)),
                FormEvent::End => None,
            }));
            pending.drain(..consumed);
            match event {
                Some(Some(pair)) => pairs.push(pair),
                Some(None) => return Ok(pairs),
                None => {
                    assert!(!eof, "no event at the end of the body");
                    break;
                }
            }
        }
    }
    unreachable!("the last read has eof set")
}

fuzz_target!(|input: &[u8]| {
    let Some((&first, body)) = input.split_first() else { return };
    let limits = FormLimits { max_pairs: 16, max_name_bytes: 24, max_value_bytes: 48, max_body_bytes: 512 };
    for profile in Profile::ALL {
        let whole = decode(body, body.len(), profile, limits);
        assert_eq!(decode(body, usize::from(first % 13), profile, limits), whole);
        // Within the limits, the query enumerator (minus its `?` rule) agrees.
        if let Ok(pairs) = &whole {
            let mut scratch = String::new();
            let query: Vec<_> = Pairs::form(body)
                .map(|p| p.decode_in(profile, &mut scratch).map(|(n, v)| (n.to_owned(), v.to_owned())))
                .collect();
            let ours: Vec<_> = pairs.iter().map(|(n, v, _)| Ok((n.clone(), v.clone()))).collect();
            assert_eq!(query, ours);
        }
    }
});
