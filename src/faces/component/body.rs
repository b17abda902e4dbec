//! The `body` interface: the core's three sans-io body readers as resources. Type conversion
//! only: every event and error comes from `crate::body`; the core's feed driver
//! ([`Feed`]) keeps the tail each reader left unconsumed (the window's head, see
//! `wit/reqparse.wit`), and this module turns borrowed slices into spans of the window.

use alloc::vec::Vec;
use core::cell::RefCell;

use crate::body::{chunked, form, multipart, Feed};
use crate::bytes::offset_in;
use crate::{disposition, query};

use super::exports::reqparse::http::body as wit;
use super::{query_profile, Component};

/// wasm32 lengths fit a `u32`; saturate rather than wrap if one ever did not.
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Where `part` lies in `window`, when it is a slice of it.
fn locate(window: &[u8], part: &[u8]) -> Option<wit::Span> {
    offset_in(window, part).map(|start| wit::Span {
        start: count(start),
        len: count(part.len()),
    })
}

/// The span of `part`, a slice of the window by the core's signatures (its events borrow the
/// input); an empty span for anything else (only an empty constant can be).
fn span(window: &[u8], part: &[u8]) -> wit::Span {
    locate(window, part).unwrap_or(wit::Span { start: 0, len: 0 })
}

/// Text borrowed from the window as a span of it; anything else (decoded into a scratch
/// buffer, unescaped, replaced) appended to `decoded`.
fn text(window: &[u8], decoded: &mut Vec<u8>, s: &str) -> wit::Text {
    if let Some(at) = locate(window, s.as_bytes()) {
        return wit::Text::Window(at);
    }
    let start = count(decoded.len());
    decoded.extend_from_slice(s.as_bytes());
    wit::Text::Decoded(wit::Span {
        start,
        len: count(s.len()),
    })
}

/// Bytes borrowed from the window as a span of it; anything else (built by the reader)
/// appended to `decoded`.
fn bytes(window: &[u8], decoded: &mut Vec<u8>, b: &[u8]) -> wit::Bytes {
    if let Some(at) = locate(window, b) {
        return wit::Bytes::Window(at);
    }
    let start = count(decoded.len());
    decoded.extend_from_slice(b);
    wit::Bytes::Decoded(wit::Span {
        start,
        len: count(b.len()),
    })
}

/// A limit as the WIT record gives it (`none`: the crate's default): a `usize` limit as a
/// `u32`, a `u64` one as it is.
trait FromWit: Sized {
    type Wit;
    fn or(given: Option<Self::Wit>, default: Self) -> Self;
}

impl FromWit for usize {
    type Wit = u32;
    fn or(given: Option<u32>, default: usize) -> usize {
        given
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(default)
    }
}

impl FromWit for u64 {
    type Wit = u64;
    fn or(given: Option<u64>, default: u64) -> u64 {
        given.unwrap_or(default)
    }
}

/// A reader's limits from its WIT record and its limit enum's conversion to the WIT's, from
/// the reader's table in `crate::body::limits` (a WIT record or enum that lacks a row of the
/// table does not build).
macro_rules! limit_conversions {
    (($reader:ident, $limits:ident, $limit:ident, $record:ident, $to_wit:ident)
     { $( $(#[$doc:meta])* $field:ident ($variant:ident, $wit:ident): $ty:ty = $default:expr ),+ $(,)? }
     { $( $(#[$extra_doc:meta])* $extra:ident ($extra_wit:ident) = $extra_name:literal ),* $(,)? }) => {
        fn $record(limits: wit::$limits) -> $reader::$limits {
            let d = $reader::$limits::default();
            $reader::$limits { $( $field: <$ty>::or(limits.$field, d.$field), )+ }
        }

        fn $to_wit(limit: $reader::$limit) -> wit::$limit {
            match limit {
                $( $reader::$limit::$variant => wit::$limit::$wit, )+
                $( $reader::$limit::$extra => wit::$limit::$extra_wit, )*
            }
        }
    };
}

crate::body::limits::every_reader!(limit_conversions);

/// What one step of a reader found.
#[derive(Clone, Copy)]
enum Found {
    /// An event (converted and kept by the step).
    Event,
    /// The end event: nothing after it is the body's.
    End,
    /// Nothing: the reader needs more input.
    More,
    /// An event after which the feed stops, holding the rest of the window (a multipart
    /// `part` in `feed-to-part`).
    Pause,
}

/// A core reader with its window and its final error: what each resource holds.
struct Reader<C, E> {
    core: C,
    /// The tail the reader did not consume (the core's limits bound it: an incomplete line,
    /// pair or header block, or a delimiter's length minus one), which the next feed's bytes
    /// follow.
    window: Feed,
    failed: Option<E>,
}

impl<C, E: Copy> Reader<C, E> {
    fn new(core: C) -> RefCell<Self> {
        RefCell::new(Reader {
            core,
            window: Feed::default(),
            failed: None,
        })
    }

    /// One feed: after an error (final, as in the core) the same error again; otherwise
    /// `step(core, window, at)` is run from the start of the window until it needs more
    /// input, ends, fails or pauses. `step` decodes from `at`, keeps the event it converted,
    /// and answers the bytes it consumed. Returns the bytes of the window not consumed and the
    /// error.
    fn feed(
        &mut self,
        bytes: Vec<u8>,
        mut step: impl FnMut(&mut C, &[u8], usize) -> Result<(usize, Found), E>,
    ) -> (u32, Option<E>) {
        if let Some(e) = self.failed {
            return (count(bytes.len()), Some(e));
        }
        let core = &mut self.core;
        // With nothing held the lifted list is the window itself: no copy.
        let (held, error) = self.window.window(&bytes, |input| {
            let mut at = 0;
            let (keep, error) = loop {
                match step(core, input, at) {
                    Err(e) => break (false, Some(e)),
                    Ok((used, found)) => {
                        at += used;
                        match found {
                            Found::Event => {}
                            Found::End => break (false, None),
                            Found::More | Found::Pause => break (true, None),
                        }
                    }
                }
            };
            let at = at.min(input.len());
            (at, keep, (count(input.len() - at), error))
        });
        self.failed = error;
        (held, error)
    }
}

/// The window from `at` on.
fn from(input: &[u8], at: usize) -> &[u8] {
    input.get(at..).unwrap_or_default()
}

impl wit::Guest for Component {
    type ChunkedDecoder = ChunkedDecoder;
    type FormReader = FormReader;
    type MultipartReader = MultipartReader;

    fn boundary(content_type: Vec<u8>) -> Result<Vec<u8>, wit::MultipartError> {
        multipart::boundary(&content_type)
            .map(<[u8]>::to_vec)
            .map_err(multipart_error)
    }
}

// ---- chunked ----

/// The `chunked-decoder` resource.
pub struct ChunkedDecoder(RefCell<Reader<chunked::ChunkedDecoder, chunked::ChunkedError>>);

fn chunked_error(e: chunked::ChunkedError) -> wit::ChunkedError {
    use chunked::ChunkedErrorKind as C;
    use wit::ChunkedErrorKind as W;
    let kind = match e.kind {
        C::EmptySize => W::EmptySize,
        C::InvalidSize => W::InvalidSize,
        C::SizeOverflow => W::SizeOverflow,
        C::InvalidExtension => W::InvalidExtension,
        C::BareCr => W::BareCr,
        C::BareLf => W::BareLf,
        C::MissingCrlf => W::MissingCrlf,
        C::InvalidTrailer => W::InvalidTrailer,
        C::UnexpectedEnd => W::UnexpectedEnd,
        C::Limit(limit) => W::Limit(chunked_limit(limit)),
    };
    wit::ChunkedError {
        kind,
        offset: e.offset,
        message: alloc::string::ToString::to_string(&e),
    }
}

impl wit::GuestChunkedDecoder for ChunkedDecoder {
    fn new(limits: wit::ChunkedLimits) -> Self {
        let limits = chunked_limits(limits);
        ChunkedDecoder(Reader::new(chunked::ChunkedDecoder::new(limits)))
    }

    fn feed(&self, bytes: Vec<u8>) -> wit::ChunkedFed {
        let mut events = Vec::new();
        let (held, error) = self.0.borrow_mut().feed(bytes, |core, input, at| {
            let step = core.decode(from(input, at))?;
            let (event, found) = match step.event {
                Some(chunked::Chunk::Data(d)) => {
                    (wit::ChunkedEvent::Data(span(input, d)), Found::Event)
                }
                Some(chunked::Chunk::Trailer { name, value }) => (
                    wit::ChunkedEvent::Trailer((span(input, name), span(input, value))),
                    Found::Event,
                ),
                Some(chunked::Chunk::End) => (wit::ChunkedEvent::End, Found::End),
                None => return Ok((step.consumed, Found::More)),
            };
            events.push(event);
            Ok((step.consumed, found))
        });
        wit::ChunkedFed {
            events,
            held,
            error: error.map(chunked_error),
        }
    }

    fn finish(&self) -> Result<(), wit::ChunkedError> {
        let this = self.0.borrow();
        match this.failed {
            Some(e) => Err(chunked_error(e)),
            None => this.core.finish().map_err(chunked_error),
        }
    }
}

// ---- form ----

/// The `form-reader` resource.
pub struct FormReader(RefCell<Reader<form::FormReader, form::FormError>>);

fn form_error(e: form::FormError) -> wit::FormError {
    use form::FormErrorKind as C;
    use query::QueryErrorKind as Q;
    use wit::{FormErrorKind as W, QueryErrorKind as WQ};
    let kind = match e.kind {
        C::Decode(kind) => W::Decode(match kind {
            Q::InvalidEscape => WQ::InvalidEscape,
            Q::InvalidUtf8 => WQ::InvalidUtf8,
            Q::TooManyPairs => WQ::TooManyPairs,
            Q::TooLarge => WQ::TooLarge,
        }),
        C::Limit(limit) => W::Limit(form_limit(limit)),
    };
    wit::FormError {
        kind,
        offset: e.offset,
        message: alloc::string::ToString::to_string(&e),
    }
}

impl wit::GuestFormReader for FormReader {
    fn new(profile: wit::QueryProfile, limits: wit::FormLimits) -> Self {
        let limits = form_limits(limits);
        FormReader(Reader::new(form::FormReader::new(
            query_profile(profile),
            limits,
        )))
    }

    fn feed(&self, bytes: Vec<u8>, eof: bool) -> wit::FormFed {
        let (mut events, mut decoded) = (Vec::new(), Vec::new());
        let (held, error) = self.0.borrow_mut().feed(bytes, |core, input, at| {
            let step = core.decode(from(input, at), eof)?;
            let (event, found) = match step.event {
                Some(form::FormEvent::Pair(p)) => {
                    let pair = wit::FormPair {
                        name: text(input, &mut decoded, p.name),
                        value: text(input, &mut decoded, p.value),
                        offset: p.offset,
                    };
                    (wit::FormEvent::Pair(pair), Found::Event)
                }
                Some(form::FormEvent::End) => (wit::FormEvent::End, Found::End),
                None => return Ok((step.consumed, Found::More)),
            };
            events.push(event);
            Ok((step.consumed, found))
        });
        wit::FormFed {
            events,
            held,
            decoded,
            error: error.map(form_error),
        }
    }
}

// ---- multipart ----

/// The `multipart-reader` resource.
pub struct MultipartReader(RefCell<Reader<multipart::MultipartReader, multipart::MultipartError>>);

fn disposition_kind(k: disposition::DispositionErrorKind) -> wit::DispositionErrorKind {
    use disposition::DispositionErrorKind as C;
    use wit::DispositionErrorKind as W;
    match k {
        C::TooLong => W::TooLong,
        C::TooManyParameters => W::TooManyParameters,
        C::SectionLimit => W::SectionLimit,
        C::MissingType => W::MissingType,
        C::QuotedType => W::QuotedType,
        C::TrailingSemicolon => W::TrailingSemicolon,
        C::EmptyParameter => W::EmptyParameter,
        C::InvalidName => W::InvalidName,
        C::MissingEquals => W::MissingEquals,
        C::MissingValue => W::MissingValue,
        C::UnterminatedQuote => W::UnterminatedQuote,
        C::InvalidQuotedChar => W::InvalidQuotedChar,
        C::TokenWithSpace => W::TokenWithSpace,
        C::Comma => W::Comma,
        C::UnexpectedChar => W::UnexpectedChar,
        C::NonAscii => W::NonAscii,
        C::InvalidUtf8 => W::InvalidUtf8,
        C::DuplicateParameter => W::DuplicateParameter,
        C::InvalidSize => W::InvalidSize,
        C::InvalidDate => W::InvalidDate,
    }
}

fn multipart_error(e: multipart::MultipartError) -> wit::MultipartError {
    use multipart::MultipartErrorKind as C;
    use wit::MultipartErrorKind as W;
    let kind = match e.kind {
        C::InvalidBoundary => W::InvalidBoundary,
        C::ExpectedBoundary => W::ExpectedBoundary,
        C::InvalidDelimiter => W::InvalidDelimiter,
        C::BareCr => W::BareCr,
        C::BareLf => W::BareLf,
        C::InvalidHeader => W::InvalidHeader,
        C::DuplicateHeader => W::DuplicateHeader,
        C::MissingDisposition => W::MissingDisposition,
        C::NotFormData => W::NotFormData,
        C::MissingName => W::MissingName,
        C::InvalidDisposition(kind) => W::InvalidDisposition(disposition_kind(kind)),
        C::TransferEncoding => W::TransferEncoding,
        C::AfterEnd => W::AfterEnd,
        C::UnexpectedEnd => W::UnexpectedEnd,
        C::Limit(limit) => W::Limit(multipart_limit(limit)),
        C::NotMultipart => W::NotMultipart,
        C::MissingBoundary => W::MissingBoundary,
        C::InvalidContentType => W::InvalidContentType,
    };
    wit::MultipartError {
        kind,
        offset: e.offset,
        message: alloc::string::ToString::to_string(&e),
        part: e.part.map(count),
    }
}

fn part(input: &[u8], decoded: &mut Vec<u8>, p: &multipart::Part<'_>) -> wit::Part {
    wit::Part {
        name: text(input, decoded, &p.name()),
        name_raw: span(input, p.name_bytes()),
        filename: p.filename().map(|f| wit::Filename {
            raw: span(input, f.raw()),
            effective: text(input, decoded, f.as_str()),
        }),
        content_type: p.content_type().map(|c| span(input, c)),
        mime_type: p.mime_type().map(|m| bytes(input, decoded, m.as_bytes())),
        header_block: span(input, p.header_block()),
        offset: p.offset(),
        index: count(p.index()),
    }
}

impl wit::GuestMultipartReader for MultipartReader {
    fn create(
        boundary: Vec<u8>,
        profile: wit::MultipartProfile,
        limits: wit::MultipartLimits,
    ) -> Result<wit::MultipartReader, wit::MultipartError> {
        let limits = multipart_limits(limits);
        let profile = match profile {
            wit::MultipartProfile::Fetch => multipart::Profile::Fetch,
            wit::MultipartProfile::Strict => multipart::Profile::Strict,
            wit::MultipartProfile::Lenient => multipart::Profile::Lenient,
        };
        let core =
            multipart::MultipartReader::new(&boundary, profile, limits).map_err(multipart_error)?;
        Ok(wit::MultipartReader::new(MultipartReader(Reader::new(
            core,
        ))))
    }

    fn feed(&self, bytes: Vec<u8>, eof: bool) -> wit::MultipartFed {
        self.read(bytes, eof, Found::Event)
    }

    fn feed_to_part(&self, bytes: Vec<u8>, eof: bool) -> wit::MultipartFed {
        self.read(bytes, eof, Found::Pause)
    }

    fn limit_part(&self, max_bytes: u64) -> bool {
        let mut this = self.0.borrow_mut();
        this.failed.is_none() && this.core.limit_part(max_bytes)
    }

    fn skip_part(&self) -> bool {
        let mut this = self.0.borrow_mut();
        this.failed.is_none() && this.core.skip_part()
    }
}

impl MultipartReader {
    /// `feed` and `feed-to-part`: `at_part` is what a `part` event does to the feed (goes on,
    /// or pauses it).
    fn read(&self, bytes: Vec<u8>, eof: bool, at_part: Found) -> wit::MultipartFed {
        use multipart::MultipartEvent as C;
        use wit::MultipartEvent as W;
        let (mut events, mut decoded) = (Vec::new(), Vec::new());
        let (held, error) = self.0.borrow_mut().feed(bytes, |core, input, at| {
            let step = core.decode(from(input, at), eof)?;
            let (event, found) = match step.event {
                Some(C::Part(p)) => (W::Part(part(input, &mut decoded, &p)), at_part),
                Some(C::Data(d)) => (W::Data(span(input, d)), Found::Event),
                Some(C::PartEnd) => (W::PartEnd, Found::Event),
                Some(C::End) => (W::End, Found::End),
                None => return Ok((step.consumed, Found::More)),
            };
            events.push(event);
            Ok((step.consumed, found))
        });
        wit::MultipartFed {
            events,
            held,
            decoded,
            error: error.map(multipart_error),
        }
    }
}
