//! Unit tests of the reader's private steps.

use super::*;

#[test]
fn skip_data_is_decode_unseen() {
    let limits = MultipartLimits {
        max_value_bytes: 10,
        ..MultipartLimits::default()
    };
    let head = b"--b\r\nContent-Disposition: form-data; name=v\r\n\r\n";
    let mut reader = MultipartReader::new(b"b", Profile::Fetch, limits).unwrap();
    assert!(!reader.skip_data(1), "not in data yet");
    let step = reader.decode(head, false).unwrap();
    assert!(matches!(step.event, Some(MultipartEvent::Part(_))));
    assert!(
        !reader.skip_data(1),
        "the part's first bytes may be an empty part's delimiter"
    );
    // A byte that cannot begin `--b`: data, and the reader is in the data.
    let step = reader.decode(b"x", false).unwrap();
    assert_eq!(step.event, Some(MultipartEvent::Data(b"x")));
    assert!(reader.in_data());
    // Over the value limit: refused whole, and decode finds the error where it always does.
    assert!(!reader.skip_data(10));
    assert!(reader.skip_data(9));
    let err = reader.decode(b"x\r\n--b--", true).unwrap_err();
    let mut whole = MultipartReader::new(b"b", Profile::Fetch, limits).unwrap();
    let body = [&head[..], &[b'x'; 11], b"\r\n--b--"].concat();
    let mut at = 0;
    let want = loop {
        match whole.decode(&body[at..], true) {
            Ok(step) => at += step.consumed,
            Err(e) => break e,
        }
    };
    assert_eq!(err, want);
    assert_eq!(
        err.kind,
        MultipartErrorKind::Limit(MultipartLimit::ValueBytes)
    );
}

#[test]
fn fields() {
    let check = |line: &[u8], profile| check_field(line, profile, false);
    assert_eq!(check(b"A: b", Profile::Strict), Ok(1));
    assert_eq!(check(b" A : b", Profile::Fetch), Ok(3));
    assert_eq!(check(b"A : b", Profile::Strict), Err(1));
    assert_eq!(check(b"A: b\0", Profile::Strict), Err(4));
    assert_eq!(check(b"A: b\0", Profile::Fetch), Err(4));
    assert_eq!(check(b"A: b\0", Profile::Lenient), Ok(1));
    assert_eq!(check(b"A: \x01b", Profile::Fetch), Ok(1));
    assert_eq!(check(b"no colon", Profile::Fetch), Err(8));
    assert_eq!(check(b": v", Profile::Lenient), Err(0));
    assert_eq!(check(b"a\"b: v", Profile::Lenient), Err(1));
    // The name's errors where the forward reading stops elsewhere: whitespace inside it, a
    // colon-less line with a token, a byte past the whitespace after it.
    assert_eq!(check(b" a b: v", Profile::Fetch), Err(2));
    assert_eq!(check(b"ab", Profile::Lenient), Err(2));
    assert_eq!(check(b"  : v", Profile::Fetch), Err(2));
    assert_eq!(check(b"a \x01: v", Profile::Fetch), Err(1));
    assert_eq!(check(b"a:b:c", Profile::Fetch), Ok(1));
    // A line the search for its end found no NUL in reads the same without the NUL check.
    for line in [
        &b"A: b"[..],
        b" A : b",
        b"A : b",
        b"no colon",
        b": v",
        b"A: \x01b",
        b"a:b:c",
    ] {
        for profile in Profile::ALL {
            assert_eq!(
                check_field(line, profile, true),
                check(line, profile),
                "{profile} {line:?}"
            );
        }
    }
}

/// The word-wise compare of a field's name is `eq_ignore_ascii_case` on tokens, at every
/// length around a word's.
#[test]
fn field_names() {
    let names: [&[u8]; 3] = [
        b"content-disposition",
        b"content-type",
        b"content-transfer-encoding",
    ];
    let mut tried = 0;
    for lower in names {
        for len in 1..=lower.len() {
            let lower = &lower[..len];
            // Each byte in both cases, and each byte one off (a near miss).
            for at in 0..len {
                for swap in [0x20u8, 0x01, 0x21] {
                    let mut name = lower.to_vec();
                    name[at] ^= swap;
                    if !name
                        .iter()
                        .all(|&b| crate::body::grammar::is(b, crate::body::grammar::TOKEN))
                    {
                        continue;
                    }
                    let want = name.eq_ignore_ascii_case(lower);
                    assert_eq!(head::is_named(&name, lower), want, "{name:?} {lower:?}");
                    tried += 1;
                }
            }
            assert!(head::is_named(lower, lower));
            assert!(!head::is_named(&lower[1..], lower));
        }
    }
    assert!(tried > 300, "{tried}");
}

/// What `head::browser_disposition` reads of a disposition is what the Fetch profile's parser
/// reads: the type `form-data`, the name as written, no filename (a value) or the filename as
/// written, its own effective name (a file); and what the header block makes of it, the name
/// and filename against their limits, is what it makes of the parser's reading. Around the
/// two shapes, every byte changed to every other byte, at name and filename lengths around a
/// word's, the limits' and the parser's longest header.
#[test]
fn browser_dispositions_are_parsed_dispositions() {
    use crate::disposition::{ContentDisposition, MAX_HEADER_LEN};
    use alloc::borrow::Cow;
    let value_shape = |name: &[u8]| [&b"form-data; name=\""[..], name, b"\""].concat();
    let file_shape = |name: &[u8], filename: &[u8]| {
        let head = [&b"form-data; name=\""[..], name, b"\"; filename=\""].concat();
        [&head[..], filename, b"\""].concat()
    };
    let a = |n: usize| b"a".repeat(n);
    // (template, every byte changed)
    let mut templates = alloc::vec::Vec::new();
    for len in [0, 1, 7, 8, 9, 17, 1024, 1025] {
        templates.push((value_shape(&a(len)), len < 20));
    }
    let pairs = [
        (0, 0),
        (1, 1),
        (8, 9),
        (9, 8),
        (1, 17),
        (1024, 1),
        (1025, 1),
        (1, 1023),
        (1, 1024),
        (1, 1025),
        (1, 2048),
    ];
    for (n, f) in pairs {
        templates.push((file_shape(&a(n), &b"b".repeat(f)), n < 20 && f < 20));
    }
    // A filename with characters of every UTF-8 length.
    templates.push((
        file_shape(b"f", "a\u{e9}\u{20ac}\u{1f600}b".as_bytes()),
        true,
    ));
    // Around the parser's longest header.
    let room = MAX_HEADER_LEN - file_shape(b"f", b"").len();
    for f in [room - 1, room, room + 1] {
        templates.push((file_shape(b"f", &b"x".repeat(f)), false));
    }
    let limits = [
        MultipartLimits::default(),
        MultipartLimits {
            max_name_bytes: 8,
            max_filename_bytes: 8,
            ..MultipartLimits::default()
        },
        MultipartLimits {
            max_name_bytes: 0,
            max_filename_bytes: 1024,
            ..MultipartLimits::default()
        },
        MultipartLimits {
            max_name_bytes: 1024,
            max_filename_bytes: 0,
            ..MultipartLimits::default()
        },
    ];
    let mut read = [0; 2];
    let mut plain = [0; 2];
    for (template, every) in templates {
        let mut values = alloc::vec![template.clone(), template[..template.len() - 1].to_vec()];
        if every {
            for at in 0..template.len() {
                for b in 0..=255u8 {
                    let mut v = template.clone();
                    v[at] = b;
                    values.push(v);
                }
            }
        }
        for value in values {
            let Some((name, filename)) = head::browser_disposition(&value) else {
                continue;
            };
            let cd = ContentDisposition::parse_form_data(&value).unwrap();
            assert_eq!(cd.type_bytes(), b"form-data", "{value:?}");
            let count = 1 + usize::from(filename.is_some());
            assert_eq!(cd.param_count(), count, "{value:?}");
            let p = cd.find("name").unwrap();
            assert_eq!(p.raw_value_bytes(), [&b"\""[..], name, b"\""].concat());
            assert!(!p.is_latin1());
            match filename {
                None => assert!(cd.filename().is_none(), "{value:?}"),
                Some(f) => {
                    let p = cd.find("filename").unwrap();
                    assert_eq!(p.raw_value_bytes(), [&b"\""[..], f, b"\""].concat());
                    let value = cd.filename();
                    assert!(
                        matches!(value, Some(Cow::Borrowed(v)) if v.as_bytes() == f),
                        "{value:?}"
                    );
                }
            }
            for limits in &limits {
                assert_eq!(
                    head::browser_named(&value, name, filename, limits),
                    head::named(&cd, &value, 0, Profile::Fetch, limits),
                    "{value:?}"
                );
            }
            read[count - 1] += 1;
            // Strict and Lenient read the plain ones the short way too: as their parsers do.
            for profile in [Profile::Fetch, Profile::Strict, Profile::Lenient] {
                for limits in &limits {
                    let Some(short) = head::short_named(&value, &value, profile, limits) else {
                        assert_ne!(profile, Profile::Fetch, "{value:?}");
                        continue;
                    };
                    let cd = part::parse_disposition(&value, profile).unwrap();
                    let parsed = head::named(&cd, &value, 0, profile, limits);
                    assert_eq!(short, parsed, "{profile:?} {value:?}");
                    plain[count - 1] += usize::from(profile == Profile::Lenient);
                }
            }
        }
    }
    // Each printable byte but `"` in every place of the name (and each byte but `"` and the
    // controls in the filename's), and the templates.
    assert!(read[0] > 1000 && read[1] > 5000, "{read:?}");
    // (Strict, Lenient) All of them but names with a `\` and filenames with non-ASCII bytes
    // or a `\`, under each of the four limits.
    assert!(plain[0] > 4 * 1000 && plain[1] > 4 * 4000, "{plain:?}");
    // Other shapes are the parser's.
    for value in [
        &b"Form-data; name=\"a\""[..],
        b"form-data; name=a",
        b"form-data; filename=\"b\"; name=\"a\"",
        b"form-data; name=\"a\"; filename=\"b\"; size=1",
        b"form-data; name=\"a\"; filename*=UTF-8''b",
        b"form-data; name=\"a\"; filename=\"b\"; filename*=UTF-8''c",
        b"form-data; name=\"a\"; Filename=\"b\"",
        b"form-data; name=\"a\"; filename=\"b\tc\"",
        b"form-data; name=\"a\"; filename=\"\xe9\"",
        b"form-data; name=\"a\";filename=\"b\"",
    ] {
        assert!(head::browser_disposition(value).is_none(), "{value:?}");
    }
}

/// A part's filename and name read from what the header block kept are what the parser reads
/// of its disposition again, in every profile: the browser's shapes, and those the grammar
/// reads (other orders, `filename*`, quoted-pairs, ISO-8859-1 bytes, folds).
#[test]
fn kept_filenames_are_parsed_filenames() {
    use alloc::borrow::Cow;
    use alloc::string::String;
    let dispositions: [&[u8]; 12] = [
        b"form-data; name=\"a\"; filename=\"b.txt\"",
        b"form-data; name=\"a\"; filename=\"\"",
        b"form-data; name=\"a\"; filename=\"C:\\x\\caf\xc3\xa9.txt\"",
        b"form-data; filename=\"b\"; name=\"a\"",
        b"form-data; name=a; filename=b; filename=c",
        b"form-data; name=\"a\"; filename*=UTF-8''%e2%82%ac.txt",
        b"form-data; name=\"a\"; filename=\"x\"; filename*=UTF-8''y",
        b"form-data; name=\"a\"; filename*=UTF-8''y; filename=\"x\"",
        b"form-data; name=\"a\"; filename=\"q\\\"d\"",
        b"form-data; name=\"a\"; filename=\"caf\xe9\"",
        b"form-data; name=\"a\";\r\n filename=\"b\r\n c\"",
        b"form-data; name=\"a\"; filename=\"%22 =?utf-8?q?x?=\"",
    ];
    let mut compared = 0;
    for disposition in dispositions {
        let body = [
            &b"--b\r\nContent-Disposition: "[..],
            disposition,
            b"\r\n\r\n",
        ]
        .concat();
        for profile in Profile::ALL {
            let mut reader = MultipartReader::new(b"b", profile, Default::default()).unwrap();
            let Ok(Some(MultipartEvent::Part(part))) = reader.decode(&body, false).map(|s| s.event)
            else {
                continue;
            };
            let d = part.disposition().unwrap();
            let want = d.filename().map(|value| {
                let raw = d
                    .find("filename")
                    .or_else(|| d.find("filename*"))
                    .map_or(&[][..], |p| part::unquote(p.raw_value_bytes()));
                let value = if profile == Profile::Lenient {
                    Cow::Owned(String::from_utf8_lossy(&unfold(value.as_bytes())).into_owned())
                } else {
                    value
                };
                Filename::new(value, raw)
            });
            assert!(want.is_some(), "{profile} {disposition:?}");
            assert_eq!(part.filename(), want, "{profile} {disposition:?}");
            compared += 1;
        }
    }
    assert!(compared > 25, "{compared}");
}

#[test]
fn boundaries() {
    let ok = |b: &[u8], p| check_boundary(b, p, 70).map_err(|e| (e.kind, e.offset));
    assert_eq!(ok(b"simple boundary", Profile::Strict), Ok(()));
    assert_eq!(
        ok(b"a@b", Profile::Strict),
        Err((MultipartErrorKind::InvalidBoundary, 1))
    );
    assert_eq!(ok(b"a@b", Profile::Fetch), Ok(()));
    assert_eq!(
        ok(b"a\rb", Profile::Lenient),
        Err((MultipartErrorKind::InvalidBoundary, 1))
    );
}

/// `small_step` answers what `steps` answers: from every point of bodies that reach every
/// state (a header block, data, a held delimiter prefix, the close delimiter), for every short
/// read that follows, the same step, position and state, and the same outcome for the rest
/// of the body.
#[test]
fn small_step_is_steps() {
    let bodies: [&[u8]; 5] = [
        b"--b\r\nContent-Disposition: form-data; name=a\r\nX: y\r\n\r\n12\r\n-\r\n--x\r\r\n--b\r\n\
          Content-Disposition: form-data; name=f; filename=z\r\n\r\n\r\n--b--\r\n",
        b"--b\r\nContent-Disposition: form-data; name=p1\r\n\r\n--b\r\n\
          Content-Disposition: form-data; name=p2\r\n\r\n--b--",
        b"--b\r\nContent-Disposition: form-data; name=v\r\n\r\n0123456789abc\r\n--b--",
        // (Lenient) Folded fields, and a body whose lines end in LF.
        b"--b\r\nContent-Disposition: form-data;\r\n name=a\r\nX: y\r\n\tz\r\n\r\n1\r\n--b--",
        b"--b\nContent-Disposition: form-data; name=a\n\n12\n-\r\n--x\n--b\n\
          Content-Disposition: form-data; name=f\n\n--b--\n",
    ];
    let limits = MultipartLimits {
        max_value_bytes: 11,
        ..MultipartLimits::default()
    };
    let mut compared = 0;
    for body in bodies {
        for profile in Profile::ALL {
            // The reader fed `body[..cut]` up to where it wants more, for every cut: every
            // state, with what it holds back, is met.
            for cut in 0..=body.len() {
                let mut reader = MultipartReader::new(b"b", profile, limits).unwrap();
                let mut at = 0;
                let fed = loop {
                    match reader.decode(&body[at..cut], false) {
                        Ok(step) => {
                            at += step.consumed;
                            if step.event.is_none() {
                                break true;
                            }
                        }
                        Err(_) => break false,
                    }
                };
                if !fed {
                    continue;
                }
                // What it held, then up to ten more bytes.
                for len in 0..=10.min(body.len() - cut) {
                    let input = &body[at..cut + len];
                    let mut small = reader.clone();
                    let Some(step) = small.small_step(input) else {
                        continue;
                    };
                    let mut full = reader.clone();
                    let want = full.steps(input, false);
                    assert_eq!(Ok(step), want, "{profile} cut {cut}, {len} more");
                    assert_eq!(
                        (small.position, small.state, small.block),
                        (full.position, full.state, full.block),
                        "{profile} cut {cut}, {len} more"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 300, "{compared}");
}

/// (Lenient) The first delimiter line's ending decides: after `--b` and LF, the delimiter is
/// `LF--b`, and `skip_data` leaves the data to `decode` (a caller's search may look for CR).
#[test]
fn lf_bodies_switch_the_delimiter() {
    let mut reader = MultipartReader::new(b"b", Profile::Lenient, Default::default()).unwrap();
    assert_eq!(reader.delimiter(), b"\r\n--b");
    let step = reader
        .decode(b"--b\nContent-Disposition: form-data; name=f\n\nPK", false)
        .unwrap();
    assert!(matches!(step.event, Some(MultipartEvent::Part(_))));
    assert_eq!(reader.delimiter(), b"\n--b");
    let step = reader.decode(b"PK", false).unwrap();
    assert_eq!(step.event, Some(MultipartEvent::Data(b"PK")));
    assert!(reader.in_data());
    assert!(!reader.skip_data(1));
    assert_eq!(
        reader.decode(b"\n--b--\n", true).unwrap().event,
        Some(MultipartEvent::PartEnd)
    );
    // Fetch and Strict: LF after the first boundary is no line break.
    for profile in [Profile::Fetch, Profile::Strict] {
        let mut reader = MultipartReader::new(b"b", profile, Default::default()).unwrap();
        let err = reader.decode(b"--b\n", true).unwrap_err();
        assert_eq!(
            (err.kind, err.offset),
            (MultipartErrorKind::InvalidDelimiter, 3)
        );
    }
}

/// `body` fed to a new reader `step` bytes more at a time (all of it: `body.len()`), the
/// unconsumed bytes fed again, up to its error: the reader and the error.
fn error_of(
    profile: Profile,
    limits: MultipartLimits,
    body: &[u8],
    step: usize,
) -> (MultipartReader, MultipartError) {
    let mut reader = MultipartReader::new(b"b", profile, limits).unwrap();
    let (mut at, mut end) = (0, step.min(body.len()));
    loop {
        let eof = end == body.len();
        match reader.decode(&body[at..end], eof) {
            Ok(s) => {
                at += s.consumed;
                if s.event.is_none() {
                    assert!(!eof, "{body:?} ends without an error");
                    end = (end + step).min(body.len());
                }
            }
            Err(e) => return (reader, e),
        }
    }
}

/// The part each error is in, where the step that finds it and the state it moves to could
/// tell otherwise: whole or on 1-byte reads, the same kind, offset and part.
#[test]
fn errors_are_in_their_parts() {
    use MultipartErrorKind as K;
    use MultipartLimit as L;
    let cd = "Content-Disposition: form-data; name=";
    let a = format!("--b\r\n{cd}a\r\n\r\n");
    let limits = MultipartLimits::default();
    let with = |f: fn(&mut MultipartLimits)| {
        let mut l = limits;
        f(&mut l);
        l
    };
    // The error's kind, offset and part.
    type Want = (K, u64, Option<usize>);
    let cases: [(Profile, MultipartLimits, String, Want); 11] = [
        // One part too many: the part that would be it.
        (
            Profile::Fetch,
            with(|l| l.max_parts = 1),
            format!("{a}1\r\n--b\r\n{cd}c\r\n\r\n--b--"),
            (K::Limit(L::Parts), 53, Some(1)),
        ),
        // The body limit in the line break that starts a header block: the new part's.
        (
            Profile::Fetch,
            with(|l| l.max_body_bytes = 4),
            a.clone(),
            (K::Limit(L::BodyBytes), 4, Some(0)),
        ),
        // The body limit in the delimiter after a part's data, and in an empty part's: the
        // delimiter is no part's.
        (
            Profile::Fetch,
            with(|l| l.max_body_bytes = 52),
            format!("{a}x\r\n--b--"),
            (K::Limit(L::BodyBytes), 52, None),
        ),
        (
            Profile::Fetch,
            with(|l| l.max_body_bytes = 50),
            format!("{a}--b--"),
            (K::Limit(L::BodyBytes), 50, None),
        ),
        // A header block's own errors: its part's.
        (
            Profile::Fetch,
            limits,
            "--b\r\nX: y\n\r\n".into(),
            (K::BareLf, 9, Some(0)),
        ),
        // The part a complete block makes (`part`): its errors are its own, not the part
        // before it.
        (
            Profile::Fetch,
            limits,
            format!("{a}1\r\n--b\r\nX: y\r\n\r\n--b--"),
            (K::MissingDisposition, 55, Some(1)),
        ),
        (
            Profile::Strict,
            limits,
            format!("{a}1\r\n--b\r\n{cd}c\r\n{cd}d\r\n\r\n--b--"),
            (K::DuplicateHeader, 95, Some(1)),
        ),
        (
            Profile::Fetch,
            with(|l| l.max_files = 0),
            format!("--b\r\n{cd}f; filename=x\r\n\r\n--b--"),
            (K::Limit(L::Files), 5, Some(0)),
        ),
        (
            Profile::Fetch,
            with(|l| l.max_fields = 1),
            format!("{a}1\r\n--b\r\n{cd}c\r\n\r\n--b--"),
            (K::Limit(L::Fields), 55, Some(1)),
        ),
        // A part's data: its part's.
        (
            Profile::Fetch,
            with(|l| l.max_value_bytes = 1),
            format!("{a}12\r\n--b--"),
            (K::Limit(L::ValueBytes), 48, Some(0)),
        ),
        // After the close delimiter: no part's.
        (
            Profile::Strict,
            limits,
            format!("{a}1\r\n--b--x"),
            (K::AfterEnd, 55, None),
        ),
    ];
    for (profile, limits, body, want) in cases {
        let body = body.as_bytes();
        for step in [body.len(), 1] {
            let (mut reader, err) = error_of(profile, limits, body, step);
            let context = format!(
                "{profile} {:?}, {step}-byte reads",
                String::from_utf8_lossy(body)
            );
            assert_eq!((err.kind, err.offset, err.part), want, "{context}");
            if err.part.is_some_and(|p| p == reader.parts()) && !reader.is_done() {
                // In a part not yet begun (its header block): the reader stays in the block,
                // outside any part's data.
                assert!(!reader.in_data(), "{context}");
                assert!(!reader.limit_part(1), "{context}");
            }
            if matches!(
                err.kind,
                K::MissingDisposition | K::Limit(L::Files | L::Fields)
            ) {
                // The block fed again (from the reader's position: the steps before the error
                // consumed what they read): the same error again.
                let at = usize::try_from(reader.position()).unwrap();
                let again = reader.decode(&body[at..], true).unwrap_err();
                assert_eq!(again, err, "{context}");
            }
        }
    }
}
