//! The boundary of a `multipart/form-data` body, read from its `Content-Type` header value
//! (RFC 9110 §8.3.1 `media-type`, RFC 7578 §4.1 and RFC 2046 §5.1.1 `boundary`).

use super::error::{MultipartError, MultipartErrorKind, MultipartLimit};
use super::profile::Profile;
use crate::body::grammar::{is, skip, BCHAR, QDTEXT, TOKEN as TCHAR, WS};
use crate::bytes::slice;

/// The boundary of a `multipart/form-data` body, from its `Content-Type` header value,
/// borrowed from it (unquoted): what [`MultipartReader::new`](super::MultipartReader::new)
/// takes. The media type is compared ignoring ASCII case, parameters may come in any order
/// and the boundary's value may be a token or a quoted-string. Refused, with the offset into
/// the header value: another media type ([`NotMultipart`](MultipartErrorKind::NotMultipart)),
/// no boundary or two of them ([`MissingBoundary`](MultipartErrorKind::MissingBoundary),
/// [`InvalidBoundary`](MultipartErrorKind::InvalidBoundary): two readers could pick different
/// ones), a quoted boundary with a `\` (no RFC 2046 `bchars` needs one), and a value that is not
/// a media type with parameters ([`InvalidContentType`](MultipartErrorKind::InvalidContentType)).
/// The boundary's own characters are the reader's to check.
///
/// ```
/// use reqparse::body::multipart::{boundary, MultipartErrorKind};
///
/// let ct = b"multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW";
/// assert_eq!(boundary(ct)?, b"----WebKitFormBoundary7MA4YWxkTrZu0gW");
/// assert_eq!(boundary(b"Multipart/Form-Data; charset=utf-8; boundary=\"a b\"")?, b"a b");
/// let err = boundary(b"application/json").unwrap_err();
/// assert_eq!((err.kind, err.offset), (MultipartErrorKind::NotMultipart, 0));
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
pub fn boundary(content_type: &[u8]) -> Result<&[u8], MultipartError> {
    let v = content_type;
    let err = |kind, at: usize| MultipartError {
        kind,
        offset: at as u64,
        part: None,
    };
    let start = skip(v, 0, WS);
    let slash = skip(v, start, TCHAR);
    let sub_end = skip(v, slash + 1, TCHAR);
    let is_form_data = v.get(slash) == Some(&b'/')
        && slice(v, start..slash).eq_ignore_ascii_case(b"multipart")
        && v.get(slash + 1..sub_end)
            .is_some_and(|s| s.eq_ignore_ascii_case(b"form-data"));
    if !is_form_data {
        return Err(err(MultipartErrorKind::NotMultipart, start));
    }
    let mut found: Option<(usize, &[u8])> = None;
    let mut i = sub_end;
    // parameters = *( OWS ";" OWS [ parameter ] ), parameter = name "=" value
    loop {
        let at = skip(v, i, WS);
        match v.get(at) {
            None => break,
            Some(b';') => {}
            Some(_) => return Err(err(MultipartErrorKind::InvalidContentType, at)),
        }
        let name = skip(v, at + 1, WS);
        if matches!(v.get(name), None | Some(b';')) {
            i = name;
            continue;
        }
        let eq = skip(v, name, TCHAR);
        if eq == name || v.get(eq) != Some(&b'=') {
            return Err(err(MultipartErrorKind::InvalidContentType, eq));
        }
        let is_boundary = slice(v, name..eq).eq_ignore_ascii_case(b"boundary");
        let (value, end) =
            parameter_value(v, eq + 1, is_boundary).map_err(|(kind, at)| err(kind, at))?;
        if is_boundary {
            if found.is_some() {
                return Err(err(MultipartErrorKind::InvalidBoundary, name));
            }
            found = Some((name, value));
        }
        i = end;
    }
    match found {
        Some((_, value)) => Ok(value),
        None => Err(err(MultipartErrorKind::MissingBoundary, v.len())),
    }
}

/// The token or quoted-string at `v[at..]` (unquoted) and where it ends. A quoted boundary
/// may not hold a quoted-pair: unescaping it could not be borrowed, and no boundary needs one.
fn parameter_value(
    v: &[u8],
    at: usize,
    is_boundary: bool,
) -> Result<(&[u8], usize), (MultipartErrorKind, usize)> {
    if v.get(at) != Some(&b'"') {
        let end = skip(v, at, TCHAR);
        if end == at {
            return Err((MultipartErrorKind::InvalidContentType, at));
        }
        return Ok((slice(v, at..end), end));
    }
    let mut i = at + 1;
    loop {
        match v.get(i) {
            Some(b'"') => return Ok((slice(v, at + 1..i), i + 1)),
            Some(b'\\') if is_boundary => return Err((MultipartErrorKind::InvalidBoundary, i)),
            Some(b'\\') if v.get(i + 1).is_some_and(|&b| b != b'\r' && b != b'\n') => i += 2,
            Some(&b) if is(b, QDTEXT) => i += 1,
            _ => return Err((MultipartErrorKind::InvalidContentType, i)),
        }
    }
}

/// A boundary the profile accepts, within the limit.
pub(super) fn check_boundary(
    boundary: &[u8],
    profile: Profile,
    max: usize,
) -> Result<(), MultipartError> {
    let invalid = |at: usize| MultipartError {
        kind: MultipartErrorKind::InvalidBoundary,
        offset: at as u64,
        part: None,
    };
    if boundary.is_empty() {
        return Err(invalid(0));
    }
    if boundary.len() > max {
        return Err(MultipartError {
            kind: MultipartErrorKind::Limit(MultipartLimit::BoundaryBytes),
            offset: max as u64,
            part: None,
        });
    }
    let bad = match profile {
        Profile::Strict => boundary
            .iter()
            .position(|&b| !is(b, BCHAR))
            .or_else(|| (boundary.last() == Some(&b' ')).then_some(boundary.len() - 1)),
        Profile::Fetch | Profile::Lenient => memchr::memchr2(b'\r', b'\n', boundary),
    };
    match bad {
        Some(at) => Err(invalid(at)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_at(v: &[u8]) -> (MultipartErrorKind, u64) {
        let e = boundary(v).unwrap_err();
        (e.kind, e.offset)
    }

    #[test]
    fn boundaries() {
        assert_eq!(boundary(b"multipart/form-data;boundary=x").unwrap(), b"x");
        assert_eq!(
            boundary(b"  multipart/form-data ; boundary=x ; ").unwrap(),
            b"x"
        );
        assert_eq!(
            boundary(b"multipart/form-data; a=\"q\\\"d\"; BOUNDARY=\"y z\"").unwrap(),
            b"y z"
        );
        assert_eq!(boundary(b"multipart/form-data;;boundary=x").unwrap(), b"x");
    }

    #[test]
    fn refusals() {
        use MultipartErrorKind as K;
        let cases: [(&[u8], K, u64); 9] = [
            (b"multipart/mixed; boundary=x", K::NotMultipart, 0),
            (b"multipart/form-data2; boundary=x", K::NotMultipart, 0),
            (b"multipart/form-data", K::MissingBoundary, 19),
            (
                b"multipart/form-data; boundary=a; boundary=b",
                K::InvalidBoundary,
                33,
            ),
            (
                b"multipart/form-data; boundary=\"a\\b\"",
                K::InvalidBoundary,
                32,
            ),
            (
                b"multipart/form-data; boundary = x",
                K::InvalidContentType,
                29,
            ),
            (
                b"multipart/form-data; boundary=\"x",
                K::InvalidContentType,
                32,
            ),
            (b"multipart/form-data x", K::InvalidContentType, 20),
            (b"multipart/form-data; boundary=", K::InvalidContentType, 30),
        ];
        for (value, kind, offset) in cases {
            assert_eq!(kind_at(value), (kind, offset), "{value:?}");
        }
    }
}
