//! [`decode_spans`]: every pair decoded at once into caller-owned buffers, described by
//! 31-bit spans, which is what the wasm faces hand across their boundary (one copy of the
//! decoded text and a flat `u32` list instead of a string per name and value).
#![forbid(unsafe_code)]

use alloc::vec::Vec;

use super::decode::Part;
use super::{Pairs, Profile, QueryError, QueryErrorKind};
use crate::bytes::slice_mut;

/// Marks a span that points into `out` (decoded text) rather than into the input.
///
/// ```
/// use reqparse::query::{decode_spans, Profile, SPAN_DECODED};
///
/// let (mut out, mut spans) = (Vec::new(), Vec::new());
/// decode_spans(b"a%21", Profile::Whatwg, &mut out, &mut spans)?;
/// assert!(spans[0] & SPAN_DECODED != 0);
/// let (start, end) = ((spans[0] & !SPAN_DECODED) as usize, (spans[1] & !SPAN_DECODED) as usize);
/// assert_eq!(&out[start..end], b"a!");
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
pub const SPAN_DECODED: u32 = 1 << 31;

/// Inputs and decoded text stay below this, so every span fits in 31 bits.
const LIMIT: usize = SPAN_DECODED as usize;

/// Decodes every pair of `input` into `out` and describes them in `spans`, reusing the
/// caller's buffers (both are cleared first; nothing is allocated once they have capacity).
/// While it decodes, `out` is as long as the input (less what comes before the first part to
/// decode), and it ends as long as the decoded text.
///
/// Per pair, four `u32` are pushed: `name_start, name_end, value_start, value_end`. A span with
/// [`SPAN_DECODED`] (`1 << 31`) set points into `out` (the bit is set on both ends); otherwise it
/// points into `input`, which had nothing to decode. Returns the number of pairs. Inputs and
/// outputs must fit in 31 bits (`TooLarge` otherwise).
///
/// ```
/// use reqparse::query::{decode_spans, Profile, SPAN_DECODED};
///
/// let (mut out, mut spans) = (Vec::new(), Vec::new());
/// let n = decode_spans(b"?a=1&b=x+y", Profile::Whatwg, &mut out, &mut spans)?;
/// assert_eq!(n, 2);
/// assert_eq!(&spans[..4], [1, 2, 3, 4]);
/// assert_eq!(&spans[4..], [5, 6, SPAN_DECODED, SPAN_DECODED | 3]);
/// assert_eq!(out, b"x y");
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
pub fn decode_spans(
    input: &[u8],
    profile: Profile,
    out: &mut Vec<u8>,
    spans: &mut Vec<u32>,
) -> Result<usize, QueryError> {
    spans_of(Pairs::new(input), input.len(), profile, out, spans)
}

/// [`decode_spans`] for a query that is already text: the same spans and the same decoded
/// bytes, without checking that plain parts are UTF-8 (a `&str` split at ASCII bytes is).
/// The component's face calls it: a guest's byte loops pay an epoch check per iteration, so
/// a validation pass it can skip is worth more there than natively.
///
/// ```
/// use reqparse::query::{decode_spans, decode_str_spans, Profile};
///
/// let (mut out, mut spans) = (Vec::new(), Vec::new());
/// let n = decode_str_spans("?q=caf%C3%A9&page=2", Profile::Whatwg, &mut out, &mut spans)?;
/// assert_eq!((n, out.as_slice()), (2, "café".as_bytes()));
/// let (mut out2, mut spans2) = (Vec::new(), Vec::new());
/// decode_spans(b"?q=caf%C3%A9&page=2", Profile::Whatwg, &mut out2, &mut spans2)?;
/// assert_eq!((out, spans), (out2, spans2));
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
pub fn decode_str_spans(
    input: &str,
    profile: Profile,
    out: &mut Vec<u8>,
    spans: &mut Vec<u32>,
) -> Result<usize, QueryError> {
    spans_of(super::pairs(input), input.len(), profile, out, spans)
}

/// The loop behind both entry points; a part of a text input (`part.text` set) is UTF-8.
fn spans_of(
    mut pairs: Pairs<'_>,
    len: usize,
    profile: Profile,
    out: &mut Vec<u8>,
    spans: &mut Vec<u32>,
) -> Result<usize, QueryError> {
    out.clear();
    spans.clear();
    if len >= LIMIT {
        return Err(QueryError::new(QueryErrorKind::TooLarge, LIMIT));
    }
    // Decoded text goes to `out[n..]`. `out` is zero-filled once, at the first part that needs
    // decoding, to the length of the input left from there: well-formed decoding never
    // lengthens a part, so that is room for all of it. One fill per call, not one per part: in
    // a wasm guest each fill is a call into the host.
    let mut n = 0;
    let mut each = || {
        let mut count = 0;
        while let Some(pair) = pairs.next_pair() {
            let [a, b] = span(pair.name_part(), profile, out, &mut n, len, pair.offset)?;
            let [c, d] = span(pair.value_part(), profile, out, &mut n, len, pair.offset)?;
            // One capacity check per pair, not one per number.
            spans.extend_from_slice(&[a, b, c, d]);
            count += 1;
        }
        Ok(count)
    };
    let result = each();
    // On an error too: `out` holds what was decoded before it, not the zeros after.
    out.truncate(n);
    result
}

/// One part's span: into the input when decoding changes nothing, else into `out` at `*n`,
/// where the part is decoded (`*n` then moves past it). `len`: the input's; `at`: the pair's
/// offset, for the error.
#[inline(always)]
fn span(
    part: Part<'_>,
    profile: Profile,
    out: &mut Vec<u8>,
    n: &mut usize,
    len: usize,
    at: usize,
) -> Result<[u32; 2], QueryError> {
    let plain = part.plain && (part.text.is_some() || core::str::from_utf8(part.raw).is_ok());
    let (start, end) = if plain {
        (part.offset, part.offset + part.raw.len())
    } else {
        let start = *n;
        if out.len() < start + part.raw.len() {
            // The part lies in the input, so `len - part.offset >= part.raw.len()`.
            out.resize(start + len.saturating_sub(part.offset), 0);
        }
        match part.decode_well_formed_to(profile, slice_mut(out, start..)) {
            Some(written) => *n = start + written,
            None => {
                // The profile decides (and may lengthen it, U+FFFD for a raw byte): decoded
                // at the end of `out`, which is then refilled at the next part. Straight to the
                // profile's decoder: `decode_to` would first run the one that just gave up.
                out.truncate(start);
                part.decode_bad_input(profile, out)?;
                *n = out.len();
            }
        }
        (start, *n)
    };
    if end >= LIMIT {
        return Err(QueryError::new(QueryErrorKind::TooLarge, at));
    }
    // Both fit in 31 bits (checked above), so the casts are lossless.
    let flag = if plain { 0 } else { SPAN_DECODED };
    Ok([start as u32 | flag, end as u32 | flag])
}
