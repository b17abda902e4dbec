//! Bad escapes in text: the decoder for a part that is UTF-8 as written but whose escapes are
//! not (or, under Strict, hold a malformed `%`). Only the escape runs that spell no whole
//! character go on to the ill-formed decoder.

use super::ill_formed::{decode_ill_formed, EscapeRun};
use super::Sink;
use crate::bytes::{slice, str_slice};
use crate::percent::{escape_at, escape_run_len};
use crate::query::{Profile, QueryError, CLASS, ESCAPES, PLUS};

/// Decodes text (valid UTF-8) that the well-formed decoder gave up on. Raw runs go to the sink
/// as they are and only runs of consecutive `%XX` escapes need UTF-8 validation. A raw run
/// always starts on a character boundary, so an incomplete sequence at the end of an escape
/// run is invalid whatever follows: handling each escape run on its own gives exactly the
/// WHATWG byte-stream result.
pub(super) fn decode_text_with_bad_escapes<S: Sink>(
    text: &str,
    base: usize,
    profile: Profile,
    sink: &mut S,
) -> Result<bool, QueryError> {
    let bytes = text.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let class = crate::bytes::row(&CLASS, b);
        if class & ESCAPES == 0 {
            i += 1;
            continue;
        }
        // `run` and `i` sit at ASCII bytes (or just past whole escapes): char boundaries.
        if run < i && !sink.put(str_slice(text, run..i)) {
            return Ok(false);
        }
        let rest = slice(bytes, i..);
        let (ok, width) = if class == PLUS {
            (sink.put_ascii(b' '), 1)
        } else {
            match escape_at(rest) {
                None => {
                    profile.malformed_escape(base + i)?;
                    (sink.put_ascii(b'%'), 1)
                }
                Some(v) if v < 0x80 => (sink.put_ascii(v), 3),
                Some(v) => match escaped_char(v, rest) {
                    Some((c, width)) => (sink.put(c.encode_utf8(&mut [0; 4])), width),
                    // Not a whole valid sequence: the profile decides over the escape run.
                    None => {
                        let width = 3 * escape_run_len(rest);
                        let escapes = slice(rest, ..width);
                        (
                            decode_ill_formed(escapes, EscapeRun, base + i, profile, sink)?,
                            width,
                        )
                    }
                },
            }
        };
        if !ok {
            return Ok(false);
        }
        i += width;
        run = i;
    }
    if run < bytes.len() && !sink.put(str_slice(text, run..)) {
        return Ok(false);
    }
    Ok(true)
}

/// The character escaped by the valid UTF-8 sequence of escapes at the start of `rest`, whose
/// first escape decodes to `lead` (not ASCII), and how many input bytes it spans.
#[inline]
fn escaped_char(lead: u8, rest: &[u8]) -> Option<(char, usize)> {
    let len = match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let mut seq = [lead, 0, 0, 0];
    for (k, byte) in seq.iter_mut().enumerate().take(len).skip(1) {
        *byte = rest.get(3 * k..).and_then(escape_at)?;
    }
    let s = core::str::from_utf8(slice(&seq, ..len)).ok()?;
    Some((s.chars().next()?, 3 * len))
}
