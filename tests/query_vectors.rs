//! Runs every case of `tests/vectors/query.json` (schema: ARCHITECTURE.md) and reports all
//! failing cases by source at once.

mod support;

use std::collections::BTreeMap;

use reqparse::query::{
    self, decode_spans, MapOptions, Profile, QueryError, QueryMap, SPAN_DECODED,
};
use serde_json::Value;
use support::vectors::{self, flag, required};

/// The case's answer in the shared output shape: pairs, map, or `{"offset": N}`.
fn run(case: &Value) -> Result<Value, QueryError> {
    let input = required(case, "input");
    let profile: Profile = vectors::profile(case);
    if flag(case, "map") {
        let opts = MapOptions {
            profile,
            ignore_case: flag(case, "ignore_case"),
            ..MapOptions::default()
        };
        let map = QueryMap::parse(input, opts)?;
        let obj: serde_json::Map<String, Value> = map
            .iter()
            .map(|(n, vs)| (n.to_owned(), vs.map(Value::from).collect()))
            .collect();
        return Ok(Value::Object(obj));
    }
    let mut out = Vec::new();
    for pair in query::pairs(input) {
        let (n, v) = if flag(case, "raw") {
            (
                String::from_utf8_lossy(pair.name()).into_owned(),
                String::from_utf8_lossy(pair.value()).into_owned(),
            )
        } else {
            (
                pair.decode_name(profile)?.into_owned(),
                pair.decode_value(profile)?.into_owned(),
            )
        };
        out.push(Value::from(vec![n, v]));
    }
    Ok(Value::Array(out))
}

/// The wasm faces see pairs through `decode_spans`: it must give the same answer.
fn run_spans(case: &Value) -> Result<Value, QueryError> {
    let input = required(case, "input").as_bytes();
    let (mut out, mut spans) = (Vec::new(), Vec::new());
    let n = decode_spans(input, vectors::profile(case), &mut out, &mut spans)?;
    assert_eq!(spans.len(), 4 * n);
    let text = |a: u32, b: u32| {
        let bytes = if a & SPAN_DECODED != 0 {
            &out[(a & !SPAN_DECODED) as usize..(b & !SPAN_DECODED) as usize]
        } else {
            &input[a as usize..b as usize]
        };
        String::from_utf8(bytes.to_vec()).expect("spans hold UTF-8")
    };
    Ok(Value::Array(
        spans
            .chunks(4)
            .map(|s| Value::from(vec![text(s[0], s[1]), text(s[2], s[3])]))
            .collect(),
    ))
}

fn normalise_map(v: &Value) -> BTreeMap<String, Value> {
    v.as_object()
        .expect("map")
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

#[test]
fn query_vectors() {
    vectors::run("query.json", 80, |case, failures| {
        let source = required(case, "source");
        let got = run(case);
        let verdict = match (case.get("expect"), case.get("expect_error"), &got) {
            (Some(want), None, Ok(got)) if flag(case, "map") => {
                normalise_map(want) == normalise_map(got)
            }
            (Some(want), None, Ok(got)) => want == got,
            (None, Some(want), Err(e)) => want["offset"].as_u64() == Some(e.offset as u64),
            _ => false,
        };
        if !verdict {
            failures.push(format!("{source}: got {got:?}, case {case}"));
            return;
        }
        if !flag(case, "map") && !flag(case, "raw") {
            let spans = run_spans(case);
            let same = match (&got, &spans) {
                (Ok(a), Ok(b)) => a == b,
                (Err(a), Err(b)) => a == b,
                _ => false,
            };
            if !same {
                failures.push(format!(
                    "{source}: decode_spans gave {spans:?}, pairs {got:?}"
                ));
            }
        }
    });
}
