//! Every query API on arbitrary bytes: nothing may panic, and the faces must agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reqparse::query::{
    self, add_query_string, append_pairs, decode_spans, MapOptions, Pairs, Profile, QueryMap,
    SPAN_DECODED,
};

const PROFILES: [Profile; 3] = [Profile::Whatwg, Profile::DotNet, Profile::Strict];

fuzz_target!(|data: &[u8]| {
    let mut buf = String::new();
    for profile in PROFILES {
        let (mut out, mut spans) = (Vec::new(), Vec::new());
        let spanned = decode_spans(data, profile, &mut out, &mut spans);
        let mut i = 0;
        for pair in Pairs::new(data) {
            let name = pair.decode_name(profile);
            let value = pair.decode_value(profile);
            buf.clear();
            let into = pair.decode_name_into(profile, &mut buf);
            assert_eq!(into.is_ok(), name.is_ok());
            if let Ok(n) = &name {
                assert_eq!(&buf, n);
                assert!(pair.name_eq_with(profile, n));
            }
            let _ = pair.decode_value_into(profile, &mut buf);
            let _ = (pair.decode_name_bytes(), pair.decode_value_bytes());
            // decode_spans gives the same text as the pair decoders.
            if let (Ok(_), Ok(n), Ok(v)) = (&spanned, &name, &value) {
                let text = |a: u32, b: u32| {
                    if a & SPAN_DECODED != 0 {
                        &out[(a & !SPAN_DECODED) as usize..(b & !SPAN_DECODED) as usize]
                    } else {
                        &data[a as usize..b as usize]
                    }
                };
                assert_eq!(text(spans[4 * i], spans[4 * i + 1]), n.as_bytes());
                assert_eq!(text(spans[4 * i + 2], spans[4 * i + 3]), v.as_bytes());
            }
            i += 1;
        }
    }
    if let Ok(s) = std::str::from_utf8(data) {
        for profile in PROFILES {
            for ignore_case in [false, true] {
                let opts = MapOptions { profile, ignore_case, max_pairs: 64, max_decoded_bytes: 256 };
                if let Ok(map) = QueryMap::parse(s, opts) {
                    for (name, values) in map.iter() {
                        assert_eq!(map.get(name), map.get_all(name).next());
                        assert!(values.len() > 0);
                    }
                }
            }
        }
        let half = s.char_indices().nth(s.chars().count() / 2).map_or(s.len(), |(i, _)| i);
        let (a, b) = s.split_at(half);
        let built = add_query_string(a, &[(b, a), (a, b)]);
        assert_eq!(built.capacity(), built.len());
        let mut q = String::new();
        append_pairs(&mut q, &[(a, b)]);
        let pair = query::pairs(&q).next().unwrap();
        assert_eq!(pair.decode_name(Profile::Strict).unwrap(), a);
        assert_eq!(pair.decode_value(Profile::Strict).unwrap(), b);
    }
});
