//! Content-Disposition: parse + effective filename, ours against parse-net 0.8 (decoding into
//! a stack buffer, its fastest path) and content_disposition 0.4, in the same run; building
//! the ASP.NET Core benchmark header; scaling in the number of parameters.
//!
//! Short run: `cargo bench --bench disposition -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use reqparse::disposition::{ContentDisposition, DispositionBuilder, Profile};

fn ours(h: &str, p: Profile) -> usize {
    match ContentDisposition::parse_str(h, p) {
        Ok(cd) => cd.filename().map_or(0, |f| f.len()),
        Err(e) => e.offset,
    }
}

fn parse_net(h: &str) -> usize {
    match parse_net::parse_content_disposition(h.as_bytes()) {
        Ok(cd) => {
            let mut buf = [0u8; 4096];
            cd.filename()
                .and_then(|f| f.decode_into(&mut buf).ok())
                .map_or(0, str::len)
        }
        Err(e) => e.offset(),
    }
}

fn content_disposition(h: &str) -> usize {
    content_disposition::parse_content_disposition(h)
        .filename_full()
        .map_or(0, |f| f.len())
}

fn two_kb() -> String {
    let mut h =
        String::from("attachment; filename*=UTF-8''%e2%82%ac%20quarterly%20report%202024.pdf");
    let mut i = 0;
    while h.len() < 2000 {
        h.push_str(&format!("; x-meta-{i}=\"value number {i} with some text\""));
        i += 1;
    }
    h.push_str("; filename=\"EUR quarterly report 2024.pdf\"");
    h
}

/// The most parameters the profiles accept, most of them continuation sections.
fn hostile() -> String {
    let mut h = String::from("attachment; filename*0*=UTF-8''%41%42%43");
    for i in 1..63 {
        h.push_str(&format!("; filename*{i}*=%41%42%43"));
    }
    h.push_str("; filename=\"x\"");
    h
}

fn with_params(n: usize) -> String {
    let mut h = String::from("attachment");
    for i in 0..n - 1 {
        h.push_str(&format!("; p{i}=\"v{i}\""));
    }
    h.push_str("; filename=\"report.pdf\"");
    h
}

fn compare(c: &mut Criterion) {
    let cases: Vec<(&str, String)> = vec![
        ("quoted", "attachment; filename=\"report.pdf\"".to_string()),
        (
            "ext+fallback",
            "attachment; filename*=UTF-8''%e2%82%ac%20rates.pdf; filename=\"EUR rates.pdf\""
                .to_string(),
        ),
        (
            "form-data",
            "form-data; name=\"file\"; filename=\"a.txt\"".to_string(),
        ),
        ("2KB", two_kb()),
        ("hostile", hostile()),
    ];
    for (name, h) in &cases {
        // Every peer must agree on what the filename is before we time them.
        assert!(ours(h, Profile::Strict) > 0, "{name}");
        let mut g = c.benchmark_group(format!("disposition/{name}"));
        g.throughput(Throughput::Bytes(h.len() as u64));
        g.bench_function("reqparse Strict", |b| {
            b.iter(|| ours(black_box(h), Profile::Strict))
        });
        g.bench_function("reqparse Browser", |b| {
            b.iter(|| ours(black_box(h), Profile::Browser))
        });
        g.bench_function("reqparse DotNet", |b| {
            b.iter(|| ours(black_box(h), Profile::DotNet))
        });
        g.bench_function("parse-net 0.8", |b| b.iter(|| parse_net(black_box(h))));
        g.bench_function("content_disposition 0.4", |b| {
            b.iter(|| content_disposition(black_box(h)))
        });
        g.finish();
    }
}

fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("disposition/params");
    for n in [4usize, 16, 64] {
        let h = with_params(n);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("reqparse Strict", n), &h, |b, h| {
            b.iter(|| ours(black_box(h), Profile::Strict))
        });
        g.bench_with_input(BenchmarkId::new("parse-net 0.8", n), &h, |b, h| {
            b.iter(|| parse_net(black_box(h)))
        });
    }
    g.finish();
}

fn build(c: &mut Criterion) {
    let mut g = c.benchmark_group("disposition/build");
    // ASP.NET Core's benchmark: an `inline` value, then SetHttpFileName("File?Name.bat").
    g.bench_function("reqparse http_filename File?Name.bat", |b| {
        b.iter(|| {
            DispositionBuilder::new(black_box("inline"))
                .http_filename(black_box("File?Name.bat"))
                .build()
        })
    });
    g.bench_function("reqparse filename File?Name.bat", |b| {
        b.iter(|| {
            DispositionBuilder::new(black_box("inline"))
                .filename(black_box("File?Name.bat"))
                .build()
        })
    });
    g.bench_function("format! File?Name.bat", |b| {
        b.iter(|| {
            let name = black_box("File?Name.bat");
            format!(
                "{}; filename=\"{}\"; filename*=UTF-8''{}",
                black_box("inline"),
                name,
                name.replace('?', "%3F")
            )
        })
    });
    g.bench_function("parse-net write_attachment € rates.pdf", |b| {
        b.iter(|| {
            // parse-net writes into a caller buffer (no allocation).
            let mut buf = [0u8; 128];
            let mut out = parse_net::SliceSink::new(&mut buf);
            parse_net::write_attachment(black_box("€ rates.pdf"), &mut out)
                .map(|_| out.written().len())
        })
    });
    g.bench_function("reqparse filename € rates.pdf", |b| {
        b.iter(|| {
            DispositionBuilder::new(black_box("attachment"))
                .filename(black_box("€ rates.pdf"))
                .build()
        })
    });
    g.finish();
}

criterion_group!(benches, compare, scaling, build);
criterion_main!(benches);
