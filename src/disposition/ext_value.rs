//! RFC 8187 ext-values (`filename*=UTF-8''...`) and RFC 2231 continuations
//! (`filename*0*=...; filename*1=...`).

use super::charset::{decode, decode_pct, label, Charset, ExtRules, Invalid, Mode, Segs};
use super::{Param, Quoting, MAX_SECTIONS};
use crate::percent::{escape_at, escape_run_len, ATTR_CHAR};
use crate::percent::{EncodeSet, ALPHA, DIGIT};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// RFC 8187 §3.2.1 mime-charsetc: ALPHA / DIGIT / `!` `#` `$` `%` `&` `+` `-` `^` `_` `` ` ``
/// `{` `}` `~`, what a charset name may hold.
const MIME_CHARSETC: EncodeSet = ALPHA.union(DIGIT).add(b"!#$%&+-^_`{}~");

/// `name*N` or `name*N*` (RFC 2231 §3): `(name, N, encoded)`. `N` has no leading zero, so
/// `*01` is not a section (tc2231 `attfncontlz`).
pub(super) fn section(name: &[u8]) -> Option<(&[u8], usize, bool)> {
    let (rest, encoded) = match name.strip_suffix(b"*") {
        Some(r) => (r, true),
        None => (name, false),
    };
    let star = rest.iter().rposition(|&c| c == b'*')?;
    let (base, digits) = (
        crate::bytes::slice(rest, ..star),
        crate::bytes::slice(rest, star + 1..),
    );
    if base.is_empty() || digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if digits.len() > 1 && digits.starts_with(b"0") {
        return None;
    }
    let mut n = 0usize;
    for &d in digits {
        n = n.saturating_mul(10).saturating_add(usize::from(d - b'0'));
    }
    Some((base, n, encoded))
}

/// Splits `charset'language'value` at its first two `'`.
fn split_ext(raw: &str) -> Option<(&str, &str, &str)> {
    // A byte loop: the charset and language are a few bytes, too short for memchr to pay.
    let b = raw.as_bytes();
    let first = b.iter().position(|&c| c == b'\'')?;
    let second = first
        + 1
        + crate::bytes::slice(b, first + 1..)
            .iter()
            .position(|&c| c == b'\'')?;
    // Both cuts are at ASCII bytes, so character boundaries.
    Some((
        crate::bytes::str_slice(raw, ..first),
        crate::bytes::str_slice(raw, first + 1..second),
        crate::bytes::str_slice(raw, second + 1..),
    ))
}

/// Decodes an ext-value (RFC 8187 §3.2) with `rules`; `None` when it is not valid for them.
pub(super) fn decode_ext(raw: &str, rules: ExtRules) -> Option<Cow<'_, str>> {
    let (cs_name, lang, value) = match rules {
        ExtRules::Strict => {
            let (cs, lang, value) = split_ext(raw)?;
            let lang_ok = lang.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-');
            if cs.is_empty()
                || !cs.bytes().all(|c| MIME_CHARSETC.keeps(c))
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
        // One exactly sized buffer, which `String::from_utf8` keeps.
        return match String::from_utf8(pct_decode(value.as_bytes())) {
            Ok(s) => Some(Cow::Owned(s)),
            Err(_) if invalid == Invalid::Replace => decode_pct(value, cs, invalid).map(Cow::Owned),
            Err(_) => None,
        };
    }
    decode_pct(value, cs, invalid).map(Cow::Owned)
}

/// .NET's TryDecode5987 loop for values with non-ASCII literals: `%XX` runs decoded in `cs`,
/// everything else appended.
fn dotnet_mixed(value: &str, cs: Charset) -> Option<Cow<'_, str>> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while !rest.is_empty() {
        let run = 3 * escape_run_len(rest.as_bytes());
        if run > 0 {
            // The run is ASCII, so `run` is a character boundary.
            let (esc, tail) = rest.split_at(run);
            out.push_str(&decode_pct(esc, cs, Invalid::Replace)?);
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

/// `%XX`-decodes `b` (a `%` that starts no valid escape stays literal) into an exactly sized
/// buffer. Two byte loops: ext-values are short, and memchr's setup would cost more than it
/// saves on them.
fn pct_decode(b: &[u8]) -> Vec<u8> {
    let mut escapes = 0;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' && escape_at(crate::bytes::slice(b, i..)).is_some() {
            escapes += 1;
            i += 3;
        } else {
            i += 1;
        }
    }
    let mut out = Vec::with_capacity(b.len() - 2 * escapes);
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            if let Some(v) = escape_at(crate::bytes::slice(b, i..)) {
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

/// value-chars = *( pct-encoded / attr-char )
fn valid_value_chars(v: &str) -> bool {
    let b = v.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            if escape_at(crate::bytes::slice(b, i..)).is_none() {
                return false;
            }
            i += 3;
        } else if ATTR_CHAR.keeps(c) {
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

    /// A Latin-1 section (no text as written) is left out, so the join stops before it.
    pub(super) fn set(&mut self, n: usize, p: Param<'a>, encoded: bool) {
        let Some(raw) = p.raw_text() else {
            return;
        };
        if let Some(slot) = self.parts.get_mut(n) {
            *slot = Some((raw, p.quoting, encoded));
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
                        crate::bytes::as_str(super::strip_quotes(raw.as_bytes())),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mime_charsetc_is_rfc_8187() {
        let members: alloc::string::String = (0u8..=255)
            .filter(|&b| MIME_CHARSETC.keeps(b) && !b.is_ascii_alphanumeric())
            .map(char::from)
            .collect();
        assert_eq!(members, "!#$%&+-^_`{}~");
        assert!((0u8..=255)
            .filter(u8::is_ascii_alphanumeric)
            .all(|b| MIME_CHARSETC.keeps(b)));
    }

    #[test]
    fn sections_have_no_leading_zero() {
        assert_eq!(section(b"filename*0*"), Some((&b"filename"[..], 0, true)));
        assert_eq!(section(b"filename*12"), Some((&b"filename"[..], 12, false)));
        for name in ["filename*01", "filename*", "*1", "filename*1a", "filename"] {
            assert_eq!(section(name.as_bytes()), None, "{name}");
        }
    }

    #[test]
    fn ext_values_per_rules() {
        let utf8 = "UTF-8''%E2%82%AC%20rates";
        for rules in [ExtRules::Strict, ExtRules::Browser, ExtRules::DotNet] {
            assert_eq!(
                decode_ext(utf8, rules).as_deref(),
                Some("€ rates"),
                "{rules:?}"
            );
        }
        // Invalid UTF-8: refused by RFC 8187 and Chromium, U+FFFD for .NET.
        assert_eq!(decode_ext("utf-8''%FF", ExtRules::Strict), None);
        assert_eq!(
            decode_ext("utf-8''%FF", ExtRules::DotNet).as_deref(),
            Some("\u{FFFD}")
        );
        // .NET decodes only the escapes between literal non-ASCII characters.
        assert_eq!(
            decode_ext("utf-8''é%41", ExtRules::DotNet).as_deref(),
            Some("éA")
        );
        assert_eq!(
            decode_ext("iso-8859-1''%E4", ExtRules::Strict).as_deref(),
            Some("ä")
        );
    }
}
