//! The async urlencoded reader (feature `async`): every case of `tests/vectors/form.json`
//! and every query vector that is a body, in random chunkings (one byte at a time included,
//! with `Pending`s between chunks), gives the sync reader's pairs or error; the stream ends
//! after an error; limits are 413.
#![cfg(feature = "async")]

mod support;

use bytes::Bytes;
use reqparse::body::form::{FormLimit, FormLimits};
use reqparse::query::Profile;
use reqparse::stream::{Error, FormConfig, FormPairs};
use serde_json::{json, Value};
use support::body::form::{decode, expected, failure, limits, shape, Outcome};
use support::stream::{chunkings, run, Chunks};
use support::vectors;

/// The pairs the async reader reads from `chunks`, in the sync outcome's shape (offsets 0:
/// the stream hands out pairs without them).
fn read(chunks: Vec<Bytes>, pending: bool, config: FormConfig) -> Outcome {
    run(async {
        let mut pairs = FormPairs::with_config(Chunks::new(chunks, pending), config);
        let mut out = Vec::new();
        loop {
            match pairs.next_pair().await {
                Ok(Some((name, value))) => out.push((name, value, 0)),
                Ok(None) => return Ok(out),
                Err(Error::Form(e)) => return Err(failure(e)),
                Err(other) => panic!("not a body's error: {other}"),
            }
        }
    })
}

/// Every chunking of `input` reads as the sync reader reads it whole: `Err` names the first
/// that does not.
fn every_chunking(input: &[u8], config: FormConfig, seed: u64) -> Result<Value, String> {
    let want = shape(&decode(&[input], config.profile, config.limits));
    for (i, (label, chunks)) in chunkings(input, seed, 12).into_iter().enumerate() {
        let got = shape(&read(chunks, i % 2 == 1, config));
        if got != want {
            return Err(format!("{label}: got {got} want {want}"));
        }
    }
    Ok(want)
}

#[test]
fn form_vectors_in_random_chunkings() {
    let mut seed = 0;
    vectors::run("form.json", 10, |case, failures| {
        seed += 1;
        let source = vectors::required(case, "source");
        let input = vectors::required(case, "input").as_bytes();
        let config = FormConfig {
            profile: vectors::profile(case),
            limits: limits(case),
        };
        match every_chunking(input, config, seed) {
            Ok(got) if got == expected(case) => {}
            Ok(got) => failures.push(format!("{source}: got {got} want {}", expected(case))),
            Err(e) => failures.push(format!("{source}: {e}")),
        }
    });
}

#[test]
fn query_vectors_as_bodies_in_random_chunkings() {
    let mut seed = 1000;
    vectors::run("query.json", 50, |case, failures| {
        let input = vectors::required(case, "input");
        if input.starts_with('?') || vectors::flag(case, "map") || vectors::flag(case, "raw") {
            return;
        }
        seed += 1;
        let profile: Profile = vectors::profile(case);
        let config = FormConfig {
            profile,
            limits: FormLimits::default(),
        };
        if let Err(e) = every_chunking(input.as_bytes(), config, seed) {
            failures.push(format!("{}: {e}", vectors::required(case, "source")));
        }
    });
}

#[test]
fn limits_are_413_and_the_stream_ends_after_an_error() {
    use futures_util::StreamExt;
    let config = FormConfig {
        profile: Profile::Whatwg,
        limits: FormLimits {
            max_value_bytes: 4,
            ..FormLimits::default()
        },
    };
    let chunks = vec![
        Bytes::from_static(b"a=1&b=12"),
        Bytes::from_static(b"345&c=3"),
    ];
    // As a Stream: after the error, the end (a consumer that collects stops).
    let pairs = FormPairs::with_config(Chunks::new(chunks, true), config);
    let got: Vec<_> = run(StreamExt::collect(pairs));
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].as_ref().unwrap(), &("a".to_owned(), "1".to_owned()));
    let err = got[1].as_ref().unwrap_err();
    let Error::Form(e) = err else {
        panic!("{err:?}")
    };
    assert_eq!(
        e.kind,
        reqparse::body::form::FormErrorKind::Limit(FormLimit::ValueBytes)
    );
    assert!((err.status(), err.offset()) == (413, Some(10)));
    assert_eq!(
        json!(err.to_string()),
        json!("form body over max_value_bytes at byte 10")
    );
}

#[test]
fn a_source_error_ends_the_pairs() {
    let chunks = vec![Bytes::from_static(b"a=1&b=2")];
    let source = Chunks::failing(chunks, std::io::Error::other("reset"));
    run(async {
        let mut pairs = FormPairs::new(source);
        assert_eq!(pairs.next_pair().await.unwrap().unwrap().0, "a");
        let err = pairs.next_pair().await.unwrap_err();
        assert!(
            matches!(err, Error::Source(_)) && err.status() == 400,
            "{err}"
        );
        assert_eq!(pairs.next_pair().await.unwrap(), None);
    });
}
