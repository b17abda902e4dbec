#![cfg(feature = "engine-wasm")]
//! Every case of `tests/vectors/*.json` through the component in wasmtime: each answer must
//! equal the native crate's answer for the same call and the vector's expectation. Each test
//! prints how many cases it ran (`cargo test ... -- --nocapture`).

mod support;

use std::fmt::{Debug, Display};
use std::str::FromStr;

use reqparse::engine::{
    span_text, ContentDisposition, DispositionProfile, MapOptions, ParseError, Parts, QueryProfile,
    WasmInspector,
};
use reqparse::inspect::RequestHead;
use reqparse::{disposition, query, uri};
use serde_json::{json, Map, Value};
use support::component::inspector;
use support::vectors::{self, disposition_shape, flag, optional_text, split_shape, text};

/// The case's profile (missing: the default), as its WIT twin and as the native one.
fn profiles<N, W>(case: &Value, twins: &[(N, W)]) -> (W, N)
where
    N: FromStr + Default + PartialEq + Copy + Debug,
    N::Err: Display,
    W: Copy,
{
    let native: N = vectors::profile(case);
    let twin = twins.iter().find(|(n, _)| *n == native);
    let &(_, wit) = twin.unwrap_or_else(|| panic!("{native:?} has no WIT twin"));
    (wit, native)
}

/// The output shape of an error: `{"offset": N, "message": "..."}`.
fn error_json(offset: usize, message: impl ToString) -> Value {
    json!({ "offset": offset, "message": message.to_string() })
}

fn guest_error(e: ParseError) -> Value {
    error_json(e.offset as usize, e.message)
}

/// Compares the component's answer with the native one and with the case's expectation;
/// both answers are in the shared output shape (`Ok(expect)` or `Err({"offset", "message"})`).
fn check(
    failures: &mut Vec<String>,
    case: &Value,
    component: Result<Value, Value>,
    native: Result<Value, Value>,
) {
    let source = text(case, "source");
    if component != native {
        failures.push(format!(
            "{source}: component {component:?} != native {native:?}"
        ));
        return;
    }
    match (case.get("expect_error"), &component) {
        (Some(expected), Err(got)) => {
            if let Some(offset) = expected.get("offset") {
                if got.get("offset") != Some(offset) {
                    failures.push(format!("{source}: error offset {got} != expected {offset}"));
                }
            }
            if let Some(message) = expected.get("message") {
                if got.get("message") != Some(message) {
                    failures.push(format!("{source}: error {got} != expected {message}"));
                }
            }
        }
        (Some(_), Ok(got)) => failures.push(format!("{source}: expected an error, got {got}")),
        (None, Ok(got)) => {
            if case.get("expect") != Some(got) {
                failures.push(format!("{source}: got {got}, expected {}", case["expect"]));
            }
        }
        (None, Err(got)) => failures.push(format!("{source}: unexpected error {got}")),
    }
}

/// Runs `each` on every case of `file` with one inspector, then reports every failure at once.
fn run_file(file: &str, mut each: impl FnMut(&mut WasmInspector, &Value, &mut Vec<String>)) {
    let mut inspector = inspector();
    vectors::run(file, 1, |case, failures| {
        each(&mut inspector, case, failures)
    });
}

fn finish(file: &str, cases: usize, failures: Vec<String>) {
    println!("{file}: {cases} cases run through the component");
    assert!(cases > 0, "{file} has no cases");
    vectors::assert_passed("cases", cases, &failures);
}

/// Each native query profile with its WIT twin (the same names in every face).
const QUERY_PROFILES: [(query::Profile, QueryProfile); 3] = [
    (query::Profile::Whatwg, QueryProfile::Whatwg),
    (query::Profile::DotNet, QueryProfile::DotNet),
    (query::Profile::Strict, QueryProfile::Strict),
];

fn pairs_json(pairs: Vec<(String, String)>) -> Value {
    pairs.into_iter().map(|(n, v)| json!([n, v])).collect()
}

fn map_json(entries: Vec<(String, Vec<String>)>) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(n, v)| (n, json!(v)))
            .collect::<Map<_, _>>(),
    )
}

/// The component's options for a map: no limits, as the native `MapOptions::default()`.
fn wit_map_options(profile: QueryProfile, ignore_case: bool) -> MapOptions {
    MapOptions {
        profile,
        ignore_case,
        max_pairs: None,
        max_decoded_bytes: None,
    }
}

fn native_pairs(input: &str, profile: query::Profile) -> Result<Value, Value> {
    let qe = |e: query::QueryError| error_json(e.offset, e);
    query::pairs(input)
        .map(|p| {
            Ok(json!([
                p.decode_name(profile).map_err(qe)?,
                p.decode_value(profile).map_err(qe)?
            ]))
        })
        .collect()
}

#[test]
fn query_vectors_through_the_component() {
    run_file("query.json", |inspector, case, failures| {
        let input = text(case, "input");
        let (wit_profile, profile) = profiles(case, &QUERY_PROFILES);
        if flag(case, "raw") {
            let component = inspector.query_raw_pairs(input).expect("engine call");
            let native = query::pairs(input)
                .map(|p| {
                    json!([
                        String::from_utf8_lossy(p.name()),
                        String::from_utf8_lossy(p.value())
                    ])
                })
                .collect();
            check(failures, case, Ok(pairs_json(component)), Ok(native));
        } else if flag(case, "map") {
            let ignore_case = flag(case, "ignore_case");
            let options = wit_map_options(wit_profile, ignore_case);
            let component = match inspector.query_map(input, options).expect("engine call") {
                Ok(mut map) => Ok(map_json(map.entries().expect("engine call"))),
                Err(e) => Err(guest_error(e)),
            };
            let options = query::MapOptions {
                profile,
                ignore_case,
                ..Default::default()
            };
            let native = query::QueryMap::parse(input, options)
                .map(|map| {
                    map_json(
                        map.iter()
                            .map(|(n, v)| (n.into(), v.map(String::from).collect()))
                            .collect(),
                    )
                })
                .map_err(|e| error_json(e.offset, e));
            check(failures, case, component, native);
        } else {
            let component = inspector
                .query_pairs(input, wit_profile)
                .expect("engine call");
            let component = component.map(pairs_json).map_err(guest_error);
            check(
                failures,
                case,
                component.clone(),
                native_pairs(input, profile),
            );

            // The offsets mode gives the same pairs, and the very spans of the native call.
            let spans = inspector
                .query_spans(input, wit_profile)
                .expect("engine call");
            let (mut out, mut native_spans) = (Vec::new(), Vec::new());
            let native =
                query::decode_spans(input.as_bytes(), profile, &mut out, &mut native_spans);
            match (spans, native) {
                (Ok(spans), Ok(_)) => {
                    if spans.spans != native_spans || spans.decoded != out {
                        failures.push(format!(
                            "{}: spans differ from native",
                            text(case, "source")
                        ));
                    }
                    let pairs: Option<Vec<(String, String)>> = spans
                        .spans
                        .chunks_exact(4)
                        .map(|c| {
                            let name = span_text(input, &spans, c[0], c[1])?;
                            let value = span_text(input, &spans, c[2], c[3])?;
                            Some((name.to_string(), value.to_string()))
                        })
                        .collect();
                    let pairs = pairs.map(pairs_json).ok_or_else(|| json!("bad span"));
                    check(failures, case, pairs, component);
                }
                (Err(e), Err(n)) if e.offset as usize == n.offset => {}
                (got, native) => failures.push(format!(
                    "{}: spans mode {got:?} vs native {native:?}",
                    text(case, "source")
                )),
            }
        }
    });
}

fn parts_json(p: Parts) -> Value {
    split_shape(&p.scheme, &p.host, &p.path, &p.query, &p.fragment)
}

#[test]
fn uri_vectors_through_the_component() {
    run_file("uri.json", |inspector, case, failures| {
        let ue = |e: uri::UriError| error_json(e.offset, e);
        let [scheme, host, path_base, path, query, fragment] =
            ["scheme", "host", "path_base", "path", "query", "fragment"].map(|k| text(case, k));
        let (component, native) = match text(case, "op") {
            "build" => (
                inspector
                    .build_absolute(scheme, host, path_base, path, query, fragment)
                    .expect("engine call")
                    .map(Value::from)
                    .map_err(guest_error),
                uri::build_absolute(scheme, host, path_base, path, query, fragment)
                    .map(Value::from)
                    .map_err(ue),
            ),
            "relative" => (
                Ok(inspector
                    .build_relative(path_base, path, query, fragment)
                    .expect("engine call")
                    .into()),
                Ok(uri::build_relative(path_base, path, query, fragment).into()),
            ),
            "split" => {
                let input = text(case, "uri");
                (
                    inspector
                        .split_absolute(input)
                        .expect("engine call")
                        .map(parts_json)
                        .map_err(guest_error),
                    uri::split_absolute(input)
                        .map(|p| split_shape(p.scheme, p.host, &p.path, p.query, p.fragment))
                        .map_err(ue),
                )
            }
            other => panic!("{}: unknown op {other:?}", text(case, "source")),
        };
        check(failures, case, component, native);
    });
}

/// Each native disposition profile with its WIT twin.
const DISPOSITION_PROFILES: [(disposition::Profile, DispositionProfile); 3] = [
    (disposition::Profile::Strict, DispositionProfile::Strict),
    (disposition::Profile::Browser, DispositionProfile::Browser),
    (disposition::Profile::DotNet, DispositionProfile::DotNet),
];

fn disposition_json(cd: ContentDisposition) -> Value {
    json!({
        "type": cd.type_,
        "filename": cd.filename,
        "parameters": pairs_json(cd.parameters),
    })
}

fn native_disposition(
    input: &[u8],
    profile: disposition::Profile,
    decode_2047: bool,
) -> Result<Value, Value> {
    let cd = disposition::ContentDisposition::parse(input, profile)
        .map_err(|e| error_json(e.offset, e))?;
    Ok(disposition_shape(
        &cd,
        disposition::FilenameOptions { decode_2047 },
    ))
}

#[test]
fn disposition_vectors_through_the_component() {
    run_file("disposition.json", |inspector, case, failures| {
        // The header's bytes as they are: `parse` takes `list<u8>`.
        let input = &vectors::input_bytes(case)[..];
        let (wit_profile, profile) = profiles(case, &DISPOSITION_PROFILES);
        let decode_2047 = flag(case, "decode_2047");
        let component = inspector
            .parse_disposition(input, wit_profile, decode_2047)
            .expect("engine call")
            .map(disposition_json)
            .map_err(guest_error);
        check(
            failures,
            case,
            component,
            native_disposition(input, profile, decode_2047),
        );
    });
}

#[test]
fn disposition_format_vectors_through_the_component() {
    run_file("disposition_format.json", |inspector, case, failures| {
        let source = text(case, "source");
        let filename = optional_text(case, "filename");
        let parameters = vectors::parameters(case);
        let component = inspector
            .format_disposition(text(case, "type"), filename, &parameters)
            .expect("engine call");
        let mut builder = disposition::DispositionBuilder::new(text(case, "type"));
        if let Some(filename) = filename {
            builder = builder.filename(filename);
        }
        for &(name, value) in &parameters {
            builder = builder.param(name, value);
        }
        // A builder error has no offset: only its message crosses the boundary.
        let native = builder
            .build()
            .map(Value::from)
            .map_err(|e| json!({ "message": e.to_string() }));
        let header = component.clone().unwrap_or_default();
        check(
            failures,
            case,
            component
                .map(Value::from)
                .map_err(|e| json!({ "message": e.message })),
            native,
        );
        if case.get("expect_error").is_some() {
            return;
        }
        // The header parses back (through the component) to the same filename.
        match inspector.parse_disposition(header.as_bytes(), DispositionProfile::Strict, false) {
            Ok(Ok(cd)) if cd.filename.as_deref() == filename => {}
            other => failures.push(format!("{source}: {header:?} parses back as {other:?}")),
        }
    });
}

/// `inspect` (a request's whole work in one call) writes the native JSON byte for byte, for
/// request heads made of every query, URI and header vector input.
#[test]
fn inspect_matches_native_for_every_vector_input() {
    let mut inspector = inspector();
    let mut failures = Vec::new();
    let queries = vectors::load("query.json");
    let uris = vectors::load("uri.json");
    let headers = vectors::load("disposition.json");
    let targets: Vec<String> = queries
        .iter()
        .map(|c| {
            let q = text(c, "input");
            let q = q.strip_prefix('?').unwrap_or(q);
            format!("/search?{q}")
        })
        .chain(uris.iter().map(|c| {
            format!(
                "{}{}{}",
                text(c, "path"),
                text(c, "query"),
                text(c, "fragment")
            )
        }))
        .collect();
    let hosts: Vec<&str> = uris.iter().map(|c| text(c, "host")).collect();
    // The headers' bytes as a host receives them (ISO-8859-1 ones too).
    let header_bytes: Vec<Vec<u8>> = headers.iter().map(vectors::input_bytes).collect();
    let mut cases = 0;
    for (i, target) in targets.iter().enumerate() {
        let header = header_bytes
            .get(i % header_bytes.len().max(1))
            .map(Vec::as_slice);
        let head = RequestHead {
            method: if i % 2 == 0 { "GET" } else { "POST" },
            scheme: if i % 3 == 0 { "https" } else { "http" },
            host: hosts
                .get(i % hosts.len().max(1))
                .copied()
                .unwrap_or("example.com"),
            target,
            content_disposition: header.filter(|_| i % 4 != 0),
        };
        let (mut native, mut component) = (String::new(), String::new());
        reqparse::inspect::inspect(&head, &mut native);
        inspector
            .inspect(&head, &mut component)
            .expect("engine call");
        if native != component {
            failures.push(format!(
                "{target:?}: component {component} != native {native}"
            ));
        }
        cases += 1;
    }
    finish("inspect heads", cases, failures);
}

/// The `query-map` resource answers every lookup as the native `QueryMap` does, for every map
/// vector (each name, an upper-cased spelling of it, and a name that is absent); each map is
/// dropped in the guest afterwards.
#[test]
fn query_map_lookups_match_native() {
    let mut inspector = inspector();
    let (mut failures, mut cases) = (Vec::new(), 0);
    for case in vectors::load("query.json")
        .iter()
        .filter(|c| flag(c, "map"))
    {
        let input = text(case, "input");
        let (wit_profile, profile) = profiles(case, &QUERY_PROFILES);
        let ignore_case = flag(case, "ignore_case");
        let options = wit_map_options(wit_profile, ignore_case);
        let native_options = query::MapOptions {
            profile,
            ignore_case,
            ..Default::default()
        };
        let (Ok(Ok(mut map)), Ok(native)) = (
            inspector.query_map(input, options),
            query::QueryMap::parse(input, native_options),
        ) else {
            continue;
        };
        let names: Vec<String> = native.iter().map(|(n, _)| n.to_string()).collect();
        let probes = names
            .iter()
            .flat_map(|n| [n.clone(), n.to_uppercase()])
            .chain(["no such name \u{1F600}".to_string()]);
        for name in probes {
            let get = map.get(&name).expect("engine call");
            let all = map.get_all(&name).expect("engine call");
            let has = map.has(&name).expect("engine call");
            let native_all: Vec<&str> = native.get_all(&name).collect();
            if get.as_deref() != native.get(&name)
                || all != native_all
                || has != native.contains(&name)
            {
                failures.push(format!(
                    "{}: lookup {name:?}: component {get:?} {all:?} {has} != native",
                    text(case, "source")
                ));
            }
        }
        if map.len().expect("engine call") as usize != native.len() {
            failures.push(format!("{}: len differs", text(case, "source")));
        }
        cases += 1;
    }
    // Dropping a map frees it in the guest: after a warm-up, parse-and-drop cycles leave the
    // guest's memory where it was (a leak of even 100 bytes a map would grow it by pages).
    let options = wit_map_options(QueryProfile::Whatwg, false);
    let cycle = |inspector: &mut WasmInspector| {
        let mut map = inspector
            .query_map("a=1&b=2&a=3", options)
            .expect("engine call")
            .expect("parses");
        assert_eq!(map.get_all("a").expect("engine call"), ["1", "3"]);
    };
    for _ in 0..10 {
        cycle(&mut inspector);
    }
    let memory = inspector.guest_memory_bytes();
    for _ in 0..2000 {
        cycle(&mut inspector);
    }
    assert_eq!(
        inspector.guest_memory_bytes(),
        memory,
        "maps leak in the guest"
    );
    finish("query.json (map lookups)", cases, failures);
}
