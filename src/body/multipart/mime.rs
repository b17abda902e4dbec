//! A part's MIME type as the Fetch Standard reads its `Content-Type` ("extract a MIME type"):
//! the header's values, split at commas outside quoted strings ("getting, decoding, and
//! splitting"), each parsed by the WHATWG MIME Sniffing Standard's "parse a MIME type", the
//! last one that parses winning (with the `charset` of an earlier value of the same essence
//! when it has none), written out by its "serialize a MIME type".
//!
//! Every step works on the header's bytes: the standards read a header value as its bytes
//! isomorphic-decoded (byte 0xE9 is U+00E9), and every class of code points they test (HTTP
//! token code points, HTTP quoted-string token code points, HTTP whitespace) is one of bytes
//! under that reading.
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use crate::body::grammar::{is, FIELD, TOKEN, WS};
use crate::bytes::{slice, slice_mut};

/// A part's MIME type, parsed as the Fetch Standard reads a `Content-Type` (see
/// [`Part::mime_type`](super::Part::mime_type)) and kept as its serialization (the WHATWG
/// MIME Sniffing Standard's "serialize a MIME type"): type and subtype in ASCII lowercase,
/// then `;name=value` for each parameter (names lowercase, the first of a name kept, a value
/// quoted when it is not a token). Borrowed from the header when the header's value is
/// written that way already; else built once.
///
/// ```
/// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
/// let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=a\r\n\
///     Content-Type: Text/HTML ; Charset=\"utf-8\" ;;x=\"a b\"\r\n\r\n";
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
/// let mime = part.mime_type().unwrap();
/// assert_eq!(mime.to_string(), "text/html;charset=utf-8;x=\"a b\"");
/// assert_eq!((mime.essence(), mime.main_type(), mime.subtype()), ("text/html", "text", "html"));
/// assert_eq!(mime.parameter("CHARSET").as_deref(), Some(&b"utf-8"[..]));
/// assert_eq!(mime.parameter("x").as_deref(), Some(&b"a b"[..]));
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MimeType<'a> {
    /// The serialization.
    text: Cow<'a, [u8]>,
    /// Where the `/` is.
    slash: usize,
    /// Where the essence ends: the first `;`, or the end.
    essence: usize,
}

impl<'a> MimeType<'a> {
    /// The MIME type of a `Content-Type` whose values (each field's value without surrounding
    /// whitespace, in order; a folded one unfolded first) are `fields`; `None` when no value is
    /// a MIME type (or there is none). Borrowed from the winning value when its serialization
    /// is that value.
    pub(super) fn from_fields<I>(fields: I) -> Option<MimeType<'a>>
    where
        I: Iterator<Item = &'a [u8]> + Clone,
    {
        let folded = fields.clone().any(|f| memchr::memchr(b'\n', f).is_some());
        if folded || needs_joining(fields.clone()) {
            // The values (unfolded) as one combined value, as Fetch's header list holds them.
            let mut combined = Vec::new();
            for (i, field) in fields.enumerate() {
                if i > 0 {
                    combined.extend_from_slice(b", ");
                }
                combined.extend_from_slice(&super::unfold(field));
            }
            return extract(&mut Split::new(&combined)).map(MimeType::into_owned);
        }
        extract(&mut fields.flat_map(Split::new))
    }

    /// The MIME type whose serialization is `bytes` ([`as_bytes`](Self::as_bytes) of a MIME
    /// type, as a host that was handed one keeps it), borrowed; `None` unless the WHATWG MIME
    /// Sniffing Standard's "parse a MIME type" reads `bytes` and its "serialize a MIME type"
    /// writes them back unchanged (and the type is not `*/*`, which Fetch's "extract a MIME
    /// type" never answers).
    ///
    /// ```
    /// use reqparse::body::multipart::MimeType;
    /// let mime = MimeType::from_serialization(b"text/plain;charset=utf-8").unwrap();
    /// assert_eq!((mime.essence(), mime.parameter("charset").as_deref()), ("text/plain", Some(&b"utf-8"[..])));
    /// assert!(MimeType::from_serialization(b"Text/Plain").is_none()); // not a serialization
    /// assert!(MimeType::from_serialization(b"text").is_none());
    /// ```
    pub fn from_serialization(bytes: &'a [u8]) -> Option<MimeType<'a>> {
        let parsed = parse(bytes)?;
        if parsed.main == b"*" && parsed.sub == b"*" {
            return None;
        }
        let mime = serialize(&parsed, None);
        (mime.is_borrowed() && mime.text.len() == bytes.len()).then_some(mime)
    }

    /// The serialization, as bytes (a parameter value may hold bytes 0x80-0xFF, which the
    /// standard reads as U+0080-U+00FF: [`Display`](fmt::Display) writes them so).
    pub fn as_bytes(&self) -> &[u8] {
        &self.text
    }

    /// The essence, `type/subtype`, in ASCII lowercase.
    pub fn essence(&self) -> &str {
        crate::bytes::as_str(slice(&self.text, ..self.essence))
    }

    /// The type (`text` of `text/html`), in ASCII lowercase.
    pub fn main_type(&self) -> &str {
        crate::bytes::as_str(slice(&self.text, ..self.slash))
    }

    /// The subtype (`html` of `text/html`), in ASCII lowercase.
    pub fn subtype(&self) -> &str {
        crate::bytes::as_str(slice(&self.text, self.slash + 1..self.essence))
    }

    /// The parameters in order: each name (ASCII lowercase) and value (unquoted; borrowed
    /// unless it had a `"` or `\` to unescape).
    pub fn parameters(&self) -> MimeParameters<'_> {
        MimeParameters {
            text: slice(&self.text, self.essence..),
        }
    }

    /// The value of the parameter `name` (ASCII case-insensitive).
    pub fn parameter(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        self.parameters()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    /// Whether the serialization is borrowed from the part's header block (nothing had to be
    /// rewritten).
    pub fn is_borrowed(&self) -> bool {
        matches!(self.text, Cow::Borrowed(_))
    }

    /// The same MIME type, owning its serialization.
    pub fn into_owned(self) -> MimeType<'static> {
        MimeType {
            text: Cow::Owned(self.text.into_owned()),
            slash: self.slash,
            essence: self.essence,
        }
    }
}

impl fmt::Display for MimeType<'_> {
    /// The serialization as text: each byte as the code point of its value (ASCII, and
    /// U+0080-U+00FF for the bytes above 0x7F a parameter value may hold).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Ok(text) = core::str::from_utf8(&self.text) {
            if text.is_ascii() {
                return f.write_str(text);
            }
        }
        self.text
            .iter()
            .try_for_each(|&b| fmt::Write::write_char(f, char::from(b)))
    }
}

/// The parameters of a [`MimeType`]; see [`MimeType::parameters`].
#[derive(Clone, Debug)]
pub struct MimeParameters<'t> {
    /// What follows the essence in the serialization: `;name=value` each.
    text: &'t [u8],
}

impl<'t> Iterator for MimeParameters<'t> {
    type Item = (&'t str, Cow<'t, [u8]>);

    fn next(&mut self) -> Option<Self::Item> {
        // A serialization: `;`, a token name, `=`, a token or a quoted string.
        let rest = self.text.strip_prefix(b";")?;
        let eq = memchr::memchr(b'=', rest)?;
        let name = crate::bytes::as_str(slice(rest, ..eq));
        let value = slice(rest, eq + 1..);
        if value.first() != Some(&b'"') {
            let end = memchr::memchr(b';', value).unwrap_or(value.len());
            self.text = slice(value, end..);
            return Some((name, Cow::Borrowed(slice(value, ..end))));
        }
        let (end, _) = quoted_end(value, 0);
        let quoted = Value {
            raw: slice(value, ..end),
            quoted: true,
        };
        self.text = slice(value, end..);
        // A serialization's quoted string is closed: its bytes are between the quotes.
        let inner = slice(quoted.raw, 1..end.saturating_sub(1).max(1));
        if memchr::memchr(b'\\', inner).is_none() {
            return Some((name, Cow::Borrowed(inner)));
        }
        let mut unescaped = Vec::with_capacity(inner.len());
        quoted.for_each(|b| unescaped.push(b));
        Some((name, Cow::Owned(unescaped)))
    }
}

/// Whether the values must be combined before they are split: a quoted string that one
/// value leaves open runs on into the next (the combined value joins them with `, `).
fn needs_joining<'s>(mut fields: impl Iterator<Item = &'s [u8]>) -> bool {
    let mut open = false;
    for field in fields.by_ref() {
        if open {
            return true;
        }
        let mut split = Split::new(field);
        split.by_ref().for_each(drop);
        open = split.open;
    }
    false
}

/// The Fetch Standard's "getting, decoding, and splitting" of one value: the pieces between
/// commas outside quoted strings, each without leading and trailing SP and HTAB.
#[derive(Clone)]
struct Split<'s> {
    value: &'s [u8],
    pos: usize,
    done: bool,
    /// The last quoted string ran to the end of the value without its closing `"`.
    open: bool,
}

impl<'s> Split<'s> {
    fn new(value: &'s [u8]) -> Self {
        Split {
            value,
            pos: 0,
            done: false,
            open: false,
        }
    }
}

impl<'s> Iterator for Split<'s> {
    type Item = &'s [u8];

    fn next(&mut self) -> Option<&'s [u8]> {
        if self.done {
            return None;
        }
        let v = self.value;
        let start = self.pos;
        loop {
            let rest = slice(v, self.pos..);
            self.pos += memchr::memchr2(b'"', b',', rest).unwrap_or(rest.len());
            if v.get(self.pos) != Some(&b'"') {
                break;
            }
            // "Collect an HTTP quoted string" (its bytes as they are).
            let (end, closed) = quoted_end(v, self.pos);
            self.pos = end;
            self.open = !closed;
            if self.pos >= v.len() {
                break;
            }
        }
        let piece = trim(slice(v, start..self.pos), WS);
        if self.pos >= v.len() {
            self.done = true;
        } else {
            // Past the `,`.
            self.pos += 1;
            self.open = false;
        }
        Some(piece)
    }
}

/// "Collect an HTTP quoted string" from the `"` at `open`: where it ends (one past the
/// closing `"`, or the end of `v`), and whether it was closed (a `\` at the very end is a
/// backslash, and leaves it open).
fn quoted_end(v: &[u8], open: usize) -> (usize, bool) {
    let mut at = open + 1;
    loop {
        let rest = slice(v, at.min(v.len())..);
        let Some(i) = memchr::memchr2(b'"', b'\\', rest) else {
            return (v.len(), false);
        };
        at += i;
        match v.get(at) {
            Some(b'\\') if at + 1 < v.len() => at += 2,
            Some(b'"') => return (at + 1, true),
            // A `\` at the end.
            _ => return (v.len(), false),
        }
    }
}

/// `bytes` without leading and trailing bytes of `class`.
fn trim(bytes: &[u8], class: u8) -> &[u8] {
    let start = bytes
        .iter()
        .position(|&b| !is(b, class))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is(b, class))
        .map_or(start, |i| i + 1);
    slice(bytes, start..end)
}

/// HTTP whitespace (LF, CR, HTAB, SP): what "parse a MIME type" trims.
fn is_http_space(b: u8) -> bool {
    matches!(b, b'\n' | b'\r' | b'\t' | b' ')
}

/// `bytes` without trailing HTTP whitespace.
fn trim_end_http(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().rposition(|&b| !is_http_space(b));
    slice(bytes, ..end.map_or(0, |i| i + 1))
}

/// A parameter value as written: a quoted string (its `"` and escapes included) or the bytes
/// up to the next `;` without trailing HTTP whitespace.
#[derive(Clone, Copy, Debug, Default)]
struct Value<'s> {
    raw: &'s [u8],
    quoted: bool,
}

impl Value<'_> {
    /// Each byte of the value (a quoted string's, unescaped: "collect an HTTP quoted string"
    /// with the extract-value flag set).
    fn for_each(self, mut f: impl FnMut(u8)) {
        if !self.quoted {
            self.raw.iter().for_each(|&b| f(b));
            return;
        }
        let mut bytes = slice(self.raw, 1..).iter();
        while let Some(&b) = bytes.next() {
            match b {
                b'"' => return,
                b'\\' => f(bytes.next().copied().unwrap_or(b'\\')),
                _ => f(b),
            }
        }
    }

    /// Whether every byte of the value is of `class`.
    fn all(self, class: u8) -> bool {
        let mut all = true;
        self.for_each(|b| all &= is(b, class));
        all
    }

    fn is_empty(self) -> bool {
        let mut empty = true;
        self.for_each(|_| empty = false);
        empty
    }
}

/// A parameter "parse a MIME type" keeps, but for a repeated name: its name (as written) and
/// value.
#[derive(Clone, Copy, Debug, Default)]
struct Param<'s> {
    name: &'s [u8],
    value: Value<'s>,
}

/// A value "parse a MIME type" accepts: where its type, subtype and parameters are.
#[derive(Clone, Copy, Debug)]
struct Parsed<'s> {
    /// The value without leading and trailing HTTP whitespace.
    input: &'s [u8],
    main: &'s [u8],
    sub: &'s [u8],
    /// Where the parameters start: the first `;` after the subtype, or the end.
    params: usize,
}

/// The WHATWG MIME Sniffing Standard's "parse a MIME type".
fn parse(value: &[u8]) -> Option<Parsed<'_>> {
    let start = value
        .iter()
        .position(|&b| !is_http_space(b))
        .unwrap_or(value.len());
    let input = trim_end_http(slice(value, start..));
    let slash = memchr::memchr(b'/', input)?;
    let main = slice(input, ..slash);
    if main.is_empty() || !main.iter().all(|&b| is(b, TOKEN)) {
        return None;
    }
    let rest = slice(input, slash + 1..);
    let semi = slash + 1 + memchr::memchr(b';', rest).unwrap_or(rest.len());
    let sub = slice(input, slash + 1..semi);
    let sub = trim_end_http(sub);
    if sub.is_empty() || !sub.iter().all(|&b| is(b, TOKEN)) {
        return None;
    }
    Some(Parsed {
        input,
        main,
        sub,
        params: semi,
    })
}

impl<'s> Parsed<'s> {
    /// The parameters "parse a MIME type" would set, in order, repeated names included: the
    /// name non-empty and a token, the value HTTP quoted-string token code points.
    fn candidates(&self) -> impl Iterator<Item = Param<'s>> + Clone + 's {
        let input = self.input;
        let mut pos = self.params;
        core::iter::from_fn(move || loop {
            // Past the `;` and any HTTP whitespace.
            pos += 1;
            while input.get(pos).copied().is_some_and(is_http_space) {
                pos += 1;
            }
            let rest = slice(input, pos.min(input.len())..);
            if rest.is_empty() {
                return None;
            }
            let name_end = pos + memchr::memchr2(b';', b'=', rest).unwrap_or(rest.len());
            let name = slice(input, pos..name_end);
            pos = name_end;
            match input.get(pos) {
                None => return None,
                Some(b';') => continue,
                // Past the `=`.
                _ => pos += 1,
            }
            let value = if input.get(pos) == Some(&b'"') {
                let (end, _) = quoted_end(input, pos);
                let value = Value {
                    raw: slice(input, pos..end),
                    quoted: true,
                };
                let rest = slice(input, end..);
                pos = end + memchr::memchr(b';', rest).unwrap_or(rest.len());
                value
            } else {
                let rest = slice(input, pos.min(input.len())..);
                let end = pos + memchr::memchr(b';', rest).unwrap_or(rest.len());
                let raw = slice(input, pos..end);
                pos = end;
                let raw = trim_end_http(raw);
                if raw.is_empty() {
                    continue;
                }
                Value { raw, quoted: false }
            };
            if !name.is_empty() && name.iter().all(|&b| is(b, TOKEN)) && value.all(FIELD) {
                return Some(Param { name, value });
            }
        })
    }

    /// `parameters["charset"]`: the first candidate named `charset`.
    fn charset(&self) -> Option<Value<'s>> {
        self.candidates()
            .find(|p| p.name.eq_ignore_ascii_case(b"charset"))
            .map(|p| p.value)
    }

    fn essence_is(&self, other: &Parsed<'_>) -> bool {
        self.main.eq_ignore_ascii_case(other.main) && self.sub.eq_ignore_ascii_case(other.sub)
    }
}

/// The parameters a MIME type keeps: the first of each name (ignoring ASCII case). Up to
/// [`FEW`] on the stack, compared with each other; more, sorted by name in one vector.
struct Kept<'s> {
    few: [Param<'s>; FEW],
    n: usize,
    /// Every kept parameter, in order, when there are more than [`FEW`].
    many: Vec<Param<'s>>,
}

const FEW: usize = 8;

impl<'s> Kept<'s> {
    fn of(parsed: &Parsed<'s>) -> Self {
        let mut kept = Kept {
            few: [Param::default(); FEW],
            n: 0,
            many: Vec::new(),
        };
        for p in parsed.candidates() {
            if slice(&kept.few, ..kept.n)
                .iter()
                .any(|k| k.name.eq_ignore_ascii_case(p.name))
            {
                continue;
            }
            let Some(slot) = kept.few.get_mut(kept.n) else {
                kept.many = Self::many(parsed);
                return kept;
            };
            *slot = p;
            kept.n += 1;
        }
        kept
    }

    /// Many parameters: sorted by name (ASCII case-insensitive), then by place, which marks
    /// each name's first, then kept in their order: a linear number of compares per parameter
    /// would let a long header cost its square. (Name and place order the candidates totally,
    /// so [`heapsort`] gives what a stable sort would; marking spares a second sort back into
    /// place.)
    fn many(parsed: &Parsed<'s>) -> Vec<Param<'s>> {
        let mut all: Vec<(usize, Param<'s>)> = parsed.candidates().enumerate().collect();
        heapsort(&mut all, |a, b| {
            lower_cmp(a.1.name, b.1.name).then(a.0.cmp(&b.0)) == Ordering::Less
        });
        let mut first = alloc::vec![false; all.len()];
        let mut previous: Option<&[u8]> = None;
        for &(place, p) in &all {
            if !previous.is_some_and(|name| name.eq_ignore_ascii_case(p.name)) {
                if let Some(mark) = first.get_mut(place) {
                    *mark = true;
                }
            }
            previous = Some(p.name);
        }
        parsed
            .candidates()
            .zip(first)
            .filter_map(|(p, first)| first.then_some(p))
            .collect()
    }

    fn for_each(&self, mut f: impl FnMut(Param<'s>)) {
        if self.many.is_empty() {
            slice(&self.few, ..self.n).iter().for_each(|&p| f(p));
        } else {
            self.many.iter().for_each(|&p| f(p));
        }
    }
}

/// Sorts `v` by `less`, a strict total order: heapsort (J. W. J. Williams, 1964), O(n log n)
/// compares at worst, no recursion, no allocation, and a fraction of the code of the standard
/// library's sorts, which the WebAssembly builds would carry for this one call.
fn heapsort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    // Whether the element at `a` sorts before the one at `b` (false when either is outside).
    let lt = |v: &[T], a: usize, b: usize| matches!((v.get(a), v.get(b)), (Some(x), Some(y)) if less(x, y));
    // Moves the element at `root` down the max-heap `v` to its place.
    let sift = |v: &mut [T], mut root: usize| loop {
        let mut child = 2 * root + 1;
        if lt(v, child, child + 1) {
            child += 1;
        }
        if !lt(v, root, child) {
            return;
        }
        v.swap(root, child);
        root = child;
    };
    for root in (0..v.len() / 2).rev() {
        sift(v, root);
    }
    for end in (1..v.len()).rev() {
        v.swap(0, end);
        sift(slice_mut(v, ..end), 0);
    }
}

fn lower_cmp(a: &[u8], b: &[u8]) -> Ordering {
    a.iter()
        .map(u8::to_ascii_lowercase)
        .cmp(b.iter().map(u8::to_ascii_lowercase))
}

/// "Extract a MIME type" over the values: the last that parses (and is not `*/*`), and the
/// `charset` it takes from an earlier value of the same essence when it has none.
/// (One body for both callers: the values come through a `dyn` iterator.)
fn extract<'s>(values: &mut dyn Iterator<Item = &'s [u8]>) -> Option<MimeType<'s>> {
    let mut winner: Option<(Parsed<'s>, Option<Value<'s>>)> = None;
    // The essence of the run of values the winner ends, and the charset its first one had.
    let mut essence: Option<Parsed<'s>> = None;
    let mut charset: Option<Value<'s>> = None;
    for value in values {
        let Some(parsed) = parse(value) else {
            continue;
        };
        if parsed.main == b"*" && parsed.sub == b"*" {
            continue;
        }
        let own = parsed.charset();
        let mut inherited = None;
        if !essence.is_some_and(|e| e.essence_is(&parsed)) {
            charset = own;
            essence = Some(parsed);
        } else if own.is_none() {
            inherited = charset;
        }
        winner = Some((parsed, inherited));
    }
    let (parsed, inherited) = winner?;
    Some(serialize(&parsed, inherited))
}

/// Where "serialize a MIME type" writes.
trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

/// Counts the bytes.
struct Count(usize);

impl Sink for Count {
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// Compares with bytes written already.
struct Same<'x> {
    written: &'x [u8],
    at: usize,
    same: bool,
}

impl Sink for Same<'_> {
    fn put(&mut self, bytes: &[u8]) {
        let end = self.at + bytes.len();
        self.same &= self.written.get(self.at..end) == Some(bytes);
        self.at = end;
    }
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// The MIME type `parsed` (and the `charset` it inherits) as "serialize a MIME type" writes
/// it: borrowed when that is `parsed`'s input as it is, else written once into a vector of
/// the length counted first.
fn serialize<'s>(parsed: &Parsed<'s>, inherited: Option<Value<'s>>) -> MimeType<'s> {
    let kept = Kept::of(parsed);
    let write = |sink: &mut dyn Sink| {
        lower(sink, parsed.main);
        sink.put(b"/");
        lower(sink, parsed.sub);
        kept.for_each(|p| {
            sink.put(b";");
            lower(sink, p.name);
            sink.put(b"=");
            value(sink, p.value);
        });
        if let Some(charset) = inherited {
            sink.put(b";charset=");
            value(sink, charset);
        }
    };
    let mut same = Same {
        written: parsed.input,
        at: 0,
        same: true,
    };
    write(&mut same);
    let text = if same.same && same.at == parsed.input.len() {
        Cow::Borrowed(parsed.input)
    } else {
        let mut count = Count(0);
        write(&mut count);
        let mut text = Vec::with_capacity(count.0);
        write(&mut text);
        Cow::Owned(text)
    };
    MimeType {
        text,
        slash: parsed.main.len(),
        essence: parsed.main.len() + 1 + parsed.sub.len(),
    }
}

/// `bytes` in ASCII lowercase.
fn lower(sink: &mut dyn Sink, bytes: &[u8]) {
    for chunk in bytes.split_inclusive(u8::is_ascii_uppercase) {
        match chunk.split_last() {
            Some((&last, init)) if last.is_ascii_uppercase() => {
                sink.put(init);
                sink.put(&[last.to_ascii_lowercase()]);
            }
            _ => sink.put(chunk),
        }
    }
}

/// A parameter value: as it is when it is a non-empty token, else quoted with `"` and `\`
/// escaped.
fn value(sink: &mut dyn Sink, v: Value<'_>) {
    if !v.is_empty() && v.all(TOKEN) {
        v.for_each(|b| sink.put(&[b]));
        return;
    }
    sink.put(b"\"");
    v.for_each(|b| {
        if b == b'"' || b == b'\\' {
            sink.put(b"\\");
        }
        sink.put(&[b]);
    });
    sink.put(b"\"");
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};

    fn mime(values: &[&str]) -> Option<String> {
        MimeType::from_fields(values.iter().map(|v| v.as_bytes())).map(|m| m.to_string())
    }

    #[test]
    fn parse_and_serialize() {
        let cases: &[(&[&str], Option<&str>)] = &[
            (&["text/html"], Some("text/html")),
            (&["TEXT/HTML"], Some("text/html")),
            (&["text/html;;x=\"y\""], Some("text/html;x=y")),
            (&["text/html, text/plain"], Some("text/plain")),
            (&["text/html", "text/plain"], Some("text/plain")),
            (&["text"], None),
            (&[""], None),
            (&["text/\u{1}plain"], None),
            (&["text/é"], None),
            (&["text/html ; charset = utf-8"], Some("text/html")),
            (
                &["text/html;charset=\"utf-8\""],
                Some("text/html;charset=utf-8"),
            ),
            (&["text/html;x=\"\""], Some("text/html;x=\"\"")),
            (&["text/html;x="], Some("text/html")),
            (&["text/html;x"], Some("text/html")),
            (&["text/html;x=a b"], Some("text/html;x=\"a b\"")),
            (
                &["text/html;x=\"a\\\"b\\\\\""],
                Some("text/html;x=\"a\\\"b\\\\\""),
            ),
            (
                &["text/html;x=\"unterminated"],
                Some("text/html;x=unterminated"),
            ),
            (&["text/html;x=\"a\"junk;y=b"], Some("text/html;x=a;y=b")),
            (&["text/html;X=1;x=2"], Some("text/html;x=1")),
            (&["text/html;é=1;y=2"], Some("text/html;y=2")),
            (&["*/*"], None),
            (&["text/html", "*/*"], Some("text/html")),
            // Extract a MIME type: the charset of the first of a run of one essence.
            (
                &["text/html;charset=gbk", "text/html"],
                Some("text/html;charset=gbk"),
            ),
            (&["text/html;charset=gbk", "text/plain"], Some("text/plain")),
            (
                &[
                    "text/html;charset=gbk",
                    "text/html;charset=utf-8",
                    "text/html;x=1",
                ],
                Some("text/html;x=1;charset=gbk"),
            ),
            // A quoted string left open runs on into the next value.
            (
                &["text/html;x=\"a", "b\"", "text/plain"],
                Some("text/plain"),
            ),
            (
                &["text/plain", "text/html;x=\"a", "b\""],
                Some("text/html;x=\"a, b\""),
            ),
            (&["text/html;x=\"a,b\", text/plain;y"], Some("text/plain")),
        ];
        for (values, want) in cases {
            assert_eq!(mime(values).as_deref(), *want, "{values:?}");
        }
    }

    #[test]
    fn borrowed_when_nothing_is_rewritten() {
        for (value, borrowed) in [
            ("text/html", true),
            ("text/html;charset=utf-8", true),
            ("text/html;x=\"a b\"", true),
            ("text/html; charset=utf-8", false),
            ("Text/html", false),
            ("text/html;x=\"y\"", false),
        ] {
            let m = MimeType::from_fields([value.as_bytes()].into_iter()).unwrap();
            assert_eq!(m.is_borrowed(), borrowed, "{value}");
            if borrowed {
                assert_eq!(m.as_bytes().as_ptr(), value.as_ptr());
            }
        }
    }

    #[test]
    fn many_parameters_keep_the_first_of_each_name() {
        let mut value = String::from("a/b");
        for i in 0..40 {
            value.push_str(&alloc::format!(";p{}={i}", i % 13));
        }
        let m = MimeType::from_fields([value.as_bytes()].into_iter()).unwrap();
        let names: Vec<&str> = m.parameters().map(|(n, _)| n).collect();
        let want: Vec<String> = (0..13).map(|i| alloc::format!("p{i}")).collect();
        assert_eq!(names, want);
        assert_eq!(m.parameter("p3").as_deref(), Some(&b"3"[..]));
    }

    #[test]
    fn parameters_unescape() {
        let m =
            MimeType::from_fields([&b"a/b;x=\"q\\\"d\";y=\"p q\";z=t"[..]].into_iter()).unwrap();
        let got: Vec<(&str, Vec<u8>)> = m.parameters().map(|(n, v)| (n, v.into_owned())).collect();
        assert_eq!(
            got,
            [
                ("x", b"q\"d".to_vec()),
                ("y", b"p q".to_vec()),
                ("z", b"t".to_vec())
            ]
        );
        assert_eq!(m.to_string(), "a/b;x=\"q\\\"d\";y=\"p q\";z=t");
    }

    #[test]
    fn from_serialization_takes_serializations_only() {
        for value in ["text/html", "a/b;x=\"a b\";y=1", "a/b;x=\"\""] {
            let m = MimeType::from_serialization(value.as_bytes()).unwrap();
            assert_eq!(m.as_bytes(), value.as_bytes());
            assert!(m.is_borrowed());
        }
        let m = MimeType::from_serialization(b"a/b;x=\"\xe9\"").unwrap();
        assert_eq!(m.parameter("x").as_deref(), Some(&b"\xe9"[..]));
        for value in [
            "",
            "text",
            "Text/html",
            " text/html",
            "text/html ",
            "text/html; x=1",
            "text/html;x=\"y\"",
            "text/html;x=1;X=2",
            "*/*",
            "text/html;x",
        ] {
            assert!(
                MimeType::from_serialization(value.as_bytes()).is_none(),
                "{value:?}"
            );
        }
    }

    #[test]
    fn heapsort_sorts() {
        // Every length up to 40, keys from a fixed linear congruential sequence, repeats
        // included (each with its place, as `Kept::many` sorts).
        let mut seed = 7u32;
        for len in 0..40 {
            let mut v: Vec<(u32, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    ((seed >> 16) % 7, i)
                })
                .collect();
            let mut want = v.clone();
            want.sort();
            heapsort(&mut v, |a, b| a < b);
            assert_eq!(v, want, "{len}");
        }
    }

    #[test]
    fn bytes_above_ascii_in_a_value() {
        let m = MimeType::from_fields([&b"a/b;x=\xe9"[..]].into_iter()).unwrap();
        assert_eq!(m.as_bytes(), b"a/b;x=\"\xe9\"");
        assert_eq!(m.to_string(), "a/b;x=\"\u{e9}\"");
        assert_eq!(m.parameter("x").as_deref(), Some(&b"\xe9"[..]));
    }
}
