//! Browser: Chromium's HttpContentDisposition::Parse over HttpUtil::NameValuePairsIterator.
//! The type is the text before the first `;` if it is a token; parameters are `;`-separated
//! values (a `;` inside quotes does not split, `\` escapes inside quotes), empty ones skipped,
//! and reading stops at the first value without `=`, with an empty name, or with a quote
//! before its `=`.

use super::grammar::{is, is_token, WS};
use super::{ContentDisposition, DispositionError, Param, Profile, Quoting, Tally};
use crate::bytes::slice;

// Out of line, as `parse_grammar` is: `ContentDisposition::parse` stays a small frame.
#[inline(never)]
pub(super) fn parse_browser(b: &[u8]) -> Result<ContentDisposition<'_>, DispositionError> {
    let semi = memchr::memchr(b';', b).unwrap_or(b.len());
    let (t0, t1) = trim_lws(b, 0, semi);
    let (kind, params_at) = match b.get(t0..t1) {
        Some(t) if is_token(t) => (t, t1),
        _ => (&b"inline"[..], 0),
    };
    let mut tally = Tally::default();
    let mut pos = params_at;
    while let Some((p, next)) = browser_next(b, pos) {
        tally.add(b, &p)?;
        pos = next;
    }
    Ok(tally.finish(b, kind, params_at, Profile::Browser))
}

fn trim_lws(b: &[u8], mut from: usize, mut to: usize) -> (usize, usize) {
    while from < to && b.get(from).is_some_and(|&c| is(c, WS)) {
        from += 1;
    }
    while to > from && b.get(to - 1).is_some_and(|&c| is(c, WS)) {
        to -= 1;
    }
    (from, to)
}

/// End of the `;`-delimited value starting at `pos`, honouring quotes.
fn browser_value_end(b: &[u8], mut pos: usize) -> usize {
    let mut quoted = false;
    while let Some(&c) = b.get(pos) {
        match c {
            b'"' => quoted = !quoted,
            b'\\' if quoted => pos += 1,
            b';' if !quoted => return pos,
            _ => {}
        }
        pos += 1;
    }
    b.len()
}

/// The next parameter from `pos`; `None` at the end or where Chromium stops reading (a value
/// without `=`, an empty name, a quote before the `=`; and here a name that is not UTF-8).
pub(super) fn browser_next(h: &[u8], mut pos: usize) -> Option<(Param<'_>, usize)> {
    loop {
        if pos >= h.len() {
            return None;
        }
        if h.get(pos) == Some(&b';') {
            pos += 1;
        }
        let end = browser_value_end(h, pos);
        let (v0, v1) = trim_lws(h, pos, end);
        let next = end;
        if v0 == v1 {
            // Empty values are skipped (ValuesIterator's ignore_empty_values).
            if end >= h.len() {
                return None;
            }
            pos = end;
            continue;
        }
        let item = slice(h, v0..v1);
        let eq = memchr::memchr(b'=', item)?;
        if eq == 0 || memchr::memchr(b'"', slice(item, ..eq)).is_some() {
            return None;
        }
        let (n0, n1) = trim_lws(h, v0, v0 + eq);
        let (r0, r1) = trim_lws(h, v0 + eq + 1, v1);
        let name = slice(h, n0..n1);
        if core::str::from_utf8(name).is_err() {
            // `Param::name` is text; a parameter name is never anything but ASCII in practice.
            return None;
        }
        let rb = slice(h, r0..r1);
        let quoting = match rb.first() {
            Some(b'"') if rb.len() > 1 && rb.last() == Some(&b'"') => Quoting::Quoted {
                escaped: memchr::memchr(b'\\', rb).is_some(),
            },
            Some(b'"') => Quoting::Unbalanced,
            _ => Quoting::Token,
        };
        let latin1 = !rb.is_ascii() && core::str::from_utf8(rb).is_err();
        return Some((Param::new(name, rb, quoting, latin1, n0), next));
    }
}
