//! wasm-bindgen exports for the npm package (`js/`): type conversion only.
//!
//! Crossing the JS↔wasm boundary is the cost that matters, so strings do not cross one by one:
//!
//! - JS writes its input as UTF-8 (`Buffer#utf8Write`, like `TextEncoder.encodeInto`) into
//!   [`strings::rp_input`]'s reused buffer and passes the written length (the input is then
//!   valid UTF-8: lone surrogates became U+FFFD). [`strings::rp_disposition`] also takes the raw
//!   bytes of a `Uint8Array` header copied there as they are: those may be any bytes, read as
//!   the core reads header bytes (UTF-8 when valid, ISO-8859-1 otherwise).
//! - An export answers with a list of strings in reused buffers, described by the header at
//!   [`strings::rp_header`]: a `u32` span list of `(start, end)` pairs whose two top bits of
//!   `start` say where the string lives —
//!   `00` a slice of the caller's JS string (UTF-16 indices),
//!   `10` a slice of the text buffer (bytes; every span JS slices from it is ASCII, so JS
//!   reads the whole buffer once as Latin-1),
//!   `01` a slice of the UTF-16 buffer (code units), `11` a `null`.
//!   JS decodes each buffer at most once and slices it; the core's `query::decode_spans` already
//!   writes spans in this shape (its "decoded" bit is our `10`), so the common all-ASCII query
//!   passes through untouched.
//! - The header and buffers are global: JS reads a result fully before the next call.
//! - Profiles travel as their index in the core's `Profile::ALL`.
//! - Request bodies (`parseMultipart`, `parseForm`, `decodeChunked` in `js/lib/body.cjs`) are
//!   read through an [`body::RpBody`] handle with its own input buffer, header and event list,
//!   fed chunk by chunk: see [`body`].
//!
//! This module is the protocol's one definition: its numbers (header slots, tags, event words,
//! caps) are here, the string answers in [`strings`], the body handles in [`body`]. The
//! package's JS (`js/lib/wire.cjs`, and each topic in `js/lib/` for its own numbers) reads the
//! layout (header slots, tag bits, event words and fields, profile names in wire order, the
//! input cap) from [`rp_layout`] at load, and refuses to run unless [`rp_abi_version`] is the
//! [`ABI_VERSION`] it was written for: a stale `js/pkg` fails loudly instead of misreading every
//! answer.
//!
//! A panic here would trap and leave the instance unusable, so nothing below indexes, unwraps or
//! borrows without a fallback.
#![forbid(unsafe_code)]

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use crate::body::multipart::Profile as MultipartProfile;
use crate::{disposition, query};

// The string answers: queries, URIs, Content-Disposition (the span protocol, one global header).
mod strings;

// The body readers: one `RpBody` handle per body, fed chunk by chunk.
mod body;

/// The version of the protocol between these exports and the package's JS (`js/lib/`). Bump it
/// with every change the JS cannot follow by reading [`rp_layout`]: an export's arguments or
/// answer, what a slot or tag means (the numbers themselves are read from the layout).
/// Version 2: the body readers ([`body::RpBody`] and `rp_layout`'s `body`). Version 3: a
/// multipart handle made to wait at each part ([`FEED_PART`], `RpBody::resume`, the per-part
/// decisions), an error event's `part` and `status`.
const ABI_VERSION: u32 = 3;

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
    // The JS fast path (`wasmPairs` in js/lib/query.cjs): a span is the input's exactly when its
    // start is at most the mask.
    assert!(!TAG_MASK == (1 << TAG_SHIFT) - 1);
    assert!(NULL & TAG_MASK == TAG_NULL);
    // Every offset fits under the tag bits, into the input or into a buffer (which holds at
    // most the input's bytes plus one error message).
    assert!(2 * MAX_INPUT_BYTES <= !TAG_MASK as usize);
};

// ---- request bodies (see `body`) ----------------------------------------------------------------

/// Most bytes JS may feed at once (it splits larger chunks): wasm memory never shrinks.
const MAX_FEED: usize = 1 << 20;

/// Span tag of a string in the handle's text buffer (else it is in the input buffer).
const SPAN_TEXT: u32 = 1 << 31;

/// Event tags, each followed by its fixed number of words: its fields, [`EVENT_FIELDS`].
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

/// What follows each event's tag, field by field in the order `body.rs` writes them, with each
/// field's width in words: a span (start, end; a `null` span for what is absent) or a `u64`
/// (low, high word) takes two, the offsets of `data` into the input buffer one each.
/// [`rp_layout`] gives JS each event's words and each field's offset from the tag, so that
/// `js/lib/body.cjs` reads fields by name.
const EVENT_FIELDS: [(u32, &[(&str, u32)]); 7] = [
    (EV_DATA, &[("start", 1), ("end", 1)]),
    (
        EV_PART,
        &[
            ("name", 2),
            ("filename", 2),
            // The filename parameter's bytes as sent.
            ("filenameRaw", 2),
            ("contentType", 2),
            // `Part::mime_type`, serialized.
            ("mimeType", 2),
            ("filenameBasename", 2),
            ("filenamePortable", 2),
        ],
    ),
    (EV_PART_END, &[]),
    // The bytes consumed.
    (EV_END, &[("consumed", 2)]),
    (EV_PAIR, &[("name", 2), ("value", 2)]),
    (EV_TRAILER, &[("name", 2), ("value", 2)]),
    // `part`: the index of the part the error is in plus one, 0 for none (a `u64`);
    // `status`: the HTTP status it answers (RFC 9110 §15.5: 413 for a limit, else 400).
    (
        EV_ERROR,
        &[
            ("message", 2),
            ("kind", 2),
            ("offset", 2),
            ("part", 2),
            ("status", 1),
        ],
    ),
];

/// A body handle's header slots.
const B_EVENTS: usize = 0;
const B_EVENTS_LEN: usize = 1;
const B_TEXT: usize = 2;
const B_BUF: usize = 3;
/// 1 when [`body::RpBody::skip`] may take the next bytes: a multipart reader in a part's data,
/// holding nothing back.
const B_SKIP: usize = 4;
/// Where the bytes fed so far end in the input buffer, and the buffer's size: JS writes a chunk
/// that fits between them right after the tail and calls [`body::RpBody::feed`] alone, without
/// [`body::RpBody::reserve`] first (one wasm call per chunk, not two; the buffer only moves
/// when `reserve` grows it).
const B_LEN: usize = 5;
const B_CAP: usize = 6;
const BODY_SLOTS: [(&str, usize); 7] = [
    ("events", B_EVENTS),
    ("eventsLen", B_EVENTS_LEN),
    ("text", B_TEXT),
    ("buf", B_BUF),
    ("skip", B_SKIP),
    ("len", B_LEN),
    ("cap", B_CAP),
];

/// `feed`'s answers: more input wanted, the body ended, or the last event is an error; and,
/// from a multipart handle made to wait at each part, the last event is a part's header:
/// JS may decide about the part (`RpBody::limit_part`, `RpBody::skip_part`), then reads on
/// with `RpBody::resume` over what was fed.
const FEED_MORE: i32 = 0;
const FEED_END: i32 = 1;
const FEED_ERROR: i32 = -1;
const FEED_PART: i32 = 2;

const _: () = {
    let mut i = 0;
    while i < BODY_SLOTS.len() {
        assert!(BODY_SLOTS[i].1 == i);
        i += 1;
    }
    let mut i = 0;
    while i < EVENTS.len() {
        assert!(EVENTS[i].1 == i as u32 + 1);
        // Every event's fields are listed, in tag order.
        assert!(EVENT_FIELDS[i].0 == EVENTS[i].1);
        i += 1;
    }
    // Offsets into the input buffer (tail + one feed) and the text buffer stay below the tag.
    assert!(4 * MAX_FEED < SPAN_TEXT as usize);
    assert!(NULL & SPAN_TEXT != 0);
};

/// The wasm memory, for JS's views (an export named `memory` would clash with wasm-bindgen's).
#[wasm_bindgen]
pub fn rp_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The protocol version `js/lib/wire.cjs` checks at load (see [`ABI_VERSION`]).
#[wasm_bindgen]
pub fn rp_abi_version() -> u32 {
    ABI_VERSION
}

/// The protocol's numbers as JSON, read once by `js/lib/wire.cjs` at load:
/// `{"header": {slot: index}, "tagShift", "tags": {tag: value}, "maxInputLength",
/// "queryProfiles": [names in wire order], "dispositionProfiles": [...], "body": {"header":
/// {slot: index}, "events": {event: tag}, "words": {event: words after its tag}, "fields":
/// {event: {field: its first word's offset from the tag}}, "spanText", "null", "maxFeed",
/// "more", "end", "error", "part", "multipartProfiles": [...], "chunkedLimits": [names in
/// wire order], "formLimits": [...], "multipartLimits": [...]}}`.
#[wasm_bindgen]
pub fn rp_layout() -> String {
    let header = SLOTS.map(|(name, slot)| (name, slot as u32));
    let tags = TAGS.map(|(name, tag)| (name, tag >> TAG_SHIFT));
    let query = query::Profile::ALL.map(query::Profile::as_str);
    let disposition = disposition::Profile::ALL.map(disposition::Profile::as_str);
    let multipart = MultipartProfile::ALL.map(MultipartProfile::as_str);
    let body_header = BODY_SLOTS.map(|(name, slot)| (name, slot as u32));
    let (words, fields) = event_layout();
    // Every name is a plain ASCII identifier: nothing to escape.
    let body = format!(
        r#"{{"header":{{{}}},"events":{{{}}},"words":{{{words}}},"fields":{{{fields}}},"spanText":{SPAN_TEXT},"null":{NULL},"maxFeed":{MAX_FEED},"more":{FEED_MORE},"end":{FEED_END},"error":{FEED_ERROR},"part":{FEED_PART},"multipartProfiles":[{}],"chunkedLimits":[{}],"formLimits":[{}],"multipartLimits":[{}]}}"#,
        json_fields(&body_header),
        json_fields(&EVENTS),
        json_names(&multipart),
        json_names(body::CHUNKED_LIMITS),
        json_names(body::FORM_LIMITS),
        json_names(body::MULTIPART_LIMITS),
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

/// `"event":words,…` and `"event":{"field":offset,…},…` for [`rp_layout`], from
/// [`EVENT_FIELDS`]: a field's offset counts words from its event's tag.
fn event_layout() -> (String, String) {
    let mut words = Vec::new();
    let mut fields = Vec::new();
    for ((event, _), (_, list)) in EVENTS.iter().zip(EVENT_FIELDS.iter()) {
        let mut at = 1;
        let offsets: Vec<(&str, u32)> = list
            .iter()
            .map(|&(field, width)| {
                let offset = (field, at);
                at += width;
                offset
            })
            .collect();
        words.push((*event, at - 1));
        fields.push(format!(r#""{event}":{{{}}}"#, json_fields(&offsets)));
    }
    (json_fields(&words), fields.join(","))
}

/// `"name",…` for [`rp_layout`].
fn json_names(names: &[&str]) -> String {
    let names: Vec<String> = names.iter().map(|name| format!(r#""{name}""#)).collect();
    names.join(",")
}

/// The address of a buffer, as JS indexes wasm memory.
fn ptr<T>(v: &[T]) -> u32 {
    v.as_ptr() as usize as u32
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
