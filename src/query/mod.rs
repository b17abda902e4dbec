//! Query strings: a zero-allocation pair enumerator, on-demand decoding with three profiles, a
//! parsed multi-map for repeated lookups, and builders.
//!
//! ```
//! use reqparse::query::{self, Profile};
//!
//! let mut names = Vec::new();
//! for pair in query::pairs("?q=rust+forms&lang=en&&empty=") {
//!     names.push(pair.decode_name(Profile::Whatwg)?.into_owned());
//! }
//! assert_eq!(names, ["q", "lang", "empty"]);
//! # Ok::<(), reqparse::query::QueryError>(())
//! ```
//!
//! The module is read top-down: this file (profiles, errors, the byte classes, the pair
//! enumerator), `decode/` (the decoders behind [`Pair`]'s `decode_*`; its module doc says
//! which file holds which), `map/` ([`QueryMap`]: the map, its parse, its index and name
//! hashing), `spans.rs` (`decode_spans`, for the wasm faces), `text.rs` ([`str_pairs`]) and
//! `build.rs` ([`append_pairs`], [`add_query_string`]).
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::bytes::{set, slice, str_slice};

mod build;
mod decode;
mod map;
mod spans;
mod text;

pub use build::{add_query_string, append_pairs};
pub use map::{Iter, MapOptions, QueryMap, Values};
// The wasm faces' span format: public for the tests and the component example that read it,
// hidden from the docs (the Rust API is `Pairs` and `Pair`).
#[doc(hidden)]
pub use spans::{decode_spans, decode_str_spans, SPAN_DECODED};
pub use text::{str_pairs, StrPair, StrPairs};

use decode::{EqSink, Part};

/// How decoded bytes that are not UTF-8, and malformed `%` escapes, are treated.
///
/// Every profile turns `+` into a space first and decodes valid `%XX` escapes; they differ
/// only on bad input.
///
/// ```
/// use reqparse::query::{pairs, Profile};
///
/// let pair = pairs("v=%C3%28%").next().unwrap();
/// assert_eq!(pair.decode_value(Profile::Whatwg)?, "\u{FFFD}(%");
/// assert_eq!(pair.decode_value(Profile::DotNet)?, "%C3(%");
/// assert_eq!(pair.decode_value(Profile::Strict).unwrap_err().offset, 2);
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// WHATWG `application/x-www-form-urlencoded` parsing (what `URLSearchParams` does):
    /// malformed `%` stays literal, invalid UTF-8 becomes U+FFFD (one per maximal subpart).
    #[default]
    Whatwg,
    /// ASP.NET Core's `QueryHelpers.ParseQuery` / `Uri.UnescapeDataString`: escapes that would
    /// form invalid UTF-8 stay percent-encoded as written, malformed `%` stays literal.
    /// Raw (unescaped) bytes that are not UTF-8 become U+FFFD, as a .NET string decode would.
    DotNet,
    /// A malformed `%` escape or decoded bytes that are not UTF-8 are an error.
    Strict,
}

crate::profile_names!(query: Whatwg => "whatwg", DotNet => "dotnet", Strict => "strict");

/// What went wrong; see [`QueryError`].
///
/// ```
/// use reqparse::query::QueryErrorKind;
/// assert_ne!(QueryErrorKind::InvalidEscape, QueryErrorKind::InvalidUtf8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum QueryErrorKind {
    /// A `%` not followed by two hex digits ([`Profile::Strict`] only).
    InvalidEscape,
    /// Decoded bytes are not UTF-8 ([`Profile::Strict`] only).
    InvalidUtf8,
    /// More pairs than [`MapOptions::max_pairs`].
    TooManyPairs,
    /// More decoded bytes than [`MapOptions::max_decoded_bytes`], or an input or output too
    /// long for 31-bit spans ([`decode_spans`]).
    TooLarge,
}

/// An error with the byte offset (in the whole input, leading `?` included) where it was found.
///
/// ```
/// use reqparse::query::{pairs, Profile, QueryErrorKind};
///
/// let err = pairs("?a=1&b=%zz").nth(1).unwrap().decode_value(Profile::Strict).unwrap_err();
/// assert_eq!((err.kind, err.offset), (QueryErrorKind::InvalidEscape, 7));
/// assert_eq!(err.to_string(), "invalid percent escape at byte 7");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QueryError {
    /// What went wrong.
    pub kind: QueryErrorKind,
    /// Byte offset in the whole input.
    pub offset: usize,
}

impl QueryError {
    const fn new(kind: QueryErrorKind, offset: usize) -> Self {
        QueryError { kind, offset }
    }
}

/// A part decoded by [`Pair::name_in`] or [`Pair::value_in`]: borrowed from the input or from
/// the caller's scratch buffer.
type InScratch<'s> = Result<&'s str, QueryError>;

impl QueryErrorKind {
    /// What went wrong, in the words of [`QueryError`]'s `Display`.
    pub(crate) const fn what(self) -> &'static str {
        match self {
            QueryErrorKind::InvalidEscape => "invalid percent escape",
            QueryErrorKind::InvalidUtf8 => "invalid UTF-8",
            QueryErrorKind::TooManyPairs => "too many pairs",
            QueryErrorKind::TooLarge => "query too large",
        }
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.what(), self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for QueryError {}

// ---------------------------------------------------------------------------------------------
// Byte classes
// ---------------------------------------------------------------------------------------------

/// `&`: ends a pair.
const AMP: u8 = 1;
/// `=`: the first one ends a name.
const EQ: u8 = 2;
/// `+`: a space.
const PLUS: u8 = 4;
/// `%`: maybe an escape.
const PERCENT: u8 = 8;
/// What makes a name or value need decoding.
const ESCAPES: u8 = PLUS | PERCENT;

/// Byte classes as bit flags: one lookup per byte both finds the pair boundaries and notes
/// whether the name or value will need decoding (so decoding can borrow without a rescan).
static CLASS: [u8; 256] = {
    // Every other byte, controls and non-ASCII included, is plain: 0.
    let mut t = [0; 256];
    // `&` (0x26) separates pairs; `;` does not (WHATWG dropped it).
    set(&mut t, b"&", AMP);
    // `=` (0x3D) splits name from value.
    set(&mut t, b"=", EQ);
    // `+` (0x2B) means a space in form encoding.
    set(&mut t, b"+", PLUS);
    // `%` (0x25) starts an escape.
    set(&mut t, b"%", PERCENT);
    t
};

// ---------------------------------------------------------------------------------------------
// Pairs
// ---------------------------------------------------------------------------------------------

/// Iterator over the raw (still encoded) pairs of a query string; allocates nothing.
///
/// One leading `?` is skipped, pairs are split on `&` only, the first `=` splits name from
/// value, empty segments are skipped, empty names and values are kept, nothing is trimmed.
///
/// ```
/// use reqparse::query::Pairs;
///
/// let raw: Vec<_> = Pairs::new(b"?a=1&&=x&b=&c&d=e=f")
///     .map(|p| (p.name(), p.value()))
///     .collect();
/// assert_eq!(raw, [
///     (&b"a"[..], &b"1"[..]), (b"", b"x"), (b"b", b""), (b"c", b""), (b"d", b"e=f"),
/// ]);
/// ```
#[derive(Clone, Debug)]
pub struct Pairs<'a> {
    input: &'a [u8],
    /// Set when the input came as `&str`: decoding then skips UTF-8 validation of raw runs.
    text: Option<&'a str>,
    pos: usize,
}

/// Enumerates the pairs of a query string given as text. Each pair's raw name and value are
/// also `&str` ([`Pair::name_str`]); [`str_pairs`] hands them out as `&str` directly.
///
/// ```
/// let pair = reqparse::query::pairs("?x=1").next().unwrap();
/// assert_eq!((pair.name(), pair.value(), pair.offset()), (&b"x"[..], &b"1"[..], 1));
/// assert_eq!(pair.name_str(), Some("x"));
/// ```
pub fn pairs(input: &str) -> Pairs<'_> {
    let mut p = Pairs::new(input.as_bytes());
    p.text = Some(input);
    p
}

/// Decodes every pair of a query into owned strings, in input order: the one call for when
/// the pairs must outlive the input. One allocation per non-empty name or value, and the
/// vector's own; the first error stops it.
///
/// ```
/// use reqparse::query::{collect_pairs, Profile};
///
/// let all = collect_pairs("?a=1&b=x+y&&c", Profile::Whatwg)?;
/// assert_eq!(all, [("a", "1"), ("b", "x y"), ("c", "")].map(|(n, v)| (n.into(), v.into())));
/// assert_eq!(collect_pairs("a=%zz", Profile::Strict).unwrap_err().offset, 2);
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
pub fn collect_pairs(input: &str, profile: Profile) -> Result<Vec<(String, String)>, QueryError> {
    // Room for every pair up front, so the vector is not grown (and copied) on the way:
    // there is at most one pair per `&`-separated segment. A run of `&` counts segments that
    // hold no pair, so the room asked for ahead is capped (past the cap the vector grows as
    // usual): no input makes it reserve more than `PRESIZE_PAIRS` pairs it does not hold.
    // A short input is not counted: a pair takes a byte and a separator but the last, so
    // it holds at most `len.div_ceil(2)` of them, which is room enough (memchr's count set-up
    // was 57 of the 1,310 instructions of `a=1&b=2`).
    let room = if input.len() <= SHORT_INPUT {
        input.len().div_ceil(2)
    } else {
        memchr::memchr_iter(b'&', input.as_bytes()).count() + 1
    };
    let mut out = Vec::with_capacity(room.min(PRESIZE_PAIRS));
    for pair in pairs(input) {
        let name = pair.name_owned(profile)?;
        out.push((name, pair.value_owned(profile)?));
    }
    Ok(out)
}

/// The most pairs [`collect_pairs`] makes room for before it has found them: 21 pairs are
/// 1,008 bytes of vector, a size that common allocators serve from their small-block caches
/// (glibc's per-thread cache takes up to 1,032 bytes); 64 pairs (3 KiB) made the realistic
/// 1 KB query 7% slower there, 21 made it 8% faster (BENCHMARKS.md, "Owned pairs and the QueryMap arena").
const PRESIZE_PAIRS: usize = 21;

/// The longest input [`collect_pairs`] makes room for by its length alone: at most 8 pairs,
/// 384 bytes of vector, without counting its `&`s.
const SHORT_INPUT: usize = 16;

impl<'a> Pairs<'a> {
    /// Enumerates the pairs of a query string given as bytes (which need not be UTF-8).
    ///
    /// ```
    /// assert_eq!(reqparse::query::Pairs::new(b"a=\xFF&b").count(), 2);
    /// ```
    pub fn new(input: &'a [u8]) -> Self {
        Pairs {
            pos: usize::from(input.first() == Some(&b'?')),
            ..Pairs::form(input)
        }
    }

    /// Enumerates the pairs of an `application/x-www-form-urlencoded` body: as
    /// [`Pairs::new`], except that a leading `?` is not skipped (the WHATWG urlencoded parser
    /// strips nothing; a query's `?` is the URL's, not the pairs').
    ///
    /// ```
    /// use reqparse::query::Pairs;
    /// assert_eq!(Pairs::form(b"?a=1").next().unwrap().name(), b"?a");
    /// assert_eq!(Pairs::new(b"?a=1").next().unwrap().name(), b"a");
    /// ```
    pub fn form(input: &'a [u8]) -> Self {
        Pairs {
            input,
            text: None,
            pos: 0,
        }
    }
}

impl<'a> Iterator for Pairs<'a> {
    type Item = Pair<'a>;

    // Natively only: in wasm builds `next_pair` is inlined into this `next`, which stays a
    // call (the wasm faces' hot loop calls `next_pair` itself), and so the component stays
    // its size (inlined here too, it grew by 7.9 KB).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn next(&mut self) -> Option<Pair<'a>> {
        self.next_pair()
    }
}

impl<'a> Pairs<'a> {
    /// [`Iterator::next`], which calls it. Always inlined, so that a `Pair` is not passed
    /// through memory and the caller's loop holds the scan:
    /// - In a wasm guest it is inlined where it is called directly: [`decode_spans`], the
    ///   wasm faces' loop, where a call cost about 80 instructions a pair (cranelift's
    ///   prologue, spills and the `Pair` passed through memory), 4% of a 1 KB query.
    /// - Natively `next` is inlined too, so it lands in the caller's loop. Left to LLVM it
    ///   stayed out of line: a call per pair, and the `Pair`'s eleven words written and read
    ///   back. Inlined, a loop of `pairs` with `name_in` / `value_in` ran 27% fewer
    ///   instructions on `a=1&b=2` and 12% fewer on the 1 KB query. It took 1.59x and 1.22x
    ///   less time (BENCHMARKS.md, "Pair scanner").
    #[inline(always)]
    pub(super) fn next_pair(&mut self) -> Option<Pair<'a>> {
        let input = self.input;
        let mut i = self.pos;
        // The `&` that ended the pair before; a second one starts a run of empty segments,
        // skipped eight bytes a step (a byte at a time, `&&&…` cost 0.29 ns a byte).
        if input.get(i) == Some(&b'&') {
            i += 1;
            if input.get(i) == Some(&b'&') {
                i = skip_amps(input, i);
            }
        }
        let start = i;
        #[cfg(target_arch = "wasm32")]
        let (name_flags, has_eq) = {
            let (len, escapes, eq) = scan_name(slice(input, i..));
            i += len;
            (if escapes { ESCAPES } else { 0 }, eq)
        };
        #[cfg(not(target_arch = "wasm32"))]
        let (name_flags, has_eq) = {
            let mut name_flags = 0;
            let mut has_eq = false;
            while let Some(&b) = input.get(i) {
                let class = crate::bytes::row(&CLASS, b);
                if class & (AMP | EQ) != 0 {
                    has_eq = class == EQ;
                    break;
                }
                name_flags |= class;
                i += 1;
            }
            (name_flags, has_eq)
        };
        let name_end = i;
        let mut value_plain = true;
        if has_eq {
            i += 1;
            // `i` is at most one past the `=` found in bounds.
            let (len, escapes) = scan_value(slice(input, i..));
            value_plain = !escapes;
            i += len;
        }
        self.pos = i;
        if i == start {
            return None;
        }
        let value_start = if has_eq { name_end + 1 } else { i };
        // Split points are ASCII bytes, so they are character boundaries of a `&str` input.
        let text = self
            .text
            .map(|t| (str_slice(t, start..name_end), str_slice(t, value_start..i)));
        // Natively a `&str`'s raw bytes are its text's: no second cut, and the decode loops
        // use the text anyway. In wasm they are cut from the bytes, so that the text's cuts
        // (character-boundary checks) are dead code where only offsets are answered (the
        // faces' span loops): cut from the text, the component's 1 KB query ran 3% more
        // instructions (BENCHMARKS.md, "Pair scanner").
        let (name, value) = match text {
            #[cfg(not(target_arch = "wasm32"))]
            Some((name, value)) => (name.as_bytes(), value.as_bytes()),
            _ => (slice(input, start..name_end), slice(input, value_start..i)),
        };
        Some(Pair {
            name,
            value,
            text,
            offset: start,
            value_offset: value_start,
            plain: (name_flags & ESCAPES == 0, value_plain),
        })
    }
}

impl core::iter::FusedIterator for Pairs<'_> {}

/// High bit set in each byte of `w` equal to `b`: the query scanners' and the decoder's
/// eight-bytes-a-step test. A false positive can only sit above a true match (the borrow of
/// the subtraction runs upwards), so the lowest set bit is exact, and "any bit below k" is
/// too, also of an OR of such masks.
#[inline(always)]
const fn bytes_eq(w: u64, b: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let x = w ^ (ONES * b as u64);
    x.wrapping_sub(ONES) & !x & (ONES << 7)
}

/// The end of the run of `&` that starts at `bytes[i]`: where the next segment starts.
#[inline]
fn skip_amps(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    while let Some(word) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        // Zero exactly in the bytes that are `&`: the lowest byte that is not is the end.
        let other = u64::from_le_bytes(*word) ^ (ONES * u64::from(b'&'));
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while bytes.get(i) == Some(&b'&') {
        i += 1;
    }
    i
}

/// Finds the end of a name (the first `&` or `=`, or the end), whether a `%` or `+` comes
/// before it, and whether a `=` ended it; eight bytes per step. wasm32 only (and the tests,
/// which hold it to the byte loop): in a wasm guest every loop iteration costs a host check
/// (wasmtime's epoch, V8's interrupt check) and cranelift's spills, and this scan cut the
/// component's 1 KB query by 11% of its instructions. Natively the byte loop stays: names are
/// short, and with this scan native decoding ran slower in wall time (BENCHMARKS.md,
/// "Pair scanner").
#[cfg(any(target_arch = "wasm32", test))]
#[inline]
fn scan_name(bytes: &[u8]) -> (usize, bool, bool) {
    let (words, tail) = bytes.as_chunks::<8>();
    let mut base = 0;
    let mut escapes = false;
    for word in words {
        let w = u64::from_le_bytes(*word);
        let end = bytes_eq(w, b'&') | bytes_eq(w, b'=');
        let esc = bytes_eq(w, b'%') | bytes_eq(w, b'+');
        if end != 0 {
            let k = (end.trailing_zeros() / 8) as usize;
            let below = (1u64 << (k * 8)) - 1;
            // `k < 8`: the byte is in this word.
            let eq = word.get(k) == Some(&b'=');
            return (base + k, escapes || esc & below != 0, eq);
        }
        escapes |= esc != 0;
        base += 8;
    }
    for (k, &b) in tail.iter().enumerate() {
        match crate::bytes::row(&CLASS, b) {
            AMP => return (base + k, escapes, false),
            EQ => return (base + k, escapes, true),
            PLUS | PERCENT => escapes = true,
            _ => {}
        }
    }
    (bytes.len(), escapes, false)
}

/// Finds the end of a value (the first `&`, or the end) and whether a `%` or `+` comes before
/// it, eight bytes per step: values are the long part of a query, names are short.
#[inline]
fn scan_value(bytes: &[u8]) -> (usize, bool) {
    let mut escapes = false;
    // Whole words as arrays: no length to check, nothing to fall back on.
    let (words, tail) = bytes.as_chunks::<8>();
    let mut base = 0;
    let mut rest = words.iter();
    // Until the first escape, look for `&` and escapes; after it, for `&` alone.
    for word in rest.by_ref() {
        let w = u64::from_le_bytes(*word);
        let amp = bytes_eq(w, b'&');
        let esc = bytes_eq(w, b'%') | bytes_eq(w, b'+');
        if amp != 0 {
            let k = amp.trailing_zeros() / 8;
            let below = (1u64 << (k * 8)) - 1;
            return (base + k as usize, esc & below != 0);
        }
        base += 8;
        if esc != 0 {
            escapes = true;
            break;
        }
    }
    for word in rest {
        let amp = bytes_eq(u64::from_le_bytes(*word), b'&');
        if amp != 0 {
            return (base + (amp.trailing_zeros() / 8) as usize, true);
        }
        base += 8;
    }
    for (k, &b) in tail.iter().enumerate() {
        match crate::bytes::row(&CLASS, b) {
            AMP => return (base + k, escapes),
            PLUS | PERCENT => escapes = true,
            _ => {}
        }
    }
    (bytes.len(), escapes)
}

/// One raw pair, borrowing the input; decode its parts on demand.
///
/// ```
/// use reqparse::query::{pairs, Profile};
///
/// let pair = pairs("?na+me=v%C3%A9").next().unwrap();
/// assert_eq!(pair.name(), b"na+me");
/// assert_eq!(pair.decode_name(Profile::Whatwg)?, "na me");
/// assert_eq!(pair.decode_value(Profile::Whatwg)?, "vé");
/// assert!(pair.name_eq("na me"));
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair<'a> {
    name: &'a [u8],
    value: &'a [u8],
    text: Option<(&'a str, &'a str)>,
    offset: usize,
    /// Where the value starts (the end of the name when there is no `=`).
    value_offset: usize,
    /// Whether name and value are free of `+` and `%` (found by the scan, saves a rescan).
    plain: (bool, bool),
}

impl<'a> Pair<'a> {
    /// The raw (still encoded) name.
    ///
    /// ```
    /// assert_eq!(reqparse::query::pairs("a%20b=1").next().unwrap().name(), b"a%20b");
    /// ```
    pub fn name(&self) -> &'a [u8] {
        self.name
    }

    /// The raw (still encoded) value; empty when there is no `=`.
    ///
    /// ```
    /// assert_eq!(reqparse::query::pairs("a=1+2").next().unwrap().value(), b"1+2");
    /// assert_eq!(reqparse::query::pairs("a").next().unwrap().value(), b"");
    /// ```
    pub fn value(&self) -> &'a [u8] {
        self.value
    }

    /// The raw (still encoded) name as text, when the pairs came from a `&str` ([`pairs`],
    /// [`str_pairs`]): a slice of that `&str`, with no second UTF-8 check. `None` for
    /// [`Pairs::new`] / [`Pairs::form`] (bytes), even when the bytes happen to be UTF-8.
    ///
    /// ```
    /// use reqparse::query::{pairs, Pairs};
    /// assert_eq!(pairs("caf\u{e9}=1").next().unwrap().name_str(), Some("café"));
    /// assert_eq!(Pairs::new(b"a=1").next().unwrap().name_str(), None);
    /// ```
    pub fn name_str(&self) -> Option<&'a str> {
        self.text.map(|(name, _)| name)
    }

    /// The raw (still encoded) value as text, when the pairs came from a `&str`; see
    /// [`Pair::name_str`]. `Some("")` when there is no `=`.
    ///
    /// ```
    /// let pair = reqparse::query::pairs("a=x+y").next().unwrap();
    /// assert_eq!(pair.value_str(), Some("x+y"));
    /// ```
    pub fn value_str(&self) -> Option<&'a str> {
        self.text.map(|(_, value)| value)
    }

    /// Byte offset of the pair's first byte in the whole input (`?` included).
    ///
    /// ```
    /// let offsets: Vec<_> = reqparse::query::pairs("?a=1&&b=2").map(|p| p.offset()).collect();
    /// assert_eq!(offsets, [1, 6]);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    fn name_part(&self) -> Part<'a> {
        Part::new(self.name, self.text.map(|t| t.0), self.offset, self.plain.0)
    }

    fn value_part(&self) -> Part<'a> {
        let text = self.text.map(|t| t.1);
        Part::new(self.value, text, self.value_offset, self.plain.1)
    }

    /// The decoded name; borrows the input when there is nothing to decode.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use reqparse::query::{pairs, Profile};
    ///
    /// let mut it = pairs("a=1&b%21=2");
    /// assert!(matches!(it.next().unwrap().decode_name(Profile::Whatwg)?, Cow::Borrowed("a")));
    /// assert_eq!(it.next().unwrap().decode_name(Profile::Whatwg)?, "b!");
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn decode_name(&self, profile: Profile) -> Result<Cow<'a, str>, QueryError> {
        self.name_part().decode_cow(profile)
    }

    /// The decoded value; borrows the input when there is nothing to decode.
    ///
    /// ```
    /// use reqparse::query::{pairs, Profile};
    /// let pair = pairs("q=a+b%2Bc").next().unwrap();
    /// assert_eq!(pair.decode_value(Profile::Whatwg)?, "a b+c");
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn decode_value(&self, profile: Profile) -> Result<Cow<'a, str>, QueryError> {
        self.value_part().decode_cow(profile)
    }

    /// Appends the decoded name to `out`; allocates nothing when `out` has the capacity.
    ///
    /// On error `out` is left as it was before the call.
    ///
    /// ```
    /// use reqparse::query::{pairs, Profile};
    /// let mut buf = String::with_capacity(64);
    /// pairs("x%79z=1").next().unwrap().decode_name_into(Profile::Whatwg, &mut buf)?;
    /// assert_eq!(buf, "xyz");
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn decode_name_into(&self, profile: Profile, out: &mut String) -> Result<(), QueryError> {
        self.name_part().decode_string(profile, out)
    }

    /// Appends the decoded value to `out`; allocates nothing when `out` has the capacity.
    ///
    /// On error `out` is left as it was before the call.
    ///
    /// ```
    /// use reqparse::query::{pairs, Profile};
    /// let mut buf = String::with_capacity(64);
    /// for pair in pairs("a=1&b=x+y") {
    ///     buf.clear();
    ///     pair.decode_value_into(Profile::Whatwg, &mut buf)?;
    /// }
    /// assert_eq!(buf, "x y");
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn decode_value_into(&self, profile: Profile, out: &mut String) -> Result<(), QueryError> {
        self.value_part().decode_string(profile, out)
    }

    /// The decoded name, borrowed from the input when there is nothing to decode, else decoded
    /// into `scratch` (cleared first) and borrowed from it: the hot-loop form, which neither
    /// allocates (given a `scratch` with the capacity) nor copies what needs no decoding.
    ///
    /// On error `scratch` is left empty.
    ///
    /// ```
    /// use reqparse::query::{pairs, Profile};
    /// let mut scratch = String::with_capacity(64);
    /// let pair = pairs("na+me=1").next().unwrap();
    /// assert_eq!(pair.name_in(Profile::Whatwg, &mut scratch)?, "na me");
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn name_in<'s>(&self, profile: Profile, scratch: &'s mut String) -> InScratch<'s>
    where
        'a: 's,
    {
        // The common case first, from the pair's own fields: a plain part of a text input.
        if let (true, Some((name, _))) = (self.plain.0, self.text) {
            return Ok(name);
        }
        self.name_part().decode_in(profile, scratch)
    }

    /// The decoded value, borrowed from the input when there is nothing to decode, else decoded
    /// into `scratch` (cleared first) and borrowed from it; see [`Pair::name_in`].
    ///
    /// ```
    /// use reqparse::query::{pairs, Profile};
    /// let mut scratch = String::with_capacity(64);
    /// let mut values = Vec::new();
    /// for pair in pairs("a=plain&b=x+y%21") {
    ///     // `plain` borrows the input; `x y!` is decoded into `scratch`.
    ///     values.push(pair.value_in(Profile::Whatwg, &mut scratch)?.len());
    /// }
    /// assert_eq!(values, [5, 4]);
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn value_in<'s>(&self, profile: Profile, scratch: &'s mut String) -> InScratch<'s>
    where
        'a: 's,
    {
        if let (true, Some((_, value))) = (self.plain.1, self.text) {
            return Ok(value);
        }
        self.value_part().decode_in(profile, scratch)
    }

    /// The decoded name in a `String` of its own ([`collect_pairs`]): a plain part of a text
    /// input is copied from the pair's own fields, as [`name_in`](Self::name_in) borrows it.
    fn name_owned(&self, profile: Profile) -> Result<String, QueryError> {
        match (self.plain.0, self.text) {
            (true, Some((name, _))) => Ok(String::from(name)),
            _ => self.name_part().decode_owned(profile),
        }
    }

    /// The decoded value in a `String` of its own; see [`name_owned`](Self::name_owned).
    fn value_owned(&self, profile: Profile) -> Result<String, QueryError> {
        match (self.plain.1, self.text) {
            (true, Some((_, value))) => Ok(String::from(value)),
            _ => self.value_part().decode_owned(profile),
        }
    }

    /// The decoded name and value together, each borrowed from the input when there is
    /// nothing to decode, else decoded into `scratch` (cleared first; empty on error): the
    /// form for when both are needed at once, as a body reader hands out a pair.
    ///
    /// ```
    /// use reqparse::query::{pairs, Profile};
    /// let mut scratch = String::with_capacity(64);
    /// let pair = pairs("city=S%C3%A3o+Paulo").next().unwrap();
    /// assert_eq!(pair.decode_in(Profile::Whatwg, &mut scratch)?, ("city", "São Paulo"));
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn decode_in<'s>(
        &self,
        profile: Profile,
        scratch: &'s mut String,
    ) -> Result<(&'s str, &'s str), QueryError>
    where
        'a: 's,
    {
        /// Where a decoded part is: the input itself, or a range of `scratch`.
        enum At<'a> {
            Input(&'a str),
            Scratch(usize, usize),
        }
        scratch.clear();
        let place = |part: Part<'a>, scratch: &mut String| {
            if let Some(text) = part.borrowed() {
                return Ok(At::Input(text));
            }
            let start = scratch.len();
            part.decode_string(profile, scratch)?;
            Ok(At::Scratch(start, scratch.len()))
        };
        let placed = place(self.name_part(), scratch)
            .and_then(|name| Ok((name, place(self.value_part(), scratch)?)));
        let (name, value) = match placed {
            Ok(placed) => placed,
            Err(e) => {
                scratch.clear();
                return Err(e);
            }
        };
        let scratch: &'s str = scratch;
        // Ranges `decode_string` appended, whole decoded text each.
        let text = |at: At<'a>| match at {
            At::Input(text) => text,
            At::Scratch(start, end) => str_slice(scratch, start..end),
        };
        Ok((text(name), text(value)))
    }

    /// The name as raw bytes: `+` → space and valid `%XX` decoded, malformed `%` kept.
    ///
    /// ```
    /// let pair = reqparse::query::pairs("%FF+%zz=").next().unwrap();
    /// assert_eq!(&*pair.decode_name_bytes(), b"\xFF %zz");
    /// ```
    pub fn decode_name_bytes(&self) -> Cow<'a, [u8]> {
        self.name_part().decode_bytes()
    }

    /// The value as raw bytes: `+` → space and valid `%XX` decoded, malformed `%` kept.
    ///
    /// ```
    /// let pair = reqparse::query::pairs("a=%00%41+").next().unwrap();
    /// assert_eq!(&*pair.decode_value_bytes(), b"\0A ");
    /// ```
    pub fn decode_value_bytes(&self) -> Cow<'a, [u8]> {
        self.value_part().decode_bytes()
    }

    /// Whether the name, decoded with [`Profile::Whatwg`], equals `name`; allocates nothing.
    ///
    /// ```
    /// let pair = reqparse::query::pairs("first+name=Ann").next().unwrap();
    /// assert!(pair.name_eq("first name"));
    /// assert!(!pair.name_eq("first"));
    /// ```
    pub fn name_eq(&self, name: &str) -> bool {
        self.name_eq_with(Profile::Whatwg, name)
    }

    /// Whether the name, decoded with `profile`, equals `name`; allocates nothing.
    /// A name that does not decode under [`Profile::Strict`] equals nothing.
    ///
    /// ```
    /// use reqparse::query::{pairs, Profile};
    /// let pair = pairs("%FF=1").next().unwrap();
    /// assert!(pair.name_eq_with(Profile::DotNet, "%FF"));
    /// assert!(pair.name_eq_with(Profile::Whatwg, "\u{FFFD}"));
    /// assert!(!pair.name_eq_with(Profile::Strict, "%FF"));
    /// ```
    pub fn name_eq_with(&self, profile: Profile, name: &str) -> bool {
        let part = self.name_part();
        if part.plain && self.name == name.as_bytes() {
            return true;
        }
        let mut sink = EqSink::new(name);
        matches!(part.decode_to(profile, &mut sink), Ok(true)) && sink.matched_all()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The native byte loop's answer, which `scan_name` (wasm32's) must give.
    fn scan_name_bytes(bytes: &[u8]) -> (usize, bool, bool) {
        let mut flags = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let class = crate::bytes::row(&CLASS, b);
            if class & (AMP | EQ) != 0 {
                return (i, flags & ESCAPES != 0, class == EQ);
            }
            flags |= class;
        }
        (bytes.len(), flags & ESCAPES != 0, false)
    }

    #[test]
    fn word_name_scan_matches_the_byte_loop() {
        // Every string of up to 5 bytes over the bytes that matter, and each placed after
        // 0-11 plain bytes, so every position in a word and across two words is reached.
        let alphabet = [b'a', b'&', b'=', b'%', b'+', 0x80, 0xFF, 0x00];
        let mut cases = 0;
        for len in 0..=5u32 {
            for code in 0..alphabet.len().pow(len) {
                let mut tail = Vec::new();
                let mut c = code;
                for _ in 0..len {
                    tail.push(alphabet[c % alphabet.len()]);
                    c /= alphabet.len();
                }
                for pad in 0..12 {
                    let mut input = vec![b'x'; pad];
                    input.extend_from_slice(&tail);
                    assert_eq!(scan_name(&input), scan_name_bytes(&input), "{input:?}");
                    cases += 1;
                }
            }
        }
        assert!(cases > 400_000);
    }

    #[test]
    fn amp_run_skip_matches_the_byte_loop() {
        // Runs of every length up to 40 from every start, ended by each kind of byte or by
        // the end of the input, so every position in a word and across words is reached.
        for start in 0..9 {
            for run in 0..40 {
                for end in [None, Some(b'a'), Some(b'='), Some(0x80), Some(0x26 ^ 0x80)] {
                    let mut input = vec![b'x'; start];
                    input.extend(core::iter::repeat_n(b'&', run));
                    input.extend(end);
                    let want = start + run;
                    assert_eq!(skip_amps(&input, start), want, "{input:?}");
                }
            }
        }
    }

    /// Every pair of `input` decoded with [`Profile::Whatwg`].
    pub(super) fn whatwg(input: &str) -> Vec<(String, String)> {
        pairs(input)
            .map(|p| {
                (
                    p.decode_name(Profile::Whatwg).unwrap().into_owned(),
                    p.decode_value(Profile::Whatwg).unwrap().into_owned(),
                )
            })
            .collect()
    }

    #[test]
    fn splitting() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            ("", &[]),
            ("?", &[]),
            ("??a", &[("?a", "")]),
            ("&&&", &[]),
            ("a=b=c", &[("a", "b=c")]),
            ("=", &[("", "")]),
            (" a = b ", &[(" a ", " b ")]),
            ("a;b=c", &[("a;b", "c")]),
        ];
        for (input, expect) in cases {
            let got = whatwg(input);
            let want: Vec<(String, String)> = expect
                .iter()
                .map(|(a, b)| ((*a).into(), (*b).into()))
                .collect();
            assert_eq!(got, want, "{input:?}");
        }
    }

    #[test]
    fn scan_value_words() {
        let cases: &[(&[u8], (usize, bool))] = &[
            (b"", (0, false)),
            (b"abc", (3, false)),
            (b"&%", (0, false)),
            (b"%&", (1, true)),
            (b"abcdefgh&x", (8, false)),
            (b"abcdefg%&", (8, true)),
            (b"abcdefghijklmno+", (16, true)),
            (b"aaaaaaa&%%%%%%%%", (7, false)),
            (b"''''''''&", (8, false)),
            (b"\x25\x26\x27\x2a\x2b\x2c\x00\xff&", (1, true)),
            (b"\x00\x01\x02\x03\x04\x05\x06\x07\x08+", (10, true)),
        ];
        for (input, want) in cases {
            assert_eq!(scan_value(input), *want, "{input:?}");
        }
    }

    #[test]
    fn class_rows() {
        let classes: Vec<(u8, u8)> = (0..=255u8)
            .filter(|&b| CLASS[usize::from(b)] != 0)
            .map(|b| (b, CLASS[usize::from(b)]))
            .collect();
        assert_eq!(
            classes,
            [(b'%', PERCENT), (b'&', AMP), (b'+', PLUS), (b'=', EQ)]
        );
    }

    #[test]
    fn error_display() {
        let e = QueryError::new(QueryErrorKind::TooManyPairs, 9);
        assert_eq!(alloc::format!("{e}"), "too many pairs at byte 9");
    }
}
