//! Strict and DotNet: the RFC 6266 §4.1 grammar,
//!   disposition-type *( OWS ";" OWS disposition-parm )
//!   disposition-parm = token BWS "=" BWS ( token / quoted-string )
//! A `;` must be followed by a parameter: `*( ";" disp-ext-parm )` has no empty element, so a
//! trailing `;` (tc2231 `attwithasciifilenamenqs`) and `; ;` (`attemptyparam`) are errors.
//! Whitespace around `=` is allowed (tc2231 `attwithasciifilenamews1`, RFC 6266 §5's
//! `FILENAME= "an example.html"`), as is OWS around the whole value.

use super::ext_value::section;
use super::{
    err, ContentDisposition, DispositionError, DispositionErrorKind, Param, Profile, Quoting,
    Tally, MAX_PARAMS, MAX_SECTIONS,
};
use crate::bytes::{set, set_range, slice};

// Byte classes: one table, one bit per class, one `set` call per grammar row. (RFC 8187
// attr-char, tchar minus `*` `'` `%`, is the percent toolbox's `ATTR_CHAR`.)
/// tchar (RFC 9110 §5.6.2): ALPHA DIGIT ! # $ % & ' * + - . ^ _ ` | ~
pub(super) const TCHAR: u8 = 1;
/// qdtext (RFC 9110 §5.6.4), ASCII part: HTAB SP ! #-[ ]-~ (no `"`, no `\`)
const QDTEXT: u8 = 2;
/// OWS: SP HTAB
pub(super) const WS: u8 = 4;

/// The classes the parsers and the builder share.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    // ALPHA DIGIT: in tchar
    set_range(&mut t, b'A', b'Z', TCHAR);
    set_range(&mut t, b'a', b'z', TCHAR);
    set_range(&mut t, b'0', b'9', TCHAR);
    // tchar symbols: ! # $ % & ' * + - . ^ _ ` | ~
    set(&mut t, b"!#$%&'*+-.^_`|~", TCHAR);
    // qdtext: HTAB, SP, ! and #-[ and ]-~ (every visible character but `"` and `\`)
    set(&mut t, b"\t !", QDTEXT);
    set_range(&mut t, b'#', b'[', QDTEXT);
    set_range(&mut t, b']', b'~', QDTEXT);
    // OWS: SP HTAB
    set(&mut t, b" \t", WS);
    t
};

#[inline]
pub(super) fn is(b: u8, class: u8) -> bool {
    CLASS[b as usize] & class != 0
}

#[inline]
pub(super) fn skip(b: &[u8], mut pos: usize, class: u8) -> usize {
    while let Some(&c) = b.get(pos) {
        if !is(c, class) {
            break;
        }
        pos += 1;
    }
    pos
}

pub(super) fn is_token(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(|&c| is(c, TCHAR))
}

pub(super) fn parse_grammar(
    h: &[u8],
    profile: Profile,
) -> Result<ContentDisposition<'_>, DispositionError> {
    use DispositionErrorKind as K;
    let start = skip(h, 0, WS);
    let end = skip(h, start, TCHAR);
    let kind = slice(h, start..end);
    if end == h.len() && start == 0 && end > 0 {
        // The bare type (`inline`, `attachment`): nothing else to look at.
        return Ok(Tally::default().finish(h, kind, end, profile));
    }
    if end == start {
        return Err(match h.get(start) {
            Some(b'"') => err(K::QuotedType, start),
            Some(&c) if c >= 0x80 => err(K::NonAscii, start),
            _ => err(K::MissingType, start),
        });
    }
    if h.get(end) == Some(&b'=') {
        // `filename=foo.html`: a parameter where the type should be (tc2231 attmissingdisposition).
        return Err(err(K::MissingType, start));
    }
    let mut seen = Seen::new();
    let mut tally = Tally::default();
    let mut pos = end;
    while let Some((p, next)) = grammar_next(h, pos, profile)? {
        tally.add(p)?;
        if profile == Profile::Strict {
            if p.name.contains(&b'*') {
                if let Some((_, n, _)) = section(p.name) {
                    if n >= MAX_SECTIONS {
                        return Err(err(K::SectionLimit, p.offset()));
                    }
                }
            }
            seen.insert(h, p.name, p.offset())?;
        }
        pos = next;
    }
    Ok(tally.finish(h, kind, end, profile))
}

/// What comes after a value (or the type) when it is not `;`.
fn after_value_error(h: &[u8], value_end: usize, pos: usize) -> DispositionError {
    use DispositionErrorKind as K;
    match h.get(pos) {
        Some(b',') => err(K::Comma, pos),
        Some(&c) if c >= 0x80 => err(K::NonAscii, pos),
        Some(&c) if pos > value_end && (is(c, TCHAR) || c == b'"') => err(K::TokenWithSpace, pos),
        _ => err(K::UnexpectedChar, pos),
    }
}

/// One `OWS ";" OWS parameter` step starting at `pos` (just after the type or a value).
/// `Ok(None)` at the end of the header.
pub(super) fn grammar_next(
    h: &[u8],
    pos: usize,
    profile: Profile,
) -> Result<Option<(Param<'_>, usize)>, DispositionError> {
    use DispositionErrorKind as K;
    let mut at = skip(h, pos, WS);
    match h.get(at) {
        None => return Ok(None),
        Some(b';') => {}
        Some(_) => return Err(after_value_error(h, pos, at)),
    }
    let semi = at;
    at = skip(h, at + 1, WS);
    let name_start = at;
    at = skip(h, at, TCHAR);
    if at == name_start {
        return Err(match h.get(at) {
            None => err(K::TrailingSemicolon, semi),
            Some(b';') => err(K::EmptyParameter, at),
            Some(&c) if c >= 0x80 => err(K::NonAscii, at),
            Some(_) => err(K::InvalidName, at),
        });
    }
    let name = slice(h, name_start..at);
    let name_end = at;
    at = skip(h, at, WS);
    if h.get(at) != Some(&b'=') {
        // ASP.NET keeps `name` without a value (NameValueHeaderValue with a null value).
        if profile == Profile::DotNet && matches!(h.get(at), None | Some(b';')) {
            let p = Param::new(name, &[], Quoting::Token, false, name_start);
            return Ok(Some((p, name_end)));
        }
        return Err(match h.get(at) {
            Some(&c) if at == name_end && c >= 0x80 => err(K::NonAscii, at),
            Some(&c) if at == name_end && !matches!(c, b';' | b',') => err(K::UnexpectedChar, at),
            _ => err(K::MissingEquals, at),
        });
    }
    at = skip(h, at + 1, WS);
    let value_start = at;
    let (quoting, high) = if h.get(at) == Some(&b'"') {
        let (end, escaped, high) = quoted_end(h, at, profile)?;
        at = end;
        (Quoting::Quoted { escaped }, high)
    } else {
        at = skip(h, at, TCHAR);
        if at == value_start {
            return Err(match h.get(at) {
                Some(&c) if c >= 0x80 => err(K::NonAscii, at),
                _ => err(K::MissingValue, at),
            });
        }
        (Quoting::Token, false)
    };
    let raw = slice(h, value_start..at);
    let p = Param::new(
        name,
        raw,
        quoting,
        high && core::str::from_utf8(raw).is_err(),
        name_start,
    );
    Ok(Some((p, at)))
}

/// The end (one past the closing `"`) of the quoted string opening at `open`, whether it
/// holds a quoted-pair, and whether it holds obs-text (a byte above 0x7F).
fn quoted_end(
    h: &[u8],
    open: usize,
    profile: Profile,
) -> Result<(usize, bool, bool), DispositionError> {
    use DispositionErrorKind as K;
    let mut at = open + 1;
    let mut escaped = false;
    let mut high = false;
    loop {
        at = skip(h, at, QDTEXT);
        match h.get(at) {
            None => return Err(err(K::UnterminatedQuote, open)),
            Some(b'"') => return Ok((at + 1, escaped, high)),
            Some(b'\\') => {
                escaped = true;
                match h.get(at + 1) {
                    None => return Err(err(K::UnterminatedQuote, open)),
                    // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
                    Some(&c)
                        if profile == Profile::Strict && (c < 0x20 && c != b'\t' || c == 0x7F) =>
                    {
                        return Err(err(K::InvalidQuotedChar, at + 1));
                    }
                    Some(&c) => {
                        high |= c >= 0x80;
                        at += 2;
                    }
                }
            }
            // obs-text (RFC 9110 §5.6.4): qdtext in every profile.
            Some(&c) if c >= 0x80 => {
                high = true;
                at += 1;
            }
            Some(_) if profile == Profile::Strict => return Err(err(K::InvalidQuotedChar, at)),
            // .NET's quoted-string takes any character but `"`.
            Some(_) => at += 1,
        }
    }
}

/// Duplicate detection in linear time: a 256-bit filter over a hash of the lowercased name,
/// and an exact (case-insensitive) compare only with the earlier names of the same hash.
/// At most [`MAX_PARAMS`] entries, on the stack.
struct Seen {
    filter: [u64; 4],
    names: [(u16, u16, u8); MAX_PARAMS],
    len: usize,
}

impl Seen {
    fn new() -> Self {
        Seen {
            filter: [0; 4],
            names: [(0, 0, 0); MAX_PARAMS],
            len: 0,
        }
    }

    fn insert(&mut self, h: &[u8], name: &[u8], offset: usize) -> Result<(), DispositionError> {
        let mut x: u32 = 0x811C_9DC5;
        for &b in name {
            x = (x ^ u32::from(b.to_ascii_lowercase())).wrapping_mul(0x0100_0193);
        }
        let hash = (x ^ (x >> 8) ^ (x >> 16) ^ (x >> 24)) as u8;
        let (word, bit) = (usize::from(hash >> 6), 1u64 << (hash & 63));
        if self.filter.get(word).is_some_and(|w| w & bit != 0) {
            for &(start, len, hh) in self.names.iter().take(self.len) {
                let (start, len) = (usize::from(start), usize::from(len));
                // An earlier name of this header, so in bounds.
                let earlier = crate::bytes::slice(h, start..start + len);
                if hh == hash && earlier.eq_ignore_ascii_case(name) {
                    return Err(err(DispositionErrorKind::DuplicateParameter, offset));
                }
            }
        }
        if let Some(w) = self.filter.get_mut(word) {
            *w |= bit;
        }
        // Offsets fit in u16: the header is at most MAX_HEADER_LEN (16 KiB) long.
        if let Some(slot) = self.names.get_mut(self.len) {
            *slot = (offset as u16, name.len() as u16, hash);
            self.len += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::percent::ATTR_CHAR;

    fn members(class: u8) -> String {
        (0u8..=255)
            .filter(|&b| is(b, class))
            .map(char::from)
            .collect()
    }

    #[test]
    fn class_rows_are_the_rfc_sets() {
        let alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let sorted = |extra: &str| {
            let mut v: Vec<char> = alnum.chars().chain(extra.chars()).collect();
            v.sort_unstable();
            v.into_iter().collect::<String>()
        };
        assert_eq!(members(TCHAR), sorted("!#$%&'*+-.^_`|~"));
        assert_eq!(members(WS), "\t ");
        let qdtext: String = core::iter::once('\t')
            .chain(
                (0x20u8..=0x7E)
                    .filter(|&b| b != b'"' && b != b'\\')
                    .map(char::from),
            )
            .collect();
        assert_eq!(members(QDTEXT), qdtext);
        // attr-char is tchar minus the three an ext-value gives a meaning.
        for b in 0..=255u8 {
            assert_eq!(
                ATTR_CHAR.keeps(b),
                is(b, TCHAR) && !b"*'%".contains(&b),
                "{b:#x}"
            );
        }
    }

    #[test]
    fn duplicates_ignore_case_in_strict_only() {
        let h = "a; Name=1; nAME=2";
        let strict = parse_grammar(h.as_bytes(), Profile::Strict).unwrap_err();
        assert_eq!(
            (strict.kind, strict.offset),
            (DispositionErrorKind::DuplicateParameter, 11)
        );
        assert_eq!(
            parse_grammar(h.as_bytes(), Profile::DotNet).map(|cd| cd.param_count()),
            Ok(2)
        );
    }
}
