//! The `serde` feature's JSON for every vector of `tests/vectors/` whose answer the CLI prints
//! as JSON: it must be the vector's `expect`, the answer `tests/cli_vectors.rs` holds the
//! `reqparse` binary to, so a server serializing the library's types answers as the CLI does.
//! Errors serialize as `{"offset", "message"}` (`"kind"` too where the error has a kind name):
//! the offset and kind must be the vector's, and the message the error's `Display`, the text
//! the CLI prints after its prefix.
#![cfg(feature = "serde")]

mod support;

use reqparse::body::chunked::ChunkedDecoder;
use reqparse::body::form::{FormEvent, FormReader};
use reqparse::body::multipart::{MultipartEvent, MultipartReader, ReadError};
use reqparse::disposition::ContentDisposition;
use reqparse::query::{self, MapOptions, QueryMap};
use reqparse::uri;
use serde::Serialize;
use serde_json::{json, Value};
use support::vectors::{self, flag, profile, required, text};

fn to_json(value: &impl Serialize) -> Value {
    serde_json::to_value(value).expect("serializes")
}

/// A success's JSON against `expect`, or an error's against `expect_error` (the vector's
/// offset and kind; the message is the error's `Display`).
fn check<T: Serialize, E: Serialize + std::fmt::Display>(
    case: &Value,
    got: Result<T, E>,
    failures: &mut Vec<String>,
) {
    let source = required(case, "source");
    match (got, case.get("expect_error")) {
        (Ok(value), None) => {
            let got = to_json(&value);
            if got != case["expect"] {
                failures.push(format!(
                    "{source}: serde {got}, expected {}",
                    case["expect"]
                ));
            }
        }
        (Err(e), Some(want)) => {
            let got = to_json(&e);
            let mut problems = Vec::new();
            // Every error has an offset; a kind only where the crate names kinds (the form
            // reader's errors have none, their vectors' kinds are the tests' own names).
            for key in ["offset", "kind"] {
                if let (Some(want), true) =
                    (want.get(key), key == "offset" || got.get(key).is_some())
                {
                    if got.get(key) != Some(want) {
                        problems.push(format!("{key} {:?}, expected {want}", got.get(key)));
                    }
                }
            }
            // The part a multipart error is in, where the case names it.
            if let Some(part) = case.get("expect_error_part") {
                if got.get("part") != Some(part) {
                    problems.push(format!("part {:?}, expected {part}", got.get("part")));
                }
            }
            if got["message"] != json!(e.to_string()) {
                problems.push(format!("message {}", got["message"]));
            }
            if !problems.is_empty() {
                failures.push(format!("{source}: {}", problems.join(", ")));
            }
        }
        (Ok(value), Some(_)) => failures.push(format!("{source}: parsed, {}", to_json(&value))),
        (Err(e), None) => failures.push(format!("{source}: error {}", to_json(&e))),
    }
}

#[test]
fn query_vectors() {
    vectors::run("query.json", 50, |case, failures| {
        let input = required(case, "input");
        let profile: query::Profile = profile(case);
        if flag(case, "map") {
            let options = MapOptions {
                profile,
                ignore_case: flag(case, "ignore_case"),
                ..MapOptions::default()
            };
            check(case, QueryMap::parse(input, options), failures);
        } else if flag(case, "raw") {
            let raw: Vec<_> = query::pairs(input).collect();
            check(case, Ok::<_, query::QueryError>(raw), failures);
            // The `&str` view serializes alike.
            let text: Vec<_> = query::str_pairs(input).collect();
            check(case, Ok::<_, query::QueryError>(text), failures);
        } else {
            check(case, query::collect_pairs(input, profile), failures);
        }
    });
}

#[test]
fn uri_split_vectors() {
    vectors::run("uri.json", 50, |case, failures| {
        if text(case, "op") == "split" {
            check(case, uri::split_absolute(required(case, "uri")), failures);
        }
    });
}

#[test]
fn disposition_vectors() {
    let mut with_2047 = 0;
    vectors::run("disposition.json", 50, |case, failures| {
        // `Serialize` writes the default effective filename; RFC 2047 decoding is an option
        // a caller asks for (`filename_with`), and the CLI's `--decode-2047`.
        if flag(case, "decode_2047") {
            with_2047 += 1;
            return;
        }
        let header = vectors::input_bytes(case);
        check(
            case,
            ContentDisposition::parse(&header, profile(case)),
            failures,
        );
    });
    eprintln!("disposition.json: {with_2047} decode_2047 cases left to tests/cli_vectors.rs");
}

#[test]
fn form_vectors() {
    vectors::run("form.json", 10, |case, failures| {
        // As the CLI: the default limits (cases with their own are the library tests').
        if case.get("limits").is_some() {
            return;
        }
        let mut reader = FormReader::new(profile(case), Default::default());
        let mut input = required(case, "input").as_bytes();
        let mut pairs = Vec::new();
        let got = loop {
            match reader.decode(input, true) {
                Ok(step) => {
                    input = &input[step.consumed..];
                    match step.event {
                        Some(FormEvent::Pair(pair)) => pairs.push(to_json(&pair)),
                        _ => break Ok(pairs),
                    }
                }
                Err(e) => break Err(e),
            }
        };
        check(case, got, failures);
    });
}

#[test]
fn multipart_vectors() {
    vectors::run("multipart.json", 60, |case, failures| {
        // The per-part decisions are the reader's caller's (tests/multipart_vectors.rs).
        if case.get("decisions").is_some() {
            return;
        }
        let limits = support::body::multipart::limits(case);
        let input = vectors::input_bytes(case);
        let names: Vec<&str> = match case.get("profiles").and_then(Value::as_array) {
            Some(names) => names.iter().filter_map(Value::as_str).collect(),
            None => vec!["fetch"],
        };
        for name in names {
            let profile = name.parse().expect("a multipart profile");
            let boundary = required(case, "boundary").as_bytes();
            let got = MultipartReader::new(boundary, profile, limits).and_then(|mut reader| {
                let mut heads = Vec::new();
                let read = reader.read_from(&input[..], |event| {
                    if let MultipartEvent::Part(part) = event {
                        heads.push(to_json(&part));
                    }
                });
                match read {
                    Ok(()) => Ok(heads),
                    Err(ReadError::Body(e)) => Err(e),
                    Err(ReadError::Io(e)) => panic!("reading a slice: {e}"),
                }
            });
            // The head of each part: the expected part without its data, with its MIME type
            // when the case gives them (without the MIME type it serializes to when not).
            let mime_types = case.get("mime_types").and_then(Value::as_array).cloned();
            let got = got.map(|heads| {
                heads
                    .into_iter()
                    .map(|mut head| {
                        if mime_types.is_none() {
                            head.as_object_mut().unwrap().remove("mime_type");
                        }
                        head
                    })
                    .collect::<Vec<_>>()
            });
            let mut case = case.clone();
            if let Some(parts) = case.get_mut("expect").and_then(Value::as_array_mut) {
                for (i, part) in parts.iter_mut().enumerate() {
                    let part = part.as_object_mut().unwrap();
                    part.remove("data");
                    if let Some(mime_types) = &mime_types {
                        part.insert("mime_type".into(), mime_types[i].clone());
                    }
                }
            }
            let mut found = Vec::new();
            check(&case, got, &mut found);
            failures.extend(found.into_iter().map(|f| format!("[{name}] {f}")));
        }
    });
}

#[test]
fn chunked_error_vectors() {
    vectors::run("chunked.json", 40, |case, failures| {
        // Only errors are JSON (the CLI writes a good body's bytes); default limits, as the CLI.
        if case.get("expect_error").is_none() || case.get("limits").is_some() {
            return;
        }
        let mut decoder = ChunkedDecoder::default();
        let mut input = required(case, "input").as_bytes();
        let got = loop {
            match decoder.decode(input) {
                Ok(step) if step.event.is_some() => input = &input[step.consumed..],
                Ok(_) => break decoder.finish(),
                Err(e) => break Err(e),
            }
        };
        check(case, got.map(|()| "end"), failures);
    });
}
