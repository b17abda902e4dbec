//! `tests/vectors/*.json` (schema: ARCHITECTURE.md): one loader, the schema's meaning of a
//! missing optional key (the profile's default, `false`, the empty string), and the output
//! shape every face reports.

use std::fmt::Display;
use std::str::FromStr;

use reqparse::disposition::{ContentDisposition, FilenameOptions};
use serde_json::{json, Value};

/// The cases of `tests/vectors/{file}`; panics naming the file when it is missing or not a
/// JSON array.
pub fn load(file: &str) -> Vec<Value> {
    let path = format!("{}/tests/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    match serde_json::from_str(&text) {
        Ok(Value::Array(cases)) => cases,
        other => panic!("{path}: not a JSON array: {other:?}"),
    }
}

/// [`load`], failing when the file has fewer than `min` cases (a truncated file would pass).
pub fn load_at_least(file: &str, min: usize) -> Vec<Value> {
    let cases = load(file);
    assert!(cases.len() >= min, "only {} cases", cases.len());
    cases
}

/// An optional string key: missing means "".
pub fn text<'a>(case: &'a Value, key: &str) -> &'a str {
    optional_text(case, key).unwrap_or_default()
}

/// An optional string key where absent and "" differ (a `filename`).
pub fn optional_text<'a>(case: &'a Value, key: &str) -> Option<&'a str> {
    case.get(key).and_then(Value::as_str)
}

/// A string key every case of its file has (`source`, `input`, …): panics naming the case.
pub fn required<'a>(case: &'a Value, key: &str) -> &'a str {
    optional_text(case, key).unwrap_or_else(|| panic!("no string {key:?} in {case}"))
}

/// A disposition case's header bytes: `input` as UTF-8, or, with `"input_encoding":
/// "latin1"`, one byte per character of `input` (each U+0000-U+00FF), which is how a case
/// writes bytes that are not UTF-8 (tc2231's ISO-8859-1 filenames) in a JSON string.
pub fn input_bytes(case: &Value) -> Vec<u8> {
    let input = required(case, "input");
    match optional_text(case, "input_encoding") {
        None | Some("utf-8") => input.as_bytes().to_vec(),
        Some("latin1") => input
            .chars()
            .map(|c| u8::try_from(c).unwrap_or_else(|_| panic!("{c:?} is not Latin-1 in {case}")))
            .collect(),
        Some(other) => panic!("input_encoding {other:?} (utf-8 or latin1) in {case}"),
    }
}

/// A case's `limits`: `{"<limits field>": N, ...}` as (name, N) pairs; missing means none.
pub fn limits(case: &Value) -> Vec<(&str, u64)> {
    let Some(given) = case.get("limits").and_then(Value::as_object) else {
        return Vec::new();
    };
    given
        .iter()
        .map(|(name, value)| {
            let n = value
                .as_u64()
                .unwrap_or_else(|| panic!("limit {name} in {case}"));
            (name.as_str(), n)
        })
        .collect()
}

/// A reader's default limits with those a case's `limits` names set, by the core's own table
/// (`set`, by field name: `MultipartLimits::set` and the others); an unknown name panics.
pub fn limits_with<L: Default>(
    case: &Value,
    set: impl Fn(&mut L, &str, u64) -> Result<(), reqparse::body::LimitError>,
) -> L {
    let mut limits = L::default();
    for (name, n) in self::limits(case) {
        set(&mut limits, name, n).unwrap_or_else(|e| panic!("limit {name}={n}: {e} in {case}"));
    }
    limits
}

/// An optional boolean key: missing means `false`.
pub fn flag(case: &Value, key: &str) -> bool {
    case.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// The case's `profile`, by the core's own names (`FromStr`); missing means the default.
/// Works for `query::Profile` and `disposition::Profile` alike.
pub fn profile<P>(case: &Value) -> P
where
    P: FromStr + Default,
    P::Err: Display,
{
    match optional_text(case, "profile") {
        None => P::default(),
        Some(name) => name
            .parse()
            .unwrap_or_else(|e| panic!("profile {name:?}: {e}, in {case}")),
    }
}

/// `disposition_format.json`'s `parameters`: `[[name, value], ...]`, missing means none.
pub fn parameters(case: &Value) -> Vec<(&str, &str)> {
    let Some(list) = case.get("parameters") else {
        return Vec::new();
    };
    let list = list
        .as_array()
        .unwrap_or_else(|| panic!("parameters: {case}"));
    list.iter()
        .map(|p| {
            match (
                p.get(0).and_then(Value::as_str),
                p.get(1).and_then(Value::as_str),
            ) {
                (Some(name), Some(value)) => (name, value),
                _ => panic!("parameter {p} is not [name, value]: {case}"),
            }
        })
        .collect()
}

/// Runs `each` on every case of `file` (which must have at least `min`); `each` pushes a line
/// for whatever fails, and the test then fails listing them all, so one run shows every broken
/// case by its source.
pub fn run(file: &str, min: usize, mut each: impl FnMut(&Value, &mut Vec<String>)) {
    let cases = load_at_least(file, min);
    let mut failures = Vec::new();
    for case in &cases {
        each(case, &mut failures);
    }
    println!("{file}: {} cases", cases.len());
    assert_passed(&format!("{file} cases"), cases.len(), &failures);
}

/// Fails the test listing every failure, when there is one: "N of M {what} failed: …".
pub fn assert_passed(what: &str, cases: usize, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} of {cases} {what} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A split URI in the shape every face reports.
pub fn split_shape(scheme: &str, host: &str, path: &str, query: &str, fragment: &str) -> Value {
    json!({
        "scheme": scheme, "host": host, "path": path, "query": query, "fragment": fragment,
    })
}

/// A Content-Disposition in the shape every face reports: `{"type", "filename", "parameters"}`.
pub fn disposition_shape(cd: &ContentDisposition<'_>, opts: FilenameOptions) -> Value {
    let params: Vec<Value> = cd
        .params()
        .map(|p| json!([p.name().to_ascii_lowercase(), p.value().into_owned()]))
        .collect();
    json!({
        "type": cd.disposition_type().to_ascii_lowercase(),
        "filename": cd.filename_with(opts).map(|f| f.into_owned()),
        "parameters": params,
    })
}
