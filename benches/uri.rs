//! `uri::build_absolute` against `format!`, and `uri::split_absolute` against the URL parsers
//! of the ecosystem (url, ada-url, hyper's `Uri`), in the same run so the ratios hold.
//!
//! Every id is `group/impl/input` (`uri_build/reqparse/localhost`, `uri_split/hyper/long_...`);
//! see BENCHMARKS.md, "How to measure".

use std::hint::black_box;

use reqparse::uri::{build_absolute, split_absolute};

mod support;
use support::{leak, Suite};

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

fn build(s: &mut Suite) {
    const G: &str = "uri_build";
    for &(name, parts) in BUILDS {
        s.add(G, "reqparse", name, None, move || {
            let [sc, h, b, p, q, f] = black_box(parts);
            build_absolute(sc, h, b, p, q, f)
        });
        // The naive peer: concatenation only, no escaping, no IDNA, no checks. For a Unicode
        // host it does not do the same work, so there it is only a variant beside
        // `idna+format!`.
        let ascii = parts[1].is_ascii();
        let naive = if ascii { "format!" } else { "format!_no_idna" };
        s.add(G, naive, name, None, move || {
            let [sc, h, b, p, q, f] = black_box(parts);
            format!("{sc}://{h}{b}{p}{q}{f}")
        });
        if !ascii {
            // The same work done the usual way: IDNA to a temporary String, then format!.
            s.add(G, "idna+format!", name, None, move || {
                let [sc, h, b, p, q, f] = black_box(parts);
                let host = idna::domain_to_ascii(h).unwrap();
                format!("{sc}://{host}{b}{p}{q}{f}")
            });
        }
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

fn split(s: &mut Suite) {
    const G: &str = "uri_split";
    let long = leak(long_url());
    let cases: [(&str, &'static str); 3] = [
        ("short", "https://example.com/foo/bar?baz=1#col=2"),
        ("short_decoded", "https://example.com/caf%C3%A9/a%20b?x=1"),
        ("long", long),
    ];
    for (name, uri) in cases {
        let input = format!("{name}_{}B", uri.len());
        s.add(G, "reqparse", &input, None, move || {
            split_absolute(black_box(uri)).unwrap()
        });
        s.add(G, "url", &input, None, move || {
            url::Url::parse(black_box(uri)).unwrap()
        });
        s.add(G, "ada-url", &input, None, move || {
            ada_url::Url::parse(black_box(uri), None).unwrap()
        });
        s.add(G, "hyper", &input, None, move || {
            black_box(uri).parse::<hyper::Uri>().unwrap()
        });
    }
}

fn all(s: &mut Suite) {
    build(s);
    split(s);
}

fn main() {
    support::main(all);
}
