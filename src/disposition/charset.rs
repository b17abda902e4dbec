//! Value decoding: RFC 8187 ext-values, RFC 2231 continuations, RFC 2047 encoded-words, and
//! the byte → `char` conversions they need (UTF-8, ISO-8859-1, US-ASCII, windows-1252).
//!
//! Every decoder runs over a byte iterator twice: once to validate and measure, once to write
//! into a `String` of exactly that size. One allocation, no intermediate buffer.

use super::{is, Param, Quoting, ATTR, CHARSET, MAX_SECTIONS};
use crate::percent::{escape_at, hex_value};
use alloc::borrow::Cow;
use alloc::string::String;

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
enum Invalid {
    Fail,
    /// U+FFFD for UTF-8 (maximal subparts), `?` for US-ASCII (.NET's decoders).
    Replace,
}

/// Charset label → charset, per profile. Chromium (through ICU) ignores case, `-`, `_` and
/// spaces in labels and reads ISO-8859-1 as windows-1252 (the WHATWG Encoding rule);
/// RFC 8187 and .NET know fewer names.
fn label(name: &str, rules: ExtRules) -> Option<Charset> {
    match rules {
        ExtRules::Strict => {
            if name.eq_ignore_ascii_case("utf-8") {
                Some(Charset::Utf8)
            } else if name.eq_ignore_ascii_case("iso-8859-1") {
                Some(Charset::Latin1)
            } else if name.eq_ignore_ascii_case("us-ascii") {
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
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|&(_, c)| c)
        }
        ExtRules::Browser => {
            // Compare with separators dropped, without allocating.
            let mut key = [0u8; 16];
            let mut n = 0;
            for b in name.bytes().filter(|b| !matches!(b, b'-' | b'_' | b' ')) {
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
fn decode<I: Iterator<Item = u8> + Clone>(
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

/// How a segment's text becomes bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// As is.
    Plain,
    /// `%XX` decoded; a `%` not followed by two hex digits stays literal.
    Pct,
    /// Inside a quoted string: `\x` → `x`.
    Quoted,
}

/// The bytes of a run of segments, each decoded by its mode.
#[derive(Clone)]
struct Segs<'s> {
    segs: &'s [(&'s str, Mode)],
    i: usize,
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
                    if let Some(v) = escape_at(b.get(self.i..).unwrap_or(&[])) {
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

/// Splits `charset'language'value` at its first two `'`.
fn split_ext(raw: &str) -> Option<(&str, &str, &str)> {
    let (cs, rest) = raw.split_once('\'')?;
    let (lang, value) = rest.split_once('\'')?;
    Some((cs, lang, value))
}

/// Decodes an ext-value (RFC 8187 §3.2) with `rules`; `None` when it is not valid for them.
pub(super) fn decode_ext(raw: &str, rules: ExtRules) -> Option<Cow<'_, str>> {
    let (cs_name, lang, value) = match rules {
        ExtRules::Strict => {
            let (cs, lang, value) = split_ext(raw)?;
            let lang_ok = lang.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-');
            if cs.is_empty()
                || !cs.bytes().all(|c| is(c, CHARSET))
                || !lang_ok
                || !valid_value_chars(value)
            {
                return None;
            }
            (cs, lang, value)
        }
        ExtRules::Browser => {
            // Chromium: no `"`, exactly two `'`, charset and value non-empty, value ASCII.
            if raw.contains('"') || raw.bytes().filter(|&c| c == b'\'').count() != 2 {
                return None;
            }
            let (cs, lang, value) = split_ext(raw)?;
            if cs.is_empty() || value.is_empty() || !value.is_ascii() {
                return None;
            }
            (cs, lang, value)
        }
        ExtRules::DotNet => {
            // .NET: Split('\'') must give exactly three parts.
            if raw.bytes().filter(|&c| c == b'\'').count() != 2 {
                return None;
            }
            split_ext(raw)?
        }
    };
    let _ = lang; // RFC 6266 §4.3: the language is informational.
    let cs = label(cs_name, rules)?;
    if !value.contains('%') && (value.is_ascii() || rules == ExtRules::DotNet) {
        // Nothing escaped, and the literal characters are ASCII (identical in every charset)
        // or, for .NET, appended as they are.
        return Some(Cow::Borrowed(value));
    }
    let invalid = if rules == ExtRules::DotNet {
        Invalid::Replace
    } else {
        Invalid::Fail
    };
    if rules == ExtRules::DotNet && !value.is_ascii() {
        // .NET appends unescaped characters as they are and decodes only the %XX runs; the
        // raw value of a `filename*` token is ASCII, so this is the quoted-string case.
        return dotnet_mixed(value, cs);
    }
    if cs == Charset::Utf8 {
        return match String::from_utf8(pct_decode(value)) {
            Ok(s) => Some(Cow::Owned(s)),
            Err(_) if invalid == Invalid::Replace => decode(
                Segs {
                    segs: &[(value, Mode::Pct)],
                    i: 0,
                },
                cs,
                invalid,
            )
            .map(Cow::Owned),
            Err(_) => None,
        };
    }
    decode(
        Segs {
            segs: &[(value, Mode::Pct)],
            i: 0,
        },
        cs,
        invalid,
    )
    .map(Cow::Owned)
}

/// `%XX` decoded (other `%` literal) into an exactly sized buffer: one allocation, which
/// `String::from_utf8` then keeps.
fn pct_decode(value: &str) -> alloc::vec::Vec<u8> {
    let b = value.as_bytes();
    let mut escapes = 0;
    for at in memchr::memchr_iter(b'%', b) {
        if escape_at(b.get(at..).unwrap_or(&[])).is_some() {
            escapes += 1;
        }
    }
    let mut out = alloc::vec::Vec::with_capacity(b.len() - 2 * escapes);
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            if let Some(v) = escape_at(b.get(i..).unwrap_or(&[])) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// .NET's TryDecode5987 loop for values with non-ASCII literals: `%XX` runs decoded in `cs`,
/// everything else appended.
fn dotnet_mixed(value: &str, cs: Charset) -> Option<Cow<'_, str>> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while !rest.is_empty() {
        let run = pct_run_len(rest.as_bytes());
        if run > 0 {
            let (esc, tail) = rest.split_at(run);
            out.push_str(&decode(
                Segs {
                    segs: &[(esc, Mode::Pct)],
                    i: 0,
                },
                cs,
                Invalid::Replace,
            )?);
            rest = tail;
        } else {
            let mut chars = rest.chars();
            if let Some(c) = chars.next() {
                out.push(c);
            }
            rest = chars.as_str();
        }
    }
    Some(Cow::Owned(out))
}

/// Length of the run of valid `%XX` escapes at the start of `b`.
fn pct_run_len(b: &[u8]) -> usize {
    let mut n = 0;
    while escape_at(b.get(n..).unwrap_or(&[])).is_some() {
        n += 3;
    }
    n
}

/// value-chars = *( pct-encoded / attr-char )
fn valid_value_chars(v: &str) -> bool {
    let b = v.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            if escape_at(b.get(i..).unwrap_or(&[])).is_none() {
                return false;
            }
            i += 3;
        } else if is(c, ATTR) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// The parts of an RFC 2231 continuation, indexed by section number.
pub(super) struct Sections<'a> {
    parts: [Option<(&'a str, Quoting, bool)>; MAX_SECTIONS],
    any: bool,
}

impl<'a> Sections<'a> {
    pub(super) fn new() -> Self {
        Sections {
            parts: [None; MAX_SECTIONS],
            any: false,
        }
    }

    pub(super) fn set(&mut self, n: usize, p: Param<'a>, encoded: bool) {
        if let Some(slot) = self.parts.get_mut(n) {
            *slot = Some((p.raw, p.quoting, encoded));
            self.any = true;
        }
    }

    /// Joins sections 0, 1, ... up to the first gap (RFC 2231 §3). `None` without a section 0
    /// or when an encoded part is invalid.
    pub(super) fn join(&self) -> Option<Cow<'a, str>> {
        if !self.any {
            return None;
        }
        let mut segs: [(&'a str, Mode); MAX_SECTIONS] = [("", Mode::Plain); MAX_SECTIONS];
        let mut k = 0;
        let mut cs = Charset::Utf8;
        for (i, part) in self.parts.iter().enumerate() {
            let Some((raw, quoting, encoded)) = *part else {
                break;
            };
            let seg = if encoded {
                if quoting != Quoting::Token {
                    return None;
                }
                let value = if i == 0 {
                    let (name, lang, value) = split_ext(raw)?;
                    let lang_ok = lang.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-');
                    if !lang_ok {
                        return None;
                    }
                    cs = label(name, ExtRules::Strict)?;
                    value
                } else {
                    raw
                };
                if !valid_value_chars(value) {
                    return None;
                }
                (value, Mode::Pct)
            } else {
                match quoting {
                    Quoting::Quoted { escaped } => (
                        super::strip_quotes(raw),
                        if escaped { Mode::Quoted } else { Mode::Plain },
                    ),
                    _ => (raw, Mode::Plain),
                }
            };
            *segs.get_mut(i)? = seg;
            k = i + 1;
        }
        let segs = segs.get(..k)?;
        match segs {
            [] => None,
            [(s, Mode::Plain)] => Some(Cow::Borrowed(*s)),
            _ => decode(Segs { segs, i: 0 }, cs, Invalid::Fail).map(Cow::Owned),
        }
    }
}

// ---------------------------------------------------------------------------------------
// RFC 2047 encoded-words.

/// The outcome of one word.
enum Word {
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
    body.iter().all(|&c| B64[usize::from(c)] != 0xFF)
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
    if enc.len() != 1 || text.contains('?') || text.contains(' ') {
        return Word::NotEncoded;
    }
    let cs = cs.split_once('*').map_or(cs, |(c, _)| c);
    let Some(cs) = label(cs, ExtRules::Strict) else {
        return Word::Fail;
    };
    match decode_text(cs, enc.as_bytes()[0], text.as_bytes(), Invalid::Fail) {
        Some(s) => Word::Text(s),
        None => Word::Fail,
    }
}

/// Chromium's DecodeWord for an ASCII word: split on `?` (empty pieces skipped), expect
/// `=`, charset, `B`/`Q`, text, `=`, and the word ending in `=`.
fn browser_word(w: &str) -> Word {
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
                if part.len() != 1 || !matches!(part.as_bytes()[0], b'b' | b'B' | b'q' | b'Q') {
                    return Word::NotEncoded;
                }
                enc = part.as_bytes()[0];
            }
            2 => {
                let Some(c) = cs.and_then(|c| label(c, ExtRules::Browser)) else {
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

/// Chromium's DecodeFilenameValue: words split on whitespace, each whitespace character a
/// space unless it follows an encoded-word; ASCII words RFC 2047-decoded (when asked) or
/// %-decoded (must then be UTF-8); other words kept. `None` when a word fails.
pub(super) fn browser_filename(v: Cow<'_, str>, decode_2047: bool) -> Option<Cow<'_, str>> {
    let ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let simple = !v.contains('%')
        && !v.contains(['\t', '\n', '\r'])
        && !v.starts_with(' ')
        && (!decode_2047 || !v.contains("=?"));
    if simple {
        return Some(v);
    }
    let mut out = String::with_capacity(v.len());
    let mut prev_2047 = true;
    let mut rest: &str = &v;
    while let Some(c) = rest.chars().next() {
        if ws(c) {
            if !prev_2047 {
                out.push(' ');
            }
            rest = rest.get(c.len_utf8()..).unwrap_or("");
            continue;
        }
        let end = rest.find(ws).unwrap_or(rest.len());
        let (word, tail) = rest.split_at(end);
        rest = tail;
        prev_2047 = false;
        if !word.is_ascii() {
            out.push_str(word);
            continue;
        }
        if decode_2047 {
            match browser_word(word) {
                Word::Text(t) => {
                    out.push_str(&t);
                    prev_2047 = true;
                    continue;
                }
                Word::Fail => return None,
                Word::NotEncoded => {}
            }
        }
        out.push_str(&decode(
            Segs {
                segs: &[(word, Mode::Pct)],
                i: 0,
            },
            Charset::Utf8,
            Invalid::Fail,
        )?);
    }
    Some(Cow::Owned(out))
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
    let cs = label(cs, ExtRules::DotNet)?;
    decode_text(cs, b'b', text.as_bytes(), Invalid::Replace)
}
