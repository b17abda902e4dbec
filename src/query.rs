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
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::percent::{escape_at, write_escape};

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

impl Profile {
    /// Every profile, the default first.
    pub const ALL: [Profile; 3] = [Profile::Whatwg, Profile::DotNet, Profile::Strict];

    /// The profile's name in every face (CLI flag, JSON vectors, WIT, JS): `whatwg`, `dotnet`, `strict`.
    ///
    /// ```
    /// use reqparse::query::Profile;
    /// assert_eq!(Profile::DotNet.as_str(), "dotnet");
    /// assert_eq!("dotnet".parse::<Profile>(), Ok(Profile::DotNet));
    /// assert!("nope".parse::<Profile>().is_err());
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Profile::Whatwg => "whatwg",
            Profile::DotNet => "dotnet",
            Profile::Strict => "strict",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::str::FromStr for Profile {
    type Err = crate::UnknownProfile;

    /// Parses a name written by [`Profile::as_str`] (exactly, lowercase).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "whatwg" => Ok(Profile::Whatwg),
            "dotnet" => Ok(Profile::DotNet),
            "strict" => Ok(Profile::Strict),
            _ => Err(crate::UnknownProfile {
                expected: "whatwg, dotnet, strict",
            }),
        }
    }
}

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

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            QueryErrorKind::InvalidEscape => "invalid percent escape",
            QueryErrorKind::InvalidUtf8 => "invalid UTF-8",
            QueryErrorKind::TooManyPairs => "too many pairs",
            QueryErrorKind::TooLarge => "query too large",
        };
        write!(f, "{what} at byte {}", self.offset)
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
static CLASS: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    // Every other byte, controls and non-ASCII included, is plain: 0.
    let mut t = [0; 256];
    // `&` (0x26) separates pairs; `;` does not (WHATWG dropped it).
    t[b'&' as usize] = AMP;
    // `=` (0x3D) splits name from value.
    t[b'=' as usize] = EQ;
    // `+` (0x2B) means a space in form encoding.
    t[b'+' as usize] = PLUS;
    // `%` (0x25) starts an escape.
    t[b'%' as usize] = PERCENT;
    t
}

/// Bytes [`append_pairs`] writes unescaped: RFC 3986 unreserved (ALPHA / DIGIT / `-._~`).
static UNRESERVED: [bool; 256] = unreserved();

const fn unreserved() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        // A-Z, a-z, 0-9
        t[b] = c.is_ascii_alphanumeric();
        b += 1;
    }
    // The four unreserved marks; everything else (space included) is `%XX`.
    t[b'-' as usize] = true;
    t[b'.' as usize] = true;
    t[b'_' as usize] = true;
    t[b'~' as usize] = true;
    t
}

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

/// Enumerates the pairs of a query string given as text.
///
/// ```
/// let pair = reqparse::query::pairs("?x=1").next().unwrap();
/// assert_eq!((pair.name(), pair.value(), pair.offset()), (&b"x"[..], &b"1"[..], 1));
/// ```
pub fn pairs(input: &str) -> Pairs<'_> {
    let mut p = Pairs::new(input.as_bytes());
    p.text = Some(input);
    p
}

impl<'a> Pairs<'a> {
    /// Enumerates the pairs of a query string given as bytes (which need not be UTF-8).
    ///
    /// ```
    /// assert_eq!(reqparse::query::Pairs::new(b"a=\xFF&b").count(), 2);
    /// ```
    pub fn new(input: &'a [u8]) -> Self {
        let pos = usize::from(input.first() == Some(&b'?'));
        Pairs {
            input,
            text: None,
            pos,
        }
    }
}

impl<'a> Iterator for Pairs<'a> {
    type Item = Pair<'a>;

    fn next(&mut self) -> Option<Pair<'a>> {
        let input = self.input;
        let mut i = self.pos;
        // A run of `&` is a run of empty segments: skip it at one compare per byte.
        while input.get(i) == Some(&b'&') {
            i += 1;
        }
        let start = i;
        let mut name_flags = 0;
        let mut has_eq = false;
        while let Some(&b) = input.get(i) {
            let class = CLASS[usize::from(b)];
            if class & (AMP | EQ) != 0 {
                has_eq = class == EQ;
                break;
            }
            name_flags |= class;
            i += 1;
        }
        let name_end = i;
        let mut value_plain = true;
        if has_eq {
            i += 1;
            let (len, escapes) = scan_value(input.get(i..).unwrap_or_default());
            value_plain = !escapes;
            i += len;
        }
        self.pos = i;
        if i == start {
            return None;
        }
        let value_start = if has_eq { name_end + 1 } else { i };
        let name = input.get(start..name_end)?;
        let value = input.get(value_start..i)?;
        // Split points are ASCII bytes, so these `get`s never fail on a `&str` input.
        let text = match self.text {
            Some(t) => match (t.get(start..name_end), t.get(value_start..i)) {
                (Some(n), Some(v)) => Some((n, v)),
                _ => None,
            },
            None => None,
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

/// Finds the end of a value (the first `&`, or the end) and whether a `%` or `+` comes before
/// it, eight bytes per step: values are the long part of a query, names are short.
#[inline]
fn scan_value(bytes: &[u8]) -> (usize, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // High bit set in each byte of `x` that is zero. A false positive can only sit above a true
    // zero byte, so the lowest set bit is exact, and "any bit below k" is too.
    let zeros = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let mut escapes = false;
    let mut chunks = bytes.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or_default());
        let amp = zeros(w ^ (ONES * u64::from(b'&')));
        let esc = zeros(w ^ (ONES * u64::from(b'%'))) | zeros(w ^ (ONES * u64::from(b'+')));
        if amp != 0 {
            let k = amp.trailing_zeros() / 8;
            let below = (1u64 << (k * 8)) - 1;
            return (base + k as usize, escapes || esc & below != 0);
        }
        escapes |= esc != 0;
        base += 8;
    }
    for (k, &b) in chunks.remainder().iter().enumerate() {
        match CLASS[usize::from(b)] {
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
        Part {
            raw: self.name,
            text: self.text.map(|t| t.0),
            offset: self.offset,
            plain: self.plain.0,
        }
    }

    fn value_part(&self) -> Part<'a> {
        Part {
            raw: self.value,
            text: self.text.map(|t| t.1),
            offset: self.value_offset,
            plain: self.plain.1,
        }
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
        let mut sink = EqSink {
            expected: name.as_bytes(),
            matched: 0,
        };
        matches!(part.decode_to(profile, &mut sink), Ok(true))
            && sink.matched == sink.expected.len()
    }
}

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

/// Where decoded text goes. `put` returns `false` to stop early (a comparison that failed).
trait Sink {
    fn put(&mut self, s: &str) -> bool;

    /// A point to come back to when the fast decoder gives up half-way.
    fn mark(&self) -> usize;

    fn reset(&mut self, mark: usize);

    /// `b` is ASCII.
    #[inline]
    fn put_ascii(&mut self, b: u8) -> bool {
        self.put(char::from(b).encode_utf8(&mut [0; 4]))
    }
}

impl Sink for String {
    #[inline]
    fn put(&mut self, s: &str) -> bool {
        self.push_str(s);
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
        self.push(char::from(b));
        true
    }
}

impl Sink for Vec<u8> {
    #[inline]
    fn put(&mut self, s: &str) -> bool {
        self.extend_from_slice(s.as_bytes());
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
        self.push(b);
        true
    }
}

/// Compares decoded text against an expected string as it is produced.
struct EqSink<'t> {
    expected: &'t [u8],
    matched: usize,
}

impl Sink for EqSink<'_> {
    #[inline]
    fn put(&mut self, s: &str) -> bool {
        let end = self.matched + s.len();
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
struct CountSink(usize);

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
struct Part<'a> {
    raw: &'a [u8],
    /// `raw` as text, when the input was a `&str`.
    text: Option<&'a str>,
    /// Where `raw` starts in the whole input.
    offset: usize,
    /// No `+` and no `%`: decoding changes nothing.
    plain: bool,
}

impl<'a> Part<'a> {
    fn decode_cow(self, profile: Profile) -> Result<Cow<'a, str>, QueryError> {
        if self.plain {
            if let Some(t) = self.text {
                return Ok(Cow::Borrowed(t));
            }
            if let Ok(t) = core::str::from_utf8(self.raw) {
                return Ok(Cow::Borrowed(t));
            }
        }
        // Decoding never makes valid UTF-8 input longer, so one allocation is enough for it.
        let mut out = String::with_capacity(self.raw.len());
        self.decode_to(profile, &mut out)?;
        Ok(Cow::Owned(out))
    }

    fn decode_string(self, profile: Profile, out: &mut String) -> Result<(), QueryError> {
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

    fn decode_bytes(self) -> Cow<'a, [u8]> {
        if self.plain {
            return Cow::Borrowed(self.raw);
        }
        let raw = self.raw;
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while let Some(&b) = raw.get(i) {
            let (v, width) = match CLASS[usize::from(b)] {
                PLUS => (b' ', 1),
                PERCENT => match raw.get(i..).and_then(escape_at) {
                    Some(v) => (v, 3),
                    None => (b'%', 1),
                },
                _ => (b, 1),
            };
            out.push(v);
            i += width;
        }
        Cow::Owned(out)
    }

    /// Decodes into `sink`; `Ok(false)` means the sink stopped early.
    fn decode_to<S: Sink>(self, profile: Profile, sink: &mut S) -> Result<bool, QueryError> {
        let mark = sink.mark();
        if let Some(done) = decode_fast(self.raw, profile == Profile::Strict, sink) {
            return Ok(done);
        }
        // Bad input: start again on the careful path, which knows where every byte came from.
        sink.reset(mark);
        let text = match self.text {
            Some(t) => Some(t),
            None => core::str::from_utf8(self.raw).ok(),
        };
        match text {
            Some(t) => decode_text(t, self.offset, profile, sink),
            None => decode_generic(self.raw, self.offset, profile, sink),
        }
    }
}

/// The fast decoder's stack buffer: most names and values fit in one chunk.
const FAST_CHUNK: usize = 256;

/// The fast path for input that decodes to valid UTF-8 (the same in every profile): decode
/// bytes into a stack buffer, validate each chunk once, hand it to the sink. `None` means
/// the input needs the careful path (decoded bytes that are not UTF-8, or a malformed escape
/// under Strict); the sink may then hold a prefix, which the caller discards.
fn decode_fast<S: Sink>(raw: &[u8], strict: bool, sink: &mut S) -> Option<bool> {
    let mut buf = [0u8; FAST_CHUNK];
    let mut n = 0;
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        let class = CLASS[usize::from(b)];
        let v = if class & ESCAPES == 0 {
            i += 1;
            b
        } else if class == PLUS {
            i += 1;
            b' '
        } else {
            match raw.get(i..).and_then(escape_at) {
                Some(v) => {
                    i += 3;
                    v
                }
                None if strict => return None,
                None => {
                    i += 1;
                    b'%'
                }
            }
        };
        // A full buffer is flushed right below, so the slot always exists.
        if let Some(slot) = buf.get_mut(n) {
            *slot = v;
        }
        n += 1;
        if n == FAST_CHUNK {
            n = flush(&mut buf, n, false, sink)?;
            if n == STOPPED {
                return Some(false);
            }
        }
    }
    match flush(&mut buf, n, true, sink)? {
        STOPPED => Some(false),
        _ => Some(true),
    }
}

/// What [`flush`] returns when the sink stopped.
const STOPPED: usize = usize::MAX;

/// Validates `buf[..n]` and hands it to `sink`. Returns how many bytes of an incomplete
/// sequence were carried to the front of `buf` (only when not `last`), [`STOPPED`], or `None`
/// when the bytes are not UTF-8.
fn flush<S: Sink>(buf: &mut [u8; FAST_CHUNK], n: usize, last: bool, sink: &mut S) -> Option<usize> {
    let chunk = buf.get(..n)?;
    let valid = match core::str::from_utf8(chunk) {
        Ok(s) => return Some(if sink.put(s) { 0 } else { STOPPED }),
        Err(e) if e.error_len().is_none() && !last => e.valid_up_to(),
        Err(_) => return None,
    };
    let good = core::str::from_utf8(chunk.get(..valid)?).ok()?;
    if !sink.put(good) {
        return Some(STOPPED);
    }
    buf.copy_within(valid..n, 0);
    Some(n - valid)
}

/// Escape runs are decoded in chunks of this many bytes on the stack.
const CHUNK: usize = 64;

/// The fast path: `text` is valid UTF-8, so raw runs go to the sink as they are and only runs
/// of consecutive `%XX` escapes need UTF-8 validation. A raw run always starts on a character
/// boundary, so an incomplete sequence at the end of an escape run is invalid whatever follows:
/// handling each escape run on its own gives exactly the WHATWG byte-stream result.
fn decode_text<S: Sink>(
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
        if run < i && !sink.put(text.get(run..i).unwrap_or_default()) {
            return Ok(false);
        }
        let rest = bytes.get(i..).unwrap_or_default();
        let (ok, width) = if class == PLUS {
            (sink.put_ascii(b' '), 1)
        } else {
            match escape_at(rest) {
                None if profile == Profile::Strict => {
                    return Err(QueryError::new(QueryErrorKind::InvalidEscape, base + i));
                }
                None => (sink.put_ascii(b'%'), 1),
                Some(v) if v < 0x80 => (sink.put_ascii(v), 3),
                Some(v) => match escaped_char(v, rest) {
                    Some((c, width)) => (sink.put(c.encode_utf8(&mut [0; 4])), width),
                    // Not a whole valid sequence: the careful path takes the escape run.
                    None => {
                        let n = escape_run_len(rest);
                        let src = rest.get(..3 * n).unwrap_or_default();
                        (decode_escape_run(src, base + i, profile, sink)?, 3 * n)
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
    if run < bytes.len() && !sink.put(text.get(run..).unwrap_or_default()) {
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
    for k in 1..len {
        let b = rest.get(3 * k..).and_then(escape_at)?;
        *seq.get_mut(k)? = b;
    }
    let s = core::str::from_utf8(seq.get(..len)?).ok()?;
    Some((s.chars().next()?, 3 * len))
}

/// How many valid `%XX` escapes follow each other at the start of `bytes`.
#[inline]
fn escape_run_len(bytes: &[u8]) -> usize {
    let mut n = 0;
    while bytes.get(3 * n..).and_then(escape_at).is_some() {
        n += 1;
    }
    n
}

/// Decodes `src`, a run of valid `%XX` escapes starting at byte `base` of the whole input.
fn decode_escape_run<S: Sink>(
    src: &[u8],
    base: usize,
    profile: Profile,
    sink: &mut S,
) -> Result<bool, QueryError> {
    let mut buf = [0u8; CHUNK];
    // buf[0..len] holds decoded bytes; buf[k] came from the escape at src[3 * (first + k)].
    let mut len = 0;
    let mut first = 0;
    let mut next = 0;
    let total = src.len() / 3;
    while next < total || len > 0 {
        while len < CHUNK && next < total {
            let v = src.get(3 * next..).and_then(escape_at).unwrap_or(0);
            if let Some(slot) = buf.get_mut(len) {
                *slot = v;
            }
            len += 1;
            next += 1;
        }
        let last = next == total;
        let mut start = 0;
        loop {
            let pending = buf.get(start..len).unwrap_or_default();
            match core::str::from_utf8(pending) {
                Ok(s) => {
                    if !s.is_empty() && !sink.put(s) {
                        return Ok(false);
                    }
                    start = len;
                    break;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    let good = pending.get(..valid).unwrap_or_default();
                    if valid > 0 && !sink.put(crate::bytes::as_str(good)) {
                        return Ok(false);
                    }
                    start += valid;
                    let bad = match e.error_len() {
                        Some(n) => n,
                        // An incomplete sequence at the end of a full chunk may go on in the
                        // next one: carry it over.
                        None if !last => break,
                        None => len - start,
                    };
                    let at = first + start;
                    match profile {
                        Profile::Whatwg => {
                            if !sink.put(REPLACEMENT) {
                                return Ok(false);
                            }
                        }
                        Profile::DotNet => {
                            let written = src.get(3 * at..3 * (at + bad)).unwrap_or_default();
                            if !sink.put(core::str::from_utf8(written).unwrap_or_default()) {
                                return Ok(false);
                            }
                        }
                        Profile::Strict => {
                            return Err(QueryError::new(
                                QueryErrorKind::InvalidUtf8,
                                base + 3 * at,
                            ));
                        }
                    }
                    start += bad;
                }
            }
        }
        // Keep the carried tail (at most 3 bytes) at the front of the buffer.
        buf.copy_within(start..len, 0);
        first += start;
        len -= start;
        if last && len == 0 {
            break;
        }
    }
    Ok(true)
}

/// The general path for raw bytes that are not UTF-8: the whole byte stream is decoded in
/// chunks, each decoded byte remembering where it came from (for DotNet and Strict).
fn decode_generic<S: Sink>(
    raw: &[u8],
    base: usize,
    profile: Profile,
    sink: &mut S,
) -> Result<bool, QueryError> {
    let mut buf = [0u8; CHUNK];
    let mut from = [0usize; CHUNK];
    let mut len = 0;
    let mut i = 0;
    loop {
        while len < CHUNK {
            let Some(&b) = raw.get(i) else { break };
            let (v, width) = match CLASS[usize::from(b)] {
                PLUS => (b' ', 1),
                PERCENT => match raw.get(i..).and_then(escape_at) {
                    Some(v) => (v, 3),
                    None if profile == Profile::Strict => {
                        return Err(QueryError::new(QueryErrorKind::InvalidEscape, base + i));
                    }
                    None => (b'%', 1),
                },
                _ => (b, 1),
            };
            if let (Some(slot), Some(src)) = (buf.get_mut(len), from.get_mut(len)) {
                *slot = v;
                *src = i;
            }
            len += 1;
            i += width;
        }
        let last = i >= raw.len();
        let mut start = 0;
        loop {
            let pending = buf.get(start..len).unwrap_or_default();
            match core::str::from_utf8(pending) {
                Ok(s) => {
                    if !s.is_empty() && !sink.put(s) {
                        return Ok(false);
                    }
                    start = len;
                    break;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    let good = pending.get(..valid).unwrap_or_default();
                    if valid > 0 && !sink.put(crate::bytes::as_str(good)) {
                        return Ok(false);
                    }
                    start += valid;
                    let bad = match e.error_len() {
                        Some(n) => n,
                        None if !last => break,
                        None => len - start,
                    };
                    let srcs = from.get(start..start + bad).unwrap_or_default();
                    match profile {
                        Profile::Whatwg => {
                            if !sink.put(REPLACEMENT) {
                                return Ok(false);
                            }
                        }
                        Profile::DotNet => {
                            // Escapes stay as written; a raw byte can only be shown as U+FFFD.
                            let mut replaced = false;
                            for &s in srcs {
                                let piece = match raw.get(s..s + 3) {
                                    Some(esc @ [b'%', ..]) => core::str::from_utf8(esc).ok(),
                                    _ => None,
                                };
                                let ok = match piece {
                                    Some(p) => {
                                        replaced = false;
                                        sink.put(p)
                                    }
                                    None if replaced => true,
                                    None => {
                                        replaced = true;
                                        sink.put(REPLACEMENT)
                                    }
                                };
                                if !ok {
                                    return Ok(false);
                                }
                            }
                        }
                        Profile::Strict => {
                            let at = srcs.first().copied().unwrap_or(0);
                            return Err(QueryError::new(QueryErrorKind::InvalidUtf8, base + at));
                        }
                    }
                    start += bad;
                }
            }
        }
        buf.copy_within(start..len, 0);
        from.copy_within(start..len, 0);
        len -= start;
        if last && len == 0 {
            return Ok(true);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Spans for the wasm faces
// ---------------------------------------------------------------------------------------------

/// Marks a span that points into `out` (decoded text) rather than into the input.
pub const SPAN_DECODED: u32 = 1 << 31;

/// Decodes every pair of `input` into `out` and describes them in `spans`, reusing the
/// caller's buffers (both are cleared first; nothing is allocated once they have capacity).
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
    out.clear();
    spans.clear();
    const LIMIT: usize = SPAN_DECODED as usize;
    if input.len() >= LIMIT {
        return Err(QueryError::new(QueryErrorKind::TooLarge, LIMIT));
    }
    let mut count = 0;
    for pair in Pairs::new(input) {
        for part in [pair.name_part(), pair.value_part()] {
            let plain = part.plain && core::str::from_utf8(part.raw).is_ok();
            let (start, end) = if plain {
                (part.offset, part.offset + part.raw.len())
            } else {
                let start = out.len();
                part.decode_to(profile, out)?;
                (start, out.len())
            };
            if end >= LIMIT {
                return Err(QueryError::new(QueryErrorKind::TooLarge, pair.offset));
            }
            // Both fit in 31 bits (checked above), so the casts are lossless.
            let flag = if plain { 0 } else { SPAN_DECODED };
            spans.push(start as u32 | flag);
            spans.push(end as u32 | flag);
        }
        count += 1;
    }
    Ok(count)
}

// ---------------------------------------------------------------------------------------------
// QueryMap
// ---------------------------------------------------------------------------------------------

/// Options for [`QueryMap::parse`].
///
/// ```
/// use reqparse::query::MapOptions;
/// let opts = MapOptions { ignore_case: true, ..MapOptions::default() };
/// assert_eq!((opts.max_pairs, opts.max_decoded_bytes), (1000, 64 * 1024));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapOptions {
    /// How names and values are decoded.
    pub profile: Profile,
    /// Names compare ASCII case-insensitively; the first spelling seen is kept.
    pub ignore_case: bool,
    /// Most pairs accepted (default 1000); more is [`QueryErrorKind::TooManyPairs`].
    pub max_pairs: usize,
    /// Most decoded bytes (names + values) accepted (default 64 KiB); more is
    /// [`QueryErrorKind::TooLarge`].
    pub max_decoded_bytes: usize,
}

impl Default for MapOptions {
    fn default() -> Self {
        MapOptions {
            profile: Profile::Whatwg,
            ignore_case: false,
            max_pairs: 1000,
            max_decoded_bytes: 64 * 1024,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    name: (u32, u32),
    value: (u32, u32),
    /// Position of the pair in the input.
    index: u32,
}

#[derive(Clone, Copy, Debug)]
struct Group {
    /// `entries[start..end]` share a name; `entries[start]` is its first appearance.
    start: u32,
    end: u32,
}

/// A parsed multi-map of a query string (the `QueryHelpers.ParseQuery` counterpart).
///
/// Names come in first-appearance order, each with its values in input order. Limits are
/// checked before anything is allocated. A parse makes at most three allocations however many
/// pairs there are (one `String` with all decoded text, one `Vec` of pair spans sorted by name,
/// one `Vec` of name groups); lookups allocate nothing and cost O(log n) comparisons.
///
/// **Map or re-enumerate?** Looking a name up by re-enumerating with [`Pair::name_eq`] costs a
/// scan of the query up to the name (all of it for a missing name) per lookup; the map costs
/// one decode of everything plus a sort, then a binary search per lookup. Measured with
/// `cargo bench --bench query -- crossover` (2 shared, heavily loaded cores, so ±30%): on a
/// short query (4 pairs) the two cross at about 4 lookups (4: 0.8–1.1 µs both ways; 8:
/// 1.4–2.0 µs vs 1.0–1.4 µs); on a realistic 1 KB query (56 pairs) at about 16 lookups (8:
/// 6.9–7.9 µs vs 12.7–13.5 µs; 16: 13.5–19.6 µs vs 13.5–17.3 µs; two runs). Below that,
/// re-enumerate; above it, parse once and use [`QueryMap::get`].
///
/// ```
/// use reqparse::query::{MapOptions, QueryMap};
///
/// let map = QueryMap::parse("?tag=a&Tag=b&tag=c&q=x+y", MapOptions::default())?;
/// assert_eq!(map.get("q"), Some("x y"));
/// assert_eq!(map.get_all("tag").collect::<Vec<_>>(), ["a", "c"]);
/// let ci = QueryMap::parse("?tag=a&Tag=b", MapOptions { ignore_case: true, ..Default::default() })?;
/// assert_eq!(ci.get_all("TAG").collect::<Vec<_>>(), ["a", "b"]);
/// assert_eq!(ci.iter().next().unwrap().0, "tag");
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
#[derive(Clone, Debug)]
pub struct QueryMap {
    text: String,
    entries: Vec<Entry>,
    groups: Vec<Group>,
    ignore_case: bool,
}

fn cmp_names(a: &str, b: &str, ignore_case: bool) -> core::cmp::Ordering {
    if ignore_case {
        let a = a.bytes().map(|c| c.to_ascii_lowercase());
        a.cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
    } else {
        a.cmp(b)
    }
}

impl QueryMap {
    /// Parses `query` (one leading `?` allowed) into a map, checking the limits first.
    ///
    /// ```
    /// use reqparse::query::{MapOptions, QueryErrorKind, QueryMap};
    ///
    /// let opts = MapOptions { max_pairs: 2, ..MapOptions::default() };
    /// let err = QueryMap::parse("a=1&b=2&c=3", opts).unwrap_err();
    /// assert_eq!((err.kind, err.offset), (QueryErrorKind::TooManyPairs, 8));
    /// ```
    pub fn parse(query: &str, options: MapOptions) -> Result<QueryMap, QueryError> {
        // Pass 1: count and bound before allocating. Decoding never makes valid UTF-8 longer,
        // so the raw length bounds the decoded one; only when it is over the limit is the
        // exact decoded length computed.
        let mut count = 0usize;
        let mut raw_total = 0usize;
        for pair in pairs(query) {
            count += 1;
            if count > options.max_pairs {
                return Err(QueryError::new(QueryErrorKind::TooManyPairs, pair.offset));
            }
            raw_total += pair.name.len() + pair.value.len();
        }
        let mut capacity = raw_total;
        if raw_total > options.max_decoded_bytes {
            let mut sink = CountSink(0);
            for pair in pairs(query) {
                pair.name_part().decode_to(options.profile, &mut sink)?;
                pair.value_part().decode_to(options.profile, &mut sink)?;
                if sink.0 > options.max_decoded_bytes {
                    return Err(QueryError::new(QueryErrorKind::TooLarge, pair.offset));
                }
            }
            capacity = sink.0;
        }
        if capacity > u32::MAX as usize || count > u32::MAX as usize {
            return Err(QueryError::new(QueryErrorKind::TooLarge, 0));
        }
        // Pass 2: decode everything into one string.
        let mut text = String::with_capacity(capacity);
        let mut entries = Vec::with_capacity(count);
        for (index, pair) in pairs(query).enumerate() {
            let n0 = text.len();
            pair.decode_name_into(options.profile, &mut text)?;
            let n1 = text.len();
            pair.decode_value_into(options.profile, &mut text)?;
            let v1 = text.len();
            // All below `capacity`, checked to fit in u32 above.
            entries.push(Entry {
                name: (n0 as u32, n1 as u32),
                value: (n1 as u32, v1 as u32),
                index: index as u32,
            });
        }
        let ic = options.ignore_case;
        let name_of = |e: &Entry| text.get(e.name.0 as usize..e.name.1 as usize).unwrap_or("");
        // Unstable sort allocates nothing; the index tiebreak keeps input order per name.
        entries.sort_unstable_by(|a, b| {
            cmp_names(name_of(a), name_of(b), ic).then(a.index.cmp(&b.index))
        });
        let same = |a: &Entry, b: &Entry| cmp_names(name_of(a), name_of(b), ic).is_eq();
        let distinct = entries
            .windows(2)
            .filter(|w| matches!(w, [a, b] if !same(a, b)))
            .count()
            + usize::from(!entries.is_empty());
        let mut groups = Vec::with_capacity(distinct);
        let mut start = 0;
        for i in 1..=entries.len() {
            let boundary = match (entries.get(i - 1), entries.get(i)) {
                (Some(a), Some(b)) => !same(a, b),
                _ => true,
            };
            if boundary {
                groups.push(Group {
                    start: start as u32,
                    end: i as u32,
                });
                start = i;
            }
        }
        groups.sort_unstable_by_key(|g| entries.get(g.start as usize).map_or(0, |e| e.index));
        Ok(QueryMap {
            text,
            entries,
            groups,
            ignore_case: ic,
        })
    }

    fn str_at(&self, span: (u32, u32)) -> &str {
        self.text
            .get(span.0 as usize..span.1 as usize)
            .unwrap_or("")
    }

    /// The entries (sorted by name) whose name is `name`.
    fn range(&self, name: &str) -> &[Entry] {
        let ic = self.ignore_case;
        let lo = self
            .entries
            .partition_point(|e| cmp_names(self.str_at(e.name), name, ic).is_lt());
        let rest = self.entries.get(lo..).unwrap_or_default();
        let n = rest.partition_point(|e| cmp_names(self.str_at(e.name), name, ic).is_eq());
        rest.get(..n).unwrap_or_default()
    }

    /// The first value of `name`, if it appears.
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("a=1&a=2", Default::default())?;
    /// assert_eq!(map.get("a"), Some("1"));
    /// assert_eq!(map.get("b"), None);
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn get(&self, name: &str) -> Option<&str> {
        self.range(name).first().map(|e| self.str_at(e.value))
    }

    /// Every value of `name`, in input order (empty if it does not appear).
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("a=1&b=0&a=2", Default::default())?;
    /// assert_eq!(map.get_all("a").collect::<Vec<_>>(), ["1", "2"]);
    /// assert_eq!(map.get_all("z").count(), 0);
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn get_all(&self, name: &str) -> Values<'_> {
        Values {
            map: self,
            entries: self.range(name).iter(),
        }
    }

    /// Whether `name` appears.
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("flag", Default::default())?;
    /// assert!(map.contains("flag"));
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn contains(&self, name: &str) -> bool {
        !self.range(name).is_empty()
    }

    /// The number of distinct names.
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("a=1&b=2&a=3", Default::default())?;
    /// assert_eq!((map.len(), map.pair_count()), (2, 3));
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// Whether the query had no pairs.
    ///
    /// ```
    /// assert!(reqparse::query::QueryMap::parse("?&&", Default::default())?.is_empty());
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// The number of pairs (values over all names).
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("a&a&b", Default::default())?;
    /// assert_eq!(map.pair_count(), 3);
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn pair_count(&self) -> usize {
        self.entries.len()
    }

    /// Names in first-appearance order, each with its values in input order.
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("b=1&a=2&b=3", Default::default())?;
    /// let all: Vec<(&str, Vec<&str>)> = map.iter().map(|(n, v)| (n, v.collect())).collect();
    /// assert_eq!(all, [("b", vec!["1", "3"]), ("a", vec!["2"])]);
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            map: self,
            groups: self.groups.iter(),
        }
    }
}

/// Iterator over the values of one name; see [`QueryMap::get_all`].
///
/// ```
/// let map = reqparse::query::QueryMap::parse("a=1&a=2", Default::default())?;
/// assert_eq!(map.get_all("a").len(), 2);
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Values<'m> {
    map: &'m QueryMap,
    entries: core::slice::Iter<'m, Entry>,
}

impl<'m> Iterator for Values<'m> {
    type Item = &'m str;

    fn next(&mut self) -> Option<&'m str> {
        self.entries.next().map(|e| self.map.str_at(e.value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
    }
}

impl ExactSizeIterator for Values<'_> {}

/// Iterator over `(name, values)`; see [`QueryMap::iter`].
///
/// ```
/// let map = reqparse::query::QueryMap::parse("x=1", Default::default())?;
/// let (name, mut values) = map.iter().next().unwrap();
/// assert_eq!((name, values.next()), ("x", Some("1")));
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Iter<'m> {
    map: &'m QueryMap,
    groups: core::slice::Iter<'m, Group>,
}

impl<'m> Iterator for Iter<'m> {
    type Item = (&'m str, Values<'m>);

    fn next(&mut self) -> Option<Self::Item> {
        let g = self.groups.next()?;
        let entries = self
            .map
            .entries
            .get(g.start as usize..g.end as usize)
            .unwrap_or_default();
        let name = entries.first().map_or("", |e| self.map.str_at(e.name));
        Some((
            name,
            Values {
                map: self.map,
                entries: entries.iter(),
            },
        ))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.groups.size_hint()
    }
}

impl ExactSizeIterator for Iter<'_> {}

// ---------------------------------------------------------------------------------------------
// Building
// ---------------------------------------------------------------------------------------------

fn encoded_len(s: &str) -> usize {
    s.bytes().fold(0usize, |n, b| {
        n.saturating_add(if UNRESERVED[usize::from(b)] { 1 } else { 3 })
    })
}

fn encode_into(s: &str, out: &mut String) {
    let bytes = s.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if UNRESERVED[usize::from(b)] {
            continue;
        }
        // Every non-ASCII byte is escaped, so runs are ASCII and slicing never cuts a character.
        out.push_str(s.get(run..i).unwrap_or_default());
        let mut esc = [0u8; 3];
        write_escape(b, &mut esc);
        out.push_str(core::str::from_utf8(&esc).unwrap_or_default());
        run = i + 1;
    }
    out.push_str(s.get(run..).unwrap_or_default());
}

/// What goes before the first pair appended to `base`: `?`, `&` or nothing.
fn separator(base: &str) -> &'static str {
    if !base.contains('?') {
        "?"
    } else if base.ends_with('?') || base.ends_with('&') {
        ""
    } else {
        "&"
    }
}

fn pairs_len(pairs: &[(&str, &str)]) -> usize {
    pairs.iter().fold(0usize, |n, (k, v)| {
        n.saturating_add(encoded_len(k))
            .saturating_add(encoded_len(v))
            .saturating_add(1)
    }) + pairs.len().saturating_sub(1)
}

fn write_pairs(pairs: &[(&str, &str)], out: &mut String) {
    for (i, (k, v)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        encode_into(k, out);
        out.push('=');
        encode_into(v, out);
    }
}

/// Appends `name=value` pairs to a query or URI (without fragment) in `out`.
///
/// The first pair is preceded by `?` when `out` has no `?`, else by `&` unless `out` already
/// ends in `?` or `&`. Names and values are encoded like ASP.NET Core's
/// `QueryHelpers.AddQueryString`: uppercase `%XX` (of the UTF-8 bytes) for everything outside
/// ALPHA / DIGIT / `-._~`, space as `%20`. Reserves the exact length first.
///
/// ```
/// let mut q = String::from("/search");
/// reqparse::query::append_pairs(&mut q, &[("q", "a b&c"), ("lang", "fr-CA")]);
/// assert_eq!(q, "/search?q=a%20b%26c&lang=fr-CA");
/// reqparse::query::append_pairs(&mut q, &[("é", "~")]);
/// assert_eq!(q, "/search?q=a%20b%26c&lang=fr-CA&%C3%A9=~");
/// ```
pub fn append_pairs(out: &mut String, pairs: &[(&str, &str)]) {
    if pairs.is_empty() {
        return;
    }
    let sep = separator(out);
    out.reserve_exact(sep.len().saturating_add(pairs_len(pairs)));
    out.push_str(sep);
    write_pairs(pairs, out);
}

/// Inserts pairs into `uri` before its first `#` (AddQueryString semantics, see
/// [`append_pairs`] for the separator and encoding), with exactly one allocation of the exact
/// final length.
///
/// ```
/// use reqparse::query::add_query_string;
/// let uri = add_query_string("http://x/p?a=1#frag", &[("b", "2 3")]);
/// assert_eq!(uri, "http://x/p?a=1&b=2%203#frag");
/// assert_eq!(uri.capacity(), uri.len());
/// ```
pub fn add_query_string(uri: &str, pairs: &[(&str, &str)]) -> String {
    let (base, fragment) = match memchr::memchr(b'#', uri.as_bytes()) {
        Some(i) => (uri.get(..i).unwrap_or(uri), uri.get(i..).unwrap_or("")),
        None => (uri, ""),
    };
    let sep = if pairs.is_empty() {
        ""
    } else {
        separator(base)
    };
    let len = base
        .len()
        .saturating_add(sep.len())
        .saturating_add(if pairs.is_empty() {
            0
        } else {
            pairs_len(pairs)
        })
        .saturating_add(fragment.len());
    let mut out = String::with_capacity(len);
    out.push_str(base);
    out.push_str(sep);
    write_pairs(pairs, &mut out);
    out.push_str(fragment);
    debug_assert_eq!(out.len(), len);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    fn whatwg(input: &str) -> Vec<(String, String)> {
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
    fn escape_runs_span_chunks() {
        // 100 escapes: crosses the 64-byte chunk with a 3-byte sequence cut in the middle.
        let s: String = "%E2%82%AC".repeat(34);
        let v = format!("a={s}");
        assert_eq!(whatwg(&v)[0].1, "€".repeat(34));
        let bad = format!("a=x{}%E2%82", "%41".repeat(62));
        assert_eq!(whatwg(&bad)[0].1, format!("x{}\u{FFFD}", "A".repeat(62)));
        let p = pairs(&bad).next().unwrap();
        assert_eq!(
            p.decode_value(Profile::DotNet).unwrap(),
            format!("x{}%E2%82", "A".repeat(62))
        );
        assert_eq!(
            p.decode_value(Profile::Strict).unwrap_err().offset,
            3 + 62 * 3
        );
    }

    #[test]
    fn generic_path_matches_bytes_semantics() {
        // Raw invalid bytes force the generic path; a raw continuation after an escape lead
        // byte completes it, as in WHATWG's byte-level decode.
        let pair = Pairs::new(b"a=%C3\xA9\xFF%FF+").next().unwrap();
        assert_eq!(
            pair.decode_value(Profile::Whatwg).unwrap(),
            "é\u{FFFD}\u{FFFD} "
        );
        assert_eq!(pair.decode_value(Profile::DotNet).unwrap(), "é\u{FFFD}%FF ");
        assert_eq!(pair.decode_value(Profile::Strict).unwrap_err().offset, 6);
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
    fn error_display() {
        let e = QueryError::new(QueryErrorKind::TooManyPairs, 9);
        assert_eq!(alloc::format!("{e}"), "too many pairs at byte 9");
    }

    #[test]
    fn builders() {
        type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);
        let cases: &[Case] = &[
            ("http://x/", &[("a", "1")], "http://x/?a=1"),
            ("http://x/?", &[("a", "1")], "http://x/?a=1"),
            ("http://x/?b=2&", &[("a", "1")], "http://x/?b=2&a=1"),
            ("http://x/#f?", &[("a", "")], "http://x/?a=#f?"),
            ("http://x/", &[], "http://x/"),
            ("/p", &[("a b", "+/?")], "/p?a%20b=%2B%2F%3F"),
        ];
        for (uri, pairs, expect) in cases {
            let out = add_query_string(uri, pairs);
            assert_eq!(&out, expect);
            assert_eq!(out.capacity(), out.len());
        }
        let mut s = String::new();
        append_pairs(&mut s, &[("k", "v")]);
        assert_eq!(s, "?k=v");
    }
}
