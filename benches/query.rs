//! Query-string benches: ours against form-net 0.6, form_urlencoded, serde_urlencoded and url,
//! in the same run, on the inputs of issue 9 (short, API, realistic, UTF-8-heavy, tiny pairs,
//! hostile). Every id is `group/impl/input`; see BENCHMARKS.md, "How to measure".
//!
//! Groups: `decode` (every name and value, zero allocations where the implementation allows),
//! `owned` (`Vec<(String, String)>`: `collect_pairs`, and as `reqparse_iter` collected from
//! `pairs`), `raw` (enumerate, decode nothing), `map` (`QueryMap::parse` + lookups against
//! form-net's `parse_query` + the same lookups) and `crossover` (re-enumerating with `name_eq`
//! against parsing once).
//!
//! Before anything is timed, every implementation in a group is checked to produce the same
//! pairs (or lookups) as ours, through the very function that is timed.

use std::hint::black_box;

use reqparse::query::{self, MapOptions, Profile, QueryError, QueryMap};

mod support;
use support::{bytes, leak, Suite};

const P: Profile = Profile::Whatwg;

/// A realistic query of about `target` bytes: tracking parameters, searches with `+` and
/// escapes, non-ASCII text, repeated names, flags.
fn realistic(target: usize) -> String {
    realistic_until(|s, _| s.len() >= target)
}

/// The realistic query with exactly `n` pairs.
fn realistic_pairs(n: usize) -> String {
    realistic_until(|_, pairs| pairs >= n)
}

fn realistic_until(done: impl Fn(&str, usize) -> bool) -> String {
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
    while !done(&s, i) {
        if i > 0 {
            s.push('&');
        }
        s.push_str(pieces[i % pieces.len()]);
        i += 1;
    }
    s
}

/// Percent-encodes every byte that is not ASCII alphanumeric, as a browser's form would (the
/// UTF-8-heavy inputs are written as text here so they cannot hold a typo'd escape).
fn escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() {
            out.push(char::from(b));
        } else if b == b' ' {
            out.push('+');
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// About `target` bytes of pairs whose values are escaped CJK, Hangul, Cyrillic and emoji
/// (`%E4%B8%AD%E6%96%87`, `%F0%9F%98%80`, ...): what a search box or a chat app sends.
fn utf8_heavy(target: usize) -> String {
    let pieces: Vec<String> = [
        ("q", "中文 搜索 引擎"),
        ("title", "日本語のタイトル"),
        ("emoji", "😀🎉👍🏽"),
        ("name", "张伟"),
        ("city", "東京都 渋谷区"),
        ("ko", "한국어 테스트"),
        ("ru", "Привет мир"),
        ("msg", "好的 👌 明天见"),
    ]
    .iter()
    .map(|(k, v)| format!("{k}={}", escape(v)))
    .collect();
    let mut s = String::new();
    let mut i = 0;
    while s.len() < target {
        if i > 0 {
            s.push('&');
        }
        s.push_str(&pieces[i % pieces.len()]);
        i += 1;
    }
    s
}

/// The inputs of the `decode`, `owned` and `raw` groups.
fn inputs() -> Vec<(&'static str, &'static str)> {
    let api = "limit=50&offset=100&sort=created_at&order=desc\
               &fields=id,name,email,created_at,updated_at&include=profile,settings\
               &status=active&expand=owner";
    let list = vec![
        ("short2", "a=1&b=2".to_owned()),
        (
            "short4",
            "?q=rust+parser&page=2&lang=en-US&sort=desc".to_owned(),
        ),
        ("api140", api.to_owned()),
        ("1k", realistic(1024)),
        ("8k", realistic(8192)),
        ("utf8_1k", utf8_heavy(1024)),
        ("utf8_15k", utf8_heavy(15 * 1024)),
        ("tiny_8k", "a=%41&".repeat(8192 / 6)),
        ("hostile_amp_8k", "&".repeat(8192)),
        ("hostile_pct_8k", format!("a={}", "%".repeat(8190))),
        ("hostile_esc_8k", format!("a={}", "%41".repeat(8190 / 3))),
    ];
    list.into_iter().map(|(n, q)| (n, leak(q))).collect()
}

/// What the peers are given: they do not skip a leading `?`.
fn unprefixed(q: &str) -> &str {
    q.strip_prefix('?').unwrap_or(q)
}

/// form-net's limits raised so that it does the same work as ours on every input.
const FORM_NET_LIMITS: form_net::Limits = form_net::Limits::DEFAULT
    .with_max_fields(100_000)
    .with_max_name_bytes(100_000);

// ---- decode: every name and value ----

/// `decode/reqparse`: borrowed when plain, else decoded into `scratch` (`name_in`/`value_in`).
fn reqparse_each(q: &str, scratch: &mut String, mut each: impl FnMut(&str)) {
    for p in query::pairs(q) {
        each(p.name_in(P, scratch).unwrap());
        each(p.value_in(P, scratch).unwrap());
    }
}

/// `decode/reqparse_into`: always decoded (copied) into `buf`.
fn reqparse_into_each(q: &str, buf: &mut String, mut each: impl FnMut(&str)) {
    for p in query::pairs(q) {
        buf.clear();
        p.decode_name_into(P, buf).unwrap();
        each(buf);
        buf.clear();
        p.decode_value_into(P, buf).unwrap();
        each(buf);
    }
}

/// `decode/reqparse_cow`: `decode_name`/`decode_value` (allocate when decoding is needed).
fn reqparse_cow_each(q: &str, mut each: impl FnMut(&str)) {
    for p in query::pairs(q) {
        each(&p.decode_name(P).unwrap());
        each(&p.decode_value(P).unwrap());
    }
}

/// `decode/form-net`, form-net's fastest documented way: `raw_pairs`, then `name_str`/
/// `value_str` when plain, else `decode_*` into `buf`.
fn form_net_each(q: &str, buf: &mut [u8], mut each: impl FnMut(&str)) {
    let policy = form_net::PercentPolicy::Literal;
    for p in form_net::raw_pairs(unprefixed(q).as_bytes(), &FORM_NET_LIMITS) {
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

/// `decode/form-net_into`: every name and value decoded into `buf`, plain or not.
fn form_net_into_each(q: &str, buf: &mut [u8], mut each: impl FnMut(&str)) {
    let policy = form_net::PercentPolicy::Literal;
    for p in form_net::raw_pairs(unprefixed(q).as_bytes(), &FORM_NET_LIMITS) {
        let p = p.unwrap();
        each(p.decode_name(buf, policy).unwrap());
        each(p.decode_value(buf, policy).unwrap());
    }
}

fn form_urlencoded_each(q: &str, mut each: impl FnMut(&str)) {
    for (k, v) in form_urlencoded::parse(unprefixed(q).as_bytes()) {
        each(&k);
        each(&v);
    }
}

/// `decode/url`: `Url::query_pairs` on a URL parsed outside the timed loop.
fn url_each(url: &url::Url, mut each: impl FnMut(&str)) {
    for (k, v) in url.query_pairs() {
        each(&k);
        each(&v);
    }
}

fn url_of(q: &str) -> url::Url {
    url::Url::parse(&format!("http://example.com/?{}", unprefixed(q))).unwrap()
}

fn strings(run: impl FnOnce(&mut dyn FnMut(&str))) -> Vec<String> {
    let mut v = Vec::new();
    run(&mut |s| v.push(s.to_owned()));
    v
}

fn flat(pairs: Vec<(String, String)>) -> Vec<String> {
    pairs.into_iter().flat_map(|(k, v)| [k, v]).collect()
}

/// Panics unless `theirs` decoded the same names and values as ours.
fn agree(group: &str, imp: &str, input: &str, ours: &[String], theirs: &[String]) {
    assert!(
        ours == theirs,
        "{group}/{imp}/{input} disagrees with reqparse ({} strings against {})",
        theirs.len(),
        ours.len()
    );
}

fn decode(s: &mut Suite) {
    const G: &str = "decode";
    for (input, q) in inputs() {
        let ours = strings(|e| reqparse_each(q, &mut String::new(), e));
        let checks = [
            (
                "reqparse_into",
                strings(|e| reqparse_into_each(q, &mut String::new(), e)),
            ),
            ("reqparse_cow", strings(|e| reqparse_cow_each(q, e))),
            (
                "form-net",
                strings(|e| form_net_each(q, &mut vec![0; q.len()], e)),
            ),
            (
                "form-net_into",
                strings(|e| form_net_into_each(q, &mut vec![0; q.len()], e)),
            ),
            ("form_urlencoded", strings(|e| form_urlencoded_each(q, e))),
            ("serde_urlencoded", flat(serde_owned(q))),
            ("url", strings(|e| url_each(&url_of(q), e))),
        ];
        for (imp, theirs) in &checks {
            agree(G, imp, input, &ours, theirs);
        }

        let t = bytes(q);
        let mut scratch = String::with_capacity(q.len());
        s.add(G, "reqparse", input, t.clone(), move || {
            let mut n = 0;
            reqparse_each(black_box(q), &mut scratch, |x| n += x.len());
            n
        });
        let mut buf = String::with_capacity(q.len());
        s.add(G, "reqparse_into", input, t.clone(), move || {
            let mut n = 0;
            reqparse_into_each(black_box(q), &mut buf, |x| n += x.len());
            n
        });
        s.add(G, "reqparse_cow", input, t.clone(), move || {
            let mut n = 0;
            reqparse_cow_each(black_box(q), |x| n += x.len());
            n
        });
        let mut buf = vec![0u8; q.len()];
        s.add(G, "form-net", input, t.clone(), move || {
            let mut n = 0;
            form_net_each(black_box(q), &mut buf, |x| n += x.len());
            n
        });
        let mut buf = vec![0u8; q.len()];
        s.add(G, "form-net_into", input, t.clone(), move || {
            let mut n = 0;
            form_net_into_each(black_box(q), &mut buf, |x| n += x.len());
            n
        });
        s.add(G, "form_urlencoded", input, t.clone(), move || {
            let mut n = 0;
            form_urlencoded_each(black_box(q), |x| n += x.len());
            n
        });
        // Not zero-allocation (it builds owned strings), but what many callers use.
        s.add(G, "serde_urlencoded", input, t.clone(), move || {
            serde_owned(black_box(q))
        });
        let url = url_of(q);
        s.add(G, "url", input, t, move || {
            let mut n = 0;
            url_each(black_box(&url), |x| n += x.len());
            n
        });
    }
}

// ---- owned: Vec<(String, String)> ----

/// `owned/reqparse`: the one call for it.
fn reqparse_owned(q: &str) -> Result<Vec<(String, String)>, QueryError> {
    query::collect_pairs(q, P)
}

/// `owned/reqparse_iter`: the same from `pairs`, as a caller would write it without
/// `collect_pairs`.
fn reqparse_owned_iter(q: &str) -> Result<Vec<(String, String)>, QueryError> {
    query::pairs(q)
        .map(|p| {
            Ok((
                p.decode_name(P)?.into_owned(),
                p.decode_value(P)?.into_owned(),
            ))
        })
        .collect()
}

fn form_urlencoded_owned(q: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(unprefixed(q).as_bytes())
        .into_owned()
        .collect()
}

fn serde_owned(q: &str) -> Vec<(String, String)> {
    serde_urlencoded::from_str(unprefixed(q)).unwrap()
}

fn owned(s: &mut Suite) {
    const G: &str = "owned";
    for (input, q) in inputs() {
        let ours = reqparse_owned(q).unwrap();
        let iter = reqparse_owned_iter(q).unwrap();
        assert_eq!(ours, iter, "{G}/reqparse_iter/{input}");
        assert_eq!(
            ours,
            form_urlencoded_owned(q),
            "{G}/form_urlencoded/{input}"
        );
        assert_eq!(ours, serde_owned(q), "{G}/serde_urlencoded/{input}");
        let t = bytes(q);
        s.add(G, "reqparse", input, t.clone(), move || {
            reqparse_owned(black_box(q))
        });
        s.add(G, "reqparse_iter", input, t.clone(), move || {
            reqparse_owned_iter(black_box(q))
        });
        s.add(G, "form_urlencoded", input, t.clone(), move || {
            form_urlencoded_owned(black_box(q))
        });
        s.add(G, "serde_urlencoded", input, t, move || {
            serde_owned(black_box(q))
        });
    }
}

// ---- raw: enumerate, decode nothing ----

fn reqparse_raw(q: &str, mut each: impl FnMut(&[u8], &[u8])) {
    for p in query::pairs(q) {
        each(p.name(), p.value());
    }
}

fn form_net_raw(q: &str, mut each: impl FnMut(&[u8], &[u8])) {
    for p in form_net::raw_pairs(unprefixed(q).as_bytes(), &FORM_NET_LIMITS) {
        let p = p.unwrap();
        each(p.name_raw(), p.value_raw());
    }
}

fn raw(s: &mut Suite) {
    const G: &str = "raw";
    for (input, q) in inputs() {
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        reqparse_raw(q, |k, v| ours.push((k.to_vec(), v.to_vec())));
        form_net_raw(q, |k, v| theirs.push((k.to_vec(), v.to_vec())));
        assert!(
            ours == theirs,
            "{G}/form-net/{input} disagrees with reqparse"
        );
        let t = bytes(q);
        s.add(G, "reqparse", input, t.clone(), move || {
            let mut n = 0;
            reqparse_raw(black_box(q), |k, v| n += k.len() + v.len());
            n
        });
        s.add(G, "form-net", input, t, move || {
            let mut n = 0;
            form_net_raw(black_box(q), |k, v| n += k.len() + v.len());
            n
        });
    }
}

// ---- map: parse once, then look up ----

/// Lookup names, the first ones present in every `realistic_pairs` input, then a missing one,
/// then names that appear later in the larger inputs.
const LOOKUPS: [&str; 16] = [
    "sort",
    "page",
    "utm_source",
    "q",
    "missing",
    "tag",
    "lang",
    "x",
    "city",
    "ids",
    "name",
    "empty",
    "flag",
    "session",
    "utm_medium",
    "filter",
];

fn map_inputs() -> Vec<(usize, &'static str)> {
    [4, 28, 260]
        .into_iter()
        .map(|n| (n, leak(realistic_pairs(n))))
        .collect()
}

fn reqparse_map(q: &str, opts: MapOptions, names: &[&str], mut each: impl FnMut(Option<&str>)) {
    let map = QueryMap::parse(q, opts).unwrap();
    for name in names {
        each(map.get(name));
    }
}

/// form-net's fastest documented way to a map: `parse_query` (its default limits hold every
/// input here), then `Form::get`.
fn form_net_map(q: &str, names: &[&str], mut each: impl FnMut(Option<&str>)) {
    let form = form_net::parse_query(q.as_bytes()).unwrap();
    for name in names {
        each(form.get(name));
    }
}

fn found(run: impl FnOnce(&mut dyn FnMut(Option<&str>))) -> Vec<Option<String>> {
    let mut v = Vec::new();
    run(&mut |s| v.push(s.map(str::to_owned)));
    v
}

fn map(s: &mut Suite) {
    const G: &str = "map";
    for (n, q) in map_inputs() {
        for k in [0, 1, 16] {
            let names = &LOOKUPS[..k];
            let input = if k == 0 {
                format!("{n}p_parse")
            } else {
                format!("{n}p_get{k}")
            };
            let ours = found(|e| reqparse_map(q, MapOptions::default(), names, e));
            let theirs = found(|e| form_net_map(q, names, e));
            assert_eq!(ours, theirs, "{G}/form-net/{input}");
            let t = bytes(q);
            s.add(G, "reqparse", &input, t.clone(), move || {
                let mut n = 0;
                reqparse_map(black_box(q), MapOptions::default(), names, |v| {
                    n += v.map_or(0, str::len)
                });
                n
            });
            s.add(G, "form-net", &input, t, move || {
                let mut n = 0;
                form_net_map(black_box(q), names, |v| n += v.map_or(0, str::len));
                n
            });
        }
    }
    // 1,365 tiny pairs: over both default pair limits, so both are raised.
    let q = leak("a=%41&".repeat(8192 / 6));
    let opts = MapOptions {
        max_pairs: 10_000,
        ..MapOptions::default()
    };
    let ours = QueryMap::parse(q, opts).unwrap().get_all("a").count();
    assert_eq!(
        ours,
        form_net_tiny(q).get_all("a").count(),
        "{G}/form-net/tiny_8k"
    );
    s.add(G, "reqparse", "tiny_8k_parse", bytes(q), move || {
        QueryMap::parse(black_box(q), opts).unwrap()
    });
    s.add(G, "form-net", "tiny_8k_parse", bytes(q), move || {
        form_net_tiny(black_box(q))
    });
}

fn form_net_tiny(q: &str) -> form_net::Form {
    let limits = form_net::Limits::DEFAULT.with_max_fields(10_000);
    form_net::parse_urlencoded_with(q.as_bytes(), &limits, &form_net::Policy::DEFAULT).unwrap()
}

/// Re-enumerating with `name_eq` (the value read with `value_in`) per lookup, against parsing
/// once into `QueryMap`: where parse-once starts to pay.
fn enumerate(q: &str, names: &[&str], scratch: &mut String, mut each: impl FnMut(Option<&str>)) {
    for name in names {
        match query::pairs(q).find(|p| p.name_eq(name)) {
            Some(p) => each(Some(p.value_in(P, scratch).unwrap())),
            None => each(None),
        }
    }
}

fn crossover(s: &mut Suite) {
    const G: &str = "crossover";
    for (n, q) in map_inputs() {
        for k in [1, 2, 4, 8, 16] {
            let names = &LOOKUPS[..k];
            let input = format!("{n}p_k{k}");
            let ours = found(|e| reqparse_map(q, MapOptions::default(), names, e));
            let theirs = found(|e| enumerate(q, names, &mut String::new(), e));
            assert_eq!(ours, theirs, "{G}/reqparse_enumerate/{input}");
            let mut scratch = String::with_capacity(q.len());
            s.add(G, "reqparse_enumerate", &input, None, move || {
                let mut n = 0;
                enumerate(black_box(q), names, &mut scratch, |v| {
                    n += v.map_or(0, str::len)
                });
                n
            });
            s.add(G, "reqparse_map", &input, None, move || {
                let mut n = 0;
                reqparse_map(black_box(q), MapOptions::default(), names, |v| {
                    n += v.map_or(0, str::len)
                });
                n
            });
        }
    }
}

fn all(s: &mut Suite) {
    decode(s);
    owned(s);
    raw(s);
    map(s);
    crossover(s);
}

fn main() {
    support::main(all);
}
