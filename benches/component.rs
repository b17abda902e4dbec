//! Per-call cost through wasmtime (the reqparse component) versus the native crate, in the
//! same run: short and 1 KB queries (pairs and spans modes), a URI build, a header parse, and a
//! whole request's `inspect`. After criterion's groups, prints a component/native ratio table.
//!
//! ```text
//! cargo bench --bench component --features engine-wasm -- --warm-up-time 1 --measurement-time 3
//! REQPARSE_COMPONENT=other.component.wasm cargo bench ...   # another build than the bundled one
//! ```

// The harness's REQPARSE_COUNT protocol and counted loop (this bench keeps its own criterion
// groups and ratio table).
mod support;

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
    query::decode_str_spans(input, query::Profile::Whatwg, out, spans).unwrap_or(0)
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
    upload: Vec<u8>,
    near_misses: Vec<u8>,
}

type Op = fn(&mut Ops) -> usize;

const CASES: &[(&str, Op, Op)] = &[
    (
        "empty call (raw-pairs of \"\")",
        |_| query::pairs("").count(),
        |o| o.inspector.query_raw_pairs("").unwrap().len(),
    ),
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
    (
        "multipart 4 MiB file, 64 KiB reads",
        |o| native_multipart(&o.upload, 64 << 10),
        |o| component_multipart(&mut o.inspector, &o.upload, 64 << 10),
    ),
    (
        "multipart 4 MiB file, 1 KiB reads",
        |o| native_multipart(&o.upload, 1 << 10),
        |o| component_multipart(&mut o.inspector, &o.upload, 1 << 10),
    ),
    (
        "multipart 4 MiB of near misses, 64 KiB reads",
        |o| native_multipart(&o.near_misses, 64 << 10),
        |o| component_multipart(&mut o.inspector, &o.near_misses, 64 << 10),
    ),
];

const BOUNDARY: &[u8] = b"----reqparse-bench-boundary";

/// One file part of 4 MiB whose bytes come from `data`, as a browser sends it.
fn file_part(data: impl Iterator<Item = u8>) -> Vec<u8> {
    let mut body =
        b"------reqparse-bench-boundary\r\nContent-Disposition: form-data; name=\"file\"; \
        filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
            .to_vec();
    body.extend(data.take(4 << 20));
    body.extend_from_slice(b"\r\n------reqparse-bench-boundary--\r\n");
    body
}

/// Pseudo-random bytes (as compressed data, a photo, looks to the search).
fn upload() -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    file_part(std::iter::repeat_with(move || {
        // xorshift64: the same bytes on every run.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 56) as u8
    }))
}

/// The delimiter but its last byte, over and over: a false candidate per delimiter length.
fn near_misses() -> Vec<u8> {
    file_part(b"\r\n------reqparse-bench-boundarX".iter().copied().cycle())
}

/// The sans-io reader as a server drives it: each read decoded where it lies, only the bytes
/// the reader held back carried over to the next one. Returns the data bytes seen.
fn native_multipart(body: &[u8], read: usize) -> usize {
    use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    let mut reader = MultipartReader::new(BOUNDARY, Default::default(), Default::default())
        .expect("a valid boundary");
    let (mut carry, mut data) = (Vec::new(), 0);
    let mut chunks = body.chunks(read).peekable();
    while let Some(chunk) = chunks.next() {
        let eof = chunks.peek().is_none();
        let joined;
        let mut input: &[u8] = if carry.is_empty() {
            chunk
        } else {
            carry.extend_from_slice(chunk);
            joined = std::mem::take(&mut carry);
            &joined
        };
        loop {
            let step = reader.decode(input, eof).expect("a valid body");
            input = &input[step.consumed..];
            match step.event {
                Some(MultipartEvent::Data(d)) => data += d.len(),
                Some(MultipartEvent::End) => return data,
                Some(_) => {}
                None => break,
            }
        }
        carry = input.to_vec();
    }
    data
}

/// The same body through the component's `multipart-reader`, one feed per read.
fn component_multipart(inspector: &mut WasmInspector, body: &[u8], read: usize) -> usize {
    use reqparse::engine::WasmMultipartEvent;
    let mut reader = inspector
        .multipart_reader(BOUNDARY, Default::default(), Default::default())
        .unwrap()
        .expect("a valid boundary");
    let mut data = 0;
    let mut chunks = body.chunks(read).peekable();
    while let Some(chunk) = chunks.next() {
        let fed = reader.feed(chunk, chunks.peek().is_none()).unwrap();
        assert!(fed.error.is_none());
        for event in fed.events {
            if let WasmMultipartEvent::Data(d) = event {
                data += d.len();
            }
        }
    }
    data
}

fn ops() -> Ops {
    // $REQPARSE_COMPONENT (to measure another build), else the bundled component.
    let engine = WasmEngine::load(None).expect("the component");
    let q1k = query_1k();
    let mut o = Ops {
        inspector: engine.inspector().expect("an instance"),
        target_1k: format!("/search{q1k}"),
        q1k,
        out: Vec::new(),
        spans: Vec::new(),
        json: String::new(),
        upload: upload(),
        near_misses: near_misses(),
    };
    // Both sides saw the same file (its data, byte for byte in length) before anything is timed.
    let native = native_multipart(&o.upload, 64 << 10);
    let component = component_multipart(&mut o.inspector, &o.upload, 1 << 10);
    assert_eq!((native, component), (4 << 20, 4 << 20));
    let native = native_multipart(&o.near_misses, 64 << 10);
    let component = component_multipart(&mut o.inspector, &o.near_misses, 1 << 10);
    assert_eq!((native, component), (4 << 20, 4 << 20));
    o
}

fn criterion_benches(c: &mut Criterion, o: &mut Ops) {
    for (name, native, component) in CASES {
        let mut group = c.benchmark_group(*name);
        if name.contains("1 KB") {
            group.throughput(Throughput::Bytes(1024));
        } else if name.starts_with("multipart") {
            group.throughput(Throughput::Bytes(4 << 20));
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

/// `REQPARSE_COUNT=component/<reqparse|reqparse_component>/<case>` (`REQPARSE_COUNT_N` times,
/// default 1000; `reqparse` is native, as in every bench's ids), `<case>` the case's name in
/// lower case with dashes: runs that one operation under
/// callgrind's `--toggle-collect=*reqparse_count_loop*`, as `scripts/bench-counts.py` does for
/// every bench (wasmtime's machine code is counted too); `REQPARSE_COUNT=list` prints the ids.
fn count(o: &mut Ops, id: &str) {
    let slug = |name: &str| {
        let words: Vec<String> = name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        words.join("-")
    };
    let (ids, ops): (Vec<String>, Vec<Op>) = CASES
        .iter()
        .flat_map(|(name, native, component)| {
            [
                (format!("component/reqparse/{}", slug(name)), *native),
                (
                    format!("component/reqparse_component/{}", slug(name)),
                    *component,
                ),
            ]
        })
        .unzip();
    let Some((i, n)) = support::count_request(id, &ids) else {
        return;
    };
    let op = ops[i];
    op(o); // the first call instantiates lazily-built state outside the counted loop
    support::reqparse_count_loop(&mut || op(o), n);
    eprintln!("ran {id} {n} times");
}

fn main() {
    let mut o = ops();
    if let Ok(id) = std::env::var("REQPARSE_COUNT") {
        return count(&mut o, &id);
    }
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
