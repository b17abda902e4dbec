//! Per-call cost through wasmtime (the reqparse component) versus the native crate, in the
//! same run: short and 1 KB queries (pairs and spans modes), a URI build, a header parse, and a
//! whole request's `inspect`. After criterion's groups, prints a component/native ratio table.
//!
//! ```text
//! .ci/build-component.sh
//! cargo bench --bench component --features engine-wasm -- --warm-up-time 1 --measurement-time 3
//! ```

use std::borrow::Cow;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use reqparse::engine::{DispositionProfile, QueryProfile, WasmEngine, WasmInspector};
use reqparse::inspect::RequestHead;
use reqparse::{disposition, inspect, query, uri};

const SHORT: &str = "?q=rust+wasm&page=2&lang=en";

/// A realistic 1 KB query: tracking parameters, escapes, `+`, a few non-ASCII values.
fn query_1k() -> String {
    let mut q = String::from("?utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale");
    let mut i = 0;
    while q.len() < 1000 {
        q.push_str(&format!(
            "&filter%5B{i}%5D=price%3A{}-{}&sort=desc&name{i}=J%C3%BCrgen+M%C3%BCller&id={}",
            i * 10,
            i * 10 + 99,
            1_000_000 + i * 7919
        ));
        i += 1;
    }
    q.truncate(1024);
    // Do not end inside an escape.
    while q.ends_with('%') || q[..q.len() - 1].ends_with('%') {
        q.pop();
    }
    q
}

const HEADER: &[u8] =
    b"attachment; filename=\"EURO rates.txt\"; filename*=UTF-8''%e2%82%ac%20rates.txt; size=1024";

fn head(target: &str) -> RequestHead<'_> {
    RequestHead {
        method: "POST",
        scheme: "https",
        host: "api.example.com",
        target,
        content_disposition: Some(HEADER),
    }
}

fn native_pairs(input: &str) -> usize {
    let mut n = 0;
    for pair in query::pairs(input) {
        let name: Cow<'_, str> = pair.decode_name(query::Profile::Whatwg).unwrap_or_default();
        let value = pair
            .decode_value(query::Profile::Whatwg)
            .unwrap_or_default();
        n += black_box(name).len() + black_box(value).len();
    }
    n
}

/// What the component's `pairs` hands the host: owned strings.
fn native_owned_pairs(input: &str) -> usize {
    let pairs: Vec<(String, String)> = query::pairs(input)
        .map(|pair| {
            let name = pair.decode_name(query::Profile::Whatwg).unwrap_or_default();
            let value = pair
                .decode_value(query::Profile::Whatwg)
                .unwrap_or_default();
            (name.into_owned(), value.into_owned())
        })
        .collect();
    black_box(&pairs).len()
}

fn native_spans(input: &str, out: &mut Vec<u8>, spans: &mut Vec<u32>) -> usize {
    query::decode_spans(input.as_bytes(), query::Profile::Whatwg, out, spans).unwrap_or(0)
}

fn native_header() -> usize {
    let cd = disposition::ContentDisposition::parse(HEADER, disposition::Profile::Strict)
        .expect("a valid header");
    cd.filename().map_or(0, |f| f.len()) + cd.params().count()
}

/// Each benchmarked operation, native and through the component, as closures over shared state.
struct Ops {
    inspector: WasmInspector,
    q1k: String,
    target_1k: String,
    out: Vec<u8>,
    spans: Vec<u32>,
    json: String,
}

type Op = fn(&mut Ops) -> usize;

const CASES: &[(&str, Op, Op)] = &[
    (
        "fixed cost (empty build-relative)",
        |_| uri::build_relative("", "", "", "").len(),
        |o| o.inspector.build_relative("", "", "", "").unwrap().len(),
    ),
    (
        "query short, pairs",
        |_| native_pairs(SHORT),
        |o| {
            o.inspector
                .query_pairs(SHORT, QueryProfile::Whatwg)
                .unwrap()
                .unwrap()
                .len()
        },
    ),
    (
        "query 1 KB, pairs",
        |o| native_pairs(&o.q1k),
        |o| {
            o.inspector
                .query_pairs(&o.q1k, QueryProfile::Whatwg)
                .unwrap()
                .unwrap()
                .len()
        },
    ),
    (
        "query 1 KB, pairs (native owned too)",
        |o| native_owned_pairs(&o.q1k),
        |o| {
            o.inspector
                .query_pairs(&o.q1k, QueryProfile::Whatwg)
                .unwrap()
                .unwrap()
                .len()
        },
    ),
    (
        "query short, spans",
        |o| native_spans(SHORT, &mut o.out, &mut o.spans),
        |o| {
            o.inspector
                .query_spans(SHORT, QueryProfile::Whatwg)
                .unwrap()
                .unwrap()
                .spans
                .len()
        },
    ),
    (
        "query 1 KB, spans",
        |o| native_spans(&o.q1k, &mut o.out, &mut o.spans),
        |o| {
            o.inspector
                .query_spans(&o.q1k, QueryProfile::Whatwg)
                .unwrap()
                .unwrap()
                .spans
                .len()
        },
    ),
    (
        "uri build-absolute",
        |_| {
            uri::build_absolute(
                "https",
                "bücher.example:8443",
                "/base",
                "/a b/c",
                "?x=1",
                "#f",
            )
            .unwrap()
            .len()
        },
        |o| {
            o.inspector
                .build_absolute(
                    "https",
                    "bücher.example:8443",
                    "/base",
                    "/a b/c",
                    "?x=1",
                    "#f",
                )
                .unwrap()
                .unwrap()
                .len()
        },
    ),
    (
        "content-disposition parse",
        |_| native_header(),
        |o| {
            let cd = o
                .inspector
                .parse_disposition(HEADER, DispositionProfile::Strict, false)
                .unwrap()
                .unwrap();
            cd.filename.map_or(0, |f| f.len()) + cd.parameters.len()
        },
    ),
    (
        "inspect (1 KB target + header)",
        |o| {
            o.json.clear();
            inspect::inspect(&head(&o.target_1k), &mut o.json);
            o.json.len()
        },
        |o| {
            o.json.clear();
            let target = std::mem::take(&mut o.target_1k);
            o.inspector.inspect(&head(&target), &mut o.json).unwrap();
            o.target_1k = target;
            o.json.len()
        },
    ),
];

fn ops() -> Ops {
    let engine = WasmEngine::load(None).expect("run .ci/build-component.sh first");
    let q1k = query_1k();
    Ops {
        inspector: engine.inspector().expect("an instance"),
        target_1k: format!("/search{q1k}"),
        q1k,
        out: Vec::new(),
        spans: Vec::new(),
        json: String::new(),
    }
}

fn criterion_benches(c: &mut Criterion, o: &mut Ops) {
    for (name, native, component) in CASES {
        let mut group = c.benchmark_group(*name);
        if name.contains("1 KB") {
            group.throughput(Throughput::Bytes(1024));
        }
        group.bench_function("native", |b| b.iter(|| native(black_box(o))));
        group.bench_function("component", |b| b.iter(|| component(black_box(o))));
        group.finish();
    }
}

/// Median ns/op over 7 rounds of `budget` each, alternating native and component rounds so
/// both see the same machine state.
fn ratio_table(o: &mut Ops, budget: Duration) {
    fn round(o: &mut Ops, op: Op, budget: Duration) -> f64 {
        let start = Instant::now();
        let mut iters = 0u64;
        while start.elapsed() < budget {
            for _ in 0..64 {
                black_box(op(o));
            }
            iters += 64;
        }
        start.elapsed().as_nanos() as f64 / iters as f64
    }
    fn median(mut v: Vec<f64>) -> f64 {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    }
    println!(
        "\n{:<34} {:>12} {:>14} {:>8}",
        "per call", "native ns", "component ns", "ratio"
    );
    for (name, native, component) in CASES {
        let (mut n, mut w) = (Vec::new(), Vec::new());
        for _ in 0..7 {
            n.push(round(o, *native, budget));
            w.push(round(o, *component, budget));
        }
        let (n, w) = (median(n), median(w));
        println!("{name:<34} {n:>12.0} {w:>14.0} {:>7.2}x", w / n);
    }
}

fn main() {
    let mut o = ops();
    let mut c = Criterion::default().configure_from_args();
    criterion_benches(&mut c, &mut o);
    c.final_summary();
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        return;
    }
    // `cargo bench` passes --bench; `cargo test --benches` does not (criterion's test mode):
    // there one quick pass proves the table works.
    let benching = args.iter().any(|a| a == "--bench");
    let budget = if benching {
        Duration::from_millis(150)
    } else {
        Duration::from_micros(100)
    };
    ratio_table(&mut o, budget);
}
