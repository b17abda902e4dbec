//! The byte classes of RFC 9110's field grammar that every body reader shares (chunk lines and
//! trailers, multipart headers, a `Content-Type` value): one table, one row per class.
#![forbid(unsafe_code)]

use crate::bytes::{set, set_qdtext, set_range, set_tchar};

/// SP and HTAB (`OWS`, `BWS`).
pub(super) const WS: u8 = 1;
/// `tchar` (RFC 9110 §5.6.2).
pub(super) const TOKEN: u8 = 2;
/// `qdtext` with obs-text (RFC 9110 §5.6.4): what a quoted-string holds unescaped.
pub(super) const QDTEXT: u8 = 4;
/// What may follow `\` in a quoted-pair: HTAB, SP, VCHAR, obs-text.
pub(super) const QUOTABLE: u8 = 8;
/// `field-vchar`, SP and HTAB: what a field value holds (RFC 9110 §5.5).
pub(super) const FIELD: u8 = 16;
/// RFC 2046 §5.1.1 `bchars`: what a multipart boundary is made of.
pub(super) const BCHAR: u8 = 32;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    // OWS / BWS: SP HTAB
    set(&mut t, b" \t", WS);
    // tchar: ALPHA / DIGIT and !#$%&'*+-.^_`|~
    set_tchar(&mut t, TOKEN);
    // qdtext: HTAB / SP / 0x21 / 0x23-0x5B / 0x5D-0x7E / obs-text (not `"` nor `\`)
    set_qdtext(&mut t, QDTEXT, true);
    // quoted-pair's second byte: HTAB / SP / VCHAR (0x21-0x7E) / obs-text
    set(&mut t, b"\t ", QUOTABLE);
    set_range(&mut t, 0x21, 0x7E, QUOTABLE);
    set_range(&mut t, 0x80, 0xFF, QUOTABLE);
    // field value bytes: HTAB / SP / VCHAR / obs-text
    set(&mut t, b"\t ", FIELD);
    set_range(&mut t, 0x21, 0x7E, FIELD);
    set_range(&mut t, 0x80, 0xFF, FIELD);
    // bchars: DIGIT / ALPHA / ' ( ) + _ , - . / : = ? and SP
    set_range(&mut t, b'0', b'9', BCHAR);
    set_range(&mut t, b'a', b'z', BCHAR);
    set_range(&mut t, b'A', b'Z', BCHAR);
    set(&mut t, b"'()+_,-./:=? ", BCHAR);
    t
};

/// Whether `b` is of `class`.
#[inline]
pub(super) fn is(b: u8, class: u8) -> bool {
    crate::bytes::row(&CLASS, b) & class != 0
}

/// The first index at or after `i` whose byte is not of `class`.
pub(super) fn skip(bytes: &[u8], mut i: usize, class: u8) -> usize {
    while bytes.get(i).is_some_and(|&b| is(b, class)) {
        i += 1;
    }
    i
}

/// [`skip`], eight bytes per step while they last (one table lookup and AND per byte, one
/// branch per eight): for runs long enough for that to pay, a header field's name.
pub(super) fn run(bytes: &[u8], mut i: usize, class: u8) -> usize {
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        if chunk
            .iter()
            .fold(class, |all, &b| all & crate::bytes::row(&CLASS, b))
            == 0
        {
            break;
        }
        i += 8;
    }
    skip(bytes, i, class)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `run` stops where `skip` does, at every start and every length around its words.
    #[test]
    fn runs_stop_where_skip_does() {
        let line = b"Content-Disposition : form-data\tx-y_z~!#$%&'*+.^`|AbC09:";
        for class in [WS, TOKEN, FIELD] {
            for end in 0..=line.len() {
                for start in 0..=end {
                    let bytes = &line[..end];
                    assert_eq!(run(bytes, start, class), skip(bytes, start, class));
                }
            }
        }
    }

    #[test]
    fn class_rows() {
        assert!(is(b' ', WS) && is(b'\t', WS) && !is(b'\r', WS));
        assert!(is(b'~', TOKEN) && !is(b'"', TOKEN) && !is(b';', TOKEN) && !is(b':', TOKEN));
        assert!(is(0xE4, QDTEXT) && !is(b'"', QDTEXT) && !is(b'\\', QDTEXT));
        assert!(!is(b'\r', QUOTABLE) && is(b'\\', QUOTABLE));
        assert!(is(b' ', FIELD) && is(0xE9, FIELD) && !is(0x7F, FIELD) && !is(0, FIELD));
        assert!(is(b'?', BCHAR) && is(b' ', BCHAR) && !is(b'"', BCHAR) && !is(b'@', BCHAR));
    }
}
