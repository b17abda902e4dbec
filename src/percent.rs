//! Percent-encoding primitives shared by the parsers: hex digit values and uppercase hex output.
//!
//! The per-context escape tables (query, path, header ext-values) live next to the parser that
//! owns the context; this module holds only what all of them share.
#![forbid(unsafe_code)]

/// Uppercase hex digits, as RFC 3986 §2.1 recommends for producers.
///
/// ```
/// assert_eq!(reqparse::percent::HEX_UPPER[0xA], b'A');
/// ```
pub const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// 0xFF marks a byte that is not a hex digit; anything else is the digit's value.
const HEX_VALUE: [u8; 256] = {
    let mut t = [0xFF_u8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// The value of one ASCII hex digit, or `None`.
///
/// ```
/// use reqparse::percent::hex_value;
/// assert_eq!(hex_value(b'f'), Some(15));
/// assert_eq!(hex_value(b'G'), None);
/// ```
#[inline]
pub const fn hex_value(b: u8) -> Option<u8> {
    let v = HEX_VALUE[b as usize];
    if v == 0xFF {
        None
    } else {
        Some(v)
    }
}

/// Decodes the escape at the start of `bytes` if it is `%` followed by two hex digits.
///
/// ```
/// use reqparse::percent::escape_at;
/// assert_eq!(escape_at(b"%2Fx"), Some(b'/'));
/// assert_eq!(escape_at(b"%2"), None);
/// assert_eq!(escape_at(b"%zz"), None);
/// ```
#[inline]
pub fn escape_at(bytes: &[u8]) -> Option<u8> {
    match bytes {
        [b'%', h, l, ..] => match (hex_value(*h), hex_value(*l)) {
            (Some(h), Some(l)) => Some(h << 4 | l),
            _ => None,
        },
        _ => None,
    }
}

/// Writes `%XX` (uppercase) for `b` into the first three bytes of `out`.
///
/// ```
/// let mut out = [0u8; 3];
/// reqparse::percent::write_escape(b' ', &mut out);
/// assert_eq!(&out, b"%20");
/// ```
#[inline]
pub fn write_escape(b: u8, out: &mut [u8; 3]) {
    *out = [
        b'%',
        HEX_UPPER[(b >> 4) as usize],
        HEX_UPPER[(b & 0xF) as usize],
    ];
}
