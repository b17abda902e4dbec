//! A request body as it arrives: the framing decoder (a length, or the core's chunked decoder)
//! and then the content reader the `Content-Type` asks for (the core's form or multipart
//! reader, or none), driven over whatever bytes the loop has, as a sans-io machine.
//!
//! [`BodyReader::feed`] takes the bytes after what it consumed so far and hands each event to a
//! callback, borrowing those bytes. What it does not consume (an incomplete chunk line; with a
//! `Content-Length`, the content reader's incomplete tail: a pair cut in two, what may begin a
//! multipart delimiter) stays with the caller and is fed again with what follows, exactly as
//! the core's readers ask. Chunk data is the one case where the bytes cannot stay with the
//! caller (the chunked decoder has consumed their framing), so the reader keeps that tail in
//! its own `carry`, bounded by the content reader's limits, and stitches it to the next chunk
//! with as few bytes copied as the content reader needs to get past it.
//!
//! Every split of a body into reads gives the same events (data may come in other pieces) and
//! the same errors: `tests/host_body.rs` proves it over every split of the vectors.

use crate::body::chunked::{Chunk, ChunkedDecoder, ChunkedError, ChunkedErrorKind, ChunkedLimit};
use crate::body::form::{FormError, FormEvent, FormPair, FormReader};
use crate::body::multipart::{self, MultipartError, MultipartEvent, MultipartReader, Part};

use super::http1::Framing;
use super::Limits;

/// One event of a request body, borrowing the bytes the loop read.
///
/// ```
/// use reqparse::host::BodyEvent;
/// let event = BodyEvent::Data(b"raw bytes");
/// assert!(matches!(event, BodyEvent::Data(d) if d.len() == 9));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyEvent<'a> {
    /// Bytes of a body the host does not parse (any other `Content-Type`, or
    /// [`Reading::Raw`](super::Reading::Raw)), after the transfer coding is removed.
    Data(&'a [u8]),
    /// The next pair of an `application/x-www-form-urlencoded` body.
    Pair(FormPair<'a>),
    /// A `multipart/form-data` part begins: its header block, parsed.
    Part(Part<'a>),
    /// Bytes of the current part's data.
    PartData(&'a [u8]),
    /// The current part's data is over.
    PartEnd,
    /// A trailer field of a chunked body.
    Trailer {
        /// The field name, as sent.
        name: &'a [u8],
        /// The field value.
        value: &'a [u8],
    },
    /// The content is malformed or over a limit of its reader; the rest of the body is read
    /// (its framing is intact) and discarded, and no other content event follows.
    Invalid(ContentError),
    /// The body is over: this many bytes after the transfer coding. Always the last event of a
    /// request that has a body.
    End {
        /// Transfer-decoded body bytes.
        size: u64,
    },
}

/// Why a body's content (not its framing) was refused; the framing was intact, so the
/// connection can stay open.
///
/// ```
/// use reqparse::host::ContentError;
/// use reqparse::body::multipart::{MultipartError, MultipartErrorKind};
/// let e = ContentError::Multipart(MultipartError { kind: MultipartErrorKind::UnexpectedEnd, offset: 4, part: Some(0) });
/// assert_eq!(e.offset(), 4);
/// assert_eq!(e.to_string(), "multipart body: multipart body ended early at byte 4 (part 0)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContentError {
    /// An urlencoded body.
    Form(FormError),
    /// A multipart body.
    Multipart(MultipartError),
    /// A `multipart/form-data` `Content-Type` without a usable boundary; the offset is into
    /// the header value.
    ContentType(MultipartError),
}

impl ContentError {
    /// The byte offset in the (transfer-decoded) body where reading stopped (in the header
    /// value for [`ContentError::ContentType`]).
    ///
    /// ```
    /// use reqparse::host::ContentError;
    /// use reqparse::body::form::{FormError, FormErrorKind, FormLimit};
    /// let e = ContentError::Form(FormError { kind: FormErrorKind::Limit(FormLimit::Pairs), offset: 9 });
    /// assert_eq!(e.offset(), 9);
    /// ```
    pub fn offset(&self) -> u64 {
        match self {
            ContentError::Form(e) => e.offset,
            ContentError::Multipart(e) | ContentError::ContentType(e) => e.offset,
        }
    }
}

impl core::fmt::Display for ContentError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ContentError::Form(e) => write!(f, "form body: {e}"),
            ContentError::Multipart(e) => match e.part {
                Some(i) => write!(f, "multipart body: {e} (part {i})"),
                None => write!(f, "multipart body: {e}"),
            },
            ContentError::ContentType(e) => write!(f, "multipart Content-Type: {e}"),
        }
    }
}

impl std::error::Error for ContentError {}

/// Why a body's framing failed: the connection cannot find the next request and closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FramingError {
    Chunked(ChunkedError),
}

impl FramingError {
    /// 413 for a body over its size limit, else 400.
    pub(crate) fn status(self) -> (u16, &'static str) {
        match self {
            FramingError::Chunked(ChunkedError {
                kind: ChunkedErrorKind::Limit(ChunkedLimit::BodyBytes),
                ..
            }) => (413, "Content Too Large"),
            FramingError::Chunked(_) => (400, "Bad Request"),
        }
    }
}

impl core::fmt::Display for FramingError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (code, reason) = self.status();
        match self {
            FramingError::Chunked(e) => write!(f, "{code} {reason}: {e}"),
        }
    }
}

/// Which reader a body's content goes through.
#[derive(Debug)]
enum Content {
    Raw,
    Form(FormReader),
    /// Boxed: the reader holds its delimiter searcher.
    Multipart(Box<MultipartReader>),
    /// Failed or finished: the rest is discarded.
    Discard,
}

/// Whether `feed` reached the end of the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fed {
    /// More body bytes are needed.
    More,
    /// The body is over; bytes after `consumed` belong to the next request.
    Done,
}

#[derive(Debug)]
enum Transfer {
    Length { left: u64 },
    Chunked(ChunkedDecoder),
}

/// The body machine of one request (see the module documentation).
#[derive(Debug)]
pub(crate) struct BodyReader {
    transfer: Transfer,
    content: Content,
    /// Content bytes from chunks the content reader has not consumed yet (chunked only).
    carry: Vec<u8>,
    /// The most `carry` may hold: the content reader's longest incomplete tail.
    max_carry: usize,
    /// Transfer-decoded bytes so far.
    size: u64,
    /// The content reader could not start (a bad boundary): the first event says so.
    invalid: Option<ContentError>,
}

/// What a content reader needs to know from the head.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ContentKind<'a> {
    Raw,
    Form,
    /// The boundary from the `Content-Type`.
    Multipart(&'a [u8]),
}

/// What a `Content-Type` names, as far as the shim's readers care: its essence (the media
/// type before any parameter), compared ignoring case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MediaType {
    /// `application/x-www-form-urlencoded`.
    Form,
    /// `multipart/form-data`.
    Multipart,
    /// Anything else, or no `Content-Type`.
    Other,
}

impl MediaType {
    pub(crate) fn of(content_type: Option<&[u8]>) -> MediaType {
        let essence = content_type
            .and_then(|ct| ct.split(|&b| b == b';').next())
            .unwrap_or_default()
            .trim_ascii();
        if essence.eq_ignore_ascii_case(b"application/x-www-form-urlencoded") {
            MediaType::Form
        } else if essence.eq_ignore_ascii_case(b"multipart/form-data") {
            MediaType::Multipart
        } else {
            MediaType::Other
        }
    }
}

impl<'a> ContentKind<'a> {
    /// Reads the `Content-Type`: urlencoded and multipart/form-data are parsed, anything else
    /// is raw. A multipart type without a valid boundary is an error in the header value.
    pub(crate) fn of(content_type: Option<&'a [u8]>) -> Result<ContentKind<'a>, MultipartError> {
        match MediaType::of(content_type) {
            MediaType::Form => Ok(ContentKind::Form),
            MediaType::Multipart => {
                multipart::boundary(content_type.unwrap_or_default()).map(ContentKind::Multipart)
            }
            MediaType::Other => Ok(ContentKind::Raw),
        }
    }
}

impl BodyReader {
    /// A reader for a body framed by `framing` whose content is `kind`. A content reader that
    /// cannot start (a bad boundary) makes the first event [`BodyEvent::Invalid`].
    pub(crate) fn new(
        framing: Framing,
        kind: Result<ContentKind<'_>, MultipartError>,
        limits: &Limits,
    ) -> BodyReader {
        let transfer = match framing {
            Framing::Chunked => Transfer::Chunked(ChunkedDecoder::new(limits.chunked_limits())),
            Framing::Length(n) => Transfer::Length { left: n },
            Framing::None => Transfer::Length { left: 0 },
        };
        let mut error = None;
        let (content, max_carry) = match kind {
            Ok(ContentKind::Raw) => (Content::Raw, 0),
            Ok(ContentKind::Form) => (
                Content::Form(FormReader::new(limits.form_profile, limits.form_limits())),
                limits.form_tail(),
            ),
            Ok(ContentKind::Multipart(boundary)) => {
                match MultipartReader::new(
                    boundary,
                    limits.multipart_profile,
                    limits.multipart_limits(),
                ) {
                    Ok(r) => (Content::Multipart(Box::new(r)), limits.multipart_tail()),
                    Err(e) => {
                        error = Some(ContentError::Multipart(e));
                        (Content::Discard, 0)
                    }
                }
            }
            Err(e) => {
                error = Some(ContentError::ContentType(e));
                (Content::Discard, 0)
            }
        };
        BodyReader {
            transfer,
            content,
            carry: Vec::new(),
            max_carry,
            size: 0,
            invalid: error,
        }
    }

    /// Transfer-decoded body bytes so far.
    pub(crate) fn size(&self) -> u64 {
        self.size
    }

    /// Reads `input` (the bytes after what was consumed so far; `eof`: the peer sends no
    /// more) as far as it goes, handing every event to `on`. Returns how many bytes of `input`
    /// were consumed and whether the body is over. A framing error is final.
    pub(crate) fn feed(
        &mut self,
        input: &[u8],
        on: &mut dyn FnMut(BodyEvent<'_>),
    ) -> Result<(usize, Fed), FramingError> {
        if let Some(e) = self.invalid.take() {
            on(BodyEvent::Invalid(e));
        }
        match &mut self.transfer {
            Transfer::Length { left } => {
                let n = usize::try_from(*left)
                    .unwrap_or(usize::MAX)
                    .min(input.len());
                let last = n as u64 == *left;
                let used = content_feed(&mut self.content, &input[..n], last, on);
                *left -= used as u64;
                self.size += used as u64;
                let fed = if *left == 0 { Fed::Done } else { Fed::More };
                Ok((used, fed))
            }
            Transfer::Chunked(decoder) => {
                let mut consumed = 0;
                loop {
                    let step = decoder
                        .decode(&input[consumed..])
                        .map_err(FramingError::Chunked)?;
                    consumed += step.consumed;
                    match step.event {
                        Some(Chunk::Data(data)) => {
                            self.size += data.len() as u64;
                            chunk_feed(
                                &mut self.content,
                                &mut self.carry,
                                self.max_carry,
                                data,
                                on,
                            );
                        }
                        Some(Chunk::Trailer { name, value }) => {
                            on(BodyEvent::Trailer { name, value })
                        }
                        Some(Chunk::End) => {
                            let carry = core::mem::take(&mut self.carry);
                            let used = content_feed(&mut self.content, &carry, true, on);
                            debug_assert_eq!(used, carry.len(), "eof: everything is consumed");
                            return Ok((consumed, Fed::Done));
                        }
                        None => return Ok((consumed, Fed::More)),
                    }
                }
            }
        }
    }
}

/// Feeds one piece of chunk data: straight to the content reader when nothing is carried,
/// else stitched to the carry (see the module documentation). What the reader leaves of it is
/// carried, up to `max_carry` bytes; past that the content reader has failed its own limit.
fn chunk_feed(
    content: &mut Content,
    carry: &mut Vec<u8>,
    max_carry: usize,
    mut data: &[u8],
    on: &mut dyn FnMut(BodyEvent<'_>),
) {
    while !carry.is_empty() && !data.is_empty() {
        let old = carry.len();
        // Copy no more than the content reader might need to get past the carried bytes.
        let take = data.len().min(old.max(64).saturating_mul(2));
        carry.extend_from_slice(&data[..take]);
        let used = content_feed(content, carry, false, on);
        if used >= old {
            // The carried bytes are behind the reader: go on from `data` itself.
            carry.clear();
            data = &data[used - old..];
            break;
        }
        carry.drain(..used);
        data = &data[take..];
        if carry.len() > max_carry {
            return overflow(content, on);
        }
    }
    if carry.is_empty() && !data.is_empty() {
        let used = content_feed(content, data, false, on);
        carry.extend_from_slice(&data[used..]);
        if carry.len() > max_carry {
            overflow(content, on);
        }
    }
}

/// A tail longer than any the content reader's limits allow: a broken invariant (the reader
/// refuses a tail over its limits itself). Reported, not a panic.
fn overflow(content: &mut Content, on: &mut dyn FnMut(BodyEvent<'_>)) {
    debug_assert!(false, "content reader kept a tail over its limits");
    *content = Content::Discard;
    on(BodyEvent::Invalid(ContentError::Form(FormError {
        kind: crate::body::form::FormErrorKind::Limit(crate::body::form::FormLimit::ValueBytes),
        offset: 0,
    })));
}

/// Runs the content reader over `input` until it needs more; returns the bytes it consumed.
/// With `eof` (the body ends with `input`) it consumes everything.
fn content_feed(
    content: &mut Content,
    input: &[u8],
    eof: bool,
    on: &mut dyn FnMut(BodyEvent<'_>),
) -> usize {
    let mut consumed = 0;
    loop {
        let rest = &input[consumed..];
        match content {
            Content::Raw => {
                if !rest.is_empty() {
                    on(BodyEvent::Data(rest));
                }
                return input.len();
            }
            Content::Discard => return input.len(),
            Content::Form(reader) => match reader.decode(rest, eof) {
                Ok(step) => {
                    consumed += step.consumed;
                    match step.event {
                        Some(FormEvent::Pair(pair)) => on(BodyEvent::Pair(pair)),
                        Some(FormEvent::End) => {
                            *content = Content::Discard;
                        }
                        None => return consumed,
                    }
                }
                Err(e) => {
                    *content = Content::Discard;
                    on(BodyEvent::Invalid(ContentError::Form(e)));
                }
            },
            Content::Multipart(reader) => match reader.decode(rest, eof) {
                Ok(step) => {
                    consumed += step.consumed;
                    match step.event {
                        Some(MultipartEvent::Part(part)) => on(BodyEvent::Part(part)),
                        Some(MultipartEvent::Data(data)) => on(BodyEvent::PartData(data)),
                        Some(MultipartEvent::PartEnd) => on(BodyEvent::PartEnd),
                        Some(MultipartEvent::End) => {
                            *content = Content::Discard;
                        }
                        None => return consumed,
                    }
                }
                Err(e) => {
                    *content = Content::Discard;
                    on(BodyEvent::Invalid(ContentError::Multipart(e)));
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::multipart::{write, WritePart};
    use proptest::prelude::*;

    /// Events flattened to owned values, data pieces joined: the same body in other pieces
    /// gives the same list.
    fn collect(reader: &mut BodyReader, reads: &[&[u8]]) -> (Vec<String>, Option<FramingError>) {
        let mut events: Vec<String> = Vec::new();
        let mut held: Vec<u8> = Vec::new();
        let mut on = |event: BodyEvent<'_>| {
            let text = match event {
                BodyEvent::Data(d) | BodyEvent::PartData(d) => {
                    let d = String::from_utf8_lossy(d).into_owned();
                    // Join data pieces: only their concatenation is invariant.
                    if let Some(last) = events.last_mut().filter(|l| l.starts_with("data:")) {
                        last.push_str(&d);
                        return;
                    }
                    format!("data:{d}")
                }
                BodyEvent::Pair(p) => format!("pair:{}={}@{}", p.name, p.value, p.offset),
                BodyEvent::Part(p) => format!(
                    "part:{}:{:?}",
                    p.name(),
                    p.filename().map(|f| f.into_cow().into_owned())
                ),
                BodyEvent::PartEnd => "end-part".into(),
                BodyEvent::Trailer { name, value } => {
                    format!(
                        "trailer:{}={}",
                        String::from_utf8_lossy(name),
                        String::from_utf8_lossy(value)
                    )
                }
                BodyEvent::Invalid(e) => format!("invalid:{e}"),
                BodyEvent::End { size } => format!("end:{size}"),
            };
            events.push(text);
        };
        for read in reads {
            // As the loop does: what was not consumed is fed again, before the new bytes.
            held.extend_from_slice(read);
            match reader.feed(&held, &mut on) {
                Ok((used, fed)) => {
                    held.drain(..used);
                    if fed == Fed::Done {
                        on(BodyEvent::End {
                            size: reader.size(),
                        });
                        break;
                    }
                }
                Err(e) => return (events, Some(e)),
            }
        }
        (events, None)
    }

    fn chunked(body: &[u8], sizes: &[usize]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut rest = body;
        let mut i = 0;
        while !rest.is_empty() {
            let n = sizes
                .get(i % sizes.len().max(1))
                .copied()
                .unwrap_or(7)
                .clamp(1, rest.len());
            out.extend_from_slice(format!("{n:x}\r\n").as_bytes());
            out.extend_from_slice(&rest[..n]);
            out.extend_from_slice(b"\r\n");
            rest = &rest[n..];
            i += 1;
        }
        out.extend_from_slice(b"0\r\nX-Sum: 1\r\n\r\n");
        out
    }

    fn reader(framing: Framing, content_type: &[u8]) -> BodyReader {
        BodyReader::new(
            framing,
            ContentKind::of(Some(content_type)),
            &Limits::default(),
        )
    }

    fn splits(wire: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (wire.len() + 1)).collect();
        cuts.sort_unstable();
        let mut reads = Vec::new();
        let mut at = 0;
        for c in cuts.into_iter().chain([wire.len()]) {
            reads.push(wire[at..c].to_vec());
            at = c;
        }
        reads
    }

    const MULTIPART: &[u8] = b"multipart/form-data; boundary=XyZ";

    fn multipart_body(values: &[String]) -> Vec<u8> {
        let parts: Vec<WritePart<'_>> = values
            .iter()
            .enumerate()
            .map(|(i, v)| WritePart {
                name: if i % 2 == 0 { "field" } else { "file" },
                filename: (i % 2 == 1).then_some("a\\b.txt"),
                content_type: None,
                data: v.as_bytes(),
            })
            .collect();
        write("XyZ", &parts).unwrap()
    }

    proptest! {
        #[test]
        fn chunked_multipart_is_split_invariant(
            values in prop::collection::vec("[a-z\r\n-]{0,40}", 0..4),
            sizes in prop::collection::vec(1usize..9, 1..4),
            cuts in prop::collection::vec(any::<usize>(), 0..6),
        ) {
            let body = multipart_body(&values);
            let whole = collect(&mut reader(Framing::Length(body.len() as u64), MULTIPART), &[&body]);
            let wire = chunked(&body, &sizes);
            let reads = splits(&wire, &cuts);
            let reads: Vec<&[u8]> = reads.iter().map(Vec::as_slice).collect();
            let (mut events, err) = collect(&mut reader(Framing::Chunked, MULTIPART), &reads);
            prop_assert_eq!(err, None);
            // The chunked body has a trailer; otherwise the same events.
            prop_assert_eq!(events.iter().filter(|e| e.starts_with("trailer:")).count(), 1);
            events.retain(|e| !e.starts_with("trailer:"));
            prop_assert_eq!(events, whole.0);
        }

        #[test]
        fn length_form_is_split_invariant(
            body in "[a-z=&%+2]{0,60}",
            cuts in prop::collection::vec(any::<usize>(), 0..6),
        ) {
            let form = b"application/x-www-form-urlencoded";
            let n = body.len() as u64;
            let whole = collect(&mut reader(Framing::Length(n), form), &[body.as_bytes()]);
            let reads = splits(body.as_bytes(), &cuts);
            let reads: Vec<&[u8]> = reads.iter().map(Vec::as_slice).collect();
            prop_assert_eq!(collect(&mut reader(Framing::Length(n), form), &reads), whole.clone());
            let wire = chunked(body.as_bytes(), &[3]);
            let reads = splits(&wire, &cuts);
            let reads: Vec<&[u8]> = reads.iter().map(Vec::as_slice).collect();
            let (mut events, err) = collect(&mut reader(Framing::Chunked, form), &reads);
            events.retain(|e| !e.starts_with("trailer:"));
            prop_assert_eq!((events, err), whole);
        }
    }

    #[test]
    fn every_one_byte_read_of_a_chunked_upload() {
        let body = multipart_body(&[
            "hello".into(),
            "file\r\n--XyY-near-miss\r\n-\r\n--Xy".into(),
        ]);
        let whole = collect(
            &mut reader(Framing::Length(body.len() as u64), MULTIPART),
            &[&body],
        );
        let wire = chunked(&body, &[5, 1, 13]);
        let reads: Vec<&[u8]> = wire.chunks(1).collect();
        let (mut events, err) = collect(&mut reader(Framing::Chunked, MULTIPART), &reads);
        assert_eq!(err, None);
        events.retain(|e| !e.starts_with("trailer:"));
        assert_eq!(events, whole.0);
        assert!(
            whole.0.iter().any(|e| e.contains("near-miss")),
            "{:?}",
            whole.0
        );
    }

    #[test]
    fn outcomes_table() {
        // (source, framing, content type, wire, events, framing error)
        type Case<'a> = (&'a str, Framing, &'a [u8], &'a [u8], &'a [&'a str], bool);
        let cases: &[Case] = &[
            (
                "raw bytes by length",
                Framing::Length(3),
                b"text/plain",
                b"abcNEXT",
                &["data:abc", "end:3"],
                false,
            ),
            (
                "raw bytes chunked",
                Framing::Chunked,
                b"text/plain",
                b"3\r\nabc\r\n0\r\n\r\nNEXT",
                &["data:abc", "end:3"],
                false,
            ),
            (
                "form pairs",
                Framing::Length(9),
                b"application/x-www-form-urlencoded; charset=utf-8",
                b"a=1&b=%41",
                &["pair:a=1@0", "pair:b=A@4", "end:9"],
                false,
            ),
            (
                "RFC 7578 §4.1 a multipart type without boundary",
                Framing::Length(3),
                b"multipart/form-data",
                b"abc",
                &[
                    "invalid:multipart Content-Type: Content-Type without a boundary at byte 19",
                    "end:3",
                ],
                false,
            ),
            (
                "malformed multipart: the rest is read, framing intact",
                Framing::Length(8),
                MULTIPART,
                b"junk\r\n--",
                &[
                    "invalid:multipart body: body does not start with the boundary at byte 0",
                    "end:8",
                ],
                false,
            ),
            (
                "CVE-2025-55315 a lone LF in an extension",
                Framing::Chunked,
                b"text/plain",
                b"3;x\nabc\r\n0\r\n\r\n",
                &[],
                true,
            ),
            (
                "RFC 9112 §7.1 missing CRLF after data",
                Framing::Chunked,
                b"text/plain",
                b"3\r\nabcX\r\n0\r\n\r\n",
                &[],
                true,
            ),
        ];
        for &(source, framing, ct, wire, expect, framing_error) in cases {
            let (events, err) = collect(&mut reader(framing, ct), &[wire]);
            let events: Vec<&str> = events.iter().map(String::as_str).collect();
            assert_eq!(err.is_some(), framing_error, "{source}: {err:?}");
            if !framing_error {
                assert_eq!(events, expect, "{source}");
            }
        }
    }
}
