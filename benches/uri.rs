//! `uri::build_absolute` against `format!`, and `uri::split_absolute` against the URL parsers
//! of the ecosystem (url, ada-url, hyper's `Uri`), in the same run so the ratios hold.
//!
//! Run: `cargo bench --bench uri -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use reqparse::uri::{build_absolute, split_absolute};

/// (name, scheme, host, path_base, path, query, fragment)
type BuildCase = (&'static str, [&'static str; 6]);

const BUILDS: &[BuildCase] = &[
    // The case ASP.NET Core measures in UriHelperBenchmark.
    ("localhost", ["https", "localhost", "", "", "", ""]),
    // A realistic request URL whose path needs escapes (spaces, UTF-8, a reserved `?`).
    (
        "path_with_escapes",
        [
            "https",
            "shop.example.com:8443",
            "/store/",
            "/catalog/summer sale/crème brûlée?/item 42",
            "?utm_source=news&q=caf%C3%A9#1",
            "#reviews",
        ],
    ),
    (
        "unicode_host",
        [
            "https",
            "bücher.example",
            "",
            "/katalog/neu",
            "?seite=2",
            "",
        ],
    ),
];

fn build(c: &mut Criterion) {
    for (name, [s, h, b, p, q, f]) in BUILDS {
        let mut g = c.benchmark_group(format!("uri_build/{name}"));
        g.bench_function("reqparse::build_absolute", |bench| {
            bench.iter(|| {
                build_absolute(
                    black_box(s),
                    black_box(h),
                    black_box(b),
                    black_box(p),
                    black_box(q),
                    black_box(f),
                )
            })
        });
        // The naive peer: concatenation only, no escaping, no IDNA, no checks.
        g.bench_function("format!", |bench| {
            bench.iter(|| {
                let (s, h, b, p, q, f) = (
                    black_box(s),
                    black_box(h),
                    black_box(b),
                    black_box(p),
                    black_box(q),
                    black_box(f),
                );
                format!("{s}://{h}{b}{p}{q}{f}")
            })
        });
        if !h.is_ascii() {
            // The same work done the usual way: IDNA to a temporary String, then format!.
            g.bench_function("idna::domain_to_ascii + format!", |bench| {
                bench.iter(|| {
                    let host = idna::domain_to_ascii(black_box(h)).unwrap();
                    let (s, b, p, q, f) = (
                        black_box(s),
                        black_box(b),
                        black_box(p),
                        black_box(q),
                        black_box(f),
                    );
                    format!("{s}://{host}{b}{p}{q}{f}")
                })
            });
        }
        g.finish();
    }
}

fn long_url() -> String {
    let mut u = String::from("https://api.example.com:8443/v2");
    for i in 0..40 {
        u.push_str(&format!("/segment{i}%20with%20escapes%C3%A9"));
    }
    u.push('?');
    for i in 0..40 {
        u.push_str(&format!("key{i}=value%20{i}&"));
    }
    u.push_str("#section-2");
    u
}

fn split(c: &mut Criterion) {
    let long = long_url();
    let cases: [(&str, &str); 3] = [
        ("short", "https://example.com/foo/bar?baz=1#col=2"),
        ("short_decoded", "https://example.com/caf%C3%A9/a%20b?x=1"),
        ("long", &long),
    ];
    for (name, uri) in cases {
        let mut g = c.benchmark_group(format!("uri_split/{name}_{}B", uri.len()));
        g.bench_function("reqparse::split_absolute", |b| {
            b.iter(|| split_absolute(black_box(uri)).unwrap())
        });
        g.bench_function("url::Url::parse", |b| {
            b.iter(|| url::Url::parse(black_box(uri)).unwrap())
        });
        g.bench_function("ada_url::Url::parse", |b| {
            b.iter(|| ada_url::Url::parse(black_box(uri), None).unwrap())
        });
        g.bench_function("hyper::Uri parse", |b| {
            b.iter(|| black_box(uri).parse::<hyper::Uri>().unwrap())
        });
        g.finish();
    }
}

criterion_group!(benches, build, split);
criterion_main!(benches);
