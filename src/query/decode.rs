//! Decoding a name or value: `+` to space, `%XX` to its byte, then the bytes to UTF-8 text
//! with the [`Profile`]'s answer to bad input.
//!
//! Three decoders, tried in this order, each named for the input it is for:
//!
//! - [`decode_well_formed`]: input whose decoded bytes are UTF-8 (and, under
//!   [`Profile::Strict`], with no malformed `%`), which is where the profiles agree. Nearly
//!   every query is such input, so this is the hot path: decode into a stack buffer,
//!   validate a whole buffer at a time, and give up (the caller starts again below) at the
//!   first byte that needs a profile's decision.
//! - [`decode_text_with_bad_escapes`]: text (already UTF-8) whose escapes decode to bytes that
//!   are not UTF-8, or hold a malformed `%` under Strict. Raw runs go to the sink as they are;
//!   only the escape runs that do not spell whole characters take the next decoder.
//! - [`decode_ill_formed`]: raw bytes that are not UTF-8, and those escape runs. Each decoded
//!   byte remembers where in the input it came from, so the profile can write it back
//!   (DotNet) or report its offset (Strict).
//!
//! Decoded bytes are validated in one place, [`put_valid`]: it hands a chunk's UTF-8 runs to the
//! sink and each maximal invalid subpart to a policy. The well-formed decoder's policy gives up;
//! the ill-formed decoder's is the profile's, [`Profile::put_invalid`]. (The text decoder
//! validates nothing itself: its raw runs are text already, and it decodes whole escaped
//! characters directly.)
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Profile, QueryError, QueryErrorKind, CLASS, ESCAPES, PLUS};
use crate::bytes::{as_str, slice, slice_mut, str_slice};
use crate::percent::{escape_at, escape_run_len};
use crate::vector::PercentDecoder;

/// Where decoded text goes. `put` returns `false` to stop early (a comparison that failed).
pub(super) trait Sink {
    fn put(&mut self, s: &str) -> bool;

    /// A point to come back to when the well-formed decoder gives up half-way.
    fn mark(&self) -> usize;

    fn reset(&mut self, mark: usize);

    /// `b` is ASCII.
    #[inline]
    fn put_ascii(&mut self, b: u8) -> bool {
        self.put(char::from(b).encode_utf8(&mut [0; 4]))
    }

    /// The sink as a byte vector, when it is one: the well-formed decoder then writes into
    /// it directly (`decode_well_formed_into`) and validates what it wrote afterwards.
    #[inline]
    fn bytes(&mut self) -> Option<&mut Vec<u8>> {
        None
    }

    /// The sink as a `String`, when it is one: when it is empty, the well-formed decoder
    /// writes into its bytes directly (`decode_well_formed_string`).
    #[inline]
    fn string(&mut self) -> Option<&mut String> {
        None
    }
}

/// `String` and `Vec<u8>` are sinks alike: append, and truncate back to a mark. Only how
/// text and an ASCII byte are appended differs.
macro_rules! buffer_sink {
    ($buffer:ty, $append:ident($text:path), $push:ident($ascii:path) $(, $bytes:item)?) => {
        impl Sink for $buffer {
            #[inline]
            fn put(&mut self, s: &str) -> bool {
                self.$append($text(s));
                true
            }

            fn mark(&self) -> usize {
                self.len()
            }

            fn reset(&mut self, mark: usize) {
                self.truncate(mark);
            }

            #[inline]
            fn put_ascii(&mut self, b: u8) -> bool {
                self.$push($ascii(b));
                true
            }

            $($bytes)?
        }
    };
}

buffer_sink!(
    String,
    push_str(core::convert::identity),
    push(char::from),
    #[inline]
    fn string(&mut self) -> Option<&mut String> {
        Some(self)
    }
);
buffer_sink!(
    Vec<u8>,
    extend_from_slice(str::as_bytes),
    push(core::convert::identity),
    #[inline]
    fn bytes(&mut self) -> Option<&mut Vec<u8>> {
        Some(self)
    }
);

/// Compares decoded text against an expected string as it is produced, so that
/// [`Pair::name_eq`](super::Pair::name_eq) allocates nothing.
pub(super) struct EqSink<'t> {
    expected: &'t [u8],
    matched: usize,
}

impl<'t> EqSink<'t> {
    pub(super) fn new(expected: &'t str) -> Self {
        EqSink {
            expected: expected.as_bytes(),
            matched: 0,
        }
    }

    /// Whether everything expected was produced (a prefix is not a match).
    pub(super) fn matched_all(&self) -> bool {
        self.matched == self.expected.len()
    }
}

impl Sink for EqSink<'_> {
    #[inline]
    fn put(&mut self, s: &str) -> bool {
        let end = self.matched + s.len();
        // A real "maybe": the decoded text may run past what is expected.
        if self.expected.get(self.matched..end) == Some(s.as_bytes()) {
            self.matched = end;
            true
        } else {
            false
        }
    }

    fn mark(&self) -> usize {
        self.matched
    }

    fn reset(&mut self, mark: usize) {
        self.matched = mark;
    }
}

/// Counts decoded bytes (the map's exact size bound).
pub(super) struct CountSink(pub(super) usize);

impl Sink for CountSink {
    #[inline]
    fn put(&mut self, s: &str) -> bool {
        self.0 = self.0.saturating_add(s.len());
        true
    }

    fn mark(&self) -> usize {
        self.0
    }

    fn reset(&mut self, mark: usize) {
        self.0 = mark;
    }
}

const REPLACEMENT: &str = "\u{FFFD}";

/// A name or value with what the scan learnt about it.
#[derive(Clone, Copy)]
pub(super) struct Part<'a> {
    pub(super) raw: &'a [u8],
    /// `raw` as text, when the input was a `&str`.
    pub(super) text: Option<&'a str>,
    /// Where `raw` starts in the whole input.
    pub(super) offset: usize,
    /// No `+` and no `%`: decoding changes nothing.
    pub(super) plain: bool,
}

impl<'a> Part<'a> {
    /// One constructor for both parts of a [`Pair`](super::Pair), so each is one line there.
    pub(super) const fn new(
        raw: &'a [u8],
        text: Option<&'a str>,
        offset: usize,
        plain: bool,
    ) -> Self {
        Part {
            raw,
            text,
            offset,
            plain,
        }
    }

    /// The text itself when decoding would change nothing: no `+`, no `%`, and UTF-8.
    #[inline]
    pub(super) fn borrowed(self) -> Option<&'a str> {
        if !self.plain {
            return None;
        }
        self.text.or_else(|| core::str::from_utf8(self.raw).ok())
    }

    /// The decoded text, borrowed when decoding would change nothing.
    pub(super) fn decode_cow(self, profile: Profile) -> Result<Cow<'a, str>, QueryError> {
        if let Some(t) = self.borrowed() {
            return Ok(Cow::Borrowed(t));
        }
        // Decoding never makes valid UTF-8 input longer, so one allocation is enough for it.
        let mut out = String::with_capacity(self.raw.len());
        self.decode_to(profile, &mut out)?;
        Ok(Cow::Owned(out))
    }

    /// The decoded text in a `String` of its own: one allocation, none when it is empty.
    pub(super) fn decode_owned(self, profile: Profile) -> Result<String, QueryError> {
        self.decode_cow(profile).map(Cow::into_owned)
    }

    /// The decoded text, borrowed when decoding would change nothing, else decoded into
    /// `scratch` (cleared first; empty again on error).
    pub(super) fn decode_in<'s>(
        self,
        profile: Profile,
        scratch: &'s mut String,
    ) -> Result<&'s str, QueryError>
    where
        'a: 's,
    {
        if let Some(t) = self.borrowed() {
            return Ok(t);
        }
        scratch.clear();
        if let Err(e) = self.decode_to(profile, scratch) {
            scratch.clear();
            return Err(e);
        }
        Ok(scratch.as_str())
    }

    /// Appends the decoded text to `out`; on error `out` is left as it was (the decoders may
    /// have written a prefix).
    pub(super) fn decode_string(
        self,
        profile: Profile,
        out: &mut String,
    ) -> Result<(), QueryError> {
        if let (true, Some(t)) = (self.plain, self.text) {
            out.push_str(t);
            return Ok(());
        }
        let before = out.len();
        let r = self.decode_to(profile, out).map(|_| ());
        if r.is_err() {
            out.truncate(before);
        }
        r
    }

    /// The decoded bytes, before any UTF-8 check: what every profile starts from.
    pub(super) fn decode_bytes(self) -> Cow<'a, [u8]> {
        if self.plain {
            return Cow::Borrowed(self.raw);
        }
        let raw = self.raw;
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while let Some(&b) = raw.get(i) {
            let (v, width) = decode_at(raw, i, b).unwrap_or((b'%', 1));
            out.push(v);
            i += width;
        }
        Cow::Owned(out)
    }

    /// Decodes into `dst`, which has room for `self.raw.len()` bytes, when the part is
    /// well-formed (every profile agrees on it): the number of bytes written. `None`: the
    /// part needs its profile's decision, which [`Part::decode_bad_input`] makes; `dst` then
    /// holds nothing of use.
    #[inline(always)]
    pub(super) fn decode_well_formed_to(self, profile: Profile, dst: &mut [u8]) -> Option<usize> {
        decode_well_formed_slice(
            self.raw,
            profile == Profile::Strict,
            self.text.is_some(),
            true,
            dst,
        )
    }

    /// Decodes into `sink`; `Ok(false)` means the sink stopped early.
    pub(super) fn decode_to<S: Sink>(
        self,
        profile: Profile,
        sink: &mut S,
    ) -> Result<bool, QueryError> {
        let mark = sink.mark();
        let strict = profile == Profile::Strict;
        if let Some(done) = decode_well_formed(self.raw, strict, self.text.is_some(), sink) {
            return Ok(done);
        }
        // Bad input: start again with a decoder that knows where every decoded byte came from.
        sink.reset(mark);
        self.decode_bad_input(profile, sink)
    }

    /// The profile's decoders for what the well-formed decoder gave up on. Out of line and
    /// cold: inlined, they made the well-formed loop beside them 1.3x slower on escape-dense
    /// input (measured with the before/after harness in the issue note). Also called
    /// directly after [`Part::decode_well_formed_to`] gave up, which is the same decoder that
    /// [`Part::decode_to`] would try first.
    #[cold]
    #[inline(never)]
    pub(super) fn decode_bad_input<S: Sink>(
        self,
        profile: Profile,
        sink: &mut S,
    ) -> Result<bool, QueryError> {
        match self.text.or_else(|| core::str::from_utf8(self.raw).ok()) {
            Some(t) => decode_text_with_bad_escapes(t, self.offset, profile, sink),
            None => decode_ill_formed(self.raw, Recorded([0; CHUNK]), self.offset, profile, sink),
        }
    }
}

/// What the input byte `b` at `raw[i]` decodes to, and how many input bytes that takes; `None`
/// for a `%` that starts no valid escape (a literal `%` or an error, as the profile says).
#[inline(always)]
fn decode_at(raw: &[u8], i: usize, b: u8) -> Option<(u8, usize)> {
    match CLASS[usize::from(b)] & ESCAPES {
        0 => Some((b, 1)),
        PLUS => Some((b' ', 1)),
        _ => raw.get(i..).and_then(escape_at).map(|v| (v, 3)),
    }
}

/// What [`put_valid`] did with a chunk.
enum Flow {
    /// The sink took the first this many bytes; the rest (an incomplete UTF-8 sequence at the
    /// end of a chunk that is not the last) waits for the next chunk.
    Took(usize),
    /// The sink stopped early.
    Stopped,
}

/// THE validation loop: hands the UTF-8 runs of `chunk` (decoded bytes) to `sink` and each
/// maximal invalid subpart (`chunk[start..start + len]`, as WHATWG's UTF-8 decode splits them)
/// to `invalid`, which writes what replaces it (`Ok(false)`: the sink stopped) or fails.
#[inline]
fn put_valid<S: Sink, E>(
    chunk: &[u8],
    last: bool,
    sink: &mut S,
    mut invalid: impl FnMut(&mut S, usize, usize) -> Result<bool, E>,
) -> Result<Flow, E> {
    let mut start = 0;
    loop {
        let pending = slice(chunk, start..);
        let (valid, error) = match core::str::from_utf8(pending) {
            Ok(s) => (s, None),
            Err(e) => (
                as_str(slice(pending, ..e.valid_up_to())),
                Some(e.error_len()),
            ),
        };
        if !valid.is_empty() && !sink.put(valid) {
            return Ok(Flow::Stopped);
        }
        start += valid.len();
        let bad = match error {
            None => return Ok(Flow::Took(chunk.len())),
            Some(Some(len)) => len,
            // An incomplete sequence at the end of a chunk may go on in the next one.
            Some(None) if !last => return Ok(Flow::Took(start)),
            Some(None) => chunk.len() - start,
        };
        if !invalid(sink, start, bad)? {
            return Ok(Flow::Stopped);
        }
        start += bad;
    }
}

impl Profile {
    /// A `%` at `at` that starts no valid escape: a literal `%`, or (Strict) an error.
    #[inline]
    fn malformed_escape(self, at: usize) -> Result<(), QueryError> {
        match self {
            Profile::Strict => Err(QueryError::new(QueryErrorKind::InvalidEscape, at)),
            Profile::Whatwg | Profile::DotNet => Ok(()),
        }
    }

    /// The policy for one maximal invalid subpart of decoded bytes, the one thing profiles
    /// disagree on: the subpart's bytes came from `raw` (which starts at byte `base` of the
    /// whole input) where `origins` says. `Ok(false)`: the sink stopped.
    fn put_invalid<S: Sink>(
        self,
        raw: &[u8],
        origins: Origins<'_>,
        base: usize,
        sink: &mut S,
    ) -> Result<bool, QueryError> {
        match (self, origins) {
            // One U+FFFD per maximal subpart, as `URLSearchParams` decodes.
            (Profile::Whatwg, _) => Ok(sink.put(REPLACEMENT)),
            // Escapes stay as written (`Uri.UnescapeDataString`): a run of them in one piece.
            (Profile::DotNet, Origins::Escapes { first, len }) => {
                Ok(sink.put(as_str(slice(raw, 3 * first..3 * (first + len)))))
            }
            // A raw byte can only be shown as U+FFFD, one per run of them, as a .NET string
            // decode would.
            (Profile::DotNet, Origins::Recorded(from)) => {
                let mut replaced = false;
                for &at in from {
                    let ok = match raw.get(at..at + 3) {
                        // A `%` that is no valid escape decodes to itself, which is never
                        // invalid: this is a whole escape, so ASCII.
                        Some(escape @ [b'%', ..]) => {
                            replaced = false;
                            sink.put(as_str(escape))
                        }
                        _ if replaced => true,
                        _ => {
                            replaced = true;
                            sink.put(REPLACEMENT)
                        }
                    };
                    if !ok {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            (Profile::Strict, origins) => {
                let at = base + origins.first();
                Err(QueryError::new(QueryErrorKind::InvalidUtf8, at))
            }
        }
    }
}

/// Where in the decoder's input the bytes of an invalid subpart were decoded from.
#[derive(Clone, Copy)]
enum Origins<'o> {
    /// From `len` consecutive escapes, the first of them the `first`-th of the input (an
    /// escape run: no need to record anything per byte).
    Escapes { first: usize, len: usize },
    /// From these offsets, one per byte (a byte or an escape each).
    Recorded(&'o [usize]),
}

impl Origins<'_> {
    /// The offset of the subpart's first byte. `put_valid` never reports an empty subpart.
    fn first(self) -> usize {
        let first = match self {
            Origins::Escapes { first, .. } => Some(3 * first),
            Origins::Recorded(from) => from.first().copied(),
        };
        debug_assert!(first.is_some(), "an invalid subpart has a byte");
        first.unwrap_or(0)
    }
}

/// The well-formed decoder's stack buffer: most names and values fit in one chunk.
const WELL_FORMED_CHUNK: usize = 256;

/// Decodes input whose decoded bytes are UTF-8, the same in every profile (see the module
/// documentation). `None` means the input needs a profile's decision (decoded bytes that are
/// not UTF-8, or a malformed escape under Strict); the sink may then hold a prefix, which the
/// caller discards.
fn decode_well_formed<S: Sink>(raw: &[u8], strict: bool, text: bool, sink: &mut S) -> Option<bool> {
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
        // Two byte compares, not the class table, and the step to the next byte as branches:
        // through `decode_at`'s `(byte, width)` LLVM made the width a select, `1 + 2 * valid`,
        // and every step waited on the hex-digit loads of the one before (1.5x slower on
        // escape-dense input).
        let v = match b {
            b'%' => match raw.get(i..).and_then(escape_at) {
                Some(v) => {
                    i += 3;
                    v
                }
                None if strict => return None,
                None => {
                    i += 1;
                    b'%'
                }
            },
            b'+' => {
                i += 1;
                b' '
            }
            _ => {
                i += 1;
                b
            }
        };
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

/// [`decode_well_formed`] for a byte sink: decodes straight into the vector's new tail (sized
/// to the input, as decoding never lengthens it). No stack buffer to zero and no copy out of
/// it: in a wasm guest the buffer's `memory.fill` and the copy were both calls into the host,
/// for every escaped part of a query.
///
/// What it wrote is then validated. When `raw` is text (a slice of a `&str` cut at ASCII
/// bytes), only the runs of escapes that decode to non-ASCII can make it invalid: every raw
/// run starts and ends on a character boundary, and a decoded `+`, `%` or ASCII escape is a
/// boundary too. So the byte loop validates each such run on its own as it decodes it, and
/// the rest is never read again (the vector loop does not; after it, everything is checked).
fn decode_well_formed_into(
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
/// none ran more (stop 23).
const CHAR_AT_A_TIME: usize = 8;

/// [`decode_well_formed`] into an empty `String`: into its bytes, taken as a vector (no
/// stack buffer, and no copy out of it), then taken back as text by `String::from_utf8`,
/// which is the one UTF-8 check of what was written. Decoded bytes that are not UTF-8 leave
/// `out` empty and give `None`, as bad input does (the profile's decoders then decide).
/// (Stop 23: realistic and UTF-8-heavy queries 5-8% fewer instructions, tiny pairs 6%.)
fn decode_well_formed_string(raw: &[u8], strict: bool, out: &mut String) -> Option<bool> {
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
        let v = match b {
            b'%' => match raw.get(i..).and_then(escape_at) {
                Some(v) => {
                    i += 3;
                    v
                }
                None if strict => {
                    out.clear();
                    return None;
                }
                None => {
                    i += 1;
                    b'%'
                }
            },
            b'+' => {
                i += 1;
                b' '
            }
            _ => {
                i += 1;
                b
            }
        };
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
/// [`decode_well_formed`]. With `check` (else the caller checks), what it wrote is UTF-8.
#[inline(always)]
fn decode_well_formed_slice(
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
        // Two byte compares, not the class table, and the step to the next byte as branches:
        // through `decode_at`'s `(byte, width)` LLVM made the width a select, `1 + 2 * valid`,
        // and every step waited on the hex-digit loads of the one before (1.5x slower on
        // escape-dense input).
        let v = match b {
            b'%' => match raw.get(i..).and_then(escape_at) {
                Some(v) if check_runs && v >= 0x80 => {
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
                }
                Some(v) => {
                    i += 3;
                    v
                }
                None if strict => return None,
                None => {
                    i += 1;
                    b'%'
                }
            },
            b'+' => {
                i += 1;
                b' '
            }
            _ => {
                // A plain byte starts a run: up to eight of it go in one step, a word copied
                // whole and the position moved past its plain bytes only (in wasm every
                // iteration pays the host's loop check, so fewer pay less).
                if let (Some(word), Some(slot)) = (
                    slice(raw, i..).first_chunk::<8>(),
                    dst.get_mut(n..).and_then(|d| d.first_chunk_mut::<8>()),
                ) {
                    *slot = *word;
                    let w = u64::from_le_bytes(*word);
                    let special = super::bytes_eq(w, b'%') | super::bytes_eq(w, b'+');
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
        };
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
/// (2-4x on 8 KB of escapes). BENCHMARKS.md, "The vector decoder: what was tried".
const VECTOR_MIN: usize = 64;

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

/// Decodes text (valid UTF-8) that the well-formed decoder gave up on. Raw runs go to the sink
/// as they are and only runs of consecutive `%XX` escapes need UTF-8 validation. A raw run
/// always starts on a character boundary, so an incomplete sequence at the end of an escape
/// run is invalid whatever follows: handling each escape run on its own gives exactly the
/// WHATWG byte-stream result.
fn decode_text_with_bad_escapes<S: Sink>(
    text: &str,
    base: usize,
    profile: Profile,
    sink: &mut S,
) -> Result<bool, QueryError> {
    let bytes = text.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let class = CLASS[usize::from(b)];
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

/// The stack buffer of [`decode_ill_formed`]: bad input is rare, so small chunks do.
const CHUNK: usize = 64;

/// How [`decode_ill_formed`] knows where each decoded byte came from: recorded per byte for raw
/// input, computed for an escape run. A type each, so an escape run (short, and common in bad
/// input) carries no per-byte table to zero and copy (measured: 1.5x slower with one).
trait Provenance {
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
struct Recorded([usize; CHUNK]);

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
struct EscapeRun;

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
/// runs [`decode_text_with_bad_escapes`] cannot decode to whole characters.
fn decode_ill_formed<S: Sink, P: Provenance>(
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

#[cfg(test)]
mod tests {
    use super::super::tests::whatwg;
    use super::super::{pairs, Pair, Pairs};
    use super::*;
    use alloc::format;

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

    /// A pair's value under each profile: the Whatwg and DotNet text, Strict's error offset.
    fn profiles(pair: Pair<'_>) -> (String, String, usize) {
        (
            pair.decode_value(Profile::Whatwg).unwrap().into_owned(),
            pair.decode_value(Profile::DotNet).unwrap().into_owned(),
            pair.decode_value(Profile::Strict).unwrap_err().offset,
        )
    }

    #[test]
    fn escape_runs_span_chunks() {
        // 100 escapes: crosses the 64-byte chunk with a 3-byte sequence cut in the middle.
        let s: String = "%E2%82%AC".repeat(34);
        let v = format!("a={s}");
        assert_eq!(whatwg(&v)[0].1, "€".repeat(34));
        let bad = format!("a=x{}%E2%82", "%41".repeat(62));
        let a62 = "A".repeat(62);
        assert_eq!(
            profiles(pairs(&bad).next().unwrap()),
            (
                format!("x{a62}\u{FFFD}"),
                format!("x{a62}%E2%82"),
                3 + 62 * 3
            )
        );
    }

    #[test]
    fn generic_path_matches_bytes_semantics() {
        // Raw invalid bytes force the ill-formed decoder; a raw continuation after an escape
        // lead byte completes it, as in WHATWG's byte-level decode.
        let pair = Pairs::new(b"a=%C3\xA9\xFF%FF+").next().unwrap();
        let want = ("é\u{FFFD}\u{FFFD} ".into(), "é\u{FFFD}%FF ".into(), 6);
        assert_eq!(profiles(pair), want);
        // Strict reports the first error in the input: the raw byte before a malformed `%`.
        let pair = Pairs::new(b"=\xC3%").next().unwrap();
        let err = pair.decode_value(Profile::Strict).unwrap_err();
        assert_eq!((err.kind, err.offset), (QueryErrorKind::InvalidUtf8, 1));
    }

    #[test]
    fn well_formed_decoder_carries_sequences_across_chunks() {
        // A 2-byte character cut by the 256-byte buffer boundary, then an invalid byte in the
        // second chunk, which makes the well-formed decoder give up after a whole chunk.
        let x = "x".repeat(WELL_FORMED_CHUNK - 1);
        let v = format!("a={x}%C3%A9");
        assert_eq!(whatwg(&v)[0].1, format!("{x}é"));
        let bad = format!("{v}%FF");
        let pair = pairs(&bad).next().unwrap();
        let want = (format!("{x}é\u{FFFD}"), format!("{x}é%FF"), bad.len() - 3);
        assert_eq!(profiles(pair), want);
        assert!(!pair.name_eq_with(Profile::Whatwg, "b"));
    }
}
