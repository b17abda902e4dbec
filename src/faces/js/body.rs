//! The body readers (`parseMultipart`, `parseForm`, `decodeChunked` in `js/lib/body.cjs`).
//!
//! A body reader is a handle (`RpBody`, a wasm-bindgen class) that JS feeds the source's chunks:
//!
//! - `reserve(n)` moves the bytes the reader did not consume (at most what its limits bound: an
//!   incomplete line or header block, or the bytes that may begin a delimiter) to the front of
//!   the handle's own input buffer, makes room for `n` more and returns where JS writes them;
//!   the chunk starts at `reserve(n) - header[bodyBuf]`, right after that tail; a chunk that
//!   fits between the header's `len` and `cap` (the end of what was fed, the buffer's size) may
//!   be written at `len` without a `reserve` (the tail is then not moved to the front: the
//!   reader reads on from where it stopped);
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
//! - A multipart handle made with `decide` stops each feed after a part's header (the feed
//!   answers [`FEED_PART`]): JS reads the part, may set its limit (`limit_part`) or skip it
//!   (`skip_part`), then `resume()` reads on over what was fed, as the feed would have.
//!
//! The header, event list and text buffer are the handle's own, so several bodies may be read
//! at once; JS reads a feed's events before the next `reserve` of the same handle.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use super::{
    ptr, query_profile, BODY_SLOTS, B_BUF, B_CAP, B_EVENTS, B_EVENTS_LEN, B_LEN, B_SKIP, B_TEXT,
    EV_DATA, EV_END, EV_ERROR, EV_PAIR, EV_PART, EV_PART_END, EV_TRAILER, FEED_END, FEED_ERROR,
    FEED_MORE, FEED_PART, MAX_FEED, NULL, SPAN_TEXT,
};
use crate::body;
use crate::bytes::offset_in;

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

crate::body::limits::chunked!(names wire_limits(
    CHUNKED_LIMITS, chunked_limits, body::chunked::ChunkedLimits:
));
crate::body::limits::form!(names wire_limits(
    FORM_LIMITS, form_limits, body::form::FormLimits:
));
crate::body::limits::multipart!(names wire_limits(
    MULTIPART_LIMITS, multipart_limits, body::multipart::MultipartLimits:
));

/// An error as the error event carries it (see `EVENT_FIELDS` in the parent module).
struct Failure {
    message: String,
    kind: Cow<'static, str>,
    offset: u64,
    /// The index of the multipart part the error is in.
    part: Option<usize>,
    /// The HTTP status it answers (RFC 9110 §15.5): 413 for a limit, 400 otherwise.
    status: u16,
}

impl Failure {
    fn multipart(e: &body::multipart::MultipartError) -> Failure {
        Failure {
            message: e.to_string(),
            kind: e.kind.name().into(),
            offset: e.offset,
            part: e.part,
            status: e.status(),
        }
    }

    fn form(e: &body::form::FormError) -> Failure {
        Failure {
            message: e.to_string(),
            kind: e.kind.name().into(),
            offset: e.offset,
            part: None,
            status: e.status(),
        }
    }

    fn chunked(e: &body::chunked::ChunkedError) -> Failure {
        use body::chunked::ChunkedErrorKind;
        // As `MultipartError::status` and `FormError::status` answer: 413 (Content Too Large)
        // for a limit, 400 (Bad Request) for a body the decoder refuses.
        let status = if matches!(e.kind, ChunkedErrorKind::Limit(_)) {
            413
        } else {
            400
        };
        Failure {
            message: e.to_string(),
            kind: e.kind.name().into(),
            offset: e.offset,
            part: None,
            status,
        }
    }
}

enum Reader {
    Chunked(body::chunked::ChunkedDecoder),
    Form(body::form::FormReader),
    // Boxed: the reader holds its search tables (about 600 bytes).
    Multipart(Box<body::multipart::MultipartReader>),
    /// The reader could not be made (a bad boundary or Content-Type): the error, reported
    /// by the first feed (and by [`RpBody::error`] at once).
    Failed(Failure),
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
    /// Each feed stops after a part's header ([`FEED_PART`]), for JS to decide about it.
    decide: bool,
    /// The last feed's: where its bytes start in `buf`, and whether no more follow
    /// ([`RpBody::resume`] reads on with them).
    tail: usize,
    eof: bool,
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

    fn error(&mut self, e: &Failure) -> i32 {
        self.push(&[EV_ERROR]);
        self.str(&e.message);
        self.str(&e.kind);
        self.u64(e.offset);
        // The index plus one: 0 is no part.
        self.u64(e.part.map_or(0, |i| (i as u64).saturating_add(1)));
        self.push(&[u32::from(e.status)]);
        FEED_ERROR
    }
}

impl RpBody {
    fn new(reader: Reader, decide: bool) -> RpBody {
        let mut body = RpBody {
            reader,
            buf: Vec::new(),
            start: 0,
            len: 0,
            events: Vec::new(),
            text: Vec::new(),
            header: alloc::boxed::Box::new([0; BODY_SLOTS.len()]),
            over: false,
            decide,
            tail: 0,
            eof: false,
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
        self.header[B_LEN] = self.len as u32;
        self.header[B_CAP] = self.buf.len() as u32;
    }

    fn skippable(&self) -> bool {
        matches!(&self.reader, Reader::Multipart(r) if r.in_data()) && self.start >= self.len
    }

    /// Runs the reader over what was fed and not consumed, with the last feed's `tail` and
    /// `eof`; an end or an error is the last answer.
    fn read_on(&mut self) -> i32 {
        let r = self.run(self.tail, self.eof);
        if r == FEED_END || r == FEED_ERROR {
            self.over = true;
        }
        self.publish();
        r
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
            decide,
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
            Reader::Failed(failure) => out.error(failure),
            Reader::Chunked(decoder) => loop {
                let rest = input.get(*start..).unwrap_or_default();
                let step = match decoder.decode(rest) {
                    Ok(step) => step,
                    Err(e) => return out.error(&Failure::chunked(&e)),
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
                            Err(e) => out.error(&Failure::chunked(&e)),
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
                    Err(e) => return out.error(&Failure::form(&e)),
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
                    Err(e) => return out.error(&Failure::multipart(&e)),
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
                        match part.mime_type() {
                            Some(mime) => out.lossy(mime.as_bytes()),
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
                        // JS decides about the part before its data is read.
                        if *decide {
                            return FEED_PART;
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
        RpBody::new(Reader::Chunked(decoder), false)
    }

    /// A form body reader; `profile` as for queries, `limits` in `FORM_LIMITS` order.
    pub fn form(profile: u32, limits: &[f64]) -> RpBody {
        let reader = body::form::FormReader::new(query_profile(profile), form_limits(limits));
        RpBody::new(Reader::Form(reader), false)
    }

    /// A multipart/form-data reader for `boundary` (or, with `is_content_type`, for the
    /// boundary of the `Content-Type` value `boundary`); `profile` is an index in the core's
    /// `Profile::ALL`, `limits` in `MULTIPART_LIMITS` order; with `decide`, each feed stops
    /// after a part's header ([`FEED_PART`]). A bad boundary makes a handle whose
    /// [`RpBody::error`] says why.
    pub fn multipart(
        boundary: &[u8],
        is_content_type: bool,
        profile: u32,
        limits: &[f64],
        decide: bool,
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
        let reader = match made {
            Ok(reader) => Reader::Multipart(Box::new(reader)),
            Err(e) => Reader::Failed(Failure::multipart(&e)),
        };
        RpBody::new(reader, decide)
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

    /// Takes the `n` bytes JS wrote where [`RpBody::reserve`] said, or at the header's `len`
    /// when they fit under its `cap` (`eof`: no more follow)
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
        (self.tail, self.eof) = (tail, eof);
        self.read_on()
    }

    /// After [`FEED_PART`] (and JS's decision about that part): reads on over what the last
    /// feed gave, as that feed would have, with the same answers.
    pub fn resume(&mut self) -> i32 {
        self.events.clear();
        self.text.clear();
        if self.over {
            self.publish();
            return FEED_END;
        }
        self.read_on()
    }

    /// Sets the current part's data limit (`MultipartReader::limit_part`), `max_bytes` a JS
    /// number as limits are sent (a non-negative integer or infinity). `false`, and nothing
    /// changed, outside a multipart part's data (JS calls it after a [`FEED_PART`]).
    pub fn limit_part(&mut self, max_bytes: f64) -> bool {
        if self.over || max_bytes.is_nan() || max_bytes < 0.0 {
            return false;
        }
        match &mut self.reader {
            Reader::Multipart(reader) => reader.limit_part(u64::from_wire(max_bytes, u64::MAX)),
            _ => false,
        }
    }

    /// Skips the current part's data (`MultipartReader::skip_part`): no data event comes for
    /// it, and [`RpBody::skip`] hands none out either. `false`, and nothing changed, outside a
    /// multipart part's data.
    pub fn skip_part(&mut self) -> bool {
        if self.over {
            return false;
        }
        match &mut self.reader {
            Reader::Multipart(reader) => reader.skip_part(),
            _ => false,
        }
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
