//! Browser: Chromium's HttpContentDisposition::Parse over HttpUtil::NameValuePairsIterator.
//! The type is the text before the first `;` if it is a token; parameters are `;`-separated
//! values (a `;` inside quotes does not split, `\` escapes inside quotes), empty ones skipped,
//! and reading stops at the first value without `=`, with an empty name, or with a quote
//! before its `=`.

use super::grammar::{is, is_token, sub, WS};
use super::{
    err, ContentDisposition, DispositionError, DispositionErrorKind, Param, Profile, Quoting, Tally,
};
use crate::bytes::{slice, str_slice};

pub(super) fn parse_browser(h: &[u8]) -> Result<ContentDisposition<'_>, DispositionError> {
    let s = core::str::from_utf8(h)
        .map_err(|e| err(DispositionErrorKind::InvalidUtf8, e.valid_up_to()))?;
    let b = s.as_bytes();
    let semi = memchr::memchr(b';', b).unwrap_or(b.len());
    let (t0, t1) = trim_lws(b, 0, semi);
    let (kind, params_at) = match b.get(t0..t1) {
        // A token is ASCII, so its ends are character boundaries.
        Some(t) if is_token(t) => (str_slice(s, t0..t1), t1),
        _ => ("inline", 0),
    };
    let mut tally = Tally::default();
    let mut pos = params_at;
    while let Some((p, next)) = browser_next(h, s, pos)? {
        tally.add(p)?;
        pos = next;
    }
    Ok(tally.finish(s, kind, params_at, Profile::Browser))
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

pub(super) fn browser_next<'a>(
    h: &[u8],
    text: &'a str,
    mut pos: usize,
) -> Result<Option<(Param<'a>, usize)>, DispositionError> {
    loop {
        if pos >= h.len() {
            return Ok(None);
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
                return Ok(None);
            }
            pos = end;
            continue;
        }
        let item = slice(h, v0..v1);
        let Some(eq) = memchr::memchr(b'=', item) else {
            return Ok(None);
        };
        if eq == 0 || memchr::memchr(b'"', slice(item, ..eq)).is_some() {
            return Ok(None);
        }
        let (n0, n1) = trim_lws(h, v0, v0 + eq);
        let (r0, r1) = trim_lws(h, v0 + eq + 1, v1);
        let name = sub(text, n0, n1)?;
        let raw = sub(text, r0, r1)?;
        let rb = raw.as_bytes();
        let quoting = match rb.first() {
            Some(b'"') if rb.len() > 1 && rb.last() == Some(&b'"') => Quoting::Quoted {
                escaped: memchr::memchr(b'\\', rb).is_some(),
            },
            Some(b'"') => Quoting::Unbalanced,
            _ => Quoting::Token,
        };
        return Ok(Some((
            Param {
                name,
                raw,
                quoting,
                offset: n0,
            },
            next,
        )));
    }
}
