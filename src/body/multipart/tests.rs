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
    assert_eq!(check_field(b"A: b", Profile::Strict), Ok(()));
    assert_eq!(check_field(b" A : b", Profile::Fetch), Ok(()));
    assert_eq!(check_field(b"A : b", Profile::Strict), Err(1));
    assert_eq!(check_field(b"A: b\0", Profile::Strict), Err(4));
    assert_eq!(check_field(b"A: b\0", Profile::Fetch), Err(4));
    assert_eq!(check_field(b"A: b\0", Profile::Lenient), Ok(()));
    assert_eq!(check_field(b"A: \x01b", Profile::Fetch), Ok(()));
    assert_eq!(check_field(b"no colon", Profile::Fetch), Err(8));
    assert_eq!(check_field(b": v", Profile::Lenient), Err(0));
    assert_eq!(check_field(b"a\"b: v", Profile::Lenient), Err(1));
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
