//! The string answers: `queryPairs`, `parseQuery`, `parseContentDisposition`, `splitAbsolute`
//! answer through the span protocol (the parent module's docs); the builders return a string.
//! One global state: JS reads an answer fully before the next call.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use wasm_bindgen::prelude::*;

use super::{
    disposition_profile, ptr, query_profile, H_ERR_INDEX, H_ERR_OFFSET, H_SPANS, H_SPANS_LEN,
    H_TEXT, H_TEXT_LEN, H_UTF16, H_UTF16_LEN, MAX_INPUT_BYTES, NULL, SLOTS, TAG_INPUT, TAG_MASK,
    TAG_TEXT, TAG_UTF16,
};
use crate::bytes::offset_in;
use crate::{disposition, query, uri};

// A static, so its address never moves and JS can keep one view on it.
static HEADER: [AtomicU32; SLOTS.len()] = [const { AtomicU32::new(0) }; SLOTS.len()];

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

    /// A quoted value's ASCII inside with its quoted-pairs unescaped, into the text buffer.
    fn unescaped(&mut self, inner: &[u8]) {
        let start = self.text.len() as u32;
        disposition::unescape_ascii(inner, self.text);
        self.span(TAG_TEXT, start, self.text.len() as u32);
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
            // An ASCII value with quoted-pairs is unescaped straight into the answer's text,
            // without the String `value()` allocates (js/BENCHMARKS.md, "Measured decisions").
            match p.escaped_ascii() {
                Some(inner) => out.unescaped(inner),
                None => {
                    let value: Cow<'_, str> = p.value();
                    out.str(&value);
                }
            }
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
