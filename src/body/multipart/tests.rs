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
    assert_eq!(check_field(b"A: b\0", Profile::Fetch), Ok(()));
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
