//! wasm-bindgen exports for the npm package (`js/`): type conversion only.
//!
//! Crossing the JS↔wasm boundary is the cost that matters, so strings do not cross one by one:
//!
//! - JS writes its input as UTF-8 (`Buffer#utf8Write`, like `TextEncoder.encodeInto`) into
//!   [`rp_input`]'s reused buffer and passes the written length (the input is then valid UTF-8:
//!   lone surrogates became U+FFFD). [`rp_disposition`] also takes the raw bytes of a
//!   `Uint8Array` header copied there as they are: those may be any bytes, read as the core
//!   reads header bytes (UTF-8 when valid, ISO-8859-1 otherwise).
//! - An export answers with a list of strings in reused buffers, described by the header at
//!   [`rp_header`]: a `u32` span list of `(start, end)` pairs whose two top bits of `start`
//!   say where the string lives —
//!   `00` a slice of the caller's JS string (UTF-16 indices),
//!   `10` a slice of the text buffer (bytes; every span JS slices from it is ASCII, so JS
//!   reads the whole buffer once as Latin-1),
//!   `01` a slice of the UTF-16 buffer (code units), `11` a `null`.
//!   JS decodes each buffer at most once and slices it; the core's `query::decode_spans` already
//!   writes spans in this shape (its "decoded" bit is our `10`), so the common all-ASCII query
//!   passes through untouched.
//! - The header and buffers are global: JS reads a result fully before the next call.
//! - Profiles travel as their index in the core's `Profile::ALL`.
//! - Request bodies (`parseMultipart`, `parseForm`, `decodeChunked` in `body.cjs`) are read
//!   through an [`RpBody`] handle with its own input buffer, header and event list, fed chunk by
//!   chunk: see "request bodies" below.
//!
//! This file is the protocol's one definition. `index.cjs` reads the layout (header slots, tag
//! bits, profile names in wire order, the input cap) from [`rp_layout`] at load, and refuses to
//! run unless [`rp_abi_version`] is the [`ABI_VERSION`] it was written for: a stale `js/pkg`
//! fails loudly instead of misreading every answer.
//!
//! A panic here would trap and leave the instance unusable, so nothing below indexes, unwraps or
//! borrows without a fallback.
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use wasm_bindgen::prelude::*;

use crate::bytes::offset_in;
use crate::{body, disposition, query, uri};

/// The version of the protocol between these exports and `index.cjs`. Bump it with every change
/// `index.cjs` cannot follow by reading [`rp_layout`]: an export's arguments or answer, what a
/// slot or tag means (the numbers themselves are read from the layout).
/// Version 2: the body readers ([`RpBody`] and `rp_layout`'s `body`).
const ABI_VERSION: u32 = 2;

/// Longest input JS may hand over, in UTF-16 code units (`MAX_INPUT_LENGTH` in JS).
const MAX_INPUT_UNITS: usize = 1 << 20;

/// The same cap in bytes of UTF-8: one code unit is at most 3 bytes (a surrogate pair, 2
/// units, is 4). Wasm memory never shrinks, so this bounds it.
const MAX_INPUT_BYTES: usize = 3 * MAX_INPUT_UNITS;

/// A span's two top bits say where its string lives (see the module docs).
const TAG_SHIFT: u32 = 30;
const TAG_MASK: u32 = 0b11 << TAG_SHIFT;
const TAG_INPUT: u32 = 0b00 << TAG_SHIFT;
const TAG_UTF16: u32 = 0b01 << TAG_SHIFT;
const TAG_TEXT: u32 = 0b10 << TAG_SHIFT;
const TAG_NULL: u32 = 0b11 << TAG_SHIFT;
/// Both ends of a `null`'s span.
const NULL: u32 = u32::MAX;

/// Header slots JS reads after every call (see the module docs).
const H_SPANS: usize = 0;
const H_SPANS_LEN: usize = 1;
const H_TEXT: usize = 2;
const H_TEXT_LEN: usize = 3;
const H_UTF16: usize = 4;
const H_UTF16_LEN: usize = 5;
const H_ERR_OFFSET: usize = 6;
const H_ERR_INDEX: usize = 7;

/// Every slot by the name [`rp_layout`] gives it; slot `i` is entry `i`.
const SLOTS: [(&str, usize); 8] = [
    ("spans", H_SPANS),
    ("spansLen", H_SPANS_LEN),
    ("text", H_TEXT),
    ("textLen", H_TEXT_LEN),
    ("utf16", H_UTF16),
    ("utf16Len", H_UTF16_LEN),
    ("errOffset", H_ERR_OFFSET),
    ("errIndex", H_ERR_INDEX),
];

/// Every tag by the name [`rp_layout`] gives it.
const TAGS: [(&str, u32); 4] = [
    ("input", TAG_INPUT),
    ("utf16", TAG_UTF16),
    ("text", TAG_TEXT),
    ("null", TAG_NULL),
];

// A static, so its address never moves and JS can keep one view on it.
static HEADER: [AtomicU32; SLOTS.len()] = [const { AtomicU32::new(0) }; SLOTS.len()];

// The protocol's invariants, checked when this file compiles.
const _: () = {
    // Slots are 0..SLOTS.len(), each named once: the header has no gap and no overlap.
    let mut i = 0;
    while i < SLOTS.len() {
        assert!(SLOTS[i].1 == i);
        i += 1;
    }
    // The core's decode_spans marks decoded spans with the text tag and leaves input spans
    // untagged, so its output is already in the protocol.
    assert!(TAG_TEXT == query::SPAN_DECODED);
    assert!(TAG_INPUT == 0);
    // index.cjs's fast path: a span is the input's exactly when its start is at most the mask.
    assert!(!TAG_MASK == (1 << TAG_SHIFT) - 1);
    assert!(NULL & TAG_MASK == TAG_NULL);
    // Every offset fits under the tag bits, into the input or into a buffer (which holds at
    // most the input's bytes plus one error message).
    assert!(2 * MAX_INPUT_BYTES <= !TAG_MASK as usize);
};

/// Returned by the parsing exports when the input was rejected: the message is string 0 and
/// the offsets are in the header.
const ERR: i32 = -1;

#[derive(Default)]
struct State {
    /// JS writes here; kept zero-filled to its full length so every prefix is readable.
    input: Vec<u8>,
    text: Vec<u8>,
    utf16: Vec<u16>,
    spans: Vec<u32>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

fn with_state(f: impl FnOnce(&mut State) -> i32) -> i32 {
    STATE.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => f(&mut s),
        Err(_) => ERR,
    })
}

fn ptr<T>(v: &[T]) -> u32 {
    v.as_ptr() as usize as u32
}

/// The wasm memory, for JS's views (an export named `memory` would clash with wasm-bindgen's).
#[wasm_bindgen]
pub fn rp_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The protocol version `index.cjs` checks at load (see [`ABI_VERSION`]).
#[wasm_bindgen]
pub fn rp_abi_version() -> u32 {
    ABI_VERSION
}

/// The protocol's numbers as JSON, read once by `index.cjs` at load:
/// `{"header": {slot: index}, "tagShift", "tags": {tag: value}, "maxInputLength",
/// "queryProfiles": [names in wire order], "dispositionProfiles": [...], "body": {"header":
/// {slot: index}, "events": {event: tag}, "spanText", "null", "maxFeed", "more", "end",
/// "error", "multipartProfiles": [...], "chunkedLimits": [names in wire order],
/// "formLimits": [...], "multipartLimits": [...]}}`.
#[wasm_bindgen]
pub fn rp_layout() -> String {
    let header = SLOTS.map(|(name, slot)| (name, slot as u32));
    let tags = TAGS.map(|(name, tag)| (name, tag >> TAG_SHIFT));
    let query = query::Profile::ALL.map(query::Profile::as_str);
    let disposition = disposition::Profile::ALL.map(disposition::Profile::as_str);
    let multipart = body::multipart::Profile::ALL.map(body::multipart::Profile::as_str);
    let body_header = BODY_SLOTS.map(|(name, slot)| (name, slot as u32));
    // Every name is a plain ASCII identifier: nothing to escape.
    let body = format!(
        r#"{{"header":{{{}}},"events":{{{}}},"spanText":{SPAN_TEXT},"null":{NULL},"maxFeed":{MAX_FEED},"more":{FEED_MORE},"end":{FEED_END},"error":{FEED_ERROR},"multipartProfiles":[{}],"chunkedLimits":[{}],"formLimits":[{}],"multipartLimits":[{}]}}"#,
        json_fields(&body_header),
        json_fields(&EVENTS),
        json_names(&multipart),
        json_names(CHUNKED_LIMITS),
        json_names(FORM_LIMITS),
        json_names(MULTIPART_LIMITS),
    );
    format!(
        r#"{{"header":{{{}}},"tagShift":{TAG_SHIFT},"tags":{{{}}},"maxInputLength":{MAX_INPUT_UNITS},"queryProfiles":[{}],"dispositionProfiles":[{}],"body":{body}}}"#,
        json_fields(&header),
        json_fields(&tags),
        json_names(&query),
        json_names(&disposition),
    )
}

/// `"name":value,…` for [`rp_layout`].
fn json_fields(fields: &[(&str, u32)]) -> String {
    let fields: Vec<String> = fields
        .iter()
        .map(|(name, value)| format!(r#""{name}":{value}"#))
        .collect();
    fields.join(",")
}

/// `"name",…` for [`rp_layout`].
fn json_names(names: &[&str]) -> String {
    let names: Vec<String> = names.iter().map(|name| format!(r#""{name}""#)).collect();
    names.join(",")
}

/// Address of the result header (`SLOTS.len()` `u32`).
#[wasm_bindgen]
pub fn rp_header() -> u32 {
    HEADER.as_ptr() as usize as u32
}

/// Makes the input buffer hold at least `len` bytes and returns its address (0 if `len` is
/// over the cap). May grow memory: JS re-creates its views afterwards.
#[wasm_bindgen]
pub fn rp_input(len: u32) -> u32 {
    let len = len as usize;
    if len > MAX_INPUT_BYTES {
        return 0;
    }
    STATE.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => {
            if s.input.len() < len {
                // Round up so a growing series of inputs reallocates only a few times.
                let want = len.next_power_of_two().clamp(4096, MAX_INPUT_BYTES);
                s.input.resize(want, 0);
            }
            ptr(&s.input)
        }
        Err(_) => 0,
    })
}

/// UTF-16 code units encoded by one UTF-8 byte (counted on the lead byte).
fn utf16_units(b: u8) -> usize {
    match b {
        0x80..=0xBF => 0,
        0xF0..=0xFF => 2,
        _ => 1,
    }
}

/// Maps byte offsets of a UTF-8 text to UTF-16 indices; cheap when asked in increasing order.
struct Utf16Index<'a> {
    bytes: &'a [u8],
    byte: usize,
    unit: usize,
}

impl<'a> Utf16Index<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Utf16Index {
            bytes,
            byte: 0,
            unit: 0,
        }
    }

    fn at(&mut self, to: usize) -> u32 {
        let to = to.min(self.bytes.len());
        if to < self.byte {
            self.byte = 0;
            self.unit = 0;
        }
        let step = self.bytes.get(self.byte..to).unwrap_or_default();
        self.unit += step.iter().map(|&b| utf16_units(b)).sum::<usize>();
        self.byte = to;
        self.unit as u32
    }
}

/// Appends `s` as UTF-16; returns the `(start, end)` span in code units.
fn push_utf16(utf16: &mut Vec<u16>, s: &str) -> (u32, u32) {
    let at = utf16.len();
    // UTF-16 never needs more units than UTF-8 has bytes: size the buffer once and write into
    // it (extend() pays a capacity check per unit), then cut it to length.
    utf16.resize(at + s.len(), 0);
    let mut n = 0;
    let slots = utf16.get_mut(at..).unwrap_or_default();
    for (slot, unit) in slots.iter_mut().zip(s.encode_utf16()) {
        *slot = unit;
        n += 1;
    }
    utf16.truncate(at + n);
    (at as u32, (at + n) as u32)
}

/// [`push_utf16`] for decoded bytes (UTF-8 from the core; invalid sequences would become
/// U+FFFD).
fn push_utf16_lossy(utf16: &mut Vec<u16>, bytes: &[u8]) -> (u32, u32) {
    let start = utf16.len() as u32;
    for chunk in bytes.utf8_chunks() {
        push_utf16(utf16, chunk.valid());
        if !chunk.invalid().is_empty() {
            utf16.push(0xFFFD);
        }
    }
    (start, utf16.len() as u32)
}

/// Collects one answer: a list of strings in the span protocol.
struct Out<'s> {
    input: &'s [u8],
    /// Slices of an all-ASCII input have the same indices in the JS string: borrow them.
    ascii_input: bool,
    text: &'s mut Vec<u8>,
    utf16: &'s mut Vec<u16>,
    spans: &'s mut Vec<u32>,
}

impl Out<'_> {
    fn str(&mut self, s: &str) {
        let bytes = s.as_bytes();
        if self.ascii_input {
            if let Some(start) = offset_in(self.input, bytes) {
                self.span(TAG_INPUT, start as u32, (start + bytes.len()) as u32);
                return;
            }
        }
        if bytes.is_ascii() {
            let start = self.text.len() as u32;
            self.text.extend_from_slice(bytes);
            self.span(TAG_TEXT, start, self.text.len() as u32);
        } else {
            let (start, end) = push_utf16(self.utf16, s);
            self.span(TAG_UTF16, start, end);
        }
    }

    /// Tokens (types, parameter names) are ASCII; they are answered lowercased.
    fn lower(&mut self, s: &str) {
        if s.bytes().any(|b| b.is_ascii_uppercase()) {
            let start = self.text.len() as u32;
            self.text.extend(s.bytes().map(|b| b.to_ascii_lowercase()));
            self.span(TAG_TEXT, start, self.text.len() as u32);
        } else {
            self.str(s);
        }
    }

    fn opt(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.str(s),
            None => self.span(NULL, NULL, NULL),
        }
    }

    fn span(&mut self, tag: u32, start: u32, end: u32) {
        self.spans.push(tag | start);
        self.spans.push(end);
    }

    /// Reports a rejected input: the message as string 0, offsets in the header.
    fn error(&mut self, offset: usize, message: impl core::fmt::Display) -> i32 {
        use core::fmt::Write;
        self.spans.clear();
        let mut msg = String::new();
        let _ = write!(msg, "{message}");
        // Builders have no single input to index into: their offset stands for both.
        let index = if self.input.is_empty() {
            offset as u32
        } else {
            Utf16Index::new(self.input).at(offset)
        };
        HEADER[H_ERR_OFFSET].store(offset as u32, Relaxed);
        HEADER[H_ERR_INDEX].store(index, Relaxed);
        self.ascii_input = false;
        self.str(&msg);
        ERR
    }
}

/// Runs `f` over the written input and publishes its spans and buffers in the header.
fn answer(len: u32, ascii_input: bool, f: impl FnOnce(&mut Out<'_>) -> i32) -> i32 {
    with_state(|s| {
        let State {
            input,
            text,
            utf16,
            spans,
        } = s;
        text.clear();
        utf16.clear();
        spans.clear();
        let Some(input) = input.get(..len as usize) else {
            return ERR;
        };
        let mut out = Out {
            input,
            ascii_input,
            text,
            utf16,
            spans,
        };
        let r = f(&mut out);
        publish(text, utf16, spans);
        r
    })
}

fn publish(text: &[u8], utf16: &[u16], spans: &[u32]) {
    HEADER[H_SPANS].store(ptr(spans), Relaxed);
    HEADER[H_SPANS_LEN].store(spans.len() as u32, Relaxed);
    HEADER[H_TEXT].store(ptr(text), Relaxed);
    HEADER[H_TEXT_LEN].store(text.len() as u32, Relaxed);
    HEADER[H_UTF16].store(ptr(utf16), Relaxed);
    HEADER[H_UTF16_LEN].store(utf16.len() as u32, Relaxed);
}

/// A query profile from its wire number, its index in `Profile::ALL` (JS only sends those); any
/// other number is the default.
fn query_profile(p: u32) -> query::Profile {
    let all = query::Profile::ALL;
    all.get(p as usize).copied().unwrap_or_default()
}

/// [`query_profile`] for Content-Disposition profiles.
fn disposition_profile(p: u32) -> disposition::Profile {
    let all = disposition::Profile::ALL;
    all.get(p as usize).copied().unwrap_or_default()
}

/// `queryPairs`: name and value of each pair of the `len`-byte input; returns the pair count
/// or [`ERR`]. `ascii_input`: JS saw `written === string.length`.
#[wasm_bindgen]
pub fn rp_query_pairs(len: u32, profile: u32, raw: bool, ascii_input: bool) -> i32 {
    answer(len, ascii_input, |out| {
        let r = if raw {
            Ok(raw_spans(out.input, out.spans))
        } else {
            let profile = query_profile(profile);
            // JS hands over what `TextEncoder` wrote, which is UTF-8: checked once here, the
            // text entry point skips a check per decoded part (the same answers either way).
            match core::str::from_utf8(out.input) {
                Ok(text) => query::decode_str_spans(text, profile, out.text, out.spans),
                Err(_) => query::decode_spans(out.input, profile, out.text, out.spans),
            }
        };
        match r {
            Ok(n) => {
                let text_ascii = out.text.is_ascii();
                if !ascii_input || !text_ascii {
                    to_js_indices(
                        out.input,
                        ascii_input,
                        out.text,
                        text_ascii,
                        out.utf16,
                        out.spans,
                    );
                }
                i32::try_from(n).unwrap_or(ERR)
            }
            Err(e) => out.error(e.offset, e),
        }
    })
}

/// `raw: true` answers the undecoded slices, all inside the input.
fn raw_spans(input: &[u8], spans: &mut Vec<u32>) -> usize {
    let mut n = 0;
    for pair in query::Pairs::new(input) {
        for part in [pair.name(), pair.value()] {
            let start = offset_in(input, part).unwrap_or(0);
            spans.push(TAG_INPUT | start as u32);
            spans.push((start + part.len()) as u32);
        }
        n += 1;
    }
    n
}

/// Rewrites byte spans into what JS can slice: input spans of a non-ASCII input become UTF-16
/// indices of the caller's string (encodeInto maps index for index, a lone surrogate being one
/// unit like its U+FFFD); text spans with non-ASCII bytes move to the UTF-16 buffer.
fn to_js_indices(
    input: &[u8],
    ascii_input: bool,
    text: &[u8],
    text_ascii: bool,
    utf16: &mut Vec<u16>,
    spans: &mut [u32],
) {
    let mut index = Utf16Index::new(input);
    for span in spans.chunks_exact_mut(2) {
        let [start, end] = span else { continue };
        let (s, e) = ((*start & !TAG_MASK) as usize, (*end & !TAG_MASK) as usize);
        match *start & TAG_MASK {
            TAG_INPUT if !ascii_input => {
                *start = TAG_INPUT | index.at(s);
                *end = index.at(e);
            }
            TAG_TEXT if !text_ascii => {
                let bytes = text.get(s..e).unwrap_or_default();
                // ASCII spans stay in the text buffer: JS reads it as Latin-1, and only these
                // spans' bytes are ever sliced from it.
                if bytes.is_ascii() {
                    *end &= !TAG_MASK;
                } else {
                    let (s, e) = push_utf16_lossy(utf16, bytes);
                    *start = TAG_UTF16 | s;
                    *end = e;
                }
            }
            _ => *end &= !TAG_MASK,
        }
    }
}

/// `parseQuery`: per distinct name, the name, its values, then a `null`; returns the number of
/// names or [`ERR`].
#[wasm_bindgen]
pub fn rp_query_map(len: u32, profile: u32, ignore_case: bool, ascii_input: bool) -> i32 {
    answer(len, ascii_input, |out| {
        let Ok(text) = core::str::from_utf8(out.input) else {
            return out.error(0, "input is not UTF-8");
        };
        let options = query::MapOptions {
            profile: query_profile(profile),
            ignore_case,
            ..query::MapOptions::default()
        };
        let map = match query::QueryMap::parse(text, options) {
            Ok(map) => map,
            Err(e) => return out.error(e.offset, e),
        };
        let mut n = 0;
        for (name, values) in map.iter() {
            out.str(name);
            for value in values {
                out.str(value);
            }
            out.opt(None);
            n += 1;
        }
        n
    })
}

/// `parseContentDisposition`: type (lowercased), effective filename or `null`, then each
/// parameter's lowercased name and value; returns the parameter count or [`ERR`].
#[wasm_bindgen]
pub fn rp_disposition(len: u32, profile: u32, decode_2047: bool, ascii_input: bool) -> i32 {
    answer(len, ascii_input, |out| {
        let input = out.input;
        let cd = match disposition::ContentDisposition::parse(input, disposition_profile(profile)) {
            Ok(cd) => cd,
            Err(e) => return out.error(e.offset, e),
        };
        out.lower(cd.disposition_type());
        let filename = cd.filename_with(disposition::FilenameOptions { decode_2047 });
        out.opt(filename.as_deref());
        let mut n = 0;
        for p in cd.params() {
            out.lower(p.name());
            let value: Cow<'_, str> = p.value();
            out.str(&value);
            n += 1;
        }
        n
    })
}

/// `splitAbsolute`: scheme, host, path, query, fragment; returns 5 or [`ERR`].
#[wasm_bindgen]
pub fn rp_split_absolute(len: u32, ascii_input: bool) -> i32 {
    answer(len, ascii_input, |out| {
        let Ok(text) = core::str::from_utf8(out.input) else {
            return out.error(0, "input is not UTF-8");
        };
        let parts = match uri::split_absolute(text) {
            Ok(parts) => parts,
            Err(e) => return out.error(e.offset, e),
        };
        for s in [
            parts.scheme,
            parts.host,
            &parts.path,
            parts.query,
            parts.fragment,
        ] {
            out.str(s);
        }
        5
    })
}

/// Reports a builder's error through the header like the parsing exports do.
fn build_error(offset: usize, message: impl core::fmt::Display) {
    with_state(|s| {
        let State {
            text, utf16, spans, ..
        } = s;
        text.clear();
        utf16.clear();
        spans.clear();
        let mut out = Out {
            input: &[],
            ascii_input: false,
            text,
            utf16,
            spans,
        };
        let r = out.error(offset, message);
        publish(text, utf16, spans);
        r
    });
}

/// `buildAbsolute`; `None` means an error is in the header.
#[wasm_bindgen]
pub fn rp_build_absolute(
    scheme: &str,
    host: &str,
    path_base: &str,
    path: &str,
    query: &str,
    fragment: &str,
) -> Option<String> {
    match uri::build_absolute(scheme, host, path_base, path, query, fragment) {
        Ok(s) => Some(s),
        Err(e) => {
            build_error(e.offset, e);
            None
        }
    }
}

/// `buildRelative`.
#[wasm_bindgen]
pub fn rp_build_relative(path_base: &str, path: &str, query: &str, fragment: &str) -> String {
    uri::build_relative(path_base, path, query, fragment)
}

/// `formatContentDisposition`: `params` holds names and values alternately. A builder error
/// has no input offset: it is thrown as a plain JS `Error` with the crate's message.
#[wasm_bindgen]
pub fn rp_format_disposition(
    disposition_type: &str,
    filename: Option<String>,
    params: Vec<String>,
) -> Result<String, JsError> {
    let mut b = disposition::DispositionBuilder::new(disposition_type);
    if let Some(f) = filename.as_deref() {
        b = b.filename(f);
    }
    for pair in params.chunks_exact(2) {
        if let [name, value] = pair {
            b = b.param(name, value);
        }
    }
    b.build().map_err(|e| JsError::new(&e.to_string()))
}

// ---- request bodies ---------------------------------------------------------------------------
//
// A body reader is a handle (`RpBody`, a wasm-bindgen class) that JS feeds the source's chunks:
//
// - `reserve(n)` moves the bytes the reader did not consume (at most what its limits bound: an
//   incomplete line or header block, or the bytes that may begin a delimiter) to the front of
//   the handle's own input buffer, makes room for `n` more and returns where JS writes them;
//   the chunk starts at `reserve(n) - header[bodyBuf]`, right after that tail;
// - `feed(n, eof)` runs the core reader over tail + chunk up to the point where it needs more
//   input, writing every event into the handle's event list (`u32` words, see `EV_*`): offsets
//   into the input buffer, so JS views part data in the chunk it passed (an offset past the
//   tail; a data event that begins in the tail is split there), and copies only what lies in
//   the tail; strings are spans, in the input buffer or (when the core decoded or replaced
//   something) in the handle's text buffer, always valid UTF-8. An error ends the list as its
//   last event.
// - `skip(n)`, when the header's `skip` slot says the multipart reader is in a part's data and
//   holds nothing back: JS searched its chunk for `delimiter()` itself (native `indexOf`) and
//   the reader takes the `n` bytes before it uncopied (`MultipartReader::skip_data`).
//
// The header, event list and text buffer are the handle's own, so several bodies may be read
// at once; JS reads a feed's events before the next `reserve` of the same handle.

/// Most bytes JS may feed at once (it splits larger chunks): wasm memory never shrinks.
const MAX_FEED: usize = 1 << 20;

/// Span tag of a string in the handle's text buffer (else it is in the input buffer).
const SPAN_TEXT: u32 = 1 << 31;

/// Event tags, each followed by its fixed number of words (see the module section above).
/// `data`: start, end; `part`: name, filename, filename bytes as sent, content type, the
/// filename's basename and portable form (spans, `null` spans for what is absent); `pair` and
/// `trailer`: name, value; `end`: the bytes consumed (low, high word); `error`: message, kind
/// (spans), offset (low, high word).
const EV_DATA: u32 = 1;
const EV_PART: u32 = 2;
const EV_PART_END: u32 = 3;
const EV_END: u32 = 4;
const EV_PAIR: u32 = 5;
const EV_TRAILER: u32 = 6;
const EV_ERROR: u32 = 7;

const EVENTS: [(&str, u32); 7] = [
    ("data", EV_DATA),
    ("part", EV_PART),
    ("partEnd", EV_PART_END),
    ("end", EV_END),
    ("pair", EV_PAIR),
    ("trailer", EV_TRAILER),
    ("error", EV_ERROR),
];

/// A body handle's header slots.
const B_EVENTS: usize = 0;
const B_EVENTS_LEN: usize = 1;
const B_TEXT: usize = 2;
const B_BUF: usize = 3;
/// 1 when [`RpBody::skip`] may take the next bytes: a multipart reader in a part's data,
/// holding nothing back.
const B_SKIP: usize = 4;
const BODY_SLOTS: [(&str, usize); 5] = [
    ("events", B_EVENTS),
    ("eventsLen", B_EVENTS_LEN),
    ("text", B_TEXT),
    ("buf", B_BUF),
    ("skip", B_SKIP),
];

/// `feed`'s answers: more input wanted, the body ended, or the last event is an error.
const FEED_MORE: i32 = 0;
const FEED_END: i32 = 1;
const FEED_ERROR: i32 = -1;

const _: () = {
    let mut i = 0;
    while i < BODY_SLOTS.len() {
        assert!(BODY_SLOTS[i].1 == i);
        i += 1;
    }
    let mut i = 0;
    while i < EVENTS.len() {
        assert!(EVENTS[i].1 == i as u32 + 1);
        i += 1;
    }
    // Offsets into the input buffer (tail + one feed) and the text buffer stay below the tag.
    assert!(4 * MAX_FEED < SPAN_TEXT as usize);
    assert!(NULL & SPAN_TEXT != 0);
};

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
        const $names: &[&str] = &[$(stringify!($field)),+];

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
