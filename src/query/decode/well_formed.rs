//! The well-formed decoder's entry, `decode_well_formed`, and its buffered loop: for a sink
//! that is neither a byte vector nor an empty `String` (a comparison, a count, a `String`
//! with text before), input is decoded into a stack buffer and validated a whole buffer at a
//! time.

use super::direct::{decode_well_formed_into, decode_well_formed_string, VECTOR_MIN};
use super::{put_valid, Flow, Sink};
use crate::bytes::{slice, slice_mut};
use crate::vector::PercentDecoder;

/// The well-formed decoder's stack buffer: most names and values fit in one chunk.
pub(super) const WELL_FORMED_CHUNK: usize = 256;

/// Decodes input whose decoded bytes are UTF-8, the same in every profile (see `decode`'s
/// module documentation). `None` means the input needs a profile's decision (decoded bytes
/// that are not UTF-8, or a malformed escape under Strict); the sink may then hold a prefix,
/// which the caller discards.
pub(super) fn decode_well_formed<S: Sink>(
    raw: &[u8],
    strict: bool,
    text: bool,
    sink: &mut S,
) -> Option<bool> {
    if let Some(out) = sink.bytes() {
        return decode_well_formed_into(raw, strict, text, out);
    }
    // An empty `String` (a caller's scratch, cleared) and a value short of the vector
    // decoder: decoded in place, as into a vector. (Longer ones keep the stack buffer's
    // chunks: in place, `%41` x 2,730 ran 10% more instructions, zeroing the whole room.)
    if sink.mark() == 0 && raw.len() < VECTOR_MIN {
        if let Some(out) = sink.string() {
            return decode_well_formed_string(raw, strict, out);
        }
    }
    let mut buf = [0u8; WELL_FORMED_CHUNK];
    let mut n = 0;
    let mut i = 0;
    // Long values go 16 or 32 bytes at a time, to their end, where the CPU can
    // (`crate::vector`); the byte loop below is for shorter ones. (The length first: the CPU
    // check costs a short value more than its decoding.)
    if let Some(v) = (raw.len() >= VECTOR_MIN)
        .then(PercentDecoder::get)
        .flatten()
    {
        loop {
            let d = v.decode(raw, i, slice_mut(&mut buf, n..), strict);
            if d.malformed {
                return None;
            }
            i = d.next;
            n += d.written;
            if i == raw.len() {
                break;
            }
            // Not the end of the input, so the end of the buffer's room.
            if !flush_full(&mut buf, &mut n, sink)? {
                return Some(false);
            }
        }
    }
    while let Some(&b) = raw.get(i) {
        let v = decode_byte!(b at raw[i], malformed if strict => return None);
        // A full buffer is flushed right below, so the slot always exists.
        if let Some(slot) = buf.get_mut(n) {
            *slot = v;
        }
        n += 1;
        if n == WELL_FORMED_CHUNK && !flush_full(&mut buf, &mut n, sink)? {
            return Some(false);
        }
    }
    match flush_well_formed(slice(&buf, ..n), true, sink)? {
        Flow::Stopped => Some(false),
        Flow::Took(_) => Some(true),
    }
}

/// Hands what the well-formed decoder's buffer holds to the sink, keeping an incomplete UTF-8
/// sequence at its end for the next bytes. `Some(false)`: the sink stopped; `None`: invalid
/// UTF-8.
#[inline]
fn flush_full<S: Sink>(
    buf: &mut [u8; WELL_FORMED_CHUNK],
    n: &mut usize,
    sink: &mut S,
) -> Option<bool> {
    match flush_well_formed(slice(buf, ..*n), false, sink)? {
        Flow::Stopped => Some(false),
        Flow::Took(took) => {
            buf.copy_within(took..*n, 0);
            *n -= took;
            Some(true)
        }
    }
}

/// Validates a full (or the last) buffer of the well-formed decoder; `None` at the first invalid
/// byte, which hands the input to the other decoders. Kept out of line: inlined, the
/// validation loop's registers crowded the per-byte loop (measured 1.3-1.4x slower on
/// escape-dense input).
#[inline(never)]
fn flush_well_formed<S: Sink>(buf: &[u8], last: bool, sink: &mut S) -> Option<Flow> {
    put_valid(buf, last, sink, |_, _, _| Err::<bool, ()>(())).ok()
}
