//! Allocation counts of the uri module, measured with a counting global allocator.
//!
//! One `#[test]` runs every case in turn, so no other test thread allocates while a case is
//! being counted.

mod support;

use reqparse::uri::{build_absolute, build_relative, split_absolute};
use support::alloc::count_apart;

#[global_allocator]
static GLOBAL: support::alloc::Counting = support::alloc::Counting;

type Build = (&'static str, [&'static str; 6], &'static str);

#[test]
fn allocation_counts() {
    let mut failures = Vec::new();

    // build_absolute: exactly one allocation, of exactly the output's length.
    let builds: &[Build] = &[
        (
            "ASP.NET Core UriHelperBenchmark: https + localhost",
            ["https", "localhost", "", "", "", ""],
            "https://localhost/",
        ),
        (
            "ASP.NET Core UriHelperTests.EncodeFullUrl, ASCII host",
            [
                "http",
                "my.host:80",
                "/un?escaped/base",
                "/un?escaped",
                "?name=val%23ue",
                "#my%20value",
            ],
            "http://my.host:80/un%3Fescaped/base/un%3Fescaped?name=val%23ue#my%20value",
        ),
        (
            "RFC 3986 §2.1 UTF-8 path escapes, '#' in query",
            [
                "https",
                "example.com:8443",
                "/base/",
                "/a b/ä/%zz",
                "?q=1#2",
                "#frag",
            ],
            "https://example.com:8443/base/a%20b/%C3%A4/%25zz?q=1%232#frag",
        ),
        (
            "RFC 3986 §3.2.2 bare IPv6 with zone",
            ["http", "fe80::1%eth0", "", "/x", "", ""],
            "http://[fe80::1%25eth0]/x",
        ),
        (
            "UTS #46 Unicode host (idna needs no heap of its own at DNS sizes)",
            ["http", "bücher.example:8080", "", "/", "", ""],
            "http://xn--bcher-kva.example:8080/",
        ),
        (
            "UTS #46 mixed labels, one already punycode",
            ["http", "日本語.xn--bcher-kva.example", "", "", "", ""],
            "http://xn--wgv71a119e.xn--bcher-kva.example/",
        ),
    ];
    for (source, [s, h, b, p, q, f], want) in builds {
        if !h.is_ascii() && !cfg!(feature = "idna") {
            continue; // IdnaDisabled without the feature (uri_vectors checks that)
        }
        let (allocs, reallocs, out) = count_apart(|| build_absolute(s, h, b, p, q, f));
        match out {
            Ok(out)
                if out == *want && out.capacity() == out.len() && allocs == 1 && reallocs == 0 => {}
            other => failures.push(format!(
                "{source}: {allocs} allocs, {reallocs} reallocs, {:?}",
                other.map(|o| (o.capacity(), o))
            )),
        }
    }

    // build_relative: the same.
    let relatives: &[(&str, [&str; 4], &str)] = &[
        (
            "ASP.NET Core UriHelperTests.EncodeEmptyPartialUrl",
            ["", "", "", ""],
            "/",
        ),
        (
            "ASP.NET Core UriHelperTests.EncodePartialUrl",
            [
                "/un?escaped/base",
                "/un?escaped",
                "?name=val%23ue",
                "#my%20value",
            ],
            "/un%3Fescaped/base/un%3Fescaped?name=val%23ue#my%20value",
        ),
        (
            "reqparse: marks added",
            ["b", "x y", "q", "f"],
            "/b/x%20y?q#f",
        ),
    ];
    for (source, [b, p, q, f], want) in relatives {
        let (allocs, reallocs, out) = count_apart(|| build_relative(b, p, q, f));
        if !(out == *want && out.capacity() == out.len() && allocs == 1 && reallocs == 0) {
            failures.push(format!(
                "{source}: {allocs} allocs, {reallocs} reallocs, {out:?}"
            ));
        }
    }

    // Errors allocate nothing.
    let errors: &[(&str, [&str; 6])] = &[
        ("empty host", ["http", "", "", "", "", ""]),
        ("port 0", ["http", "h:0", "", "/", "", ""]),
        ("bad scheme", ["1x", "h", "", "", "", ""]),
        ("UTS #46 deny list", ["http", "bü/x", "", "", "", ""]),
    ];
    for (source, [s, h, b, p, q, f]) in errors {
        let (allocs, reallocs, out) = count_apart(|| build_absolute(s, h, b, p, q, f).is_err());
        if !(out && allocs == 0 && reallocs == 0) {
            failures.push(format!("error {source}: {allocs} allocs, err={out}"));
        }
    }

    // split_absolute: 0 when nothing is decoded (escapes kept as written included), 1 otherwise.
    let splits: &[(&str, &str, usize, &str)] = &[
        (
            "nothing to decode",
            "https://example.com/foo/bar?baz=1#col=2",
            0,
            "/foo/bar",
        ),
        ("no path", "https://example.com?x", 0, ""),
        ("%2F kept as written", "http://h/a%2Fb", 0, "/a%2Fb"),
        (
            "invalid UTF-8 kept as written",
            "http://h/%C3%28x%zz",
            1,
            "/%C3(x%zz",
        ),
        ("only kept escapes", "http://h/%C0%AF%", 0, "/%C0%AF%"),
        ("decoded path", "http://h/a%20b/%C3%A9", 1, "/a b/é"),
    ];
    for (source, uri, want_allocs, want_path) in splits {
        let (allocs, reallocs, out) = count_apart(|| split_absolute(uri).map(|p| p.path));
        match out {
            Ok(path) if path == *want_path && allocs == *want_allocs && reallocs == 0 => {}
            other => failures.push(format!(
                "split {source}: {allocs} allocs, {reallocs} reallocs, {other:?}"
            )),
        }
    }
    // A long path: still one allocation, sized by the input, never grown.
    let long = format!("http://h/{}", "a%20%E2%82%AC".repeat(2000));
    let (allocs, reallocs, out) = count_apart(|| split_absolute(&long).map(|p| p.path.len()));
    if !(out == Ok(1 + 2000 * 5) && allocs == 1 && reallocs == 0) {
        failures.push(format!(
            "split long path: {allocs} allocs, {reallocs} reallocs, {out:?}"
        ));
    }
    let (allocs, _, out) = count_apart(|| split_absolute("http://h/%00").is_err());
    if !(out && allocs == 0) {
        failures.push(format!("split %00 error: {allocs} allocs"));
    }

    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
