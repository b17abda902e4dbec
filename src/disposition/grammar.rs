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
use crate::bytes::{set, set_qdtext, set_tchar, slice};

// Byte classes: one table, one bit per class, one `set` call per grammar row. (RFC 8187
// attr-char, tchar minus `*` `'` `%`, is the percent toolbox's `ATTR_CHAR`.)
/// tchar (RFC 9110 §5.6.2): ALPHA DIGIT ! # $ % & ' * + - . ^ _ ` | ~
pub(super) const TCHAR: u8 = 1;
/// qdtext (RFC 9110 §5.6.4), ASCII part: HTAB SP ! #-[ ]-~ (no `"`, no `\`)
const QDTEXT: u8 = 2;
/// OWS: SP HTAB
pub(super) const WS: u8 = 4;
/// qdtext with obs-text (RFC 9110 §5.6.4): the qdtext row and 0x80-0xFF
const QDTEXT_OBS: u8 = 8;

/// The classes the parsers and the builder share.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    // tchar: ALPHA DIGIT ! # $ % & ' * + - . ^ _ ` | ~
    set_tchar(&mut t, TCHAR);
    // qdtext: HTAB, SP, ! and #-[ and ]-~ (every visible character but `"` and `\`)
    set_qdtext(&mut t, QDTEXT, false);
    // OWS: SP HTAB
    set(&mut t, b" \t", WS);
    // qdtext with obs-text: the qdtext row again, and obs-text 0x80-0xFF
    set_qdtext(&mut t, QDTEXT_OBS, true);
    t
};

#[inline]
pub(super) fn is(b: u8, class: u8) -> bool {
    crate::bytes::row(&CLASS, b) & class != 0
}

/// The end of the run of `class` bytes (`class` one bit) from `pos`, eight bytes per step
/// while they last: tokens and quoted strings are long enough for that to pay (one table
/// lookup and AND per byte, one branch per eight), whitespace runs ([`skip`]) are not.
#[inline]
fn run(b: &[u8], mut pos: usize, class: u8) -> usize {
    while let Some(chunk) = b.get(pos..).and_then(<[u8]>::first_chunk::<8>) {
        if chunk
            .iter()
            .fold(class, |all, &c| all & crate::bytes::row(&CLASS, c))
            == 0
        {
            break;
        }
        pos += 8;
    }
    skip(b, pos, class)
}

/// [`run`] for quoted strings, eight bytes per step with SWAR arithmetic instead of table
/// lookups: the first byte that is `"`, `\`, a control (HTAB too, which the byte loop then
/// takes as qdtext), DEL, or (unless `obs`) above 0x7F stops it, at its exact position.
/// (`v - 0x01..01 & !v & 0x80..80` flags the zero bytes of `v`, exactly up to the lowest one;
/// `trailing_zeros` reads only that one.)
#[inline]
fn qd_run(b: &[u8], mut pos: usize, obs: bool) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    while let Some(chunk) = b.get(pos..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*chunk);
        let mut stop = zero(x ^ (ONES * u64::from(b'"')))
            | zero(x ^ (ONES * u64::from(b'\\')))
            | zero(x ^ (ONES * 0x7F))
            | (x.wrapping_sub(ONES * 0x20) & !x & HIGH);
        if !obs {
            stop |= x & HIGH;
        }
        if stop != 0 {
            pos += (stop.trailing_zeros() / 8) as usize;
            break;
        }
        pos += 8;
    }
    skip(b, pos, if obs { QDTEXT_OBS } else { QDTEXT })
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

// Out of line, so that `ContentDisposition::parse` stays a small frame for its whole-header
// shortcut (inlined, this grammar made `parse` save six registers and reserve 776 bytes of
// stack before it compared a byte).
#[inline(never)]
pub(super) fn parse_grammar(
    h: &[u8],
    profile: Profile,
) -> Result<ContentDisposition<'_>, DispositionError> {
    parse_grammar_with::<false, false>(h, profile)
}

/// [`parse_grammar`]; with `LITERAL`, a `\` in a quoted string is an ordinary byte (HTML's
/// multipart encoding sends it raw), not the start of a quoted-pair; with `FOLDS`, a fold
/// (see [`ows`]) is whitespace. (Const parameters: the usual reading pays nothing for the
/// others.)
pub(super) fn parse_grammar_with<const LITERAL: bool, const FOLDS: bool>(
    h: &[u8],
    profile: Profile,
) -> Result<ContentDisposition<'_>, DispositionError> {
    use DispositionErrorKind as K;
    let start = ows::<FOLDS>(h, 0);
    let end = run(h, start, TCHAR);
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
    while let Some((p, next)) = grammar_next_with::<LITERAL, FOLDS>(h, pos, profile)? {
        tally.add(h, &p)?;
        if profile == Profile::Strict {
            // A section name (`name*N`, `name*N*`) ends in a digit or `*`; only those are looked
            // at further.
            let maybe_section = matches!(p.name.last(), Some(b'0'..=b'9' | b'*'));
            if let Some((_, n, _)) = maybe_section.then(|| section(p.name)).flatten() {
                if n >= MAX_SECTIONS {
                    return Err(err(K::SectionLimit, p.offset()));
                }
            }
            seen.insert(h, end, p.name, p.offset())?;
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

/// OWS from `pos`: SP and HTAB, and with `FOLDS` also folds, a line break (CRLF or LF)
/// followed by SP or HTAB: a folded header value (RFC 5322 §2.2.3 obs-fold, which a
/// multipart reader's lenient profile unfolds), whose folds fall where whitespace may (.NET's
/// `HttpRuleParser.GetWhitespaceLength` takes CRLF SP the same way).
#[inline(always)]
fn ows<const FOLDS: bool>(h: &[u8], pos: usize) -> usize {
    let mut at = skip(h, pos, WS);
    if FOLDS {
        loop {
            let nl = match h.get(at..) {
                Some([b'\r', b'\n', b' ' | b'\t', ..]) => 2,
                Some([b'\n', b' ' | b'\t', ..]) => 1,
                _ => break,
            };
            at = skip(h, at + nl, WS);
        }
    }
    at
}

/// One `OWS ";" OWS parameter` step starting at `pos` (just after the type or a value).
/// `Ok(None)` at the end of the header. With `LITERAL`, `\` is an ordinary byte in quoted
/// strings, with `FOLDS` a fold is whitespace (see [`parse_grammar_with`]). Always inlined:
/// in the parse loop the parameter stays in registers instead of going through a returned
/// `Result<Option<..>>`.
#[inline(always)]
pub(super) fn grammar_next_with<const LITERAL: bool, const FOLDS: bool>(
    h: &[u8],
    pos: usize,
    profile: Profile,
) -> Result<Option<(Param<'_>, usize)>, DispositionError> {
    use DispositionErrorKind as K;
    let mut at = ows::<FOLDS>(h, pos);
    match h.get(at) {
        None => return Ok(None),
        Some(b';') => {}
        Some(_) => return Err(after_value_error(h, pos, at)),
    }
    let semi = at;
    at = ows::<FOLDS>(h, at + 1);
    let name_start = at;
    at = run(h, at, TCHAR);
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
    at = ows::<FOLDS>(h, at);
    if h.get(at) != Some(&b'=') {
        // ASP.NET keeps `name` without a value (NameValueHeaderValue with a null value).
        if profile == Profile::DotNet && matches!(h.get(at), None | Some(b';')) {
            // Its value: the empty slice where the name ends. Every value is a slice of the
            // header: the filename scan finds a value's place from its address (a static `&[]`
            // has none there: `attachment; filename` overflowed that subtraction).
            let p = Param::new(
                name,
                slice(h, name_end..name_end),
                Quoting::Token,
                false,
                name_start,
            );
            return Ok(Some((p, name_end)));
        }
        return Err(match h.get(at) {
            Some(&c) if at == name_end && c >= 0x80 => err(K::NonAscii, at),
            Some(&c) if at == name_end && !matches!(c, b';' | b',') => err(K::UnexpectedChar, at),
            _ => err(K::MissingEquals, at),
        });
    }
    at = ows::<FOLDS>(h, at + 1);
    let value_start = at;
    let (quoting, high) = if h.get(at) == Some(&b'"') {
        let (end, escaped, high) = quoted_end::<LITERAL>(h, at, profile)?;
        at = end;
        (Quoting::Quoted { escaped }, high)
    } else {
        at = run(h, at, TCHAR);
        if at == value_start {
            return Err(match h.get(at) {
                Some(&c) if c >= 0x80 => err(K::NonAscii, at),
                _ => err(K::MissingValue, at),
            });
        }
        // tchar: ASCII.
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
/// holds a quoted-pair, and whether it holds obs-text (0x80-0xFF, qdtext in every profile).
/// Always inlined into [`grammar_next_with`]: its call overhead was a third of its cost.
#[inline(always)]
fn quoted_end<const LITERAL: bool>(
    h: &[u8],
    open: usize,
    profile: Profile,
) -> Result<(usize, bool, bool), DispositionError> {
    use DispositionErrorKind as K;
    let mut at = open + 1;
    let mut escaped = false;
    // ASCII qdtext until the first obs-text byte, then qdtext with obs-text: an ASCII value
    // is never looked at twice to learn that it is ASCII.
    let mut class = QDTEXT;
    loop {
        at = qd_run(h, at, class == QDTEXT_OBS);
        match h.get(at) {
            None => return Err(err(K::UnterminatedQuote, open)),
            Some(b'"') => return Ok((at + 1, escaped, class == QDTEXT_OBS)),
            // HTML's multipart encoding: the first `"` ends the string, `\` is a byte.
            Some(b'\\') if LITERAL => at += 1,
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
                        if c >= 0x80 {
                            class = QDTEXT_OBS;
                        }
                        at += 2;
                    }
                }
            }
            Some(&c) if c >= 0x80 => class = QDTEXT_OBS,
            Some(_) if profile == Profile::Strict => return Err(err(K::InvalidQuotedChar, at)),
            // .NET's quoted-string takes any character but `"`.
            Some(_) => at += 1,
        }
    }
}

/// Duplicate detection in linear time: a 256-bit filter over a hash of the lowercased name,
/// and an exact (case-insensitive) compare only with the earlier names of the same hash,
/// found through a chain per hash. The table of earlier names (on the stack, at most
/// [`MAX_PARAMS`]) is built only at the first filter hit, by one re-scan of the parameters
/// before it: most headers never need it, so they never pay for its initialisation.
struct Seen {
    filter: [u64; 4],
    /// Every name so far, once a filter hit asked for them.
    table: Option<Names>,
    len: usize,
}

/// Earlier names chained by hash: `heads[hash]` and each `next` are 1 + an index into
/// `names` (0: the end of the chain), so each compare is with a name of the same hash.
struct Names {
    heads: [u8; 256],
    /// `(name offset, next of the same hash)`.
    names: [(u16, u8); MAX_PARAMS],
}

// Chain links are `u8`, 1 + an index.
const _: () = assert!(MAX_PARAMS < 255);

impl Names {
    fn push(&mut self, index: usize, offset: usize, hash: u8) {
        let head = crate::bytes::row_mut(&mut self.heads, hash);
        if let Some(slot) = self.names.get_mut(index) {
            // Offsets fit in u16: the header is at most MAX_HEADER_LEN (16 KiB) long; the
            // index is below MAX_PARAMS, checked before a parameter is noted.
            *slot = (offset as u16, *head);
            *head = (index + 1) as u8;
        }
    }

    /// Whether an earlier name with this hash is `name`, ignoring ASCII case.
    fn contains(&self, h: &[u8], hash: u8, name: &[u8]) -> bool {
        let mut link = crate::bytes::row(&self.heads, hash);
        while let Some(&(start, next)) = usize::from(link)
            .checked_sub(1)
            .and_then(|i| self.names.get(i))
        {
            let start = usize::from(start);
            // An earlier name of this header (a token), so in bounds.
            if slice(h, start..skip(h, start, TCHAR)).eq_ignore_ascii_case(name) {
                return true;
            }
            link = next;
        }
        false
    }
}

/// A hash of the name, ASCII case folded: its length and its first two and last two bytes
/// (constant time; names that differ only in the middle share a bucket, and the exact compare
/// tells them apart).
fn name_hash(name: &[u8]) -> u8 {
    let at = |i: usize| u32::from(name.get(i).map_or(0, |b| b | 0x20));
    let n = name.len();
    let x = (n as u32)
        .wrapping_mul(0x9E37_79B9)
        .wrapping_add(
            at(0) << 24 | at(1) << 16 | at(n.wrapping_sub(2)) << 8 | at(n.wrapping_sub(1)),
        )
        .wrapping_mul(0x0100_0193);
    (x >> 24) as u8
}

impl Seen {
    fn new() -> Self {
        Seen {
            filter: [0; 4],
            table: None,
            len: 0,
        }
    }

    /// Notes the name at `offset`; the parameters of `h` start at `params_at`.
    fn insert(
        &mut self,
        h: &[u8],
        params_at: usize,
        name: &[u8],
        offset: usize,
    ) -> Result<(), DispositionError> {
        let hash = name_hash(name);
        let (word, bit) = (usize::from(hash >> 6), 1u64 << (hash & 63));
        let hit = self.filter.get(word).is_some_and(|w| w & bit != 0);
        if let Some(w) = self.filter.get_mut(word) {
            *w |= bit;
        }
        let table = match (&mut self.table, hit) {
            (Some(table), _) => table,
            (None, false) => {
                self.len += 1;
                return Ok(());
            }
            (table @ None, true) => table.insert(earlier_names(h, params_at, self.len)),
        };
        if table.contains(h, hash, name) {
            return Err(err(DispositionErrorKind::DuplicateParameter, offset));
        }
        table.push(self.len, offset, hash);
        self.len += 1;
        Ok(())
    }
}

/// The first `n` names from `params_at` (already validated), for [`Seen`]'s table.
#[cold]
fn earlier_names(h: &[u8], mut pos: usize, n: usize) -> Names {
    let mut table = Names {
        heads: [0; 256],
        names: [(0, 0); MAX_PARAMS],
    };
    for index in 0..n {
        let Ok(Some((p, next))) = grammar_next_with::<false, false>(h, pos, Profile::Strict) else {
            break;
        };
        table.push(index, p.offset(), name_hash(p.name));
        pos = next;
    }
    table
}

#[cfg(test)]
mod tests {
    /// With `FOLDS` (a lenient multipart part's folded header), a line break followed by SP or
    /// HTAB is whitespace wherever OWS is, and what a quoted string holds; without, an error.
    #[test]
    fn folds_are_whitespace_only_when_asked() {
        use super::super::{ContentDisposition, Profile};
        let h = b"form-data;\r\n name=\"a\r\n b\"\n\t; filename\r\n =\r\n\t\"f.txt\"";
        let cd = ContentDisposition::parse_folded(h).unwrap();
        assert_eq!(cd.param("name").as_deref(), Some("a\r\n b"));
        assert_eq!(cd.filename().as_deref(), Some("f.txt"));
        assert_eq!(
            cd.into_owned().get().param("filename").as_deref(),
            Some("f.txt")
        );
        assert!(ContentDisposition::parse(h, Profile::DotNet).is_err());
        // A line break not followed by whitespace is no fold.
        let e = ContentDisposition::parse_folded(b"form-data;\r\nname=a").unwrap_err();
        assert_eq!(e.offset, 10);
    }

    use super::*;
    use crate::percent::ATTR_CHAR;

    fn members(class: u8) -> String {
        (0u8..=255)
            .filter(|&b| is(b, class))
            .map(char::from)
            .collect()
    }

    /// `ContentDisposition::parse` answers `inline` and `attachment` without the grammar:
    /// what it answers must be what the grammar answers, and only for those bytes exactly.
    #[test]
    fn whole_header_shortcut_is_the_grammar() {
        for h in [
            &b"inline"[..],
            b"attachment",
            b"Inline",
            b"inline ",
            b" inline",
            b"inlinE",
        ] {
            for p in [Profile::Strict, Profile::DotNet] {
                assert_eq!(
                    ContentDisposition::parse(h, p),
                    parse_grammar(h, p),
                    "{h:?} {p:?}"
                );
            }
        }
    }

    /// A DotNet parameter without a value is kept, its value the empty slice where its name
    /// ends: inside the header, where the filename scan places values by their address. (It
    /// was a static `&[]`: `filename` without a value overflowed that subtraction, found by
    /// the component's multipart property test.)
    #[test]
    fn a_value_less_parameter_lies_in_the_header() {
        for h in [
            &b"attachment; filename"[..],
            b"form-data; name=\"a\"; filename",
            b"form-data; filename ; name=a",
            b"attachment; FILENAME; filename=x",
        ] {
            let mut pos = run(h, 0, TCHAR);
            while let Ok(Some((p, next))) =
                grammar_next_with::<false, false>(h, pos, Profile::DotNet)
            {
                let at = crate::bytes::offset_in(h, p.raw);
                assert!(at.is_some(), "{h:?}: {:?}", p.name);
                pos = next;
            }
            for cd in [
                ContentDisposition::parse(h, Profile::DotNet),
                ContentDisposition::parse_form_data(h),
            ] {
                let cd = cd.unwrap_or_else(|e| panic!("{h:?}: {e:?}"));
                assert_eq!(cd.filename().as_deref(), Some(""), "{h:?}");
            }
        }
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
        let obs: String = (0x80u8..=0xFF).map(char::from).collect();
        assert_eq!(members(QDTEXT_OBS), qdtext + &obs);
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
    fn swar_runs_stop_where_the_table_does() {
        let check = |buf: &[u8]| {
            for from in 0..4 {
                assert_eq!(qd_run(buf, from, false), skip(buf, from, QDTEXT), "{buf:?}");
                assert_eq!(
                    qd_run(buf, from, true),
                    skip(buf, from, QDTEXT_OBS),
                    "{buf:?}"
                );
                for class in [TCHAR, QDTEXT, QDTEXT_OBS] {
                    assert_eq!(run(buf, from, class), skip(buf, from, class), "{buf:?}");
                }
            }
        };
        // Every byte at every position of a run longer than two steps.
        for c in 0..=255u8 {
            for i in 0..20 {
                let mut buf = [b'x'; 20];
                buf[i] = c;
                check(&buf);
            }
        }
        // Several stops at once (xorshift, so the test is deterministic).
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            let mut buf = [b'x'; 24];
            for _ in 0..3 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                buf[(x % 24) as usize] = (x >> 32) as u8;
            }
            check(&buf);
        }
    }

    #[test]
    fn duplicates_found_past_filter_hits() {
        // 60 names in a 256-bit filter collide (the table is built at the first hit), and a
        // duplicate is still found wherever it comes.
        let mut h = String::from("a");
        for i in 0..60 {
            h.push_str(&format!("; p{i}=v"));
        }
        let hits = (0..60)
            .map(|i| name_hash(format!("p{i}").as_bytes()))
            .collect::<std::collections::HashSet<_>>();
        assert!(hits.len() < 60, "no filter hit to exercise");
        assert_eq!(
            parse_grammar(h.as_bytes(), Profile::Strict).map(|cd| cd.param_count()),
            Ok(60)
        );
        for dup in ["p0", "P7", "p59"] {
            let d = format!("{h}; {dup}=w");
            let e = parse_grammar(d.as_bytes(), Profile::Strict).unwrap_err();
            assert_eq!(
                (e.kind, e.offset),
                (DispositionErrorKind::DuplicateParameter, h.len() + 2),
                "{dup}"
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
