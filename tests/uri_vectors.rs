//! Runs every case of `tests/vectors/uri.json` and lists all failures by source name.

mod support;

use reqparse::uri::{build_absolute, build_relative, split_absolute};
use serde_json::{json, Value};
use support::vectors::{self, split_shape, text};

/// The outcome of one case, in the vectors' shape: `{"expect": ...}` or `{"expect_error": {...}}`.
fn run(case: &Value) -> Result<Value, String> {
    let op = text(case, "op");
    Ok(match op {
        "build" => match build_absolute(
            text(case, "scheme"),
            text(case, "host"),
            text(case, "path_base"),
            text(case, "path"),
            text(case, "query"),
            text(case, "fragment"),
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
                text(case, "path_base"),
                text(case, "path"),
                text(case, "query"),
                text(case, "fragment"),
            );
            if s.capacity() != s.len() {
                return Err(format!("capacity {} != len {}", s.capacity(), s.len()));
            }
            json!({ "expect": s })
        }
        "split" => match split_absolute(text(case, "uri")) {
            Ok(p) => json!({
                "expect": split_shape(p.scheme, p.host, &p.path, p.query, p.fragment)
            }),
            Err(e) => json!({ "expect_error": { "offset": e.offset }, "message": e.to_string() }),
        },
        other => return Err(format!("unknown op {other:?}")),
    })
}

fn matches(case: &Value, got: &Value) -> bool {
    if !cfg!(feature = "idna") && text(case, "op") == "build" && !text(case, "host").is_ascii() {
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
    vectors::run("uri.json", 50, |case, failures| {
        let source = text(case, "source");
        match run(case) {
            Ok(got) if matches(case, &got) => {}
            Ok(got) => failures.push(format!("{source}: got {got}, want {case}")),
            Err(e) => failures.push(format!("{source}: {e}")),
        }
    });
}

/// Every case must name its source and expect exactly one outcome, so a typo in the file cannot
/// silently turn a case into one that always passes.
#[test]
fn uri_vectors_are_well_formed() {
    let cases = vectors::load("uri.json");
    let mut sources = std::collections::HashSet::new();
    for case in &cases {
        let source = text(case, "source");
        assert!(!source.is_empty(), "case without source: {case}");
        assert!(sources.insert(source), "duplicate source {source:?}");
        assert!(
            case.get("expect").is_some() != case.get("expect_error").is_some(),
            "{source}: needs exactly one of expect / expect_error"
        );
        let keys: &[&str] = match text(case, "op") {
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
