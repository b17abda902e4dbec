//! Counts heap allocations of the query APIs with a counting global allocator.
//!
//! One `#[test]` runs every case in sequence, so no other test thread allocates meanwhile.

mod support;

use reqparse::query::{self, add_query_string, decode_spans, MapOptions, Profile, QueryMap};
use support::alloc::{check, count};

#[global_allocator]
static GLOBAL: support::alloc::Counting = support::alloc::Counting;

const REALISTIC: &str = "?q=rust+no_std+parser&lang=en-US&page=2&sort=desc&filter=%C3%A9t%C3%A9&utm_source=news%20letter&&flag&tag=a&tag=b";

#[test]
fn allocation_counts() {
    let profiles = Profile::ALL;
    let mut failures = Vec::new();

    // Enumerating raw pairs.
    let (n, pairs) = count(|| query::pairs(REALISTIC).count());
    check(&mut failures, "enumerate raw pairs (str)", n, 0);
    assert_eq!(pairs, 9);
    let (n, _) = count(|| {
        query::Pairs::new(REALISTIC.as_bytes())
            .map(|p| p.name().len() + p.value().len() + p.offset())
            .sum::<usize>()
    });
    check(&mut failures, "enumerate raw pairs (bytes)", n, 0);
    let (n, _) = count(|| {
        query::str_pairs(REALISTIC)
            .map(|p| p.name().len() + p.value().len())
            .sum::<usize>()
    });
    check(
        &mut failures,
        "enumerate raw pairs as &str (str_pairs)",
        n,
        0,
    );
    let (n, _) = count(|| query::Pairs::new(&[b'&'; 8192]).count());
    check(&mut failures, "enumerate hostile &&&&", n, 0);

    // Decoding a value that needs no decoding borrows.
    for profile in profiles {
        let pair = query::pairs("?lang=en-US").next().unwrap();
        let (n, v) = count(|| pair.decode_value(profile).map(|v| v.len()));
        check(
            &mut failures,
            &format!("decode plain value {profile:?}"),
            n,
            0,
        );
        assert_eq!(v, Ok(5));
        let (n, _) = count(|| pair.decode_name(profile).map(|v| v.len()));
        check(
            &mut failures,
            &format!("decode plain name {profile:?}"),
            n,
            0,
        );
        let (n, _) = count(|| pair.decode_value_bytes().len());
        check(
            &mut failures,
            &format!("decode plain value bytes {profile:?}"),
            n,
            0,
        );
        let bytes_pair = query::Pairs::new(b"lang=en-US").next().unwrap();
        let (n, _) = count(|| bytes_pair.decode_value(profile).map(|v| v.len()));
        check(
            &mut failures,
            &format!("decode plain value from bytes {profile:?}"),
            n,
            0,
        );
    }

    // Decoding a value that needs decoding allocates exactly once.
    for (input, profile) in [
        ("f=%C3%A9t%C3%A9", Profile::Whatwg),
        ("f=a+b", Profile::DotNet),
        ("f=%FF%41", Profile::DotNet),
        ("f=%FF%41", Profile::Whatwg),
        ("f=%E2%82%AC", Profile::Strict),
        ("f=%41".repeat(300).as_str(), Profile::Whatwg),
    ] {
        let pair = query::pairs(input).next().unwrap();
        let (n, _) = count(|| pair.decode_value(profile).map(|v| v.len()));
        check(
            &mut failures,
            &format!("decode {input:.20} {profile:?}"),
            n,
            1,
        );
        let (n, _) = count(|| pair.decode_value_bytes().len());
        check(&mut failures, &format!("decode bytes {input:.20}"), n, 1);
    }

    // name_in / value_in with a scratch that has the capacity: nothing, for every pair and
    // profile (plain parts borrow the input, the others are decoded into the scratch).
    let mut scratch = String::with_capacity(256);
    for profile in profiles {
        let (n, _) = count(|| {
            let mut len = 0;
            for pair in query::pairs(REALISTIC) {
                len += pair.name_in(profile, &mut scratch).unwrap().len();
                len += pair.value_in(profile, &mut scratch).unwrap().len();
            }
            len
        });
        check(
            &mut failures,
            &format!("name_in/value_in {profile:?}"),
            n,
            0,
        );
    }

    // decode_*_into a buffer with capacity: nothing, for every pair and profile.
    let mut buf = String::with_capacity(256);
    for profile in profiles {
        let (n, _) = count(|| {
            for pair in query::pairs(REALISTIC) {
                buf.clear();
                pair.decode_name_into(profile, &mut buf).unwrap();
                buf.clear();
                pair.decode_value_into(profile, &mut buf).unwrap();
            }
        });
        check(
            &mut failures,
            &format!("decode_into with capacity {profile:?}"),
            n,
            0,
        );
    }
    let hostile = "a=%FF%FE%41+%".repeat(100);
    let mut big = String::with_capacity(hostile.len() * 3);
    let (n, _) = count(|| {
        for profile in [Profile::Whatwg, Profile::DotNet] {
            for pair in query::pairs(&hostile) {
                big.clear();
                pair.decode_value_into(profile, &mut big).unwrap();
            }
        }
    });
    check(&mut failures, "decode_into hostile with capacity", n, 0);

    // name_eq never allocates.
    let (n, hits) = count(|| {
        query::pairs(REALISTIC)
            .filter(|p| p.name_eq("utm_source") || p.name_eq("tag") || p.name_eq("é"))
            .count()
    });
    check(&mut failures, "name_eq", n, 0);
    assert_eq!(hits, 3);
    let (n, _) = count(|| {
        query::pairs("%C3%A9t%C3%A9+x=1")
            .next()
            .unwrap()
            .name_eq("été x")
    });
    check(&mut failures, "name_eq on an encoded name", n, 0);

    // decode_spans with buffers that have the capacity.
    let (mut out, mut spans) = (Vec::with_capacity(4096), Vec::with_capacity(4096));
    let (n, _) =
        count(|| decode_spans(REALISTIC.as_bytes(), Profile::Whatwg, &mut out, &mut spans));
    check(&mut failures, "decode_spans with capacity", n, 0);

    // Builders: exactly one allocation, exact size.
    let (n, uri) = count(|| {
        add_query_string(
            "https://example.com/search?x=1#top",
            &[("q", "a b"), ("name", "été"), ("empty", "")],
        )
    });
    check(&mut failures, "add_query_string", n, 1);
    assert_eq!(uri.capacity(), uri.len());
    assert_eq!(
        uri,
        "https://example.com/search?x=1&q=a%20b&name=%C3%A9t%C3%A9&empty=#top"
    );

    // Owned collect: one vector, never grown (room is made ahead: by the length of a short
    // input, by its `&`s otherwise), and one string per non-empty name and value.
    for input in [
        "a=1&b=2",
        "a&b&c&d&e&f&g&h",
        "a&b&c&d&e&f&g&hh",
        "?a&b&c&d&e&f&g&h",
        "x=%41&y=b+c",
        REALISTIC,
    ] {
        for profile in profiles {
            let (n, all) = count(|| query::collect_pairs(input, profile).unwrap());
            let strings = all
                .iter()
                .flat_map(|(a, b)| [a, b])
                .filter(|s| !s.is_empty())
                .count();
            check(
                &mut failures,
                &format!("collect_pairs {input:?} {profile:?}"),
                n,
                1 + strings,
            );
        }
    }

    // QueryMap: parse makes at most three allocations; lookups none.
    let (n, map) = count(|| QueryMap::parse(REALISTIC, MapOptions::default()).unwrap());
    if n > 3 {
        failures.push(format!("QueryMap::parse: {n} allocations, want at most 3"));
    }
    let (n, found) = count(|| {
        [
            map.get("tag").is_some(),
            map.get("missing").is_none(),
            map.contains("flag"),
            map.get_all("tag").count() == 2,
            map.iter().count() == 8,
        ]
    });
    check(&mut failures, "QueryMap lookups", n, 0);
    assert_eq!(found, [true; 5]);
    let (n, _) = count(|| QueryMap::parse("?&&", MapOptions::default()).unwrap());
    check(&mut failures, "QueryMap::parse of an empty query", n, 0);
    let opts = MapOptions {
        max_pairs: 3,
        ..MapOptions::default()
    };
    let (n, err) = count(|| QueryMap::parse(REALISTIC, opts).unwrap_err());
    check(&mut failures, "QueryMap limit error", n, 0);
    assert_eq!(err.offset, REALISTIC.find("&sort").unwrap() + 1);

    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
