//! The ill-formed decoder, `decode_ill_formed`: for raw bytes that are not UTF-8, and for the
//! escape runs the text decoder cannot decode to whole characters. It decodes in small chunks
//! and knows where each decoded byte came from (its `Provenance`), so that the profile can
//! write an invalid subpart back as it was written (DotNet) or report where it starts (Strict).

use super::policy::Origins;
use super::{decode_at, put_valid, Flow, Sink};
use crate::bytes::slice;
use crate::percent::escape_at;
use crate::query::{Profile, QueryError};

/// The stack buffer of [`decode_ill_formed`]: bad input is rare, so small chunks do.
pub(super) const CHUNK: usize = 64;

/// How [`decode_ill_formed`] knows where each decoded byte came from: recorded per byte for raw
/// input, computed for an escape run. A type each, so an escape run (short, and common in bad
/// input) carries no per-byte table to zero and copy (measured: 1.5x slower with one).
pub(super) trait Provenance {
    /// What the input at `raw[i]` (whose first byte is `b`) decodes to, as [`decode_at`] says.
    #[inline(always)]
    fn step(raw: &[u8], i: usize, b: u8) -> Option<(u8, usize)> {
        decode_at(raw, i, b)
    }

    /// `buf[k]` was decoded from `raw[at..]`.
    fn note(&mut self, k: usize, at: usize);
    /// The first `took` decoded bytes are gone; the carried tail moves to the front.
    fn shift(&mut self, took: usize, len: usize);
    /// The origins of `buf[start..start + bad]`, `first` decoded bytes having come before.
    fn origins(&self, first: usize, start: usize, bad: usize) -> Origins<'_>;
}

/// Raw bytes that are not UTF-8: each decoded byte's offset, a byte or an escape.
pub(super) struct Recorded(pub(super) [usize; CHUNK]);

impl Provenance for Recorded {
    #[inline]
    fn note(&mut self, k: usize, at: usize) {
        // `k < CHUNK`: the slot exists.
        if let Some(slot) = self.0.get_mut(k) {
            *slot = at;
        }
    }

    fn shift(&mut self, took: usize, len: usize) {
        self.0.copy_within(took..len, 0);
    }

    fn origins(&self, _: usize, start: usize, bad: usize) -> Origins<'_> {
        Origins::Recorded(slice(&self.0, start..start + bad))
    }
}

/// A run of valid escapes: decoded byte `k` came from escape `k`.
pub(super) struct EscapeRun;

impl Provenance for EscapeRun {
    /// Every step is a valid escape (the run was measured so): no class to look up.
    #[inline(always)]
    fn step(raw: &[u8], i: usize, _: u8) -> Option<(u8, usize)> {
        let v = raw.get(i..).and_then(escape_at);
        debug_assert!(v.is_some(), "an escape run holds valid escapes only");
        Some((v.unwrap_or(b'%'), 3))
    }

    #[inline]
    fn note(&mut self, _: usize, _: usize) {}

    fn shift(&mut self, _: usize, _: usize) {}

    fn origins(&self, first: usize, start: usize, bad: usize) -> Origins<'_> {
        Origins::Escapes {
            first: first + start,
            len: bad,
        }
    }
}

/// Decodes `raw` (starting at byte `base` of the whole input) in chunks and lets the profile
/// decide over every invalid subpart: for raw bytes that are not UTF-8, and for the escape
/// runs [`decode_text_with_bad_escapes`](super::decode_text_with_bad_escapes) cannot decode
/// to whole characters.
pub(super) fn decode_ill_formed<S: Sink, P: Provenance>(
    raw: &[u8],
    mut provenance: P,
    base: usize,
    profile: Profile,
    sink: &mut S,
) -> Result<bool, QueryError> {
    let mut buf = [0u8; CHUNK];
    // How many decoded bytes came before `buf[0]` (the escape index, for an escape run).
    let mut first = 0;
    let mut len = 0;
    let mut i = 0;
    loop {
        // A malformed `%` under Strict, reported once the bytes before it are validated: an
        // invalid one among them comes first.
        let mut malformed = Ok(());
        while len < CHUNK {
            let Some(&b) = raw.get(i) else { break };
            let (v, width) = match P::step(raw, i, b) {
                Some(decoded) => decoded,
                None => {
                    malformed = profile.malformed_escape(base + i);
                    if malformed.is_err() {
                        break;
                    }
                    (b'%', 1)
                }
            };
            // `len < CHUNK`: both slots exist.
            if let Some(slot) = buf.get_mut(len) {
                *slot = v;
            }
            provenance.note(len, i);
            len += 1;
            i += width;
        }
        // What follows a malformed `%` cannot go on a sequence before it.
        let last = i >= raw.len() || malformed.is_err();
        let flow = put_valid(slice(&buf, ..len), last, sink, |sink, start, bad| {
            profile.put_invalid(raw, provenance.origins(first, start, bad), base, sink)
        })?;
        malformed?;
        let took = match flow {
            Flow::Stopped => return Ok(false),
            Flow::Took(took) => took,
        };
        // Keep the carried tail (at most 3 bytes) at the front of the buffers.
        buf.copy_within(took..len, 0);
        provenance.shift(took, len);
        first += took;
        len -= took;
        if last && len == 0 {
            return Ok(true);
        }
    }
}
