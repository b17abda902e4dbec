//! Decoding a name or value: `+` to space, `%XX` to its byte, then the bytes to UTF-8 text
//! with the [`Profile`]'s answer to bad input.
//!
//! [`Part`] (a name or value, with what the pair scan learnt about it) is what the rest of
//! the module decodes; its methods pick the decoder. Two kinds of input, two kinds of decoder,
//! tried in this order:
//!
//! - **Well-formed input**: the decoded bytes are UTF-8 (and, under [`Profile::Strict`], no
//!   `%` is malformed), which is where the profiles agree. Nearly every query is such input,
//!   so this is the hot path. Its decoders give up (`None`; the caller starts again with the
//!   next kind) at the first byte that needs a profile's decision. There are four, one per
//!   destination:
//!   - `decode_well_formed` (`well_formed.rs`), the entry for any [`Sink`]: it hands a byte
//!     vector or an empty `String` to the two below, and otherwise decodes into a stack
//!     buffer, validated a whole buffer at a time.
//!   - `decode_well_formed_into` (`direct.rs`): into a byte vector's new tail.
//!   - `decode_well_formed_string` (`direct.rs`): into an empty `String`'s bytes (a very
//!     short value a char at a time, `push_ascii`).
//!   - `decode_well_formed_slice` (`direct.rs`): into a slice with room for the whole part,
//!     its byte loop `decode_run`. The two above are built on it, as are the wasm faces' spans
//!     (through [`Part::decode_well_formed_to`]).
//! - **Bad input**, which the well-formed decoders gave up on, decoded by
//!   [`Part::decode_bad_input`] with two decoders:
//!   - `decode_text_with_bad_escapes` (`bad_escapes.rs`): text (already UTF-8) whose escapes
//!     decode to bytes that are not UTF-8, or hold a malformed `%` under Strict. Raw runs go
//!     to the sink as they are; only the escape runs that do not spell whole characters take
//!     the next decoder.
//!   - `decode_ill_formed` (`ill_formed.rs`): raw bytes that are not UTF-8, and those escape
//!     runs. Each decoded byte remembers where in the input it came from, so the profile can
//!     write it back (DotNet) or report its offset (Strict).
//!
//! The byte step (`+` to a space, `%XX` to its byte) is written once for the hot loops, as the
//! `decode_byte!` macro, and once as `decode_at`, a `(byte, width)` for the cold paths
//! (`Part::decode_bytes`, the ill-formed decoder); both are here. The text decoder steps over
//! whole characters and escape runs instead.
//!
//! Decoded bytes are validated in one place, `put_valid` (here): it hands a chunk's UTF-8
//! runs to the sink and each maximal invalid subpart to a policy. The buffered well-formed
//! decoder's policy gives up; the ill-formed decoder's is the profile's,
//! `Profile::put_invalid` (`policy.rs`, with the rest of what the profiles disagree on). The
//! direct decoders check what they wrote themselves (with `from_utf8`, or, for text, each run
//! of escapes to non-ASCII on its own), and the text decoder validates nothing itself: its raw
//! runs are text already, and it decodes whole escaped characters directly.
//!
//! The sinks (a `String`, a byte vector, a comparison, a count) are in `sink.rs`.
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Profile, QueryError, CLASS, ESCAPES, PLUS};
use crate::bytes::{as_str, slice};
use crate::percent::escape_at;

/// One step of the hot byte loops: decodes the byte `$b`, which is `$raw[$i]`, and moves `$i`
/// past what it took (three bytes for a valid `%XX` escape, else one). Its value is the
/// decoded byte: `+` is a space, a valid escape its byte, a `%` that starts no valid escape
/// itself, any other byte itself.
///
/// Two byte compares, not the class table, and the step to the next byte as branches: through
/// `decode_at`'s `(byte, width)` LLVM made the width a select, `1 + 2 * valid`, and every step
/// waited on the hex-digit loads of the one before (1.5x slower on escape-dense input).
///
/// A macro, not a function: its callers' arms leave their loop (`return`, `continue`) from
/// inside the step, and it expands to a plain `match` in the caller's loop, which compiles as
/// if written out there (these loops are the hot path; a call, or a result to match again,
/// would change their code). The caller says:
/// - `malformed if <cond> => <expr>`: what a `%` that starts no valid escape does when `cond`
///   holds (under Strict: give up, `return None`); otherwise it is a literal `%`;
/// - optionally first, `escape <v> if <guard> => <expr>`: an arm tried on a valid escape, its
///   decoded byte bound to `v`, before the one-escape step;
/// - optionally last, `plain => <expr>`: what a byte that is neither `%` nor `+` does
///   (by default it is itself, one byte on).
macro_rules! decode_byte {
    (
        $b:ident at $raw:ident[$i:ident],
        $(escape $v:ident if $guard:expr => $run:expr,)?
        malformed if $strict:expr => $malformed:expr
    ) => {
        decode_byte!(
            $b at $raw[$i],
            $(escape $v if $guard => $run,)?
            malformed if $strict => $malformed,
            plain => {
                $i += 1;
                $b
            }
        )
    };
    (
        $b:ident at $raw:ident[$i:ident],
        $(escape $v:ident if $guard:expr => $run:expr,)?
        malformed if $strict:expr => $malformed:expr,
        plain => $plain:expr
    ) => {
        match $b {
            b'%' => match $raw.get($i..).and_then($crate::percent::escape_at) {
                $(Some($v) if $guard => $run,)?
                Some(v) => {
                    $i += 3;
                    v
                }
                None if $strict => $malformed,
                None => {
                    $i += 1;
                    b'%'
                }
            },
            b'+' => {
                $i += 1;
                b' '
            }
            _ => $plain,
        }
    };
}

mod bad_escapes;
mod direct;
mod ill_formed;
mod policy;
mod sink;
mod well_formed;

use bad_escapes::decode_text_with_bad_escapes;
use direct::decode_well_formed_slice;
use ill_formed::{decode_ill_formed, Recorded, CHUNK};
use well_formed::decode_well_formed;

use sink::Sink;
pub(super) use sink::{CountSink, EqSink};

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
    /// input. Also called directly after [`Part::decode_well_formed_to`] gave up, which is
    /// the same decoder that [`Part::decode_to`] would try first.
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
    match crate::bytes::row(&CLASS, b) & ESCAPES {
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

#[cfg(test)]
mod tests {
    use super::super::tests::whatwg;
    use super::super::{pairs, Pair, Pairs, QueryErrorKind};
    use super::well_formed::WELL_FORMED_CHUNK;
    use super::*;
    use alloc::format;

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
