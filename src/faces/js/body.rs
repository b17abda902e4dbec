//! The body readers (`parseMultipart`, `parseForm`, `decodeChunked` in `js/lib/body.cjs`).
//!
//! A body reader is a handle (`RpBody`, a wasm-bindgen class) that JS feeds the source's chunks:
//!
//! - `reserve(n)` moves the bytes the reader did not consume (at most what its limits bound: an
//!   incomplete line or header block, or the bytes that may begin a delimiter) to the front of
//!   the handle's own input buffer, makes room for `n` more and returns where JS writes them;
//!   the chunk starts at `reserve(n) - header[bodyBuf]`, right after that tail;
//! - `feed(n, eof)` runs the core reader over tail + chunk up to the point where it needs more
//!   input, writing every event into the handle's event list (`u32` words, see `EV_*` in the
//!   parent module): offsets into the input buffer, so JS views part data in the chunk it
//!   passed (an offset past the tail; a data event that begins in the tail is split there), and
//!   copies only what lies in the tail; strings are spans, in the input buffer or (when the core
//!   decoded or replaced something) in the handle's text buffer, always valid UTF-8. An error
//!   ends the list as its last event.
//! - `skip(n)`, when the header's `skip` slot says the multipart reader is in a part's data and
//!   holds nothing back: JS searched its chunk for `delimiter()` itself (native `indexOf`) and
//!   the reader takes the `n` bytes before it uncopied (`MultipartReader::skip_data`).
//!
//! The header, event list and text buffer are the handle's own, so several bodies may be read
//! at once; JS reads a feed's events before the next `reserve` of the same handle.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use super::{
    ptr, query_profile, BODY_SLOTS, B_BUF, B_EVENTS, B_EVENTS_LEN, B_SKIP, B_TEXT, EV_DATA, EV_END,
    EV_ERROR, EV_PAIR, EV_PART, EV_PART_END, EV_TRAILER, FEED_END, FEED_ERROR, FEED_MORE, MAX_FEED,
    NULL, SPAN_TEXT,
};
use crate::bytes::offset_in;
use crate::{body, query};

/// A limit as JS sends it: an `f64` (a JS number, validated there: a non-negative integer or
/// infinity), NaN for "the default".
trait WireLimit: Copy {
    fn from_wire(n: f64, default: Self) -> Self;
}

impl WireLimit for u64 {
    fn from_wire(n: f64, default: u64) -> u64 {
        // `as` saturates: infinity is no limit.
        if n >= 0.0 {
            n as u64
        } else {
            default
        }
    }
}

impl WireLimit for usize {
    fn from_wire(n: f64, default: usize) -> usize {
        let n = u64::from_wire(n, default as u64);
        usize::try_from(n).unwrap_or(usize::MAX)
    }
}

/// One reader's limits on the wire: `$names` lists the struct's fields by name (which is how
/// the core names each limit in its errors), and `$from` reads the `f64`s JS sends in that order.
macro_rules! wire_limits {
    ($names:ident, $from:ident, $ty:ty: $($field:ident),+ $(,)?) => {
        pub(super) const $names: &[&str] = &[$(stringify!($field)),+];

        fn $from(given: &[f64]) -> $ty {
            let mut limits = <$ty>::default();
            let mut given = given.iter();
            $(
                if let Some(&n) = given.next() {
                    limits.$field = WireLimit::from_wire(n, limits.$field);
                }
            )+
            limits
        }
    };
}

wire_limits!(CHUNKED_LIMITS, chunked_limits, body::chunked::ChunkedLimits:
    max_size_digits, max_line_bytes, max_extension_bytes, overhead_grace, max_body_bytes,
    max_trailer_bytes, max_trailer_fields);
wire_limits!(FORM_LIMITS, form_limits, body::form::FormLimits:
    max_pairs, max_name_bytes, max_value_bytes, max_body_bytes);
wire_limits!(MULTIPART_LIMITS, multipart_limits, body::multipart::MultipartLimits:
    max_parts, max_boundary_bytes, max_headers, max_header_bytes, max_value_bytes,
    max_body_bytes, max_preamble_bytes, max_epilogue_bytes);

/// The form reader's error kinds by the names the vectors give them (the query decoder's
/// kinds in kebab-case, limits as `limit:` and the field name).
fn form_kind(kind: body::form::FormErrorKind) -> Cow<'static, str> {
    use body::form::FormErrorKind;
    match kind {
        FormErrorKind::Decode(query::QueryErrorKind::InvalidEscape) => "invalid-escape".into(),
        FormErrorKind::Decode(query::QueryErrorKind::InvalidUtf8) => "invalid-utf8".into(),
        FormErrorKind::Decode(query::QueryErrorKind::TooManyPairs) => "too-many-pairs".into(),
        FormErrorKind::Decode(_) => "too-large".into(),
        FormErrorKind::Limit(limit) => format!("limit:{}", limit.name()).into(),
    }
}

enum Reader {
    Chunked(body::chunked::ChunkedDecoder),
    Form(body::form::FormReader),
    // Boxed: the reader holds its search tables (about 600 bytes).
    Multipart(Box<body::multipart::MultipartReader>),
    /// The reader could not be made (a bad boundary or Content-Type): the error, reported
    /// by the first feed (and by [`RpBody::error`] at once).
    Failed(String, &'static str, u64),
}

/// One body being read; see the section's comment for the protocol.
#[wasm_bindgen]
pub struct RpBody {
    reader: Reader,
    /// Tail + chunk; `buf[start..len]` is what was fed and not consumed.
    buf: Vec<u8>,
    start: usize,
    len: usize,
    events: Vec<u32>,
    text: Vec<u8>,
    header: alloc::boxed::Box<[u32; BODY_SLOTS.len()]>,
    /// An end or an error was reported: the reader is not fed again.
    over: bool,
}

/// Writes the events of one feed.
struct Events<'s> {
    input: &'s [u8],
    /// Where the bytes of this feed start in `input` (after the tail held from before).
    tail: usize,
    events: &'s mut Vec<u32>,
    text: &'s mut Vec<u8>,
}

impl Events<'_> {
    fn push(&mut self, words: &[u32]) {
        self.events.extend_from_slice(words);
    }

    /// A string (valid UTF-8): where it lies in the input, else copied to the text buffer.
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    /// Bytes that are in the input, or copied to the text buffer.
    fn bytes(&mut self, b: &[u8]) {
        match offset_in(self.input, b) {
            Some(at) => self.push(&[at as u32, (at + b.len()) as u32]),
            None => {
                let at = self.text.len();
                self.text.extend_from_slice(b);
                self.push(&[SPAN_TEXT | at as u32, (at + b.len()) as u32]);
            }
        }
    }

    /// Bytes read as UTF-8, invalid sequences replaced (what the vectors compare).
    fn lossy(&mut self, b: &[u8]) {
        let s = String::from_utf8_lossy(b);
        self.str(&s);
    }

    fn null(&mut self) {
        self.push(&[NULL, NULL]);
    }

    /// Data, in two events when it begins in the tail and ends in the feed: JS copies the
    /// tail's bytes and slices the rest out of its chunk.
    fn data(&mut self, d: &[u8]) {
        let at = offset_in(self.input, d).unwrap_or(0);
        let end = at + d.len();
        if at < self.tail && self.tail < end {
            self.push(&[EV_DATA, at as u32, self.tail as u32]);
            self.push(&[EV_DATA, self.tail as u32, end as u32]);
        } else {
            self.push(&[EV_DATA, at as u32, end as u32]);
        }
    }

    fn u64(&mut self, n: u64) {
        self.push(&[n as u32, (n >> 32) as u32]);
    }

    fn error(&mut self, message: &str, kind: &str, offset: u64) -> i32 {
        self.push(&[EV_ERROR]);
        self.str(message);
        self.str(kind);
        self.u64(offset);
        FEED_ERROR
    }
}

impl RpBody {
    fn new(reader: Reader) -> RpBody {
        let mut body = RpBody {
            reader,
            buf: Vec::new(),
            start: 0,
            len: 0,
            events: Vec::new(),
            text: Vec::new(),
            header: alloc::boxed::Box::new([0; BODY_SLOTS.len()]),
            over: false,
        };
        body.publish();
        body
    }

    fn publish(&mut self) {
        self.header[B_EVENTS] = ptr(&self.events);
        self.header[B_EVENTS_LEN] = self.events.len() as u32;
        self.header[B_TEXT] = ptr(&self.text);
        self.header[B_BUF] = ptr(&self.buf);
        self.header[B_SKIP] = u32::from(self.skippable());
    }

    fn skippable(&self) -> bool {
        matches!(&self.reader, Reader::Multipart(r) if r.in_data()) && self.start >= self.len
    }

    /// Runs the reader over `buf[start..len]` until it wants more input, ends or fails.
    fn run(&mut self, tail: usize, eof: bool) -> i32 {
        let RpBody {
            reader,
            buf,
            start,
            len,
            events,
            text,
            ..
        } = self;
        let input = buf.get(..*len).unwrap_or_default();
        let mut out = Events {
            input,
            tail,
            events,
            text,
        };
        match reader {
            Reader::Failed(message, kind, offset) => out.error(message, kind, *offset),
            Reader::Chunked(decoder) => loop {
                let rest = input.get(*start..).unwrap_or_default();
                let step = match decoder.decode(rest) {
                    Ok(step) => step,
                    Err(e) => return out.error(&e.to_string(), e.kind.name(), e.offset),
                };
                *start += step.consumed;
                match step.event {
                    Some(body::chunked::Chunk::Data(d)) => out.data(d),
                    Some(body::chunked::Chunk::Trailer { name, value }) => {
                        out.push(&[EV_TRAILER]);
                        out.lossy(name);
                        out.lossy(value);
                    }
                    Some(body::chunked::Chunk::End) => {
                        out.push(&[EV_END]);
                        out.u64(decoder.position());
                        return FEED_END;
                    }
                    None if eof => {
                        return match decoder.finish() {
                            Err(e) => out.error(&e.to_string(), e.kind.name(), e.offset),
                            Ok(()) => FEED_END,
                        };
                    }
                    None => return FEED_MORE,
                }
            },
            Reader::Form(reader) => loop {
                let rest = input.get(*start..).unwrap_or_default();
                let step = match reader.decode(rest, eof) {
                    Ok(step) => step,
                    Err(e) => return out.error(&e.to_string(), &form_kind(e.kind), e.offset),
                };
                *start += step.consumed;
                match step.event {
                    Some(body::form::FormEvent::Pair(p)) => {
                        out.push(&[EV_PAIR]);
                        out.str(p.name);
                        out.str(p.value);
                    }
                    Some(body::form::FormEvent::End) => {
                        out.push(&[EV_END]);
                        out.u64(reader.position());
                        return FEED_END;
                    }
                    None => return FEED_MORE,
                }
            },
            Reader::Multipart(reader) => loop {
                let rest = input.get(*start..).unwrap_or_default();
                let step = match reader.decode(rest, eof) {
                    Ok(step) => step,
                    Err(e) => return out.error(&e.to_string(), e.kind.name(), e.offset),
                };
                *start += step.consumed;
                match step.event {
                    Some(body::multipart::MultipartEvent::Data(d)) => out.data(d),
                    Some(body::multipart::MultipartEvent::Part(part)) => {
                        out.push(&[EV_PART]);
                        out.str(&part.name());
                        let filename = part.filename();
                        match &filename {
                            Some(f) => {
                                out.str(f.as_str());
                                out.bytes(f.raw());
                            }
                            None => {
                                out.null();
                                out.null();
                            }
                        }
                        match part.content_type() {
                            Some(ct) => out.lossy(ct),
                            None => out.null(),
                        }
                        match &filename {
                            Some(f) => {
                                out.str(f.basename());
                                out.str(&f.portable());
                            }
                            None => {
                                out.null();
                                out.null();
                            }
                        }
                    }
                    Some(body::multipart::MultipartEvent::PartEnd) => out.push(&[EV_PART_END]),
                    Some(body::multipart::MultipartEvent::End) => {
                        out.push(&[EV_END]);
                        out.u64(reader.position());
                        return FEED_END;
                    }
                    None => return FEED_MORE,
                }
            },
        }
    }
}

#[wasm_bindgen]
impl RpBody {
    /// A chunked transfer coding decoder; `limits` in `CHUNKED_LIMITS` order.
    pub fn chunked(limits: &[f64]) -> RpBody {
        let decoder = body::chunked::ChunkedDecoder::new(chunked_limits(limits));
        RpBody::new(Reader::Chunked(decoder))
    }

    /// A form body reader; `profile` as for queries, `limits` in `FORM_LIMITS` order.
    pub fn form(profile: u32, limits: &[f64]) -> RpBody {
        let reader = body::form::FormReader::new(query_profile(profile), form_limits(limits));
        RpBody::new(Reader::Form(reader))
    }

    /// A multipart/form-data reader for `boundary` (or, with `is_content_type`, for the
    /// boundary of the `Content-Type` value `boundary`); `profile` is an index in the core's
    /// `Profile::ALL`, `limits` in `MULTIPART_LIMITS` order. A bad boundary makes a handle
    /// whose [`RpBody::error`] says why.
    pub fn multipart(
        boundary: &[u8],
        is_content_type: bool,
        profile: u32,
        limits: &[f64],
    ) -> RpBody {
        use body::multipart::{MultipartReader, Profile};
        let profile = Profile::ALL
            .get(profile as usize)
            .copied()
            .unwrap_or_default();
        let made = if is_content_type {
            body::multipart::boundary(boundary)
                .and_then(|b| MultipartReader::new(b, profile, multipart_limits(limits)))
        } else {
            MultipartReader::new(boundary, profile, multipart_limits(limits))
        };
        RpBody::new(match made {
            Ok(reader) => Reader::Multipart(Box::new(reader)),
            Err(e) => Reader::Failed(e.to_string(), e.kind.name(), e.offset),
        })
    }

    /// Address of this handle's header (`BODY_SLOTS.len()` `u32`); it never moves.
    pub fn header(&self) -> u32 {
        self.header.as_ptr() as usize as u32
    }

    /// When the reader could not be made: reports why as the only event and answers
    /// [`FEED_ERROR`]; else [`FEED_MORE`].
    pub fn error(&mut self) -> i32 {
        if !matches!(self.reader, Reader::Failed(..)) {
            return FEED_MORE;
        }
        self.events.clear();
        self.text.clear();
        let r = self.run(0, false);
        self.publish();
        r
    }

    /// Keeps what was not consumed at the front of the input buffer, makes room for `n` more
    /// bytes and returns where JS writes them (0 when `n` is over the cap). May grow memory.
    pub fn reserve(&mut self, n: u32) -> u32 {
        let n = n as usize;
        if n > MAX_FEED {
            return 0;
        }
        let (start, len) = (self.start.min(self.len), self.len.min(self.buf.len()));
        self.buf.copy_within(start..len, 0);
        let tail = len - start;
        (self.start, self.len) = (0, tail);
        if self.buf.len() < tail + n {
            let want = (tail + n).next_power_of_two().max(4096);
            self.buf.resize(want, 0);
        }
        self.publish();
        ptr(&self.buf) + tail as u32
    }

    /// Takes the `n` bytes JS wrote where [`RpBody::reserve`] said (`eof`: no more follow)
    /// and reads up to where more input is needed: [`FEED_MORE`], [`FEED_END`] or
    /// [`FEED_ERROR`], the events in the header.
    pub fn feed(&mut self, n: u32, eof: bool) -> i32 {
        self.events.clear();
        self.text.clear();
        if self.over {
            self.publish();
            return FEED_END;
        }
        let tail = self.len;
        self.len = (self.len + n as usize).min(self.buf.len());
        let r = self.run(tail, eof);
        if r != FEED_MORE {
            self.over = true;
        }
        self.publish();
        r
    }

    /// Takes the next `n` bytes of a part's data without their being fed: JS found no
    /// delimiter in them, nor a prefix of one at their end, with its native `indexOf` (see
    /// `MultipartReader::skip_data`). `false`, and nothing changed, unless the header's `skip`
    /// slot is 1 and the limits let all `n` bytes through: JS then feeds them.
    pub fn skip(&mut self, n: u32) -> bool {
        if !self.skippable() || self.over {
            return false;
        }
        match &mut self.reader {
            Reader::Multipart(reader) => reader.skip_data(u64::from(n)),
            _ => false,
        }
    }

    /// The delimiter a multipart body's data ends at (CRLF `--` boundary); empty for the
    /// other readers.
    pub fn delimiter(&self) -> Vec<u8> {
        match &self.reader {
            Reader::Multipart(reader) => reader.delimiter().to_vec(),
            _ => Vec::new(),
        }
    }

    /// Bytes fed and not consumed: after the end of a chunked body, the bytes that follow it.
    pub fn rest(&self) -> Vec<u8> {
        self.buf
            .get(self.start..self.len)
            .unwrap_or_default()
            .to_vec()
    }
}
