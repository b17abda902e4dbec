//! `QueryMap` against a model: every pair decoded with `Pair::decode_name`/`decode_value` and
//! grouped by a linear search, the limits checked as the map documents them (all pairs
//! counted first, then the decoded bytes, then the decode errors). And its allocations: a
//! fixed number per parse, whatever the number of pairs.

mod support;

use proptest::prelude::*;
use reqparse::query::{self, MapOptions, Profile, QueryError, QueryErrorKind, QueryMap};
use support::alloc::{count, count_apart};

#[global_allocator]
static GLOBAL: support::alloc::Counting = support::alloc::Counting;

/// The model's map: names in first-appearance order, each with its values in input order.
type Groups = Vec<(String, Vec<String>)>;

fn same(a: &str, b: &str, ignore_case: bool) -> bool {
    if ignore_case {
        a.eq_ignore_ascii_case(b)
    } else {
        a == b
    }
}

/// What `QueryMap::parse` must answer, computed the plain way.
fn model(query: &str, o: MapOptions) -> Result<Groups, QueryError> {
    let err = |kind, offset| Err(QueryError { kind, offset });
    let all: Vec<_> = query::pairs(query).collect();
    if let Some(p) = all.get(o.max_pairs) {
        return err(QueryErrorKind::TooManyPairs, p.offset());
    }
    let raw: usize = all.iter().map(|p| p.name().len() + p.value().len()).sum();
    if raw > o.max_decoded_bytes {
        let mut total = 0;
        for p in &all {
            total += p.decode_name(o.profile)?.len() + p.decode_value(o.profile)?.len();
            if total > o.max_decoded_bytes {
                return err(QueryErrorKind::TooLarge, p.offset());
            }
        }
    }
    let mut groups: Groups = Vec::new();
    for p in &all {
        let (n, v) = (p.decode_name(o.profile)?, p.decode_value(o.profile)?);
        match groups.iter_mut().find(|(g, _)| same(g, &n, o.ignore_case)) {
            Some((_, values)) => values.push(v.into_owned()),
            None => groups.push((n.into_owned(), vec![v.into_owned()])),
        }
    }
    Ok(groups)
}

/// Every accessor of `map` agrees with `groups`, also for names looked up in other spellings
/// and for names that are not there.
fn check_against(map: &QueryMap, groups: &Groups, ignore_case: bool) {
    let got: Groups = map
        .iter()
        .map(|(n, vs)| (n.to_owned(), vs.map(str::to_owned).collect()))
        .collect();
    assert_eq!(&got, groups);
    assert_eq!(map.iter().len(), groups.len());
    assert_eq!(map.len(), groups.len());
    assert_eq!(map.is_empty(), groups.is_empty());
    let pairs: usize = groups.iter().map(|(_, v)| v.len()).sum();
    assert_eq!(map.pair_count(), pairs);
    for (name, values) in groups {
        let spellings = [
            name.clone(),
            name.to_ascii_uppercase(),
            name.to_ascii_lowercase(),
            format!("{name}x"),
            format!("x{name}"),
            name.chars().skip(1).collect(),
        ];
        for s in spellings {
            let want = groups.iter().find(|(g, _)| same(g, &s, ignore_case));
            let want_all: Vec<&str> =
                want.map_or(vec![], |(_, v)| v.iter().map(|x| &**x).collect());
            assert_eq!(map.get(&s), want_all.first().copied(), "get {s:?}");
            assert_eq!(map.contains(&s), want.is_some(), "contains {s:?}");
            let all = map.get_all(&s);
            assert_eq!(all.len(), want_all.len(), "get_all len {s:?}");
            assert_eq!(all.collect::<Vec<_>>(), want_all, "get_all {s:?}");
        }
        let _ = values;
    }
    assert_eq!(map.get("never-a-name"), None);
}

fn run(query: &str, o: MapOptions) {
    let got = QueryMap::parse(query, o);
    match (model(query, o), got) {
        (Ok(groups), Ok(map)) => check_against(&map, &groups, o.ignore_case),
        (Err(want), Err(got)) => assert_eq!(got, want, "{query:?} {o:?}"),
        (want, got) => panic!("{query:?} {o:?}: want {want:?}, got {got:?}"),
    }
}

/// Names chosen to meet each other: case variants, escapes and `+` that decode to the same
/// name, names longer than 8 bytes that share their first 8 (the map's key), UTF-8 that ASCII
/// case folding must leave alone, and the empty name.
#[rustfmt::skip]
const NAMES: &[&str] = &[
    "a", "A", "%41", "%61", "b", "ab", "aB", "a+b", "a%20b", "abc", "abcd", "ABCD", "abcdefg",
    "abcdefgh", "ABCDEFGH", "abcdefghi", "abcdefghj", "ABCDEFGHI", "abcdefgh%69",
    "abcdefghijklmnopq", "abcdefghijklmnopQ", "ABCDEFGHIJKLMNOPQ", "k", "K", "%E2%84%AA",
    "%C3%A9", "%C3%89", "é", "", "%FF", "%zz", "x%", "tag", "Tag", "utm_source", "UTM_SOURCE",
];

fn name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(NAMES)
}

#[rustfmt::skip]
const VALUES: &[&str] = &[
    "", "1", "x+y", "%C3%A9t%C3%A9", "%F0%9F%98%80", "%FF", "%", "a=b", "plain-value",
];

fn value() -> impl Strategy<Value = &'static str> {
    prop::sample::select(VALUES)
}

/// Queries of 0 to 60 pairs (the linear map ends at 5, so both lookups run), with empty
/// segments and pairs without `=`.
fn query_text() -> impl Strategy<Value = String> {
    let pair = prop_oneof![
        8 => (name(), value()).prop_map(|(n, v)| format!("{n}={v}")),
        1 => name().prop_map(str::to_owned),
        1 => Just(String::new()),
    ];
    (any::<bool>(), prop::collection::vec(pair, 0..60))
        .prop_map(|(q, pairs)| format!("{}{}", if q { "?" } else { "" }, pairs.join("&")))
}

fn profile() -> impl Strategy<Value = Profile> {
    prop::sample::select(Profile::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn map_matches_the_model(q in query_text(), p in profile(), ignore_case: bool) {
        let o = MapOptions { profile: p, ignore_case, max_pairs: 10_000, max_decoded_bytes: 1 << 20 };
        run(&q, o);
    }

    /// Tight limits: the error (kind and offset) is the one the documented order gives.
    #[test]
    fn limits_match_the_model(
        q in query_text(),
        p in profile(),
        ignore_case: bool,
        max_pairs in 0usize..40,
        max_decoded_bytes in 0usize..300,
    ) {
        run(&q, MapOptions { profile: p, ignore_case, max_pairs, max_decoded_bytes });
    }
}

#[test]
fn many_distinct_names() {
    // Distinct names fill the index as far as it goes (two thirds), with long and short names.
    for n in [6, 17, 100, 683, 1000] {
        let q: Vec<String> = (0..n)
            .map(|i| {
                if i % 2 == 0 {
                    format!("n{i}=v{i}")
                } else {
                    format!("a_long_name_{i}=v{i}")
                }
            })
            .collect();
        let q = q.join("&");
        for ignore_case in [false, true] {
            let o = MapOptions {
                ignore_case,
                max_pairs: n,
                ..MapOptions::default()
            };
            run(&q, o);
            run(&q.to_ascii_uppercase(), o);
        }
    }
}

#[test]
fn one_name_many_times() {
    let q = "k=v&".repeat(999) + "K=last";
    for ignore_case in [false, true] {
        let o = MapOptions {
            ignore_case,
            ..MapOptions::default()
        };
        run(&q, o);
    }
    let map = QueryMap::parse(&q, MapOptions::default()).unwrap();
    assert_eq!((map.len(), map.pair_count()), (2, 1000));
    assert_eq!(map.get_all("k").len(), 999);
}

/// `&` runs are counted into the pair bound but hold no pairs: the bound may pass
/// `max_pairs` while the pairs do not.
#[test]
fn empty_segments_and_limits() {
    let q = "&&&&a=1&&&&b=2&&&&";
    let o = MapOptions {
        max_pairs: 2,
        max_decoded_bytes: 4,
        ..MapOptions::default()
    };
    run(q, o);
    assert_eq!(QueryMap::parse(q, o).unwrap().len(), 2);
    let o = MapOptions { max_pairs: 1, ..o };
    let err = QueryMap::parse(q, o).unwrap_err();
    assert_eq!((err.kind, err.offset), (QueryErrorKind::TooManyPairs, 11));
}

/// Allocations per parse: none without pairs, two (the text and the pair table) up to 5
/// pairs, three (and the name index) past that, however many pairs there are; nothing ever
/// reallocates, and lookups allocate nothing.
#[test]
fn allocations_are_fixed() {
    let mut failures = Vec::new();
    for (pairs, want) in [(0, 0), (1, 2), (5, 2), (6, 3), (28, 3), (260, 3), (1000, 3)] {
        let q: Vec<String> = (0..pairs)
            .map(|i| format!("n{}=%C3%A9+{i}", i % 20))
            .collect();
        let q = format!("?{}", q.join("&"));
        let (allocs, reallocs, map) = count_apart(|| QueryMap::parse(&q, MapOptions::default()));
        let map = map.unwrap();
        if (allocs, reallocs) != (want, 0) {
            failures.push(format!(
                "parse of {pairs} pairs: {allocs} allocations and {reallocs} reallocations, want {want} and 0"
            ));
        }
        let (n, _) = count(|| {
            let mut found = 0;
            for name in ["n0", "n19", "N0", "missing"] {
                found += usize::from(map.get(name).is_some());
                found += map.get_all(name).count();
                found += usize::from(map.contains(name));
            }
            found + map.iter().map(|(_, v)| v.len()).sum::<usize>()
        });
        if n != 0 {
            failures.push(format!("lookups in {pairs} pairs: {n} allocations"));
        }
    }
    // Raw bytes over `max_decoded_bytes` whose decoded bytes fit: measured exactly first, and
    // still nothing reallocates (each part is decoded into room for its raw length).
    let q = "a=%41%41%41%41&b=%41%41";
    let o = MapOptions {
        max_decoded_bytes: 8,
        ..MapOptions::default()
    };
    let (allocs, reallocs, map) = count_apart(|| QueryMap::parse(q, o));
    if (allocs, reallocs) != (2, 0) || map.as_ref().map(|m| m.get("a")) != Ok(Some("AAAA")) {
        failures.push(format!(
            "exactly measured parse: {allocs} allocations and {reallocs} reallocations, {map:?}"
        ));
    }
    // A limit is found before anything is allocated.
    let q = "a=1&b=2&c=3&d=%41%41%41";
    for o in [
        MapOptions {
            max_pairs: 3,
            ..MapOptions::default()
        },
        MapOptions {
            max_decoded_bytes: 7,
            ..MapOptions::default()
        },
    ] {
        let (n, r) = count(|| QueryMap::parse(q, o));
        if n != 0 || r.is_ok() {
            failures.push(format!("{o:?}: {n} allocations, {r:?}"));
        }
    }
    let (n, _) = count(|| QueryMap::parse("?&&&", MapOptions::default()));
    if n != 0 {
        failures.push(format!("empty query: {n} allocations"));
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
