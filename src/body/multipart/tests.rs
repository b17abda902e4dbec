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

/// What `head::browser_field` reads of a disposition is what the Fetch profile's parser reads:
/// the type `form-data`, that one name as written, no filename; around the shape it takes,
/// every byte of it changed to every other byte, at name lengths around a word's.
#[test]
fn browser_fields_are_parsed_fields() {
    use crate::disposition::ContentDisposition;
    let mut read = 0;
    for len in [0, 1, 7, 8, 9, 17, 1024, 1025] {
        let template = [&b"form-data; name=\""[..], &b"a".repeat(len), b"\""].concat();
        let mut values = alloc::vec![template.clone(), template[..template.len() - 1].to_vec()];
        if len < 20 {
            for at in 0..template.len() {
                for b in 0..=255u8 {
                    let mut v = template.clone();
                    v[at] = b;
                    values.push(v);
                }
            }
        }
        for value in values {
            let Some(name) = head::browser_field(&value) else {
                continue;
            };
            let cd = ContentDisposition::parse_form_data(&value).unwrap();
            assert_eq!(cd.type_bytes(), b"form-data", "{value:?}");
            assert_eq!(cd.param_count(), 1, "{value:?}");
            let p = cd.find("name").unwrap();
            assert_eq!(p.raw_value_bytes(), [&b"\""[..], name, b"\""].concat());
            assert!(cd.filename().is_none(), "{value:?}");
            assert!(!p.is_latin1());
            read += 1;
        }
    }
    // Each printable byte but `"` in every place of the name, and the templates.
    assert!(read > 1000, "{read}");
    assert!(head::browser_field(b"Form-data; name=\"a\"").is_none());
    assert!(head::browser_field(b"form-data; name=\"a\"; filename=\"b\"").is_none());
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
                        (small.position, small.state),
                        (full.position, full.state),
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
