//! Runs every case of `tests/vectors/uri.json` and lists all failures by source name.

use reqparse::uri::{build_absolute, build_relative, split_absolute};
use serde_json::{json, Value};

fn field<'a>(case: &'a Value, key: &str) -> &'a str {
    // Missing optional keys mean "" (ARCHITECTURE.md, test vectors).
    case.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The outcome of one case, in the vectors' shape: `{"expect": ...}` or `{"expect_error": {...}}`.
fn run(case: &Value) -> Result<Value, String> {
    let op = field(case, "op");
    Ok(match op {
        "build" => match build_absolute(
            field(case, "scheme"),
            field(case, "host"),
            field(case, "path_base"),
            field(case, "path"),
            field(case, "query"),
            field(case, "fragment"),
        ) {
            Ok(s) => {
                if s.capacity() != s.len() {
                    return Err(format!("capacity {} != len {}", s.capacity(), s.len()));
                }
                json!({ "expect": s })
            }
            Err(e) => json!({ "expect_error": { "offset": e.offset }, "message": e.to_string() }),
        },
        "relative" => {
            let s = build_relative(
                field(case, "path_base"),
                field(case, "path"),
                field(case, "query"),
                field(case, "fragment"),
            );
            if s.capacity() != s.len() {
                return Err(format!("capacity {} != len {}", s.capacity(), s.len()));
            }
            json!({ "expect": s })
        }
        "split" => match split_absolute(field(case, "uri")) {
            Ok(p) => json!({ "expect": {
                "scheme": p.scheme, "host": p.host, "path": p.path,
                "query": p.query, "fragment": p.fragment,
            }}),
            Err(e) => json!({ "expect_error": { "offset": e.offset }, "message": e.to_string() }),
        },
        other => return Err(format!("unknown op {other:?}")),
    })
}

fn matches(case: &Value, got: &Value) -> bool {
    if !cfg!(feature = "idna") && field(case, "op") == "build" && !field(case, "host").is_ascii() {
        // Without the `idna` feature every Unicode host is an error (IdnaDisabled).
        return got.get("expect_error").is_some();
    }
    if let Some(expect) = case.get("expect") {
        return got.get("expect") == Some(expect);
    }
    let Some(want) = case.get("expect_error") else {
        return false;
    };
    let Some(got) = got.get("expect_error") else {
        return false;
    };
    // The offset is pinned only where the vector gives one.
    want.get("offset")
        .is_none_or(|o| got.get("offset") == Some(o))
}

#[test]
fn uri_vectors() {
    let text = include_str!("vectors/uri.json");
    let cases: Vec<Value> = serde_json::from_str(text).expect("uri.json is a JSON array");
    assert!(cases.len() >= 50, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let source = field(case, "source");
        match run(case) {
            Ok(got) if matches(case, &got) => {}
            Ok(got) => failures.push(format!("{source}: got {got}, want {case}")),
            Err(e) => failures.push(format!("{source}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} uri vectors failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Every case must name its source and expect exactly one outcome, so a typo in the file cannot
/// silently turn a case into one that always passes.
#[test]
fn uri_vectors_are_well_formed() {
    let cases: Vec<Value> = serde_json::from_str(include_str!("vectors/uri.json")).unwrap();
    let mut sources = std::collections::HashSet::new();
    for case in &cases {
        let source = field(case, "source");
        assert!(!source.is_empty(), "case without source: {case}");
        assert!(sources.insert(source), "duplicate source {source:?}");
        assert!(
            case.get("expect").is_some() != case.get("expect_error").is_some(),
            "{source}: needs exactly one of expect / expect_error"
        );
        let keys: &[&str] = match field(case, "op") {
            "build" => &["scheme", "host", "path_base", "path", "query", "fragment"],
            "relative" => &["path_base", "path", "query", "fragment"],
            "split" => &["uri"],
            other => panic!("{source}: unknown op {other:?}"),
        };
        for (k, _) in case.as_object().unwrap() {
            assert!(
                ["source", "op", "expect", "expect_error"].contains(&k.as_str())
                    || keys.contains(&k.as_str()),
                "{source}: unexpected key {k:?}"
            );
        }
    }
}
