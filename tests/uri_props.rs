//! Properties of the uri module: no input panics, built URIs are exactly sized, and
//! `split_absolute(build_absolute(...))` gives the parts back.

use proptest::prelude::*;
use reqparse::uri::{build_absolute, build_relative, split_absolute};

/// Strings rich in the bytes the builders and the splitter treat specially.
fn uri_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z0-9:/?#\\[\\]@!$&'()*+,;=%._~ -]{0,40}",
        "([/?#%:\\[\\]]|%[0-9a-fA-F]{2}|%[C-F][0-9A-F]%[89AB][0-9A-F]|é|😀|\u{0})*",
    ]
}

/// A path as a caller holds it (decoded), whose round trip is exact: no text that is already
/// a valid escape (kept as written by the builder, then decoded by the splitter) and no NUL
/// (built as `%00`, which ASP.NET Core's decoder, and so ours, refuses).
fn plain_path() -> impl Strategy<Value = String> {
    "(/[a-zA-Z0-9 ?#\\[\\]@!$&'()*+,;=:._~é😀\"<>^`{|}\\\\-]{0,8}){0,4}|/%[g-z%]?".prop_filter(
        "no valid escapes",
        |p| {
            !p.as_bytes()
                .windows(3)
                .any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit())
        },
    )
}

fn host() -> impl Strategy<Value = String> {
    let ipv6 = any::<[u16; 8]>().prop_map(|g| std::net::Ipv6Addr::from(g).to_string());
    prop_oneof![
        "[a-zA-Z0-9._~!$&'()*+,;=-]{1,20}(:[1-9][0-9]{0,3})?",
        // Bare (gets brackets) and bracketed with a port.
        ipv6.clone()
            .prop_filter("two colons or more", |a| a.matches(':').count() >= 2),
        (ipv6, 1..=65535u16).prop_map(|(a, port)| format!("[{a}]:{port}")),
    ]
}

/// The path `split_absolute` should give back for `path_base` + `path`, by the builder's
/// documented rules (missing `/` added, one `/` dropped between them, `/` when both are empty).
fn joined(base: &str, path: &str) -> String {
    let slash = |s: &str| {
        if s.is_empty() || s.starts_with('/') {
            s.to_string()
        } else {
            format!("/{s}")
        }
    };
    let (mut base, path) = (slash(base), slash(path));
    if !path.is_empty() && base.ends_with('/') {
        base.pop();
    }
    let joined = base + &path;
    if joined.is_empty() {
        "/".to_string()
    } else {
        joined
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn no_input_panics_and_output_is_exactly_sized(
        s in uri_text(), h in uri_text(), b in uri_text(),
        p in uri_text(), q in uri_text(), f in uri_text(),
    ) {
        if let Ok(out) = build_absolute(&s, &h, &b, &p, &q, &f) {
            prop_assert_eq!(out.capacity(), out.len());
            // What the builder writes, the splitter reads.
            prop_assert!(split_absolute(&out).is_ok() || out.contains("%00"), "{}", out);
        }
        let rel = build_relative(&b, &p, &q, &f);
        prop_assert_eq!(rel.capacity(), rel.len());
        let _ = split_absolute(&s);
        // One empty-host rule both ways: a host split out is never one the builder calls empty.
        if let Ok(parts) = split_absolute(&format!("http://{h}{p}")) {
            let built = build_absolute("http", parts.host, "", "", "", "");
            prop_assert!(
                !matches!(built, Err(e) if e.kind == reqparse::uri::UriErrorKind::EmptyHost),
                "{:?}", parts.host
            );
        }
    }

    #[test]
    fn absolute_is_scheme_host_then_relative(
        s in "[a-zA-Z][a-zA-Z0-9+.-]{0,8}", h in host(),
        b in uri_text(), p in uri_text(), q in uri_text(), f in uri_text(),
    ) {
        let abs = build_absolute(&s, &h, &b, &p, &q, &f).unwrap();
        let rel = build_relative(&b, &p, &q, &f);
        let prefix = format!("{s}://");
        prop_assert!(abs.starts_with(&prefix));
        prop_assert!(abs.ends_with(&rel));
    }

    #[test]
    fn split_gives_back_what_build_was_given(
        s in "[a-zA-Z][a-zA-Z0-9+.-]{0,8}",
        h in host(),
        b in plain_path(),
        p in plain_path(),
        q in "(\\?[^#]{0,20})?",
        f in "(#.{0,20})?",
    ) {
        let uri = build_absolute(&s, &h, &b, &p, &q, &f).unwrap();
        let parts = split_absolute(&uri).unwrap();
        prop_assert_eq!(parts.scheme, s.as_str());
        // A bare IPv6 address comes back in brackets, everything else as given.
        let want_host = if h.matches(':').count() >= 2 && !h.starts_with('[') {
            format!("[{h}]")
        } else {
            h.clone()
        };
        prop_assert_eq!(parts.host, want_host.as_str());
        let want_path = joined(&b, &p);
        prop_assert_eq!(&*parts.path, want_path.as_str());
        prop_assert_eq!(parts.query, q.as_str());
        prop_assert_eq!(parts.fragment, f.as_str());
    }

    #[test]
    fn split_parts_concatenate_to_the_input_when_nothing_is_decoded(
        u in prop_oneof![uri_text(), ("[a-zA-Z][a-z+]{0,4}://", uri_text()).prop_map(|(a, b)| a + &b)],
    ) {
        if let Ok(parts) = split_absolute(&u) {
            if !u.contains('%') {
                let again = format!(
                    "{}://{}{}{}{}",
                    parts.scheme, parts.host, parts.path, parts.query, parts.fragment
                );
                prop_assert_eq!(again, u);
            }
        }
    }
}
