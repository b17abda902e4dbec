//! Properties: built headers parse back to the same filename in every profile, whatever the
//! builder writes parses back to what it was given (what it cannot write is an error), and no
//! input makes any parser or accessor panic.

use proptest::prelude::*;
use reqparse::disposition::{
    ContentDisposition, DateTime, DispositionBuilder, FilenameOptions, Profile,
};
use reqparse::percent::{encode_into, ATTR_CHAR};

/// Touches every accessor, both filename modes.
fn exercise(cd: &ContentDisposition<'_>) {
    let _ = cd.disposition_type();
    let _ = (cd.is_attachment(), cd.is_inline());
    for p in cd.params() {
        let _ = (
            p.name(),
            p.raw_value(),
            p.value(),
            p.is_quoted(),
            p.offset(),
            p.raw_value_bytes(),
            p.is_latin1(),
        );
    }
    let _ = cd.filename();
    let _ = cd.filename_with(FilenameOptions { decode_2047: true });
    let _ = (
        cd.size(),
        cd.creation_date(),
        cd.modification_date(),
        cd.read_date(),
    );
    assert_eq!(cd.params().count(), cd.param_count());
}

/// Whether `p` is the parameter `name=value` as the builder writes it: as given, or (for a
/// value that is not printable ASCII, or a name ending in `*`) as the ext-value `name*=`.
fn is_param(p: &reqparse::disposition::Param<'_>, name: &str, value: &str) -> bool {
    let ext = || {
        let mut want = String::from("UTF-8''");
        encode_into(value, &ATTR_CHAR, &mut want);
        p.raw_value() == want
    };
    match p.name().strip_prefix(name) {
        Some("") if name.ends_with('*') => ext(),
        Some("") => p.value() == value,
        Some("*") => ext(),
        _ => false,
    }
}

fn header_like() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        Just("filename".to_string()),
        Just("filename*".to_string()),
        Just("FileName".to_string()),
        (0u8..4, any::<bool>())
            .prop_map(|(n, e)| format!("filename*{n}{}", if e { "*" } else { "" })),
        Just("size".to_string()),
        Just("creation-date".to_string()),
        "[a-z*-]{0,6}",
    ];
    let value = prop_oneof![
        "[a-zA-Z0-9.%'_-]{0,12}",
        "(utf-8|UTF-8|iso-8859-1|us-ascii|x)'[a-z]{0,2}'([a-z]|%[0-9a-fA-F]{2}|%){0,6}",
        "\"([^\"\\\\]|\\\\.){0,10}\"",
        "\"?=\\?(utf-8|iso-8859-1)\\?[bBqQ]\\?[A-Za-z0-9+/=_]{0,8}\\?=\"?",
        "\"[^\"]{0,8}",
        "(Wed, )?[0-9]{1,2} (Feb|Foo) [0-9]{2,4} [0-9]{2}:[0-9]{2}(:[0-9]{2})? (GMT|[+-][0-9]{4}|A)",
    ];
    let param = (name, "[ \t]{0,1}", "[ \t]{0,1}=[ \t]{0,1}", value)
        .prop_map(|(n, s1, eq, v)| format!("{s1}{n}{eq}{v}"));
    (
        "[ ]?(attachment|inline|form-data|\"inline\"|)",
        prop::collection::vec(param, 0..6),
        "[ ;,]{0,2}",
    )
        .prop_map(|(t, ps, tail)| {
            format!(
                "{t}{}{tail}",
                ps.iter().map(|p| format!(";{p}")).collect::<String>()
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn filename_round_trips_in_every_profile(name in "\\PC{1,24}|[ -~]{1,24}|[\\x00-\\x7f]{1,12}") {
        let h = DispositionBuilder::new("attachment").filename(&name).build().unwrap();
        prop_assert_eq!(h.len(), h.capacity());
        for p in Profile::ALL {
            let cd = ContentDisposition::parse_str(&h, p);
            prop_assert!(cd.is_ok(), "{:?} rejects {:?}: {:?}", p, h, cd);
            let cd = cd.unwrap();
            let f = cd.filename();
            prop_assert_eq!(f.as_deref(), Some(name.as_str()), "{:?} {}", p, h);
        }
    }

    #[test]
    fn http_filename_parses_back(name in "\\PC{1,24}") {
        let h = DispositionBuilder::new("inline").http_filename(&name).build().unwrap();
        for p in Profile::ALL {
            let cd = ContentDisposition::parse_str(&h, p).unwrap();
            let f = cd.filename();
            prop_assert_eq!(f.as_deref(), Some(name.as_str()), "{:?} {}", p, h);
        }
    }

    #[test]
    fn params_round_trip_strict(values in prop::collection::vec("\\PC{0,12}", 1..6)) {
        let names: Vec<String> = (0..values.len()).map(|i| format!("p{i}")).collect();
        let mut b = DispositionBuilder::new("form-data");
        for (n, v) in names.iter().zip(&values) {
            b = b.param(n, v);
        }
        let h = b.build().unwrap();
        let cd = ContentDisposition::parse_str(&h, Profile::Strict).unwrap();
        for (p, v) in cd.params().zip(&values) {
            // Values that are not printable ASCII go out as ext-values (`name*`).
            if p.name().ends_with('*') {
                prop_assert!(p.raw_value().starts_with("UTF-8''"));
            } else {
                prop_assert_eq!(p.value(), v.as_str());
            }
        }
    }

    #[test]
    fn dates_round_trip(secs in -62_135_596_800i64..=253_402_300_799) {
        let d = DateTime::from_unix_seconds(secs).unwrap();
        let h = DispositionBuilder::new("attachment").modification_date(d).build().unwrap();
        let cd = ContentDisposition::parse_str(&h, Profile::Strict).unwrap();
        prop_assert_eq!(cd.modification_date(), Some(Ok(d)));
        prop_assert_eq!(DateTime::parse(&d.to_string()), Some(d));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        for p in Profile::ALL {
            if let Ok(cd) = ContentDisposition::parse(&bytes, p) {
                exercise(&cd);
            }
        }
        if let Ok(s) = std::str::from_utf8(&bytes) {
            let _ = DateTime::parse(s);
        }
    }

    /// RFC 9110 §5.6.4: any qdtext/obs-text bytes in a quoted filename read as UTF-8 when they
    /// are UTF-8, else as ISO-8859-1, in every profile; the raw bytes and offsets are kept.
    #[test]
    fn obs_text_reads_as_utf8_else_latin1(
        v in prop::collection::vec(prop_oneof![0x20u8..=0x21, 0x23u8..=0x5B, 0x5Du8..=0x7E, 0x80u8..=0xFF], 0..40),
        utf8 in "\\PC{0,12}",
    ) {
        for bytes in [v.clone(), utf8.into_bytes()] {
            let mut h = b"attachment; filename=\"".to_vec();
            h.extend_from_slice(&bytes);
            h.push(b'"');
            let want: String = match std::str::from_utf8(&bytes) {
                Ok(s) => s.to_owned(),
                Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
            };
            // Only what a quoted string holds unescaped (C1 controls 0x80-0x9F are obs-text).
            if bytes.iter().any(|&b| b == b'"' || b == b'\\' || b < 0x20 || b == 0x7F) {
                continue;
            }
            for p in [Profile::Strict, Profile::DotNet] {
                let cd = ContentDisposition::parse(&h, p).expect("obs-text is qdtext");
                let got = cd.filename();
                prop_assert_eq!(got.as_deref(), Some(want.as_str()));
                let f = cd.find("filename").expect("filename");
                prop_assert_eq!(&f.raw_value_bytes()[1..f.raw_value_bytes().len() - 1], &bytes[..]);
                prop_assert_eq!(f.is_latin1(), std::str::from_utf8(&bytes).is_err());
                prop_assert_eq!(f.offset(), 12);
            }
        }
    }

    #[test]
    fn header_like_input_never_panics(h in header_like()) {
        for p in Profile::ALL {
            if let Ok(cd) = ContentDisposition::parse_str(&h, p) {
                exercise(&cd);
            }
        }
    }

    #[test]
    fn strict_accepts_what_it_builds(t in "[a-z-]{1,10}", n in "[a-z]{1,8}", v in "\\PC{0,16}") {
        let h = DispositionBuilder::new(&t).param(&n, &v).build().unwrap();
        prop_assert!(ContentDisposition::parse_str(&h, Profile::Strict).is_ok(), "{}", h);
    }

    /// `parse(build(x))` gives back `x` (Strict): the type, the filename and every parameter;
    /// or the builder refuses. Names and types are drawn mostly from tokens, so both happen.
    #[test]
    fn built_headers_parse_back_or_fail_to_build(
        kind in "[a-z]{1,8}|\\PC{0,4}",
        filename in proptest::option::of("\\PC{0,12}"),
        params in prop::collection::vec((prop_oneof![9 => "[a-zA-Z*0-9-]{1,6}", 1 => "\\PC{0,3}"], "\\PC{0,8}"), 0..20),
    ) {
        let mut b = DispositionBuilder::new(&kind);
        if let Some(f) = &filename {
            b = b.filename(f);
        }
        for (n, v) in &params {
            b = b.param(n, v);
        }
        let Ok(h) = b.build() else { return Ok(()) };
        prop_assert_eq!(h.len(), h.capacity());
        let cd = ContentDisposition::parse_str(&h, Profile::Strict);
        prop_assert!(cd.is_ok(), "{:?}: {:?}", h, cd);
        let cd = cd.unwrap();
        prop_assert_eq!(cd.disposition_type(), kind.as_str());
        let back = cd.filename();
        prop_assert_eq!(back.as_deref(), filename.as_deref());
        // The filename's own parameters come first.
        let skip = cd.params().take_while(|p| filename.is_some() && p.name().starts_with("filename")).count();
        prop_assert_eq!(cd.param_count() - skip, params.len(), "{}", h);
        for (p, (n, v)) in cd.params().skip(skip).zip(&params) {
            prop_assert!(is_param(&p, n, v), "{:?} is not {}={:?} in {}", p, n, v, h);
        }
    }
}
