//! The body readers through the component (`body` interface): [`WasmChunkedDecoder`],
//! [`WasmFormReader`], [`WasmMultipartReader`], each a handle on the guest's resource that
//! takes the host's reads as they come and answers the native events, borrowing from what was
//! fed, and the native errors.
//!
//! One guest call per read: the read's bytes go in once and every event it completes comes
//! back as spans of the read (see `wit/reqparse.wit`), which this module turns back into
//! slices. The guest keeps the tail it could not consume yet (bounded by the reader's limits),
//! and so does the wrapper, so that a slice can borrow from it: a read that follows a held
//! tail is joined to it on the host (one copy of that read); the others are borrowed as they
//! are.
//!
//! The guards are every call's: each read is checked against
//! [`Limits::max_input_bytes`](super::Limits::max_input_bytes) before the guest sees it (feed a
//! long body in reads below it: the guest's memory then stays at about one read plus the
//! reader's bounded tail), each feed runs under the deadline and the memory cap, and a fault
//! drops the instance, after which the reader answers [`EngineErrorKind::StaleHandle`].

use super::bindings::exports::reqparse::http::body as wit;
use super::error::{EngineError, EngineErrorKind};
use super::handle::Handle;
use super::inspector::WasmInspector;
use wasmtime::component::ResourceAny;

mod chunked;
// Limits in, errors out: the WIT's types case for case.
mod convert;
mod detached;
mod form;
mod multipart;

pub use chunked::WasmChunkedDecoder;
pub use detached::{Detached, FormKind, MultipartKind};
pub use form::WasmFormReader;
pub use multipart::{WasmMultipartEvent, WasmMultipartReader, WasmPart};

/// What one feed gave: the events it completed, in order, and the error that stopped the
/// body, if any (after the events found before it; an error is final, as in the core).
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::body::chunked::{Chunk, ChunkedErrorKind, ChunkedLimits};
/// let mut decoder = inspector.chunked_decoder(ChunkedLimits::default())?;
/// let fed = decoder.feed(b"2\r\nhi\r\n0;\r\n")?;
/// assert_eq!(fed.events, [Chunk::Data(b"hi")]);
/// assert_eq!(fed.error.map(|e| (e.kind, e.offset)), Some((ChunkedErrorKind::InvalidExtension, 9)));
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fed<E, X> {
    /// The events, borrowing from what was fed.
    pub events: Vec<E>,
    /// The error that stopped the body.
    pub error: Option<X>,
}

/// A reader in the guest as the host holds it: its resource, with the inspector it lives in,
/// and the window over its reads. Each reader ([`WasmChunkedDecoder`], [`WasmFormReader`],
/// [`WasmMultipartReader`]) is one of these.
struct Held<'i> {
    handle: Handle<'i>,
    window: Window,
}

impl<'i> Held<'i> {
    /// A resource the guest just made, nothing read yet.
    fn new(inspector: &'i mut WasmInspector, resource: ResourceAny) -> Self {
        Held {
            handle: Handle::new(inspector, resource),
            window: Window::default(),
        }
    }

    /// One feed's events as the native reader gives them: the window advanced past what the
    /// guest consumed (`held` and `decoded` as the guest answered; the body goes on unless the
    /// feed `ended` it), then each of the guest's `events` resolved against it by `event`.
    fn events<'a, W, E>(
        &'a mut self,
        bytes: &'a [u8],
        (held, decoded): (u32, Vec<u8>),
        ended: bool,
        events: Vec<W>,
        event: impl Fn(Spans<'a>, W) -> Result<E, EngineError>,
    ) -> Result<Vec<E>, EngineError> {
        let spans = self.window.advance(bytes, held, decoded, !ended)?;
        events.into_iter().map(|e| event(spans, e)).collect()
    }
}

/// The host's side of the window (see `wit/reqparse.wit`): the tail the guest holds,
/// mirrored, and what the last feed's events borrow from.
#[derive(Default)]
struct Window {
    tail: Vec<u8>,
    /// The tail followed by the last read, when there was a tail.
    joined: Vec<u8>,
    /// The last feed's `decoded` buffer.
    decoded: Vec<u8>,
    /// Bytes of the body consumed so far.
    position: u64,
}

/// Resolves the guest's spans against one feed's window and decoded buffer.
#[derive(Clone, Copy)]
struct Spans<'a> {
    window: &'a [u8],
    decoded: &'a [u8],
}

fn invalid(what: &str) -> EngineError {
    EngineError::new(
        EngineErrorKind::InvalidAnswer,
        format!("the guest answered {what}"),
    )
}

impl Window {
    /// This feed's window (the tail, then `bytes`), after a guest call that left `held` of
    /// it unconsumed; keeps that tail for the next feed when the reader `goes_on`.
    fn advance<'a>(
        &'a mut self,
        bytes: &'a [u8],
        held: u32,
        decoded: Vec<u8>,
        goes_on: bool,
    ) -> Result<Spans<'a>, EngineError> {
        let window: &'a [u8] = if self.tail.is_empty() {
            bytes
        } else {
            self.joined.clear();
            self.joined.extend_from_slice(&self.tail);
            self.joined.extend_from_slice(bytes);
            &self.joined
        };
        let consumed = window
            .len()
            .checked_sub(held as usize)
            .ok_or_else(|| invalid("more held bytes than were fed"))?;
        self.position += consumed as u64;
        self.tail.clear();
        if goes_on {
            self.tail.extend_from_slice(&window[consumed..]);
        }
        self.decoded = decoded;
        Ok(Spans {
            window,
            decoded: &self.decoded,
        })
    }
}

impl<'a> Spans<'a> {
    fn span(self, s: wit::Span) -> Result<&'a [u8], EngineError> {
        let start = s.start as usize;
        self.window
            .get(start..start.saturating_add(s.len as usize))
            .ok_or_else(|| invalid("a span outside what was fed"))
    }

    fn bytes(self, b: wit::Bytes) -> Result<&'a [u8], EngineError> {
        let (source, s) = match b {
            wit::Bytes::Window(s) => (self.window, s),
            wit::Bytes::Decoded(s) => (self.decoded, s),
        };
        let start = s.start as usize;
        source
            .get(start..start.saturating_add(s.len as usize))
            .ok_or_else(|| invalid("a bytes span out of range"))
    }

    fn text(self, t: wit::Text) -> Result<&'a str, EngineError> {
        let (source, s) = match t {
            wit::Text::Window(s) => (self.window, s),
            wit::Text::Decoded(s) => (self.decoded, s),
        };
        let start = s.start as usize;
        let bytes = source
            .get(start..start.saturating_add(s.len as usize))
            .ok_or_else(|| invalid("a text span out of range"))?;
        std::str::from_utf8(bytes).map_err(|_| invalid("text that is not UTF-8"))
    }
}
