//! Property tests: build → parse round-trips, no input panics, and the span face agrees with
//! the pair face.

use proptest::prelude::*;
use reqparse::query::{
    self, add_query_string, append_pairs, decode_spans, decode_str_spans, MapOptions, Pairs,
    Profile, QueryErrorKind, QueryMap, SPAN_DECODED,
};

/// Bytes that exercise every branch: separators, escapes (valid, truncated, non-hex), `+`,
/// UTF-8 lead and continuation bytes, and plain ASCII.
fn query_bytes() -> impl Strategy<Value = Vec<u8>> {
    query_bytes_from(0..96)
}

/// [`query_bytes`] of a length in `len`.
fn query_bytes_from(len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<u8>> {
    let interesting = prop_oneof![
        Just(b'&'),
        Just(b'='),
        Just(b'%'),
        Just(b'+'),
        Just(b'?'),
        Just(b'#'),
        Just(b'a'),
        Just(b'F'),
        Just(b'2'),
        Just(0xC3),
        Just(0xA9),
        Just(0xE2),
        Just(0xF0),
        Just(0x80),
        Just(0xFF),
        any::<u8>(),
    ];
    prop::collection::vec(interesting, len)
}

/// Text built from fragments that decode to interesting UTF-8 (and non-UTF-8) byte streams.
fn query_text() -> impl Strategy<Value = String> {
    prop::collection::vec(text_piece(), 0..24).prop_map(|v| v.concat())
}

/// One of [`query_text`]'s fragments.
fn text_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("&".to_owned()),
        Just("=".to_owned()),
        Just("+".to_owned()),
        Just("%".to_owned()),
        Just("%C3".to_owned()),
        Just("%A9".to_owned()),
        Just("%E2%82".to_owned()),
        Just("%F0%9F%98".to_owned()),
        Just("%FF".to_owned()),
        Just("%4".to_owned()),
        Just("%41".to_owned()),
        "[a-zA-Z0-9é€😀 ]{0,4}",
    ]
}

fn exercise(input: &[u8]) {
    let mut buf = String::new();
    for pair in Pairs::new(input) {
        assert!(pair.offset() < input.len());
        for p in Profile::ALL {
            let _ = pair.decode_name(p);
            let _ = pair.decode_value(p);
            buf.clear();
            let _ = pair.decode_name_into(p, &mut buf);
            let _ = pair.decode_value_into(p, &mut buf);
            let _ = pair.name_eq_with(p, "a");
        }
        let _ = pair.decode_name_bytes();
        let _ = pair.decode_value_bytes();
    }
    if let Ok(s) = std::str::from_utf8(input) {
        for p in Profile::ALL {
            for ignore_case in [false, true] {
                let opts = MapOptions {
                    profile: p,
                    ignore_case,
                    max_pairs: 8,
                    max_decoded_bytes: 40,
                };
                if let Ok(map) = QueryMap::parse(s, opts) {
                    for (name, values) in map.iter() {
                        assert_eq!(map.get(name), map.get_all(name).next());
                        assert!(values.len() >= 1);
                    }
                }
            }
        }
        let _ = add_query_string(s, &[(s, s)]);
    }
    let (mut out, mut spans) = (Vec::new(), Vec::new());
    for p in Profile::ALL {
        let _ = decode_spans(input, p, &mut out, &mut spans);
    }
}

/// What decode_spans says, as pairs of strings.
fn span_pairs(input: &[u8], profile: Profile) -> Result<Vec<(String, String)>, usize> {
    let (mut out, mut spans) = (Vec::new(), Vec::new());
    let n = decode_spans(input, profile, &mut out, &mut spans).map_err(|e| e.offset)?;
    assert_eq!(spans.len(), 4 * n);
    let text = |a: u32, b: u32| {
        let bytes = if a & SPAN_DECODED != 0 {
            assert!(b & SPAN_DECODED != 0);
            &out[(a & !SPAN_DECODED) as usize..(b & !SPAN_DECODED) as usize]
        } else {
            &input[a as usize..b as usize]
        };
        String::from_utf8(bytes.to_vec()).unwrap()
    };
    Ok(spans
        .chunks(4)
        .map(|s| (text(s[0], s[1]), text(s[2], s[3])))
        .collect())
}

/// `decode_str_spans` and `decode_spans` on the same text: the same spans, decoded bytes,
/// count and error. The text entry point validates only runs of escapes, so text inputs are
/// where the two could part.
fn str_and_byte_spans_agree(input: &str) -> Result<(), TestCaseError> {
    for profile in Profile::ALL {
        let run = |text: bool| {
            let (mut out, mut spans) = (Vec::new(), Vec::new());
            let r = if text {
                decode_str_spans(input, profile, &mut out, &mut spans)
            } else {
                decode_spans(input.as_bytes(), profile, &mut out, &mut spans)
            };
            r.map(|n| (n, out, spans))
        };
        prop_assert_eq!(run(true), run(false), "{:?} {:?}", profile, input);
    }
    Ok(())
}

fn pair_pairs(input: &[u8], profile: Profile) -> Result<Vec<(String, String)>, usize> {
    Pairs::new(input)
        .map(|p| {
            let n = p.decode_name(profile).map_err(|e| e.offset)?;
            let v = p.decode_value(profile).map_err(|e| e.offset)?;
            Ok((n.into_owned(), v.into_owned()))
        })
        .collect()
}

/// WHATWG's answer for every value of `input`: percent-decode to bytes, then UTF-8 decode.
fn whatwg_reference(input: &[u8]) -> Result<(), TestCaseError> {
    // Reference: percent-decode to bytes, then UTF-8 decode with U+FFFD per maximal subpart.
    for pair in Pairs::new(input) {
        let want = String::from_utf8_lossy(&pair.decode_value_bytes()).into_owned();
        prop_assert_eq!(pair.decode_value(Profile::Whatwg).unwrap(), want);
    }
    Ok(())
}

/// Strict's answer for every value of `input`.
fn strict_reference(input: &[u8]) -> Result<(), TestCaseError> {
    // Reference: decode leniently, remembering where each byte came from and the first
    // malformed `%`; Strict fails at whichever comes first of that `%` and the origin of
    // the first byte that is not UTF-8, else gives the text.
    for pair in Pairs::new(input) {
        let raw = pair.value();
        let base = raw.as_ptr() as usize - input.as_ptr() as usize;
        let (mut bytes, mut origins, mut malformed) = (Vec::new(), Vec::new(), None);
        let mut i = 0;
        while let Some(&b) = raw.get(i) {
            let hex = |k: usize| raw.get(i + k).and_then(|&d| (d as char).to_digit(16));
            let (v, width) = match (b, hex(1), hex(2)) {
                (b'%', Some(h), Some(l)) => ((h * 16 + l) as u8, 3),
                (b'%', ..) => {
                    malformed.get_or_insert(base + i);
                    (b'%', 1)
                }
                (b'+', ..) => (b' ', 1),
                _ => (b, 1),
            };
            bytes.push(v);
            origins.push(base + i);
            i += width;
        }
        let invalid = std::str::from_utf8(&bytes)
            .err()
            .map(|e| origins[e.valid_up_to()]);
        let got = pair
            .decode_value(Profile::Strict)
            .map_err(|e| (e.kind, e.offset));
        let want = match (malformed, invalid) {
            (Some(m), Some(u)) if u < m => Err((QueryErrorKind::InvalidUtf8, u)),
            (Some(m), _) => Err((QueryErrorKind::InvalidEscape, m)),
            (None, Some(u)) => Err((QueryErrorKind::InvalidUtf8, u)),
            (None, None) => Ok(String::from_utf8(bytes).unwrap()),
        };
        prop_assert_eq!(got.map(|c| c.into_owned()), want);
    }
    Ok(())
}

/// One pair whose value is 64 to 700 bytes of the bytes `query_bytes` is made of, `&` aside.
fn long_value() -> impl Strategy<Value = Vec<u8>> {
    query_bytes_from(64..700).prop_map(|v| {
        let mut input = b"a=".to_vec();
        input.extend(v.into_iter().filter(|&b| b != b'&'));
        input
    })
}

/// One pair whose value is 64 bytes or more of text that decodes to UTF-8 (whole escaped
/// characters, `+`, raw text), with a few malformed `%` among them: the input the vector
/// decoder is for, which random bytes (nearly never UTF-8) do not reach.
fn long_text_value() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        8 => Just("%C3%A9".to_owned()),
        8 => Just("%E4%B8%AD".to_owned()),
        4 => Just("%F0%9F%98%80".to_owned()),
        4 => Just("%41".to_owned()),
        2 => Just("%2b".to_owned()),
        2 => Just("%25".to_owned()),
        6 => Just("+".to_owned()),
        1 => Just("%".to_owned()),
        1 => Just("%4".to_owned()),
        1 => Just("%zz".to_owned()),
        1 => Just("%E2%82".to_owned()),
        8 => "[a-zA-Z0-9é€😀 ]{0,17}",
    ];
    prop::collection::vec(piece, 16..120).prop_map(|v| format!("a={}", v.concat()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn build_then_parse_round_trips(
        pairs in prop::collection::vec((any::<String>(), any::<String>()), 0..8),
        prefix in prop_oneof![Just(""), Just("/p"), Just("/p?"), Just("/p?x=1"), Just("/p?x=1&")],
    ) {
        let borrowed: Vec<(&str, &str)> = pairs.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let mut s = String::from(prefix);
        append_pairs(&mut s, &borrowed);
        let query = &s[s.find('?').map_or(s.len(), |i| i)..];
        let skip = usize::from(prefix.contains("x=1"));
        for profile in Profile::ALL {
            let got: Vec<(String, String)> = query::pairs(query)
                .skip(skip)
                .map(|p| (
                    p.decode_name(profile).unwrap().into_owned(),
                    p.decode_value(profile).unwrap().into_owned(),
                ))
                .collect();
            prop_assert_eq!(&got, &pairs);
            for (p, (name, _)) in query::pairs(query).skip(skip).zip(&pairs) {
                prop_assert!(p.name_eq_with(profile, name));
            }
        }
        let uri = add_query_string(&format!("{prefix}#frag"), &borrowed);
        prop_assert_eq!(uri.capacity(), uri.len());
        prop_assert_eq!(uri, if pairs.is_empty() { format!("{prefix}#frag") } else { format!("{s}#frag") });
    }

    #[test]
    fn random_bytes_never_panic(input in query_bytes()) {
        exercise(&input);
    }

    #[test]
    fn random_text_never_panics(input in query_text()) {
        exercise(input.as_bytes());
    }

    #[test]
    fn spans_agree_with_pairs(input in query_bytes()) {
        for profile in Profile::ALL {
            prop_assert_eq!(span_pairs(&input, profile), pair_pairs(&input, profile));
        }
    }

    #[test]
    fn spans_agree_with_pairs_on_text(input in query_text()) {
        for profile in Profile::ALL {
            prop_assert_eq!(span_pairs(input.as_bytes(), profile), pair_pairs(input.as_bytes(), profile));
        }
    }

    #[test]
    fn str_spans_agree_with_byte_spans(input in query_text()) {
        str_and_byte_spans_agree(&input)?;
    }

    #[test]
    fn str_spans_agree_with_byte_spans_on_long_text(input in long_text_value()) {
        str_and_byte_spans_agree(&input)?;
    }

    #[test]
    fn profiles_agree_on_valid_input(input in query_text()) {
        // Where Strict succeeds, nothing was malformed, so all profiles give the same text.
        if let Ok(strict) = pair_pairs(input.as_bytes(), Profile::Strict) {
            prop_assert_eq!(pair_pairs(input.as_bytes(), Profile::Whatwg), Ok(strict.clone()));
            prop_assert_eq!(pair_pairs(input.as_bytes(), Profile::DotNet), Ok(strict));
        }
    }

    #[test]
    fn text_and_bytes_inputs_agree(input in query_text()) {
        // `pairs(&str)` takes the validated fast path, `Pairs::new(&[u8])` revalidates.
        for profile in Profile::ALL {
            let a: Vec<_> = query::pairs(&input).map(|p| (p.decode_name(profile), p.decode_value(profile))).collect();
            let b: Vec<_> = Pairs::new(input.as_bytes()).map(|p| (p.decode_name(profile), p.decode_value(profile))).collect();
            prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn borrow_or_scratch_agrees_with_cow(input in query_bytes()) {
        // `value_in` answers what `decode_value` answers, borrowing exactly when it borrows.
        let mut scratch = String::new();
        for profile in Profile::ALL {
            for pair in Pairs::new(&input) {
                let name = pair.name_in(profile, &mut scratch).map(str::to_owned);
                prop_assert!(name.is_ok() || scratch.is_empty());
                prop_assert_eq!(pair.decode_name(profile).map(|c| c.into_owned()), name);
                let value = pair.value_in(profile, &mut scratch).map(str::to_owned);
                prop_assert!(value.is_ok() || scratch.is_empty());
                prop_assert_eq!(pair.decode_value(profile).map(|c| c.into_owned()), value);
                let borrowed = matches!(pair.decode_value(profile), Ok(std::borrow::Cow::Borrowed(_)));
                let v = pair.value_in(profile, &mut scratch);
                if let Some(v) = v.ok().filter(|v| !v.is_empty()) {
                    let in_input = input.as_ptr_range().contains(&v.as_ptr());
                    prop_assert_eq!(borrowed, in_input);
                }
            }
        }
    }

    #[test]
    fn whatwg_matches_lossy_reference(input in query_bytes()) {
        whatwg_reference(&input)?;
    }

    #[test]
    fn strict_matches_reference(input in query_bytes()) {
        strict_reference(&input)?;
    }

    // Values long enough for the vector decoder (64 bytes and up, 16 and 32 a step), with every
    // kind of byte at every offset of a step.
    #[test]
    fn whatwg_matches_lossy_reference_on_long_values(input in long_value()) {
        whatwg_reference(&input)?;
    }

    #[test]
    fn strict_matches_reference_on_long_values(input in long_value()) {
        strict_reference(&input)?;
    }

    #[test]
    fn whatwg_matches_lossy_reference_on_long_text(input in long_text_value()) {
        whatwg_reference(input.as_bytes())?;
    }

    #[test]
    fn strict_matches_reference_on_long_text(input in long_text_value()) {
        strict_reference(input.as_bytes())?;
    }

    #[test]
    fn long_text_values_agree_across_faces(input in long_text_value()) {
        exercise(input.as_bytes());
        for profile in Profile::ALL {
            let mut scratch = String::new();
            for pair in query::str_pairs(&input) {
                let cow = pair.decode_value(profile).map(|c| c.into_owned());
                prop_assert_eq!(pair.value_in(profile, &mut scratch).map(str::to_owned), cow);
            }
        }
    }

    #[test]
    fn collect_pairs_matches_pairs(input in query_text()) {
        for profile in Profile::ALL {
            let one_by_one: Result<Vec<(String, String)>, _> = query::pairs(&input)
                .map(|p| Ok((p.decode_name(profile)?.into_owned(), p.decode_value(profile)?.into_owned())))
                .collect();
            prop_assert_eq!(query::collect_pairs(&input, profile), one_by_one);
        }
    }

    #[test]
    fn map_matches_pairs(input in query_text(), ignore_case in any::<bool>()) {
        let opts = MapOptions { ignore_case, ..MapOptions::default() };
        let map = QueryMap::parse(&input, opts).unwrap();
        let all = pair_pairs(input.as_bytes(), Profile::Whatwg).unwrap();
        let key = |s: &str| if ignore_case { s.to_ascii_lowercase() } else { s.to_owned() };
        // Names in first-appearance order, values in input order.
        let mut want: Vec<(String, Vec<String>)> = Vec::new();
        for (n, v) in all {
            match want.iter_mut().find(|(k, _)| key(k) == key(&n)) {
                Some((_, vs)) => vs.push(v),
                None => want.push((n, vec![v])),
            }
        }
        let got: Vec<(String, Vec<String>)> = map
            .iter()
            .map(|(n, vs)| (n.to_owned(), vs.map(str::to_owned).collect()))
            .collect();
        prop_assert_eq!(&got, &want);
        for (n, vs) in &want {
            if ignore_case {
                prop_assert_eq!(map.get(&n.to_ascii_uppercase()), vs.first().map(String::as_str));
            }
            prop_assert_eq!(map.get(n), vs.first().map(String::as_str));
        }
    }
}
