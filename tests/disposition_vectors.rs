//! Runs tests/vectors/disposition.json and tests/vectors/disposition_format.json (schema in
//! ARCHITECTURE.md) and lists every failing case by its source. Also the cases whose input is
//! not UTF-8 (JSON strings cannot hold them) and ASP.NET's SetHttpFileName, as tables.

mod support;

use reqparse::disposition::{
    ContentDisposition, DispositionBuilder, DispositionErrorKind as K, FilenameOptions, Profile,
};
use serde_json::Value;
use support::vectors::{self, disposition_shape as shape, flag, required};

#[test]
fn disposition_json() {
    vectors::run("disposition.json", 120, |case, failures| {
        let source = required(case, "source");
        let input = required(case, "input");
        let bytes = vectors::input_bytes(case);
        let prof: Profile = vectors::profile(case);
        let opts = FilenameOptions {
            decode_2047: flag(case, "decode_2047"),
        };
        let got = ContentDisposition::parse(&bytes, prof);
        match (&got, case.get("expect"), case.get("expect_error")) {
            (Ok(cd), Some(want), None) => {
                let got = shape(cd, opts);
                if &got != want {
                    failures.push(format!(
                        "{source} [{prof:?}] {input:?}\n   got  {got}\n   want {want}"
                    ));
                }
            }
            (Err(e), None, Some(want)) => {
                if let Some(off) = want.get("offset").and_then(Value::as_u64) {
                    if e.offset as u64 != off {
                        failures.push(format!(
                            "{source} [{prof:?}] {input:?}: error {e}, want offset {off}"
                        ));
                    }
                }
            }
            (Ok(cd), None, Some(_)) => failures.push(format!(
                "{source} [{prof:?}] {input:?}: parsed {}, want an error",
                shape(cd, opts)
            )),
            (Err(e), Some(_), None) => {
                failures.push(format!("{source} [{prof:?}] {input:?}: error {e}"))
            }
            _ => failures.push(format!(
                "{source}: needs exactly one of expect / expect_error"
            )),
        }
    });
}

#[test]
fn disposition_format_json() {
    vectors::run("disposition_format.json", 1, |case, failures| {
        let source = required(case, "source");
        let kind = required(case, "type");
        let filename = vectors::text(case, "filename");
        let params = vectors::parameters(case);
        let mut b = DispositionBuilder::new(kind);
        if !filename.is_empty() {
            b = b.filename(filename);
        }
        for (n, v) in &params {
            b = b.param(n, v);
        }
        let got = match (b.build(), case.get("expect_error")) {
            (Err(e), Some(want)) => {
                // The kind is the variant's name, the message its Display.
                let kind = format!("{e:?}");
                let kind = kind.split([' ', '{']).next().unwrap_or_default();
                if Some(kind) != want["kind"].as_str()
                    || Some(&*e.to_string()) != want["message"].as_str()
                {
                    failures.push(format!("{source}\n   got  {kind}: {e}\n   want {want}"));
                }
                return;
            }
            (Ok(got), None) => got,
            (Ok(got), Some(want)) => {
                failures.push(format!("{source}: built {got:?}, want the error {want}"));
                return;
            }
            (Err(e), None) => {
                failures.push(format!("{source}: build error {e}"));
                return;
            }
        };
        let want = case["expect"].as_str().expect("expect");
        if got != want {
            failures.push(format!("{source}\n   got  {got}\n   want {want}"));
        }
        if got.len() != got.capacity() {
            failures.push(format!(
                "{source}: capacity {} != len {}",
                got.capacity(),
                got.len()
            ));
        }
        for prof in Profile::ALL {
            match ContentDisposition::parse_str(&got, prof) {
                Ok(cd) => {
                    let back = cd.filename();
                    let want = (!filename.is_empty()).then_some(filename);
                    if back.as_deref() != want {
                        failures.push(format!(
                            "{source} [{prof:?}]: parses back to {back:?}, want {want:?}"
                        ));
                    }
                }
                Err(e) => failures.push(format!("{source} [{prof:?}]: does not parse back: {e}")),
            }
        }
    });
}

/// Header bytes (RFC 9110 §5.6.4 obs-text): what each is read as, with the raw bytes kept, and
/// what is still refused (a non-ASCII byte outside a quoted string, in Strict and DotNet) with
/// its kind and a message saying what would accept it. The vectors hold the same headers.
#[test]
fn header_bytes() {
    let iso = b"attachment; filename=\"\xe4-%41.html\"";
    for prof in Profile::ALL {
        let cd = ContentDisposition::parse(iso, prof).expect("obs-text in a quoted string");
        assert_eq!(cd.filename().as_deref(), Some("ä-%41.html"), "{prof:?}");
        let p = cd.find("filename").expect("filename");
        assert!(p.is_latin1(), "{prof:?}");
        assert_eq!(p.raw_value(), "", "{prof:?}");
        assert_eq!(p.raw_value_bytes(), b"\"\xe4-%41.html\"", "{prof:?}");
        assert_eq!(p.offset(), 12, "{prof:?}");
    }
    let utf8 = "form-data; name=\"upload\"; filename=\"résumé 2024 – final.pdf\"";
    for prof in Profile::ALL {
        let cd = ContentDisposition::parse(utf8.as_bytes(), prof).expect("raw UTF-8");
        let p = cd.find("filename").expect("filename");
        assert!(!p.is_latin1());
        assert_eq!(p.raw_value(), "\"résumé 2024 – final.pdf\"");
        assert!(matches!(
            cd.filename(),
            Some(std::borrow::Cow::Borrowed("résumé 2024 – final.pdf"))
        ));
    }
    let refused: &[(&str, &[u8], Profile, usize)] = &[
        (
            "tc2231 attfnbrokentokeniso",
            b"attachment; filename=foo-\xe4.html",
            Profile::Strict,
            25,
        ),
        (
            "tc2231 attfnbrokentokenutf",
            "attachment; filename=foo-ä.html".as_bytes(),
            Profile::DotNet,
            25,
        ),
        ("non-ASCII type", b"\xe4ttachment", Profile::Strict, 0),
        (
            "non-ASCII name",
            b"attachment; n\xe4me=a",
            Profile::Strict,
            13,
        ),
    ];
    let mut failures = Vec::new();
    for &(source, input, prof, offset) in refused {
        match ContentDisposition::parse(input, prof) {
            Err(e) if e.kind == K::NonAscii && e.offset == offset => {
                let msg = e.to_string();
                if !msg.contains("quote the value") || !msg.contains("browser profile") {
                    failures.push(format!("{source}: message {msg:?} names no way out"));
                }
            }
            other => failures.push(format!(
                "{source} [{prof:?}]: {other:?}, want NonAscii at {offset}"
            )),
        }
        let browser = ContentDisposition::parse(input, Profile::Browser);
        if browser.is_err() {
            failures.push(format!(
                "{source}: the browser profile refuses it: {browser:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// ASP.NET Core's `SetHttpFileName` (ContentDispositionHeaderValue): `filename` sanitized
/// to ASCII with `_`, `filename*` always present.
#[test]
fn aspnet_set_http_file_name() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            ".NET SetHttpFileName: File?Name.bat (ASP.NET Core benchmark)",
            "inline",
            "File?Name.bat",
            "inline; filename=\"File?Name.bat\"; filename*=UTF-8''File%3FName.bat",
        ),
        (
            ".NET SetHttpFileName: token",
            "attachment",
            "a.txt",
            "attachment; filename=a.txt; filename*=UTF-8''a.txt",
        ),
        (
            ".NET SetHttpFileName: non-ASCII becomes _",
            "attachment",
            "résumé.pdf",
            "attachment; filename=r_sum_.pdf; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf",
        ),
        (
            ".NET SetHttpFileName: one _ per UTF-16 unit",
            "attachment",
            "\u{1F600}.png",
            "attachment; filename=__.png; filename*=UTF-8''%F0%9F%98%80.png",
        ),
        (
            ".NET SetHttpFileName: quote and backslash escaped",
            "attachment",
            "a\"b\\c",
            "attachment; filename=\"a\\\"b\\\\c\"; filename*=UTF-8''a%22b%5Cc",
        ),
        (
            ".NET SetHttpFileName: already quoted keeps its quotes",
            "attachment",
            "\"a b\"",
            "attachment; filename=\"a b\"; filename*=UTF-8''%22a%20b%22",
        ),
        (
            ".NET SetHttpFileName: control character becomes _",
            "attachment",
            "a\u{7f}b",
            "attachment; filename=a_b; filename*=UTF-8''a%7Fb",
        ),
        (
            ".NET SetHttpFileName: empty name adds nothing",
            "inline",
            "",
            "inline",
        ),
    ];
    let mut failures = Vec::new();
    for &(source, kind, name, want) in cases {
        let got = DispositionBuilder::new(kind)
            .http_filename(name)
            .build()
            .unwrap();
        if got != want {
            failures.push(format!("{source}\n   got  {got}\n   want {want}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Dates (RFC 2183 §2.4-2.6 with RFC 5322 §3.3 / §4.3) and size (RFC 2183 §2.7).
#[test]
fn dates_and_size() {
    let dates: &[(&str, &str, Option<i64>)] = &[
        (
            "tc2231 attcdate",
            "Wed, 12 Feb 1997 16:29:51 -0500",
            Some(855_782_991),
        ),
        (
            "RFC 1123 / IMF-fixdate",
            "Wed, 12 Feb 1997 16:29:51 GMT",
            Some(855_764_991),
        ),
        (
            "RFC 5322 §3.3 (no weekday)",
            "12 Feb 1997 16:29:51 +0000",
            Some(855_764_991),
        ),
        (
            "RFC 5322 §3.3 (no seconds)",
            "12 Feb 1997 16:29 GMT",
            Some(855_764_940),
        ),
        (
            "RFC 5322 §3.3 (positive zone)",
            "Thu, 13 Feb 1997 02:29:51 +1000",
            Some(855_764_991),
        ),
        (
            "RFC 5322 §4.3 (2-digit year 97 → 1997)",
            "12 Feb 97 16:29:51 GMT",
            Some(855_764_991),
        ),
        (
            "RFC 5322 §4.3 (2-digit year 49 → 2049)",
            "1 Jan 49 00:00:00 GMT",
            Some(2_493_072_000),
        ),
        (
            "RFC 5322 §4.3 (3-digit year 097 → 1997)",
            "12 Feb 097 16:29:51 GMT",
            Some(855_764_991),
        ),
        (
            "RFC 5322 §4.3 (EST)",
            "Wed, 12 Feb 1997 16:29:51 EST",
            Some(855_782_991),
        ),
        (
            "RFC 5322 §4.3 (PDT)",
            "Wed, 12 Feb 1997 09:29:51 PDT",
            Some(855_764_991),
        ),
        (
            "RFC 5322 §4.3 (military zone read as -0000)",
            "Wed, 12 Feb 1997 16:29:51 A",
            Some(855_764_991),
        ),
        (
            "RFC 5322 §4.3 (UT)",
            "Wed, 12 Feb 1997 16:29:51 UT",
            Some(855_764_991),
        ),
        (
            "RFC 5322 §3.3 (leap day)",
            "29 Feb 2000 00:00:00 GMT",
            Some(951_782_400),
        ),
        (
            "RFC 5322 §3.3 (no 29 Feb in 1900)",
            "29 Feb 1900 00:00:00 GMT",
            None,
        ),
        (
            "RFC 5322 §3.3 (wrong weekday)",
            "Thu, 12 Feb 1997 16:29:51 GMT",
            None,
        ),
        ("RFC 5322 §3.3 (hour 24)", "12 Feb 1997 24:00:00 GMT", None),
        (
            "RFC 5322 §3.3 (zone minutes 60)",
            "12 Feb 1997 16:29:51 +0060",
            None,
        ),
        (
            "RFC 5322 §3.3 (unknown month)",
            "12 Foo 1997 16:29:51 GMT",
            None,
        ),
        ("RFC 5322 §3.3 (missing zone)", "12 Feb 1997 16:29:51", None),
        (
            "RFC 5322 §3.3 (trailing junk)",
            "12 Feb 1997 16:29:51 GMT x",
            None,
        ),
        (
            "RFC 5322 §3.3 (5-digit year)",
            "12 Feb 19970 16:29:51 GMT",
            None,
        ),
        ("RFC 5322 §3.3 (empty)", "", None),
    ];
    let mut failures = Vec::new();
    for &(source, date, want) in dates {
        let header = format!("attachment; creation-date=\"{date}\"; modification-date=\"{date}\"; read-date=\"{date}\"");
        let cd = ContentDisposition::parse_str(&header, Profile::Strict).expect(source);
        for got in [cd.creation_date(), cd.modification_date(), cd.read_date()] {
            let got = got.expect("present").ok().map(|d| d.unix_seconds());
            if got != want {
                failures.push(format!("{source}: {date:?} → {got:?}, want {want:?}"));
            }
        }
    }
    let sizes: &[(&str, &str, Option<Option<u64>>)] = &[
        ("RFC 2183 §2.7", "attachment; size=1024", Some(Some(1024))),
        (
            "RFC 2183 §2.7 (quoted)",
            "attachment; size=\"7\"",
            Some(Some(7)),
        ),
        (
            "RFC 2183 §2.7 (u64::MAX)",
            "attachment; size=18446744073709551615",
            Some(Some(u64::MAX)),
        ),
        (
            "RFC 2183 §2.7 (overflow is an error)",
            "attachment; size=18446744073709551616",
            Some(None),
        ),
        (
            "RFC 2183 §2.7 (not digits)",
            "attachment; size=-1",
            Some(None),
        ),
        ("RFC 2183 §2.7 (absent)", "attachment", None),
    ];
    for &(source, header, want) in sizes {
        let cd = ContentDisposition::parse_str(header, Profile::Strict).expect(source);
        let got = cd.size().map(Result::ok);
        if got != want {
            failures.push(format!("{source}: {got:?}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
