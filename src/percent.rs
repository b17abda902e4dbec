//! The one percent-encoding toolbox of the crate: hex digits, escape lookup, composable encode
//! sets, and percent-decoding.
//!
//! Every module that writes `%XX` writes it through [`encode_into`] (or [`escape`]), so a byte is
//! escaped one way everywhere: uppercase hex, as RFC 3986 §2.1 recommends for producers. What a
//! context keeps unescaped is an [`EncodeSet`], built from the sets below the way
//! `percent_encoding` builds its `AsciiSet`s. Non-ASCII bytes are always escaped, so encoded
//! output is ASCII.
//!
//! ```
//! use reqparse::percent::{encode_into, encoded_len, UNRESERVED};
//!
//! let mut out = String::new();
//! encode_into("a b/é", &UNRESERVED, &mut out);
//! assert_eq!(out, "a%20b%2F%C3%A9");
//! assert_eq!(encoded_len(b"a b/\xC3\xA9", &UNRESERVED), Some(out.len()));
//! ```
#![forbid(unsafe_code)]

use alloc::string::String;
use alloc::vec::Vec;

/// Uppercase hex digits, as RFC 3986 §2.1 recommends for producers.
///
/// ```
/// assert_eq!(reqparse::percent::HEX_UPPER[0xA], b'A');
/// ```
pub const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// 0xFF marks a byte that is not a hex digit; anything else is the digit's value.
#[allow(clippy::indexing_slicing)] // const-evaluated: out of bounds is a compile error
const HEX_VALUE: [u8; 256] = {
    let mut t = [0xFF_u8; 256];
    let mut i = 0;
    while i < 10 {
        // `0`-`9`
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        // `a`-`f` and `A`-`F`
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
    let v = crate::bytes::row(&HEX_VALUE, b);
    if v == 0xFF {
        None
    } else {
        Some(v)
    }
}

/// The byte two hex digits spell (`h` the high one), or `None` if either is no hex digit.
///
/// ```
/// use reqparse::percent::hex_byte;
/// assert_eq!(hex_byte(b'4', b'1'), Some(b'A'));
/// assert_eq!(hex_byte(b'4', b'g'), None);
/// ```
#[inline]
pub const fn hex_byte(h: u8, l: u8) -> Option<u8> {
    match (hex_value(h), hex_value(l)) {
        (Some(h), Some(l)) => Some(h << 4 | l),
        _ => None,
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
        [b'%', h, l, ..] => hex_byte(*h, *l),
        _ => None,
    }
}

/// How many valid `%XX` escapes follow each other at the start of `bytes` (they span three
/// times as many bytes).
///
/// ```
/// use reqparse::percent::escape_run_len;
/// assert_eq!(escape_run_len(b"%C3%A9%zz"), 2);
/// assert_eq!(escape_run_len(b"a%20"), 0);
/// ```
#[inline]
pub fn escape_run_len(bytes: &[u8]) -> usize {
    let mut n = 0;
    while bytes.get(3 * n..).and_then(escape_at).is_some() {
        n += 1;
    }
    n
}

/// `%00%01...%FF`: the escape of byte `b` is `ESCAPES[3 * b..3 * b + 3]`, so writing one is a
/// single 3-byte copy (measured cheaper than three `push`es).
const ESCAPES: &str = {
    #[allow(clippy::indexing_slicing)] // const-evaluated: out of bounds is a compile error
    const fn table() -> [u8; 768] {
        let mut t = [0u8; 768];
        let mut b = 0;
        while b < 256 {
            t[3 * b] = b'%';
            t[3 * b + 1] = HEX_UPPER[b >> 4];
            t[3 * b + 2] = HEX_UPPER[b & 0xF];
            b += 1;
        }
        t
    }
    const BYTES: [u8; 768] = table();
    // Evaluated at compile time: the table is ASCII, so this never fails at run time.
    match core::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("escape table is ASCII"),
    }
};

/// The escape of `b`: `%` and two uppercase hex digits.
///
/// ```
/// assert_eq!(reqparse::percent::escape(b' '), "%20");
/// assert_eq!(reqparse::percent::escape(0xE9), "%E9");
/// ```
#[inline]
pub fn escape(b: u8) -> &'static str {
    let i = 3 * usize::from(b);
    // 3 * 255 + 3 == 768 == ESCAPES.len(): always in bounds, always on ASCII boundaries.
    crate::bytes::str_slice(ESCAPES, i..i + 3)
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
    // The table's three bytes: one copy, no lookups to check.
    out.copy_from_slice(escape(b).as_bytes());
}

/// The ASCII bytes a context writes as they are; every other byte is escaped.
///
/// Sets compose in `const` context, like `percent_encoding::AsciiSet`:
///
/// ```
/// use reqparse::percent::{encode_into, EncodeSet, UNRESERVED};
///
/// // RFC 3986 unreserved plus `/`.
/// const SEGMENTS: EncodeSet = UNRESERVED.add(b"/");
/// let mut out = String::new();
/// encode_into("a/b c", &SEGMENTS, &mut out);
/// assert_eq!(out, "a/b%20c");
/// assert!(SEGMENTS.keeps(b'/') && !UNRESERVED.keeps(b'/'));
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct EncodeSet {
    /// One lookup per byte on the hot path; non-ASCII entries are always `false`.
    keep: [bool; 256],
    /// A valid `%XX` already in the input is copied as written instead of escaping its `%`.
    keep_escapes: bool,
}

impl core::fmt::Debug for EncodeSet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let kept: String = (0u8..0x80)
            .filter(|&b| self.keeps(b))
            .map(char::from)
            .collect();
        f.debug_struct("EncodeSet")
            .field("keep", &kept)
            .field("keep_escapes", &self.keep_escapes)
            .finish()
    }
}

impl EncodeSet {
    /// The empty set: every byte is escaped.
    ///
    /// ```
    /// use reqparse::percent::EncodeSet;
    /// assert!(!EncodeSet::NONE.keeps(b'a'));
    /// ```
    pub const NONE: EncodeSet = EncodeSet {
        keep: [false; 256],
        keep_escapes: false,
    };

    /// This set, also keeping each byte of `bytes`.
    ///
    /// # Panics
    ///
    /// If `bytes` holds a non-ASCII byte (encoded output is ASCII). Sets are built in `const`
    /// items, so this is a compile-time error in practice.
    ///
    /// ```
    /// use reqparse::percent::EncodeSet;
    /// const AB: EncodeSet = EncodeSet::NONE.add(b"ab");
    /// assert!(AB.keeps(b'a') && !AB.keeps(b'c'));
    /// ```
    #[allow(clippy::indexing_slicing)] // `i < len`, and the byte is ASCII (asserted)
    pub const fn add(mut self, bytes: &[u8]) -> EncodeSet {
        let mut i = 0;
        while i < bytes.len() {
            assert!(bytes[i] < 0x80, "an EncodeSet keeps ASCII bytes only");
            self.keep[bytes[i] as usize] = true;
            i += 1;
        }
        self
    }

    /// This set, also keeping every byte from `lo` to `hi` inclusive.
    ///
    /// # Panics
    ///
    /// If `hi` is not ASCII.
    ///
    /// ```
    /// use reqparse::percent::EncodeSet;
    /// const DIGITS: EncodeSet = EncodeSet::NONE.add_range(b'0', b'9');
    /// assert!(DIGITS.keeps(b'5') && !DIGITS.keeps(b'a'));
    /// ```
    #[allow(clippy::indexing_slicing)] // `b <= hi < 0x80` (asserted)
    pub const fn add_range(mut self, lo: u8, hi: u8) -> EncodeSet {
        assert!(hi < 0x80, "an EncodeSet keeps ASCII bytes only");
        let mut b = lo as usize;
        while b <= hi as usize {
            self.keep[b] = true;
            b += 1;
        }
        self
    }

    /// This set, escaping each byte of `bytes` after all.
    ///
    /// ```
    /// use reqparse::percent::{EncodeSet, UNRESERVED};
    /// const NO_TILDE: EncodeSet = UNRESERVED.remove(b"~");
    /// assert!(!NO_TILDE.keeps(b'~') && NO_TILDE.keeps(b'-'));
    /// ```
    #[allow(clippy::indexing_slicing)] // `i < len`; a byte indexes the 256 rows
    pub const fn remove(mut self, bytes: &[u8]) -> EncodeSet {
        let mut i = 0;
        while i < bytes.len() {
            self.keep[bytes[i] as usize] = false;
            i += 1;
        }
        self
    }

    /// The bytes either set keeps (and valid escapes if either keeps them).
    ///
    /// ```
    /// use reqparse::percent::{EncodeSet, ALPHA, DIGIT};
    /// const ALNUM: EncodeSet = ALPHA.union(DIGIT);
    /// assert!(ALNUM.keeps(b'z') && ALNUM.keeps(b'0'));
    /// ```
    #[allow(clippy::indexing_slicing)] // `b < 256`, the rows of both sets
    pub const fn union(mut self, other: EncodeSet) -> EncodeSet {
        let mut b = 0;
        while b < 256 {
            self.keep[b] |= other.keep[b];
            b += 1;
        }
        self.keep_escapes |= other.keep_escapes;
        self
    }

    /// This set, copying a valid `%XX` of the input as written (a path that is already
    /// escaped stays as it is), where a bare `%` is still escaped to `%25`. The hex digits
    /// join the set, since an escape's two digits are copied after its `%`.
    ///
    /// ```
    /// use reqparse::percent::{encode_into, UNRESERVED};
    /// let mut out = String::new();
    /// encode_into("%41%", &UNRESERVED.keeping_escapes(), &mut out);
    /// assert_eq!(out, "%41%25");
    /// ```
    pub const fn keeping_escapes(self) -> EncodeSet {
        let mut set = self
            .add_range(b'0', b'9')
            .add_range(b'A', b'F')
            .add_range(b'a', b'f');
        set.keep_escapes = true;
        set
    }

    /// Whether `b` is written as it is.
    ///
    /// ```
    /// use reqparse::percent::UNRESERVED;
    /// assert!(UNRESERVED.keeps(b'~') && !UNRESERVED.keeps(b' '));
    /// ```
    #[inline]
    pub const fn keeps(&self, b: u8) -> bool {
        crate::bytes::row(&self.keep, b)
    }

    /// Whether the byte at `bytes[i]` is copied as written: a kept byte, or (in a set
    /// [`keeping_escapes`](Self::keeping_escapes)) the `%` of a valid escape, whose two hex
    /// digits that set keeps.
    #[inline]
    fn copies(&self, bytes: &[u8], i: usize, b: u8) -> bool {
        self.keeps(b)
            || (self.keep_escapes && b == b'%' && bytes.get(i..).and_then(escape_at).is_some())
    }
}

/// ALPHA (RFC 5234): `A`-`Z`, `a`-`z`.
pub const ALPHA: EncodeSet = EncodeSet::NONE.add_range(b'A', b'Z').add_range(b'a', b'z');

/// DIGIT (RFC 5234): `0`-`9`.
pub const DIGIT: EncodeSet = EncodeSet::NONE.add_range(b'0', b'9');

/// RFC 3986 §2.3 unreserved: ALPHA / DIGIT / `-` `.` `_` `~`. What ASP.NET Core's
/// `QueryHelpers.AddQueryString` and `Uri.EscapeDataString` leave as is; space becomes `%20`.
pub const UNRESERVED: EncodeSet = ALPHA.union(DIGIT).add(b"-._~");

/// RFC 3986 §2.2 sub-delims: `!` `$` `&` `'` `(` `)` `*` `+` `,` `;` `=`.
pub const SUB_DELIMS: EncodeSet = EncodeSet::NONE.add(b"!$&'()*+,;=");

/// A path as ASP.NET Core's `UriHelper` writes it: RFC 3986 §3.3 `pchar` (unreserved,
/// sub-delims, `:`, `@`) plus the `/` separator, with valid escapes kept as written.
pub const PATH: EncodeSet = UNRESERVED.union(SUB_DELIMS).add(b":@/").keeping_escapes();

/// RFC 8187 §3.2.1 `attr-char`: ALPHA / DIGIT / `!` `#` `$` `&` `+` `-` `.` `^` `_` `` ` `` `|`
/// `~`. What an ext-value (`filename*=UTF-8''...`) writes unescaped.
pub const ATTR_CHAR: EncodeSet = ALPHA.union(DIGIT).add(b"!#$&+-.^_`|~");

/// The length of `s` once escaped with `set`; `None` only if it overflows `usize`.
///
/// ```
/// use reqparse::percent::{encoded_len, PATH, UNRESERVED};
/// assert_eq!(encoded_len(b"a b", &UNRESERVED), Some(5));
/// assert_eq!(encoded_len(b"%41%", &PATH), Some(6));
/// ```
pub fn encoded_len(s: &[u8], set: &EncodeSet) -> Option<usize> {
    let escaped = (0..s.len())
        .zip(s)
        .filter(|&(i, &b)| !set.copies(s, i, b))
        .count();
    // Each escaped byte becomes three.
    s.len().checked_add(escaped.checked_mul(2)?)
}

/// Appends `s` to `out`, escaping every byte `set` does not keep. Reserves nothing itself:
/// callers that build exactly sized strings add [`encoded_len`] up front.
///
/// ```
/// use reqparse::percent::{encode_into, ATTR_CHAR};
/// let mut out = String::from("UTF-8''");
/// encode_into("€ rates.pdf", &ATTR_CHAR, &mut out);
/// assert_eq!(out, "UTF-8''%E2%82%AC%20rates.pdf");
/// ```
pub fn encode_into(s: &str, set: &EncodeSet, out: &mut String) {
    let bytes = s.as_bytes();
    // Start of the bytes kept but not yet copied. Non-ASCII bytes are never kept, so a run
    // of kept bytes is ASCII and both its ends are character boundaries.
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if set.copies(bytes, i, b) {
            continue;
        }
        // An empty run can sit inside a character (between two escaped bytes of it).
        if run < i {
            out.push_str(crate::bytes::str_slice(s, run..i));
        }
        out.push_str(escape(b));
        run = i + 1;
    }
    if run < bytes.len() {
        out.push_str(crate::bytes::str_slice(s, run..));
    }
}

/// The length of `bytes` once [`decode_into`] has decoded it.
///
/// ```
/// assert_eq!(reqparse::percent::decoded_len(b"%41%zz%"), 5);
/// ```
pub fn decoded_len(bytes: &[u8]) -> usize {
    let escapes = memchr::memchr_iter(b'%', bytes)
        .filter(|&at| bytes.get(at..).and_then(escape_at).is_some())
        .count();
    bytes.len() - 2 * escapes
}

/// Appends `bytes` to `out` with each valid `%XX` decoded; a `%` that starts no valid escape is
/// kept literally (WHATWG percent-decode; `+` is not a space here, the query decoder handles
/// form encoding). Reserves exactly [`decoded_len`] first: one allocation at most.
///
/// ```
/// let mut out = Vec::new();
/// reqparse::percent::decode_into(b"%E2%82%AC%zz", &mut out);
/// assert_eq!(out, "€%zz".as_bytes());
/// ```
pub fn decode_into(bytes: &[u8], out: &mut Vec<u8>) {
    out.reserve_exact(decoded_len(bytes));
    let mut rest = bytes;
    while let Some(at) = memchr::memchr(b'%', rest) {
        let (plain, tail) = rest.split_at(at);
        out.extend_from_slice(plain);
        match escape_at(tail) {
            Some(v) => {
                out.push(v);
                rest = crate::bytes::slice(tail, 3..);
            }
            None => {
                out.push(b'%');
                rest = crate::bytes::slice(tail, 1..);
            }
        }
    }
    out.extend_from_slice(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_table_matches_write_escape() {
        for b in 0..=255u8 {
            let mut e = [0u8; 3];
            write_escape(b, &mut e);
            assert_eq!(escape(b).as_bytes(), &e);
            assert_eq!(escape_at(&e), Some(b));
        }
    }

    #[test]
    fn encode_round_trips_through_decode() {
        let inputs = [
            "",
            "plain",
            "a b&c=d",
            "%41%",
            "€ 日本 \u{1F600}",
            "%%%zz%4",
        ];
        for set in [UNRESERVED, ATTR_CHAR, PATH, EncodeSet::NONE] {
            for s in inputs {
                let mut enc = String::new();
                encode_into(s, &set, &mut enc);
                assert!(enc.is_ascii(), "{enc}");
                assert_eq!(encoded_len(s.as_bytes(), &set), Some(enc.len()), "{s:?}");
                if !set.keep_escapes {
                    let mut dec = Vec::new();
                    decode_into(enc.as_bytes(), &mut dec);
                    assert_eq!(dec, s.as_bytes());
                    assert_eq!(decoded_len(enc.as_bytes()), s.len());
                }
            }
        }
    }

    #[test]
    fn sets_are_what_their_rfcs_say() {
        let kept = |set: &EncodeSet| -> String {
            (0u8..=255)
                .filter(|&b| set.keeps(b))
                .map(char::from)
                .collect()
        };
        assert_eq!(
            kept(&UNRESERVED),
            "-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
        );
        assert_eq!(kept(&ATTR_CHAR).len(), 62 + 12);
        assert!(PATH.keeps(b'/') && PATH.keeps(b'@') && !PATH.keeps(b'?') && !PATH.keeps(b'%'));
        assert!((0x80..=0xFF).all(|b| !PATH.union(ATTR_CHAR).keeps(b)));
    }

    #[test]
    fn path_keeps_valid_escapes_only() {
        let mut out = String::new();
        encode_into("/a%2Fb%zz%", &PATH, &mut out);
        assert_eq!(out, "/a%2Fb%25zz%25");
    }
}
