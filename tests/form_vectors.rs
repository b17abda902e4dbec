//! The form body reader against `tests/vectors/form.json` and against every query vector (a
//! body is a query without the `?` rule), whole, split at every point and one byte at a
//! time; and the allocations of its data path.

mod support;

use reqparse::body::form::{FormEvent, FormLimits, FormReader};
use reqparse::query::Profile;
use serde_json::{json, Value};
use support::body::form::{decode, expected, limits, shape, Outcome};
use support::vectors;

#[global_allocator]
static GLOBAL: support::alloc::Counting = support::alloc::Counting;

/// Whole, split in two at every point, one byte at a time: the same outcome, which is returned.
fn every_split(input: &[u8], profile: Profile, limits: FormLimits) -> Result<Outcome, String> {
    let whole = decode(&[input], profile, limits);
    for at in 0..=input.len() {
        let (a, b) = input.split_at(at);
        let split = decode(&[a, b], profile, limits);
        if split != whole {
            return Err(format!("split at {at}: {split:?}, whole: {whole:?}"));
        }
    }
    let bytes: Vec<&[u8]> = input.chunks(1).collect();
    if !input.is_empty() && decode(&bytes, profile, limits) != whole {
        return Err("one byte at a time differs".into());
    }
    Ok(whole)
}

#[test]
fn form_vectors() {
    vectors::run("form.json", 10, |case, failures| {
        let source = vectors::required(case, "source");
        let input = vectors::required(case, "input").as_bytes();
        let got = match every_split(input, vectors::profile(case), limits(case)) {
            Ok(got) => got,
            Err(e) => return failures.push(format!("{source}: {e}")),
        };
        let (got, want) = (shape(&got), expected(case));
        if got != want {
            failures.push(format!("{source}: got {got} want {want}"));
        }
    });
}

#[test]
fn query_vectors_as_bodies() {
    // Every pair-list case of query.json whose input has no leading `?`: a body gives the same
    // pairs, or fails at the same offset.
    vectors::run("query.json", 50, |case, failures| {
        let input = vectors::required(case, "input");
        if input.starts_with('?') || vectors::flag(case, "map") || vectors::flag(case, "raw") {
            return;
        }
        let source = vectors::required(case, "source");
        let profile: Profile = vectors::profile(case);
        let got = match every_split(input.as_bytes(), profile, FormLimits::default()) {
            Ok(got) => got,
            Err(e) => return failures.push(format!("{source}: {e}")),
        };
        let ok = match (&got, case.get("expect_error")) {
            (Err((_, offset)), Some(e)) => e
                .get("offset")
                .and_then(Value::as_u64)
                .is_none_or(|o| o == *offset),
            (Ok(pairs), None) => {
                let pairs: Vec<Value> = pairs.iter().map(|(n, v, _)| json!([n, v])).collect();
                Value::Array(pairs) == case["expect"]
            }
            _ => false,
        };
        if !ok {
            failures.push(format!("{source}: got {got:?}"));
        }
    });
}

#[test]
fn data_path_allocates_nothing_once_warm() {
    let body = b"q=rust+forms&name=Jos%C3%A9&flag&city=S%C3%A3o+Paulo&&x=%F0%9F%98%80";
    let mut reader = FormReader::default();
    let run = |reader: &mut FormReader| {
        reader.reset();
        let (mut input, mut n) = (&body[..], 0);
        loop {
            let step = reader.decode(input, true).unwrap();
            let consumed = step.consumed;
            match step.event {
                Some(FormEvent::Pair(_)) => n += 1,
                _ => break,
            }
            input = &input[consumed..];
        }
        n
    };
    // The first body grows the scratch buffer to its longest decoded pair; then none.
    assert_eq!(run(&mut reader), 5);
    let (allocations, pairs) = support::alloc::count(|| run(&mut reader));
    assert_eq!((allocations, pairs), (0, 5));
}

/// Bodies of the pieces that matter to the reader: separators, escapes (good and bad), `+`,
/// UTF-8 and plain bytes.
fn body() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let piece = prop_oneof![
        Just(&b"&"[..]),
        Just(&b"&&&"[..]),
        Just(&b"="[..]),
        Just(&b"%41"[..]),
        Just(&b"%zz"[..]),
        Just(&b"%C3"[..]),
        Just(&b"+"[..]),
        Just("é".as_bytes()),
        Just(&b"\xff"[..]),
        Just(&b"abcdefgh"[..]),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest::proptest! {
    #[test]
    fn split_invariance_under_tight_limits(
        input in body(),
        cuts in proptest::collection::vec(proptest::prelude::any::<proptest::sample::Index>(), 0..5),
        profile in proptest::sample::select(Profile::ALL.to_vec()),
    ) {
        // Limits small enough that every one of them is reached by some inputs.
        let limits = FormLimits { max_pairs: 8, max_name_bytes: 16, max_value_bytes: 12, max_body_bytes: 40 };
        let whole = decode(&[&input], profile, limits);
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(input.len() + 1)).collect();
        points.sort_unstable();
        let (mut reads, mut last) = (Vec::new(), 0);
        for p in points {
            reads.push(&input[last..p]);
            last = p;
        }
        reads.push(&input[last..]);
        proptest::prop_assert_eq!(&decode(&reads, profile, limits), &whole);
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        if !input.is_empty() {
            proptest::prop_assert_eq!(&decode(&bytes, profile, limits), &whole);
        }
    }
}
