//! The direct well-formed decoders: straight into the destination's own memory, with no stack
//! buffer to zero and no copy out of it. `decode_well_formed_slice` (its byte loop
//! `decode_run`) decodes into a slice with room for the whole part; `decode_well_formed_into`
//! (a byte vector's new tail) and `decode_well_formed_string` (an empty `String`'s bytes) are
//! it, sized and checked for their destination.

use alloc::string::String;
use alloc::vec::Vec;

use crate::bytes::{slice, slice_mut};
use crate::percent::escape_at;
use crate::query::bytes_eq;
use crate::vector::PercentDecoder;

/// [`decode_well_formed`](super::decode_well_formed) for a byte sink: decodes straight into
/// the vector's new tail (sized to the input, as decoding never lengthens it). No stack buffer
/// to zero and no copy out of it: in a wasm guest the buffer's `memory.fill` and the copy were
/// both calls into the host, for every escaped part of a query.
///
/// What it wrote is then validated. When `raw` is text (a slice of a `&str` cut at ASCII
/// bytes), only the runs of escapes that decode to non-ASCII can make it invalid: every raw
/// run starts and ends on a character boundary, and a decoded `+`, `%` or ASCII escape is a
/// boundary too. So the byte loop validates each such run on its own as it decodes it, and
/// the rest is never read again (the vector loop does not; after it, everything is checked).
pub(super) fn decode_well_formed_into(
    raw: &[u8],
    strict: bool,
    text: bool,
    out: &mut Vec<u8>,
) -> Option<bool> {
    let mark = out.len();
    out.resize(mark + raw.len(), 0);
    let n = decode_well_formed_slice(raw, strict, text, true, slice_mut(out, mark..))?;
    out.truncate(mark + n);
    Some(true)
}

/// The longest value [`decode_well_formed_string`] tries a char at a time: `a=%41` pairs
/// ran 23% fewer instructions that way; with no cap on the length, realistic and UTF-8-heavy
/// queries ran 3-6% more (a capacity check per char, against `from_utf8`'s word-at-a-time
/// ASCII run, and a second start for values that turn out not to be ASCII). With this cap,
/// none ran more (BENCHMARKS.md, "Percent decoding").
const CHAR_AT_A_TIME: usize = 8;

/// [`decode_well_formed`](super::decode_well_formed) into an empty `String`: into its bytes,
/// taken as a vector (no stack buffer, and no copy out of it), then taken back as text by
/// `String::from_utf8`, which is the one UTF-8 check of what was written. Decoded bytes that
/// are not UTF-8 leave `out` empty and give `None`, as bad input does (the profile's decoders
/// then decide). Realistic and UTF-8-heavy queries ran 5-8% fewer instructions so, tiny pairs
/// 6% (BENCHMARKS.md, "Percent decoding").
pub(super) fn decode_well_formed_string(
    raw: &[u8],
    strict: bool,
    out: &mut String,
) -> Option<bool> {
    // A very short value a char at a time, while it decodes to ASCII: that needs no UTF-8
    // check at all, and the check's call costs more than such a value's decoding.
    if raw.len() <= CHAR_AT_A_TIME && push_ascii(raw, strict, out)? {
        return Some(true);
    }
    let mut bytes = core::mem::take(out).into_bytes();
    bytes.resize(raw.len(), 0);
    let written = decode_well_formed_slice(raw, strict, false, false, &mut bytes);
    // Nothing kept of a part the decoder gave up on.
    bytes.truncate(written.unwrap_or(0));
    match String::from_utf8(bytes) {
        Ok(text) => {
            *out = text;
            written.map(|_| true)
        }
        Err(e) => {
            // Not UTF-8: the room goes back, empty.
            let mut bytes = e.into_bytes();
            bytes.clear();
            *out = String::from_utf8(bytes).unwrap_or_default();
            None
        }
    }
}

/// Decodes `raw` onto the empty `out` a char at a time: `Some(true)` when all of it decoded
/// to ASCII; `Some(false)` at the first byte beyond ASCII, `None` at a `%` that starts no
/// escape under Strict, both with `out` left empty.
#[inline]
fn push_ascii(raw: &[u8], strict: bool, out: &mut String) -> Option<bool> {
    out.reserve(raw.len());
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        let v = decode_byte!(
            b at raw[i],
            malformed if strict => {
                out.clear();
                return None;
            }
        );
        if !v.is_ascii() {
            out.clear();
            return Some(false);
        }
        out.push(char::from(v));
    }
    Some(true)
}

/// [`decode_well_formed_into`]'s decoder: into `dst`, which has room for `raw.len()` bytes
/// (more are left as they were), returning how many it wrote. `None` as for
/// [`decode_well_formed`](super::decode_well_formed). With `check` (else the caller checks),
/// what it wrote is UTF-8.
#[inline(always)]
pub(super) fn decode_well_formed_slice(
    raw: &[u8],
    strict: bool,
    text: bool,
    check: bool,
    dst: &mut [u8],
) -> Option<usize> {
    // Less room would end the byte loop early: a silently shortened part.
    debug_assert!(dst.len() >= raw.len(), "room for the whole part");
    let (mut i, mut n) = (0, 0);
    let mut check_all = check && !text;
    if let Some(v) = (raw.len() >= VECTOR_MIN)
        .then(PercentDecoder::get)
        .flatten()
    {
        check_all = check;
        loop {
            let d = v.decode(raw, i, slice_mut(dst, n..), strict);
            if d.malformed {
                return None;
            }
            (i, n) = (d.next, n + d.written);
            // The end, or too little room left for a step: the byte loop finishes.
            if i == raw.len() || d.written == 0 {
                break;
            }
        }
    }
    // `dst` has room for every byte still to decode, so this runs to the end of `raw`.
    let n = decode_run(raw, i, dst, n, strict, check && !check_all)?;
    if check_all {
        core::str::from_utf8(slice(dst, ..n)).ok()?;
    }
    Some(n)
}

/// The direct decoder's byte loop: decodes `raw[i..]` into `dst[n..]` until the input
/// ends or `dst` is full. `None` at a `%` that starts no escape under Strict, and, with
/// `check_runs`, at a run of escapes that does not decode to UTF-8 on its own (see
/// [`decode_well_formed_into`]; `dst` must then have room for the whole input).
#[inline(always)]
fn decode_run(
    raw: &[u8],
    mut i: usize,
    dst: &mut [u8],
    mut n: usize,
    strict: bool,
    check_runs: bool,
) -> Option<usize> {
    while let (Some(&b), true) = (raw.get(i), n < dst.len()) {
        let v = decode_byte!(
            b at raw[i],
            // A run of escapes to non-ASCII is decoded whole, and checked on its own.
            escape v if check_runs && v >= 0x80 => {
                let start = n;
                while let (Some(v), Some(slot)) =
                    (raw.get(i..).and_then(escape_at), dst.get_mut(n))
                {
                    *slot = v;
                    i += 3;
                    n += 1;
                }
                if !is_utf8_run(slice(dst, start..n)) {
                    return None;
                }
                continue;
            },
            malformed if strict => return None,
            plain => {
                // A plain byte starts a run: up to eight of it go in one step, a word copied
                // whole and the position moved past its plain bytes only (in wasm every
                // iteration pays the host's loop check, so fewer pay less).
                if let (Some(word), Some(slot)) = (
                    slice(raw, i..).first_chunk::<8>(),
                    dst.get_mut(n..).and_then(|d| d.first_chunk_mut::<8>()),
                ) {
                    *slot = *word;
                    let w = u64::from_le_bytes(*word);
                    let special = bytes_eq(w, b'%') | bytes_eq(w, b'+');
                    // At least 1: `b`, the first byte, is plain.
                    let k = if special == 0 {
                        8
                    } else {
                        (special.trailing_zeros() / 8) as usize
                    };
                    i += k;
                    n += k;
                    continue;
                }
                // Fewer than eight bytes left: the plain ones go in a loop of their own, not
                // one trip each through the dispatch above (in a wasm guest that trip cost
                // about 40 instructions a byte, with its spills).
                while let (Some(&c), Some(slot)) = (raw.get(i), dst.get_mut(n)) {
                    if c == b'%' || c == b'+' {
                        break;
                    }
                    *slot = c;
                    i += 1;
                    n += 1;
                }
                continue;
            }
        );
        // `n < dst.len()`, checked by the loop.
        if let Some(slot) = dst.get_mut(n) {
            *slot = v;
        }
        n += 1;
    }
    Some(n)
}

/// Whether a run of decoded escapes is UTF-8. A two-byte character (Latin, Greek, Cyrillic,
/// Hebrew, Arabic: the usual run in a query) is checked in place by RFC 3629's rule for it,
/// `UTF8-2 = %xC2-DF UTF8-tail` (section 4); anything else goes to `core::str::from_utf8`.
/// In a wasm guest that call, for two bytes, cost more than the escapes' decoding.
#[inline(always)]
fn is_utf8_run(run: &[u8]) -> bool {
    match *run {
        [0xC2..=0xDF, tail] => tail & 0xC0 == 0x80,
        _ => core::str::from_utf8(run).is_ok(),
    }
}

/// Values shorter than this never reach the vector decoder. It needs 16 bytes, and on values
/// of 20-80 bytes (escaped UTF-8 text in a search box) it ran 15% fewer instructions than the
/// byte loop but was no faster, slower in most runs (0.85-1.25 of its time): the decoded bytes
/// are read back (validation, the copy into the sink) right after its overlapping 16- and
/// 8-byte stores, likely before they can be forwarded. From a few steps on, the steps win
/// (2-4x on 8 KB of escapes). BENCHMARKS.md, "Percent decoding".
pub(super) const VECTOR_MIN: usize = 64;

#[cfg(test)]
mod tests {
    use super::is_utf8_run;

    /// The in-place check of a two-byte run agrees with `from_utf8` on every two bytes (and
    /// so on the ones it hands on).
    #[test]
    fn two_byte_runs_checked_as_from_utf8_does() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let run = [a, b];
                assert_eq!(
                    is_utf8_run(&run),
                    core::str::from_utf8(&run).is_ok(),
                    "{run:x?}"
                );
            }
        }
    }
}
