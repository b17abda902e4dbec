//! RFC 2047 encoded-words (`=?charset?B|Q?text?=`) in a plain `filename`, with the rules of
//! RFC 2047 itself, Chromium's `DecodeWord` and .NET's `TryDecodeMime`.

use super::charset::{decode, label, Charset, ExtRules, Invalid};
use crate::percent::hex_value;
use alloc::string::String;

/// The outcome of one word.
pub(super) enum Word {
    /// Not an encoded-word: use it as plain text.
    NotEncoded,
    /// An encoded-word that does not decode.
    Fail,
    /// The decoded text.
    Text(String),
}

/// Q encoding (RFC 2047 §4.2) as bytes; validated by [`q_valid`] first.
#[derive(Clone)]
struct QBytes<'s> {
    b: &'s [u8],
    i: usize,
}

impl Iterator for QBytes<'_> {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        let c = *self.b.get(self.i)?;
        self.i += 1;
        match c {
            b'_' => Some(b' '),
            b'=' => {
                let h = hex_value(*self.b.get(self.i)?)?;
                let l = hex_value(*self.b.get(self.i + 1)?)?;
                self.i += 2;
                Some(h << 4 | l)
            }
            _ => Some(c),
        }
    }
}

/// Chromium's DecodeQEncoding rules, which are also RFC 2047's: `_`, `=XX`, and printable
/// ASCII other than `?`, `=`, `_` and space.
fn q_valid(b: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'=' {
            let ok = b.get(i + 1).and_then(|&h| hex_value(h)).is_some()
                && b.get(i + 2).and_then(|&l| hex_value(l)).is_some();
            if !ok {
                return false;
            }
            i += 3;
        } else if c == b'_' || (0x21..0x7F).contains(&c) && c != b'?' {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// Base64 digit value (RFC 4648 §4 alphabet), 0xFF for anything else.
#[allow(clippy::indexing_slicing)] // const-evaluated: out of bounds is a compile error
const B64: [u8; 256] = {
    let mut t = [0xFF_u8; 256];
    let mut i = 0;
    while i < 26 {
        t[b'A' as usize + i] = i as u8; // A-Z: 0..25
        t[b'a' as usize + i] = 26 + i as u8; // a-z: 26..51
        i += 1;
    }
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = 52 + i as u8; // 0-9: 52..61
        i += 1;
    }
    t[b'+' as usize] = 62;
    t[b'/' as usize] = 63;
    t
};

/// Padded base64 as bytes; validated by [`b64_valid`] first.
#[derive(Clone)]
struct B64Bytes<'s> {
    b: &'s [u8],
    i: usize,
    acc: u32,
    bits: u32,
}

impl Iterator for B64Bytes<'_> {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        while self.bits < 8 {
            let c = *self.b.get(self.i)?;
            let v = *B64.get(usize::from(c))?;
            if v == 0xFF {
                return None; // `=` padding: the rest are the zero bits of the last group
            }
            self.i += 1;
            self.acc = (self.acc << 6) | u32::from(v);
            self.bits += 6;
        }
        self.bits -= 8;
        Some((self.acc >> self.bits) as u8)
    }
}

/// Canonical padded base64: length a multiple of 4, at most two `=` and only at the end.
fn b64_valid(b: &[u8]) -> bool {
    if !b.len().is_multiple_of(4) {
        return false;
    }
    let body = b
        .strip_suffix(b"==")
        .or_else(|| b.strip_suffix(b"="))
        .unwrap_or(b);
    body.iter().all(|&c| crate::bytes::row(&B64, c) != 0xFF)
}

fn decode_text(cs: Charset, enc: u8, text: &[u8], invalid: Invalid) -> Option<String> {
    match enc {
        b'b' | b'B' if b64_valid(text) => decode(
            B64Bytes {
                b: text,
                i: 0,
                acc: 0,
                bits: 0,
            },
            cs,
            invalid,
        ),
        b'q' | b'Q' if q_valid(text) => decode(QBytes { b: text, i: 0 }, cs, invalid),
        _ => None,
    }
}

/// RFC 2047 §2: `=?charset?encoding?encoded-text?=` as one whole word; the charset may
/// carry an RFC 2231 §5 `*language`.
fn strict_word(w: &str) -> Word {
    let Some(inner) = w.strip_prefix("=?").and_then(|r| r.strip_suffix("?=")) else {
        return Word::NotEncoded;
    };
    let mut it = inner.splitn(3, '?');
    let (Some(cs), Some(enc), Some(text)) = (it.next(), it.next(), it.next()) else {
        return Word::NotEncoded;
    };
    let (&[enc], false) = (enc.as_bytes(), text.contains(['?', ' '])) else {
        return Word::NotEncoded;
    };
    let cs = cs.split_once('*').map_or(cs, |(c, _)| c);
    let Some(cs) = label(cs.as_bytes(), ExtRules::Strict) else {
        return Word::Fail;
    };
    match decode_text(cs, enc, text.as_bytes(), Invalid::Fail) {
        Some(s) => Word::Text(s),
        None => Word::Fail,
    }
}

/// Chromium's DecodeWord for an ASCII word: split on `?` (empty pieces skipped), expect
/// `=`, charset, `B`/`Q`, text, `=`, and the word ending in `=`.
pub(super) fn browser_word(w: &str) -> Word {
    let mut parts = w.split('?').filter(|p| !p.is_empty());
    if parts.next() != Some("=") {
        return Word::NotEncoded;
    }
    let mut out = String::new();
    let mut cs = None;
    let mut enc = 0u8;
    for (i, part) in parts.enumerate() {
        match i {
            0 => cs = Some(part),
            1 => {
                let &[e @ (b'b' | b'B' | b'q' | b'Q')] = part.as_bytes() else {
                    return Word::NotEncoded;
                };
                enc = e;
            }
            2 => {
                let Some(c) = cs.and_then(|c| label(c.as_bytes(), ExtRules::Browser)) else {
                    return Word::Fail;
                };
                match decode_text(c, enc, part.as_bytes(), Invalid::Fail) {
                    Some(s) => out = s,
                    None => return Word::Fail,
                }
            }
            3 if part == "=" => {}
            _ => return Word::Fail,
        }
    }
    if w.ends_with('=') {
        Word::Text(out)
    } else {
        Word::Fail
    }
}

/// Decodes the encoded-words of a `filename` (Strict rules): whitespace between two
/// encoded-words is dropped (RFC 2047 §6.2), other text kept. `None` when there is no
/// encoded-word or one fails to decode (the caller keeps the literal value).
pub(super) fn decode_2047_words(v: &str) -> Option<String> {
    if !v.contains("=?") {
        return None;
    }
    let mut out = String::with_capacity(v.len());
    let mut any = false;
    let mut pending_ws = "";
    let mut prev_encoded = false;
    let mut rest = v;
    while !rest.is_empty() {
        let ws = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        let (space, tail) = rest.split_at(ws);
        if !space.is_empty() {
            pending_ws = space;
            rest = tail;
            continue;
        }
        let end = rest.find([' ', '\t']).unwrap_or(rest.len());
        let (word, tail) = rest.split_at(end);
        match strict_word(word) {
            Word::Text(t) => {
                if !prev_encoded {
                    out.push_str(pending_ws);
                }
                out.push_str(&t);
                prev_encoded = true;
                any = true;
            }
            Word::Fail => return None,
            Word::NotEncoded => {
                out.push_str(pending_ws);
                out.push_str(word);
                prev_encoded = false;
            }
        }
        pending_ws = "";
        rest = tail;
    }
    out.push_str(pending_ws);
    any.then_some(out)
}

/// .NET's TryDecodeMime: the whole raw value `"=?charset?B?base64?="`, quoted, B only.
pub(super) fn dotnet_mime(raw: &str) -> Option<String> {
    if raw.len() < 10 || !raw.starts_with('"') || !raw.ends_with('"') {
        return None;
    }
    let mut parts = raw.split('?');
    let (Some("\"="), Some(cs), Some(enc), Some(text), Some("=\""), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return None;
    };
    if !enc.eq_ignore_ascii_case("b") {
        return None;
    }
    let cs = label(cs.as_bytes(), ExtRules::DotNet)?;
    decode_text(cs, b'b', text.as_bytes(), Invalid::Replace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_the_space_between_them() {
        let d = |v| decode_2047_words(v);
        assert_eq!(
            d("=?utf-8?Q?caf=C3=A9?= =?utf-8?B?LnR4dA==?=").as_deref(),
            Some("café.txt")
        );
        assert_eq!(d("a =?utf-8?Q?b?= c").as_deref(), Some("a b c"));
        assert_eq!(d("plain"), None);
        // A word that does not decode leaves the whole value literal.
        assert_eq!(d("=?utf-8?B?%%%?="), None);
        assert!(matches!(browser_word("=?utf-8?q?a_b?="), Word::Text(t) if t == "a b"));
        assert_eq!(dotnet_mime("\"=?utf-8?B?w6Q=?=\"").as_deref(), Some("ä"));
    }
}
