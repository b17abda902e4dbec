//! Query-string benches: ours against form-net 0.6, form_urlencoded, serde_urlencoded and url,
//! in the same run, on realistic and hostile inputs.
//!
//! Short run: `cargo bench --bench query -- --warm-up-time 1 --measurement-time 3`
//! One group: `cargo bench --bench query -- decode_all`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use reqparse::query::{self, MapOptions, Profile, QueryMap};

/// A realistic query of about `target` bytes: tracking parameters, searches with `+` and
/// escapes, non-ASCII text, repeated names, flags.
fn realistic(target: usize) -> String {
    let pieces = [
        "q=rust+no_std+query+parser",
        "page=2",
        "sort=desc",
        "utm_source=newsletter",
        "utm_medium=email",
        "utm_campaign=spring%20sale%202026",
        "filter=%C3%A9t%C3%A9+%E2%82%AC",
        "redirect=https%3A%2F%2Fexample.com%2Fa%2Fb%3Fc%3Dd",
        "tag=a",
        "tag=b",
        "flag",
        "lang=en-US",
        "name=Jos%C3%A9+Mar%C3%ADa",
        "ids=1%2C2%2C3%2C4",
        "empty=",
        "session=3f2a9c1e7b",
        "city=S%C3%A3o+Paulo",
        "x=%F0%9F%98%80",
    ];
    let mut s = String::from("?");
    let mut i = 0;
    while s.len() < target {
        if s.len() > 1 {
            s.push('&');
        }
        s.push_str(pieces[i % pieces.len()]);
        i += 1;
    }
    s
}

fn inputs() -> Vec<(&'static str, String)> {
    vec![
        (
            "short",
            "?q=rust+parser&page=2&lang=en-US&sort=desc".to_owned(),
        ),
        ("1k", realistic(1024)),
        ("8k", realistic(8192)),
        ("hostile_amp_8k", "&".repeat(8192)),
        ("hostile_pct_8k", format!("a={}", "%".repeat(8190))),
        ("hostile_a41_8k", "a=%41&".repeat(8192 / 6)),
        ("hostile_esc_8k", format!("a={}", "%41".repeat(8190 / 3))),
    ]
}

fn form_net_query(q: &str) -> &[u8] {
    q.as_bytes().strip_prefix(b"?").unwrap_or(q.as_bytes())
}

fn raw_enumeration(c: &mut Criterion) {
    let mut g = c.benchmark_group("raw");
    for (name, q) in inputs() {
        g.throughput(Throughput::Bytes(q.len() as u64));
        g.bench_with_input(BenchmarkId::new("reqparse", name), &q, |b, q| {
            b.iter(|| {
                let mut n = 0;
                for p in query::pairs(black_box(q)) {
                    n += p.name().len() + p.value().len();
                }
                n
            })
        });
        g.bench_with_input(BenchmarkId::new("form-net", name), &q, |b, q| {
            let limits = form_net::Limits::DEFAULT.with_max_fields(100_000);
            b.iter(|| {
                let mut n = 0;
                for p in form_net::raw_pairs(form_net_query(black_box(q)), &limits) {
                    let p = p.unwrap();
                    n += p.name_raw().len() + p.value_raw().len();
                }
                n
            })
        });
    }
    g.finish();
}

/// Every name and value of `q` as `reqparse_in` reads them: borrowed when plain, else decoded
/// into `scratch`.
fn reqparse_each(q: &str, scratch: &mut String, mut each: impl FnMut(&str)) {
    for p in query::pairs(q) {
        each(p.name_in(Profile::Whatwg, scratch).unwrap());
        each(p.value_in(Profile::Whatwg, scratch).unwrap());
    }
}

/// Every name and value of `q` as `form-net_str` reads them, form-net's fastest documented way:
/// `name_str`/`value_str` when plain, else `decode_*` into `buf`.
fn form_net_each(q: &str, buf: &mut [u8], mut each: impl FnMut(&str)) {
    let limits = form_net::Limits::DEFAULT.with_max_fields(100_000);
    let policy = form_net::PercentPolicy::Literal;
    for p in form_net::raw_pairs(form_net_query(q), &limits) {
        let p = p.unwrap();
        each(match p.name_str() {
            Some(s) => s,
            None => p.decode_name(buf, policy).unwrap(),
        });
        each(match p.value_str() {
            Some(s) => s,
            None => p.decode_value(buf, policy).unwrap(),
        });
    }
}

/// `reqparse_in` and `form-net_str` must decode the same names and values before their times
/// are compared.
fn same_pairs(q: &str) {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    reqparse_each(q, &mut String::new(), |s| ours.push(s.to_owned()));
    form_net_each(q, &mut vec![0u8; q.len()], |s| theirs.push(s.to_owned()));
    assert_eq!(ours, theirs, "reqparse and form-net disagree on {q:.40}");
}

fn decode_all(c: &mut Criterion) {
    let mut g = c.benchmark_group("decode_all");
    for (name, q) in inputs() {
        same_pairs(&q);
        g.throughput(Throughput::Bytes(q.len() as u64));
        g.bench_with_input(BenchmarkId::new("reqparse_into", name), &q, |b, q| {
            let mut buf = String::with_capacity(q.len());
            b.iter(|| {
                let mut n = 0;
                for p in query::pairs(black_box(q)) {
                    buf.clear();
                    p.decode_name_into(Profile::Whatwg, &mut buf).unwrap();
                    n += buf.len();
                    buf.clear();
                    p.decode_value_into(Profile::Whatwg, &mut buf).unwrap();
                    n += buf.len();
                }
                n
            })
        });
        g.bench_with_input(BenchmarkId::new("reqparse_in", name), &q, |b, q| {
            // Borrowed when plain, else decoded into one reused scratch: the same work as
            // `form-net_str`.
            let mut scratch = String::with_capacity(q.len());
            b.iter(|| {
                let mut n = 0;
                reqparse_each(black_box(q), &mut scratch, |s| n += s.len());
                n
            })
        });
        g.bench_with_input(BenchmarkId::new("reqparse_cow", name), &q, |b, q| {
            b.iter(|| {
                let mut n = 0;
                for p in query::pairs(black_box(q)) {
                    n += p.decode_name(Profile::Whatwg).unwrap().len();
                    n += p.decode_value(Profile::Whatwg).unwrap().len();
                }
                n
            })
        });
        g.bench_with_input(BenchmarkId::new("form-net_into", name), &q, |b, q| {
            let limits = form_net::Limits::DEFAULT.with_max_fields(100_000);
            let mut buf = vec![0u8; q.len()];
            let policy = form_net::PercentPolicy::Literal;
            b.iter(|| {
                let mut n = 0;
                for p in form_net::raw_pairs(form_net_query(black_box(q)), &limits) {
                    let p = p.unwrap();
                    n += p.decode_name(&mut buf, policy).unwrap().len();
                    n += p.decode_value(&mut buf, policy).unwrap().len();
                }
                n
            })
        });
        g.bench_with_input(BenchmarkId::new("form-net_str", name), &q, |b, q| {
            let mut buf = vec![0u8; q.len()];
            b.iter(|| {
                let mut n = 0;
                form_net_each(black_box(q), &mut buf, |s| n += s.len());
                n
            })
        });
        g.bench_with_input(BenchmarkId::new("form_urlencoded", name), &q, |b, q| {
            b.iter(|| {
                let mut n = 0;
                let q = black_box(q);
                for (k, v) in form_urlencoded::parse(q.strip_prefix('?').unwrap_or(q).as_bytes()) {
                    n += k.len() + v.len();
                }
                n
            })
        });
        g.bench_with_input(BenchmarkId::new("serde_urlencoded", name), &q, |b, q| {
            b.iter(|| {
                let q = black_box(q);
                let v: Vec<(String, String)> =
                    serde_urlencoded::from_str(q.strip_prefix('?').unwrap_or(q)).unwrap();
                v.len()
            })
        });
        g.bench_with_input(BenchmarkId::new("url_query_pairs", name), &q, |b, q| {
            // The URL is parsed outside the loop: only the pair decoding is measured.
            let q = q.strip_prefix('?').unwrap_or(q);
            let url = url::Url::parse(&format!("http://example.com/?{q}")).unwrap();
            b.iter(|| {
                let mut n = 0;
                for (k, v) in black_box(&url).query_pairs() {
                    n += k.len() + v.len();
                }
                n
            })
        });
    }
    g.finish();
}

fn map_parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("map");
    for (name, q) in inputs() {
        if name == "8k" || name.starts_with("hostile") {
            // Over form-net's and our default pair limits, or redundant with 1k.
            if name != "hostile_a41_8k" {
                continue;
            }
        }
        g.throughput(Throughput::Bytes(q.len() as u64));
        g.bench_with_input(BenchmarkId::new("reqparse", name), &q, |b, q| {
            let opts = MapOptions {
                max_pairs: 10_000,
                ..MapOptions::default()
            };
            b.iter(|| QueryMap::parse(black_box(q), opts).unwrap().len())
        });
        g.bench_with_input(BenchmarkId::new("form-net", name), &q, |b, q| {
            let limits = form_net::Limits::DEFAULT.with_max_fields(10_000);
            let policy = form_net::Policy::DEFAULT;
            b.iter(|| {
                form_net::parse_urlencoded_with(form_net_query(black_box(q)), &limits, &policy)
                    .unwrap()
                    .len()
            })
        });
    }
    g.finish();
}

/// Re-enumerating with `name_eq` per lookup against parsing once into the map.
fn crossover(c: &mut Criterion) {
    let mut g = c.benchmark_group("crossover");
    let names = [
        "lang",
        "sort",
        "tag",
        "x",
        "city",
        "missing",
        "q",
        "page",
        "ids",
        "name",
        "empty",
        "flag",
        "session",
        "utm_medium",
        "filter",
        "redirect",
    ];
    for (label, q) in [("short", inputs()[0].1.clone()), ("1k", realistic(1024))] {
        for k in [1usize, 2, 4, 8, 16] {
            let wanted = &names[..k];
            g.bench_with_input(
                BenchmarkId::new(format!("enumerate_{label}"), k),
                &q,
                |b, q| {
                    b.iter(|| {
                        let mut n = 0;
                        for name in wanted {
                            let found = query::pairs(black_box(q)).find(|p| p.name_eq(name));
                            if let Some(p) = found {
                                n += p.decode_value(Profile::Whatwg).unwrap().len();
                            }
                        }
                        n
                    })
                },
            );
            g.bench_with_input(BenchmarkId::new(format!("map_{label}"), k), &q, |b, q| {
                b.iter(|| {
                    let map = QueryMap::parse(black_box(q), MapOptions::default()).unwrap();
                    let mut n = 0;
                    for name in wanted {
                        n += map.get(name).map_or(0, str::len);
                    }
                    n
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, raw_enumeration, decode_all, map_parse, crossover);
criterion_main!(benches);
