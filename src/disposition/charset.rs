//! Bytes → `char` in the charsets the decoders meet (UTF-8, ISO-8859-1, US-ASCII,
//! windows-1252), the labels that name them, and the byte sources they decode.
//!
//! Every decoder runs over a byte iterator twice: once to validate and measure, once to write
//! into a `String` of exactly that size. One allocation, no intermediate buffer.

use crate::percent::escape_at;
use alloc::string::String;

/// The charsets the decoders know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Charset {
    Utf8,
    Latin1,
    Ascii,
    Windows1252,
}

/// Which implementation's rules an ext-value follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ExtRules {
    /// RFC 8187 §3.2.1 exactly: UTF-8, ISO-8859-1 or US-ASCII; invalid → ignored.
    Strict,
    /// Chromium `DecodeExtValue`.
    Browser,
    /// .NET `TryDecode5987`.
    DotNet,
}

/// What to do with bytes that are not valid in the charset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Invalid {
    Fail,
    /// U+FFFD for UTF-8 (maximal subparts), `?` for US-ASCII (.NET's decoders).
    Replace,
}

/// Charset label → charset, per profile. Chromium (through ICU) ignores case, `-`, `_` and
/// spaces in labels and reads ISO-8859-1 as windows-1252 (the WHATWG Encoding rule);
/// RFC 8187 and .NET know fewer names.
pub(super) fn label(name: &[u8], rules: ExtRules) -> Option<Charset> {
    match rules {
        ExtRules::Strict => {
            if name.eq_ignore_ascii_case(b"utf-8") {
                Some(Charset::Utf8)
            } else if name.eq_ignore_ascii_case(b"iso-8859-1") {
                Some(Charset::Latin1)
            } else if name.eq_ignore_ascii_case(b"us-ascii") {
                Some(Charset::Ascii)
            } else {
                None
            }
        }
        ExtRules::DotNet => {
            const NAMES: [(&str, Charset); 6] = [
                ("utf-8", Charset::Utf8),
                ("iso-8859-1", Charset::Latin1),
                ("latin1", Charset::Latin1),
                ("iso_8859-1", Charset::Latin1),
                ("us-ascii", Charset::Ascii),
                ("ascii", Charset::Ascii),
            ];
            NAMES
                .iter()
                .find(|(n, _)| n.as_bytes().eq_ignore_ascii_case(name))
                .map(|&(_, c)| c)
        }
        ExtRules::Browser => {
            // Compare with separators dropped, without allocating.
            let mut key = [0u8; 16];
            let mut n = 0;
            for &b in name.iter().filter(|b| !matches!(b, b'-' | b'_' | b' ')) {
                *key.get_mut(n)? = b.to_ascii_lowercase();
                n += 1;
            }
            match key.get(..n)? {
                b"utf8" => Some(Charset::Utf8),
                b"iso88591" | b"latin1" | b"l1" | b"windows1252" | b"cp1252" | b"usascii"
                | b"ascii" | b"iso885911987" | b"cp819" | b"ibm819" => Some(Charset::Windows1252),
                _ => None,
            }
        }
    }
}

/// windows-1252 0x80..=0x9F; the five undefined bytes map to their C1 controls (WHATWG).
const CP1252_HIGH: [u16; 32] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, // 0x80..0x87
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F, // 0x88..0x8F
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, // 0x90..0x97
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178, // 0x98..0x9F
];

/// Bytes → chars in `cs`; yields `Err(())` for a byte sequence invalid in `cs`.
#[derive(Clone)]
struct Chars<I> {
    bytes: I,
    pending: Option<u8>,
    cs: Charset,
}

impl<I: Iterator<Item = u8>> Chars<I> {
    fn byte(&mut self) -> Option<u8> {
        self.pending.take().or_else(|| self.bytes.next())
    }
}

impl<I: Iterator<Item = u8>> Iterator for Chars<I> {
    type Item = Result<char, ()>;

    fn next(&mut self) -> Option<Result<char, ()>> {
        let b0 = self.byte()?;
        if b0 < 0x80 {
            return Some(Ok(char::from(b0)));
        }
        match self.cs {
            Charset::Latin1 => return Some(Ok(char::from(b0))),
            Charset::Ascii => return Some(Err(())),
            Charset::Windows1252 => {
                let c = match CP1252_HIGH.get(usize::from(b0) - 0x80) {
                    Some(&u) => char::from_u32(u32::from(u)),
                    None => Some(char::from(b0)),
                };
                return Some(c.ok_or(()));
            }
            Charset::Utf8 => {}
        }
        let (len, mut cp) = match b0 {
            0xC2..=0xDF => (2, u32::from(b0 & 0x1F)),
            0xE0..=0xEF => (3, u32::from(b0 & 0x0F)),
            0xF0..=0xF4 => (4, u32::from(b0 & 0x07)),
            _ => return Some(Err(())),
        };
        for i in 1..len {
            let Some(b) = self.byte() else {
                return Some(Err(()));
            };
            // Unicode Table 3-7: the second byte's range depends on the first.
            let (lo, hi) = match (i, b0) {
                (1, 0xE0) => (0xA0, 0xBF),
                (1, 0xED) => (0x80, 0x9F),
                (1, 0xF0) => (0x90, 0xBF),
                (1, 0xF4) => (0x80, 0x8F),
                _ => (0x80, 0xBF),
            };
            if !(lo..=hi).contains(&b) {
                // Not consumed: it starts the next character (maximal subpart rule).
                self.pending = Some(b);
                return Some(Err(()));
            }
            cp = cp << 6 | u32::from(b & 0x3F);
        }
        Some(char::from_u32(cp).ok_or(()))
    }
}

/// Decodes `bytes` in `cs` into an exactly sized `String` (one allocation).
pub(super) fn decode<I: Iterator<Item = u8> + Clone>(
    bytes: I,
    cs: Charset,
    invalid: Invalid,
) -> Option<String> {
    let replacement = if cs == Charset::Ascii {
        '?'
    } else {
        '\u{FFFD}'
    };
    let mut len = 0;
    for c in (Chars {
        bytes: bytes.clone(),
        pending: None,
        cs,
    }) {
        len += match (c, invalid) {
            (Ok(c), _) => c.len_utf8(),
            (Err(()), Invalid::Replace) => replacement.len_utf8(),
            (Err(()), Invalid::Fail) => return None,
        };
    }
    let mut out = String::with_capacity(len);
    for c in (Chars {
        bytes,
        pending: None,
        cs,
    }) {
        out.push(c.unwrap_or(replacement));
    }
    Some(out)
}

/// `%XX`-decodes `text` (other `%` literal) and decodes the bytes in `cs`.
pub(super) fn decode_pct(text: &str, cs: Charset, invalid: Invalid) -> Option<String> {
    decode(
        Segs {
            segs: &[(text, Mode::Pct)],
            i: 0,
        },
        cs,
        invalid,
    )
}

/// How a segment's text becomes bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// As is.
    Plain,
    /// `%XX` decoded; a `%` not followed by two hex digits stays literal.
    Pct,
    /// Inside a quoted string: `\x` → `x`.
    Quoted,
}

/// The bytes of a run of segments, each decoded by its mode.
#[derive(Clone)]
pub(super) struct Segs<'s> {
    pub(super) segs: &'s [(&'s str, Mode)],
    pub(super) i: usize,
}

impl Iterator for Segs<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        loop {
            let (&(s, mode), rest) = self.segs.split_first()?;
            let b = s.as_bytes();
            let Some(&c) = b.get(self.i) else {
                self.segs = rest;
                self.i = 0;
                continue;
            };
            match mode {
                Mode::Pct if c == b'%' => {
                    // `self.i` indexes the `%` just read.
                    if let Some(v) = escape_at(crate::bytes::slice(b, self.i..)) {
                        self.i += 3;
                        return Some(v);
                    }
                }
                Mode::Quoted if c == b'\\' && self.i + 1 < b.len() => {
                    self.i += 1;
                    let n = b.get(self.i).copied();
                    self.i += 1;
                    return n;
                }
                _ => {}
            }
            self.i += 1;
            return Some(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_per_rules() {
        assert_eq!(label(b"UTF-8", ExtRules::Strict), Some(Charset::Utf8));
        assert_eq!(label(b"latin1", ExtRules::Strict), None);
        assert_eq!(label(b"latin1", ExtRules::DotNet), Some(Charset::Latin1));
        // Chromium: separators ignored, ISO-8859-1 read as windows-1252.
        assert_eq!(
            label(b"ISO_8859 1", ExtRules::Browser),
            Some(Charset::Windows1252)
        );
        assert_eq!(label(b"a-very-long-charset-name", ExtRules::Browser), None);
    }

    #[test]
    fn invalid_bytes_fail_or_are_replaced() {
        let bytes = |b: &'static [u8]| b.iter().copied();
        // Maximal subparts: E2 82 is one U+FFFD, then `A`.
        assert_eq!(
            decode(bytes(b"\xE2\x82A"), Charset::Utf8, Invalid::Replace).as_deref(),
            Some("\u{FFFD}A")
        );
        assert_eq!(
            decode(bytes(b"\xE2\x82A"), Charset::Utf8, Invalid::Fail),
            None
        );
        assert_eq!(
            decode(bytes(b"\x80\x81"), Charset::Windows1252, Invalid::Fail).as_deref(),
            Some("€\u{81}")
        );
        assert_eq!(
            decode(bytes(b"\xE4"), Charset::Ascii, Invalid::Replace).as_deref(),
            Some("?")
        );
        assert_eq!(
            decode_pct("%41%zz", Charset::Utf8, Invalid::Fail).as_deref(),
            Some("A%zz")
        );
    }
}
