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

use std::borrow::Cow;

use super::bindings::exports::reqparse::http::body as wit;
use super::error::{EngineError, EngineErrorKind};
use super::handle::Handle;
use super::inspector::WasmInspector;
use crate::body::multipart::{Filename, MimeType};
use crate::body::{chunked, form, multipart};
use crate::query;

// Limits in, errors out: the WIT's types case for case.
mod convert;
use convert::{chunked_error, form_error, multipart_error};

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

// ---- chunked ----

/// A chunked body decoded in the guest (`chunked-decoder`); see [`ChunkedDecoder`] for the
/// events and errors.
///
/// [`ChunkedDecoder`]: crate::body::chunked::ChunkedDecoder
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::body::chunked::{Chunk, ChunkedLimits};
/// let mut decoder = inspector.chunked_decoder(ChunkedLimits::default())?;
/// // Reads split anywhere: the guest holds the incomplete size line.
/// assert_eq!(decoder.feed(b"5\r\nhel")?.events, [Chunk::Data(b"hel")]);
/// assert_eq!(decoder.feed(b"lo\r\n0\r")?.events, [Chunk::Data(b"lo")]);
/// assert_eq!(decoder.feed(b"\n\r\n")?.events, [Chunk::End]);
/// assert_eq!(decoder.finish()?, Ok(()));
/// assert_eq!(decoder.position(), 15);
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
pub struct WasmChunkedDecoder<'i> {
    handle: Handle<'i>,
    window: Window,
}

impl WasmInspector {
    /// `chunked-decoder`: a chunked body decoded in this inspector's instance.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::chunked::{ChunkedLimits, Chunk};
    /// let limits = ChunkedLimits { max_body_bytes: 4, ..ChunkedLimits::default() };
    /// let mut decoder = inspector.chunked_decoder(limits)?;
    /// let err = decoder.feed(b"5\r\nhello")?.error.unwrap();
    /// assert_eq!(err.to_string(), "chunked body over max_body_bytes at byte 0");
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn chunked_decoder(
        &mut self,
        limits: chunked::ChunkedLimits,
    ) -> Result<WasmChunkedDecoder<'_>, EngineError> {
        let limits = convert::chunked_limits(limits);
        let handle = self.call(0, |api, store| {
            api.reqparse_http_body()
                .chunked_decoder()
                .call_constructor(store, limits)
        })?;
        Ok(WasmChunkedDecoder {
            handle: Handle::new(self, handle),
            window: Window::default(),
        })
    }
}

impl WasmChunkedDecoder<'_> {
    /// Decodes what `bytes` (the next read) completes: data and trailers borrowed from the
    /// reads, as [`ChunkedDecoder::decode`](crate::body::chunked::ChunkedDecoder::decode) hands
    /// them out (data may come in other pieces).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::chunked::{Chunk, ChunkedLimits};
    /// let mut decoder = inspector.chunked_decoder(ChunkedLimits::default())?;
    /// let fed = decoder.feed(b"0\r\nExpires: never\r\n\r\n")?;
    /// assert_eq!(fed.events, [Chunk::Trailer { name: b"Expires", value: b"never" }, Chunk::End]);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn feed<'a>(
        &'a mut self,
        bytes: &'a [u8],
    ) -> Result<Fed<chunked::Chunk<'a>, chunked::ChunkedError>, EngineError> {
        let fed = self.handle.call(bytes.len(), |api, store, h| {
            api.reqparse_http_body()
                .chunked_decoder()
                .call_feed(store, h, bytes)
        })?;
        let ended =
            fed.error.is_some() || matches!(fed.events.last(), Some(wit::ChunkedEvent::End));
        let spans = self.window.advance(bytes, fed.held, Vec::new(), !ended)?;
        let events = fed
            .events
            .into_iter()
            .map(|event| {
                Ok(match event {
                    wit::ChunkedEvent::Data(d) => chunked::Chunk::Data(spans.span(d)?),
                    wit::ChunkedEvent::Trailer((name, value)) => chunked::Chunk::Trailer {
                        name: spans.span(name)?,
                        value: spans.span(value)?,
                    },
                    wit::ChunkedEvent::End => chunked::Chunk::End,
                })
            })
            .collect::<Result<_, EngineError>>()?;
        Ok(Fed {
            events,
            error: fed.error.map(chunked_error),
        })
    }

    /// Says that the input has ended: an error unless the body was complete
    /// ([`ChunkedDecoder::finish`](crate::body::chunked::ChunkedDecoder::finish)).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::chunked::{ChunkedErrorKind, ChunkedLimits};
    /// let mut decoder = inspector.chunked_decoder(ChunkedLimits::default())?;
    /// decoder.feed(b"3\r\nab")?;
    /// let err = decoder.finish()?.unwrap_err();
    /// assert_eq!((err.kind, err.offset), (ChunkedErrorKind::UnexpectedEnd, 5));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn finish(&mut self) -> Result<Result<(), chunked::ChunkedError>, EngineError> {
        let done = self.handle.call(0, |api, store, h| {
            api.reqparse_http_body()
                .chunked_decoder()
                .call_finish(store, h)
        })?;
        Ok(done.map_err(chunked_error))
    }

    /// Bytes of the body consumed so far: the offset of the first byte not consumed.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let mut decoder = inspector.chunked_decoder(Default::default())?;
    /// decoder.feed(b"0\r\n\r\nGET / HTTP/1.1")?;
    /// assert_eq!(decoder.position(), 5); // the next request starts there
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.window.position
    }

    /// How many bytes the guest holds (not consumed yet, fed again with the next read).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let mut decoder = inspector.chunked_decoder(Default::default())?;
    /// decoder.feed(b"1F")?;
    /// assert_eq!(decoder.held(), 2);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn held(&self) -> usize {
        self.window.tail.len()
    }
}

// ---- form ----

/// A form-urlencoded body read in the guest (`form-reader`); see
/// [`FormReader`](crate::body::form::FormReader) for the events and errors.
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::body::form::{FormEvent, FormLimits};
/// use reqparse::query::Profile;
/// let mut reader = inspector.form_reader(Profile::Whatwg, FormLimits::default())?;
/// assert!(reader.feed(b"name=Jos", false)?.events.is_empty()); // held: the pair goes on
/// let fed = reader.feed(b"%C3%A9&q", true)?;
/// let FormEvent::Pair(pair) = fed.events[0] else { panic!() };
/// assert_eq!((pair.name, pair.value, pair.offset), ("name", "José", 0));
/// assert_eq!(fed.events.len(), 3); // then `q`, and the end
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
pub struct WasmFormReader<'i> {
    handle: Handle<'i>,
    window: Window,
}

impl WasmInspector {
    /// `form-reader`: a form body read in this inspector's instance.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::form::FormLimits;
    /// use reqparse::query::Profile;
    /// let mut reader = inspector.form_reader(Profile::Strict, FormLimits::default())?;
    /// let err = reader.feed(b"a=%zz", true)?.error.unwrap();
    /// assert_eq!(err.to_string(), "invalid percent escape at byte 2");
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn form_reader(
        &mut self,
        profile: query::Profile,
        limits: form::FormLimits,
    ) -> Result<WasmFormReader<'_>, EngineError> {
        let limits = convert::form_limits(limits);
        let handle = self.call(0, |api, store| {
            api.reqparse_http_body()
                .form_reader()
                .call_constructor(store, profile.into(), limits)
        })?;
        Ok(WasmFormReader {
            handle: Handle::new(self, handle),
            window: Window::default(),
        })
    }
}

impl WasmFormReader<'_> {
    /// Decodes the pairs `bytes` (the next read) completes; `eof`: no byte follows them.
    /// Names and values borrow from the reads when nothing needed decoding.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::form::FormEvent;
    /// let mut reader = inspector.form_reader(Default::default(), Default::default())?;
    /// let fed = reader.feed(b"&&a=1", true)?;
    /// assert!(matches!(fed.events[0], FormEvent::Pair(p) if p.offset == 2));
    /// assert_eq!(fed.events[1], FormEvent::End);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn feed<'a>(
        &'a mut self,
        bytes: &'a [u8],
        eof: bool,
    ) -> Result<Fed<form::FormEvent<'a>, form::FormError>, EngineError> {
        let fed = self.handle.call(bytes.len(), |api, store, h| {
            api.reqparse_http_body()
                .form_reader()
                .call_feed(store, h, bytes, eof)
        })?;
        let ended = fed.error.is_some() || matches!(fed.events.last(), Some(wit::FormEvent::End));
        let spans = self.window.advance(bytes, fed.held, fed.decoded, !ended)?;
        let events = fed
            .events
            .into_iter()
            .map(|event| {
                Ok(match event {
                    wit::FormEvent::Pair(p) => form::FormEvent::Pair(form::FormPair {
                        name: spans.text(p.name)?,
                        value: spans.text(p.value)?,
                        offset: p.offset,
                    }),
                    wit::FormEvent::End => form::FormEvent::End,
                })
            })
            .collect::<Result<_, EngineError>>()?;
        Ok(Fed {
            events,
            error: fed.error.map(form_error),
        })
    }

    /// Bytes of the body consumed so far.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let mut reader = inspector.form_reader(Default::default(), Default::default())?;
    /// reader.feed(b"a=1&b", false)?;
    /// assert_eq!((reader.position(), reader.held()), (4, 1));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.window.position
    }

    /// How many bytes the guest holds (a pair not yet ended).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let mut reader = inspector.form_reader(Default::default(), Default::default())?;
    /// reader.feed(b"a=1&bc", false)?;
    /// assert_eq!(reader.held(), 2);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn held(&self) -> usize {
        self.window.tail.len()
    }
}

// ---- multipart ----

/// A part's header block as the guest read it: [`Part`](crate::body::multipart::Part)'s
/// readings, borrowed from the reads (or from the feed's decoded text).
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::engine::WasmMultipartEvent;
/// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
/// let body = b"--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"C:\\x\\a.txt\"\r\n\
///     Content-Type: text/plain\r\n\r\n";
/// let fed = reader.feed(body, false)?;
/// let WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
/// assert_eq!(part.name(), "f");
/// assert_eq!(part.filename().unwrap().basename(), "a.txt");
/// assert_eq!(part.content_type(), Some(&b"text/plain"[..]));
/// assert_eq!((part.index(), part.offset()), (0, 5));
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WasmPart<'a> {
    name: &'a str,
    name_bytes: &'a [u8],
    filename: Option<(&'a str, &'a [u8])>,
    content_type: Option<&'a [u8]>,
    mime_type: Option<MimeType<'a>>,
    header_block: &'a [u8],
    offset: u64,
    index: usize,
}

impl<'a> WasmPart<'a> {
    /// The `name` parameter as the profile reads it ([`Part::name`](crate::body::multipart::Part::name)).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.name(), "a%22b"); // Fetch: as written
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The `name` parameter's bytes as written, without quotes.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.name_bytes(), b"a%22b");
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn name_bytes(&self) -> &'a [u8] {
        self.name_bytes
    }

    /// The filename, when the part has one: the effective name and the raw bytes.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.filename().map(|f| f.basename().to_owned()).as_deref(), Some("x.txt"));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn filename(&self) -> Option<Filename<'a>> {
        self.filename
            .map(|(effective, raw)| Filename::new(Cow::Borrowed(effective), raw))
    }

    /// The `Content-Type` value as sent, without surrounding whitespace.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.content_type(), Some(&b"text/plain"[..]));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn content_type(&self) -> Option<&'a [u8]> {
        self.content_type
    }

    /// The MIME type the Fetch Standard reads in the `Content-Type`
    /// ([`Part::mime_type`](crate::body::multipart::Part::mime_type)): its serialization, as
    /// the guest gave it (`mime-type`), with the essence and parameters read from it. `None`
    /// when the part has no `Content-Type` or one that is not a MIME type (then
    /// [`content_type`](Self::content_type) is `Some`).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=a.txt\r\n\
    ///     Content-Type: Text/Plain; Charset=\"utf-8\"\r\n\r\n";
    /// let fed = reader.feed(body, false)?;
    /// let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.content_type(), Some(&b"Text/Plain; Charset=\"utf-8\""[..])); // as sent
    /// let mime = part.mime_type().unwrap();
    /// assert_eq!(mime.as_bytes(), b"text/plain;charset=utf-8");
    /// assert_eq!(mime.essence(), "text/plain");
    /// assert_eq!(mime.parameter("charset").as_deref(), Some(&b"utf-8"[..]));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn mime_type(&self) -> Option<MimeType<'a>> {
        self.mime_type.clone()
    }

    /// The header block as sent, without the empty line that ends it.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert!(part.header_block().ends_with(b"text/plain\r\n"));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn header_block(&self) -> &'a [u8] {
        self.header_block
    }

    /// Where the header block starts, in bytes from the start of the body.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.offset(), 5);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The part's number, from 0.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.index(), 0);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }
}

/// An event of a multipart body read in the guest:
/// [`MultipartEvent`](crate::body::multipart::MultipartEvent) with a [`WasmPart`].
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::engine::WasmMultipartEvent;
/// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
/// assert_eq!(reader.feed(b"--b--", true)?.events, [WasmMultipartEvent::End]);
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WasmMultipartEvent<'a> {
    /// A part begins: its header block, parsed.
    Part(WasmPart<'a>),
    /// Bytes of the current part's data, in order.
    Data(&'a [u8]),
    /// The current part's data is over.
    PartEnd,
    /// The close delimiter has been read and the input has ended.
    End,
}

/// A multipart/form-data body read in the guest (`multipart-reader`); see
/// [`MultipartReader`](crate::body::multipart::MultipartReader) for the events and errors.
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::engine::WasmMultipartEvent;
/// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
/// let fed = reader.feed(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\nhi\r\n-", false)?;
/// assert_eq!(fed.events[1], WasmMultipartEvent::Data(b"hi"));
/// assert_eq!(reader.held(), 3); // what may begin the delimiter
/// let fed = reader.feed(b"-b--", true)?;
/// assert_eq!(fed.events, [WasmMultipartEvent::PartEnd, WasmMultipartEvent::End]);
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
pub struct WasmMultipartReader<'i> {
    handle: Handle<'i>,
    window: Window,
}

impl WasmInspector {
    /// `multipart-reader.create`: a multipart body read in this inspector's instance; the
    /// boundary's error as [`MultipartReader::new`](crate::body::multipart::MultipartReader::new)
    /// gives it.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::multipart::{MultipartErrorKind, Profile};
    /// let err = inspector.multipart_reader(b"a b ", Profile::Strict, Default::default())?.err().unwrap();
    /// assert_eq!((err.kind, err.offset), (MultipartErrorKind::InvalidBoundary, 3));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn multipart_reader(
        &mut self,
        boundary: &[u8],
        profile: multipart::Profile,
        limits: multipart::MultipartLimits,
    ) -> Result<Result<WasmMultipartReader<'_>, multipart::MultipartError>, EngineError> {
        let limits = convert::multipart_limits(limits);
        let profile = convert::multipart_profile(profile);
        let made = self.call(boundary.len(), |api, store| {
            api.reqparse_http_body()
                .multipart_reader()
                .call_create(store, boundary, profile, limits)
        })?;
        Ok(match made {
            Ok(handle) => Ok(WasmMultipartReader {
                handle: Handle::new(self, handle),
                window: Window::default(),
            }),
            Err(e) => Err(multipart_error(e)),
        })
    }

    /// `body.boundary`: the boundary of a `Content-Type` value
    /// ([`multipart::boundary`](crate::body::multipart::boundary)).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let b = inspector.multipart_boundary(b"multipart/form-data; boundary=\"a b\"")?;
    /// assert_eq!(b.unwrap(), b"a b");
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn multipart_boundary(
        &mut self,
        content_type: &[u8],
    ) -> Result<Result<Vec<u8>, multipart::MultipartError>, EngineError> {
        let found = self.call(content_type.len(), |api, store| {
            api.reqparse_http_body().call_boundary(store, content_type)
        })?;
        Ok(found.map_err(multipart_error))
    }
}

impl WasmMultipartReader<'_> {
    /// Reads what `bytes` (the next read) completes; `eof`: no byte follows them. Data
    /// borrows from the reads, as
    /// [`MultipartReader::decode`](crate::body::multipart::MultipartReader::decode) hands it
    /// out (perhaps in other pieces).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::multipart::MultipartErrorKind;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// let err = reader.feed(b"--b--junk", true)?.error.unwrap();
    /// assert_eq!((err.kind, err.offset), (MultipartErrorKind::AfterEnd, 5));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn feed<'a>(
        &'a mut self,
        bytes: &'a [u8],
        eof: bool,
    ) -> Result<Fed<WasmMultipartEvent<'a>, multipart::MultipartError>, EngineError> {
        self.read(bytes, eof, false)
    }

    /// [`feed`](Self::feed) that stops right after a [`WasmMultipartEvent::Part`] (`feed-to-part`),
    /// which is then the last event, so that the part can be decided about
    /// ([`limit_part`](Self::limit_part), [`skip_part`](Self::skip_part)) before any of its
    /// data is read, as after a native [`MultipartEvent::Part`](crate::body::multipart::MultipartEvent::Part).
    /// The rest of the read is held (in the guest, and copied here): feed on with the next
    /// read, or with no bytes (and the same `eof`) when there is none. A feed whose last event
    /// is another one stopped where `feed` stops.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::engine::WasmMultipartEvent;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n\
    ///     --b\r\nContent-Disposition: form-data; name=b\r\n\r\n2\r\n--b--";
    /// let fed = reader.feed_to_part(body, true)?;
    /// assert!(matches!(&fed.events[..], [WasmMultipartEvent::Part(p)] if p.name() == "a"));
    /// assert_eq!(reader.held(), 58); // the rest of the body
    /// // Nothing new to read: on with what is held, to the next part.
    /// let fed = reader.feed_to_part(b"", true)?;
    /// assert_eq!(fed.events[..2], [WasmMultipartEvent::Data(b"1"), WasmMultipartEvent::PartEnd]);
    /// assert!(matches!(&fed.events[2], WasmMultipartEvent::Part(p) if p.name() == "b"));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn feed_to_part<'a>(
        &'a mut self,
        bytes: &'a [u8],
        eof: bool,
    ) -> Result<Fed<WasmMultipartEvent<'a>, multipart::MultipartError>, EngineError> {
        self.read(bytes, eof, true)
    }

    /// `feed` or, `to_part`, `feed-to-part`.
    fn read<'a>(
        &'a mut self,
        bytes: &'a [u8],
        eof: bool,
        to_part: bool,
    ) -> Result<Fed<WasmMultipartEvent<'a>, multipart::MultipartError>, EngineError> {
        let fed = self.handle.call(bytes.len(), |api, store, h| {
            let reader = api.reqparse_http_body().multipart_reader();
            if to_part {
                reader.call_feed_to_part(store, h, bytes, eof)
            } else {
                reader.call_feed(store, h, bytes, eof)
            }
        })?;
        let ended =
            fed.error.is_some() || matches!(fed.events.last(), Some(wit::MultipartEvent::End));
        let spans = self.window.advance(bytes, fed.held, fed.decoded, !ended)?;
        let events = fed
            .events
            .into_iter()
            .map(|event| {
                Ok(match event {
                    wit::MultipartEvent::Part(p) => WasmMultipartEvent::Part(WasmPart {
                        name: spans.text(p.name)?,
                        name_bytes: spans.span(p.name_raw)?,
                        filename: match p.filename {
                            Some(f) => Some((spans.text(f.effective)?, spans.span(f.raw)?)),
                            None => None,
                        },
                        content_type: p.content_type.map(|c| spans.span(c)).transpose()?,
                        mime_type: match p.mime_type {
                            Some(m) => {
                                Some(MimeType::from_serialization(spans.bytes(m)?).ok_or_else(
                                    || invalid("a MIME type that is not a serialization"),
                                )?)
                            }
                            None => None,
                        },
                        header_block: spans.span(p.header_block)?,
                        offset: p.offset,
                        index: p.index as usize,
                    }),
                    wit::MultipartEvent::Data(d) => WasmMultipartEvent::Data(spans.span(d)?),
                    wit::MultipartEvent::PartEnd => WasmMultipartEvent::PartEnd,
                    wit::MultipartEvent::End => WasmMultipartEvent::End,
                })
            })
            .collect::<Result<_, EngineError>>()?;
        Ok(Fed {
            events,
            error: fed.error.map(multipart_error),
        })
    }

    /// Sets the current part's data limit (`limit-part`,
    /// [`MultipartReader::limit_part`](crate::body::multipart::MultipartReader::limit_part)):
    /// in place of `max_file_bytes` or `max_value_bytes`, lower or higher; data past it is
    /// refused as [`MultipartLimit::PartBytes`](crate::body::multipart::MultipartLimit::PartBytes).
    /// `Ok(false)`, and no change, outside a part (before its [`WasmMultipartEvent::Part`],
    /// after its [`WasmMultipartEvent::PartEnd`]) and after an error. Read to the part with
    /// [`feed_to_part`](Self::feed_to_part) to set it before any of its data is read.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartLimit};
    /// use reqparse::engine::WasmMultipartEvent;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// assert!(!reader.limit_part(8)?); // no part yet
    /// let body = b"--b\r\nContent-Disposition: form-data; name=avatar; filename=a.png\r\n\r\n\
    ///     0123456789\r\n--b--";
    /// let fed = reader.feed_to_part(body, true)?;
    /// let avatar = matches!(&fed.events[..], [WasmMultipartEvent::Part(p)] if p.name() == "avatar");
    /// if avatar {
    ///     assert!(reader.limit_part(8)?); // avatars are small: 8 bytes here
    /// }
    /// let err = reader.feed(b"", true)?.error.unwrap();
    /// assert_eq!(err.kind, MultipartErrorKind::Limit(MultipartLimit::PartBytes));
    /// assert_eq!((err.offset, err.part), (76, Some(0))); // data from 68: its 9th byte
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn limit_part(&mut self, max_bytes: u64) -> Result<bool, EngineError> {
        self.handle.call(0, |api, store, h| {
            api.reqparse_http_body()
                .multipart_reader()
                .call_limit_part(store, h, max_bytes)
        })
    }

    /// Skips the current part's data (`skip-part`,
    /// [`MultipartReader::skip_part`](crate::body::multipart::MultipartReader::skip_part)): it
    /// is read past without [`WasmMultipartEvent::Data`] events (its
    /// [`WasmMultipartEvent::PartEnd`] comes as usual), and the body is read on. `Ok(false)`,
    /// and no change, where [`limit_part`](Self::limit_part) answers it.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::engine::WasmMultipartEvent;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// let body = b"--b\r\nContent-Disposition: form-data; name=junk; filename=x.exe\r\n\r\n\
    ///     MZ...\r\n--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--";
    /// let fed = reader.feed_to_part(body, true)?;
    /// let exe = matches!(&fed.events[..],
    ///     [WasmMultipartEvent::Part(p)] if p.filename().is_some_and(|f| f.as_str().ends_with(".exe")));
    /// if exe {
    ///     assert!(reader.skip_part()?);
    /// }
    /// let fed = reader.feed(b"", true)?;
    /// let data: Vec<&[u8]> = fed.events.iter().filter_map(|e| match e {
    ///     WasmMultipartEvent::Data(d) => Some(*d),
    ///     _ => None,
    /// }).collect();
    /// assert_eq!(data, [b"1"]); // none of the skipped part's
    /// assert_eq!(fed.events.last(), Some(&WasmMultipartEvent::End));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn skip_part(&mut self) -> Result<bool, EngineError> {
        self.handle.call(0, |api, store, h| {
            api.reqparse_http_body()
                .multipart_reader()
                .call_skip_part(store, h)
        })
    }

    /// Bytes of the body consumed so far.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// reader.feed(b"--b\r\n", false)?;
    /// assert_eq!(reader.position(), 5);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.window.position
    }

    /// How many bytes the guest holds (what may begin a delimiter, an incomplete header
    /// block).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// reader.feed(b"--b\r\nContent-Disp", false)?;
    /// assert_eq!(reader.held(), 12);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn held(&self) -> usize {
        self.window.tail.len()
    }
}

// ---- detached readers ----

/// A body reader detached from its inspector, so that a host can keep one per request in
/// flight while the same inspector serves other calls (an event loop with many connections
/// and one instance): [`WasmInspector::attach_form`] / [`WasmInspector::attach_multipart`] give
/// the reader back for the next read, [`WasmFormReader::detach`] /
/// [`WasmMultipartReader::detach`] make one.
///
/// While one is alive the instance is not recycled (its resources would go with it); a fault
/// still replaces it, and attaching a reader of an instance that is gone is an
/// [`EngineErrorKind::StaleHandle`] error. A detached reader dropped without being attached
/// again leaves its guest resource until the instance is next replaced.
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::body::form::FormEvent;
/// let reader = inspector.form_reader(Default::default(), Default::default())?;
/// let mut detached = reader.detach();
/// // … other calls on the inspector, other readers …
/// let head = reqparse::inspect::RequestHead {
///     method: "GET", scheme: "http", host: "h", target: "/", content_disposition: None,
/// };
/// inspector.inspect(&head, &mut String::new())?;
/// let mut reader = inspector.attach_form(detached)?;
/// assert!(matches!(reader.feed(b"a=1", true)?.events[0], FormEvent::Pair(p) if p.value == "1"));
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
pub struct Detached<R> {
    resource: wasmtime::component::ResourceAny,
    window: Window,
    /// The instance the resource belongs to ([`WasmInspector::instances_created`] then).
    instance: u64,
    /// Counts this reader in its inspector's detached readers while it lives.
    _count: DetachedCount,
    _reader: std::marker::PhantomData<fn() -> R>,
}

/// What a [`Detached`] reader reads.
#[derive(Debug)]
pub enum FormKind {}
/// What a [`Detached`] reader reads.
#[derive(Debug)]
pub enum MultipartKind {}

impl<R> std::fmt::Debug for Detached<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Detached")
            .field("instance", &self.instance)
            .field("held", &self.window.tail.len())
            .finish()
    }
}

struct DetachedCount(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl DetachedCount {
    fn new(count: &std::sync::Arc<std::sync::atomic::AtomicUsize>) -> DetachedCount {
        count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        DetachedCount(count.clone())
    }
}

impl Drop for DetachedCount {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

fn detach<R>(handle: Handle<'_>, window: Window) -> Detached<R> {
    let instance = handle.inspector.instances;
    let count = DetachedCount::new(&handle.inspector.detached);
    Detached {
        resource: handle.detach(),
        window,
        instance,
        _count: count,
        _reader: std::marker::PhantomData,
    }
}

impl WasmInspector {
    /// The resource of `d` with this inspector again, if its instance still lives.
    fn attach<R>(&mut self, d: Detached<R>) -> Result<(Handle<'_>, Window), EngineError> {
        if self.live.is_none() || self.instances != d.instance {
            return Err(EngineError::new(
                EngineErrorKind::StaleHandle,
                "the instance that held this reader was replaced",
            ));
        }
        let Detached {
            resource, window, ..
        } = d;
        Ok((Handle::new(self, resource), window))
    }

    /// A detached form reader, attached again for the next read (see [`Detached`]).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let detached = inspector.form_reader(Default::default(), Default::default())?.detach();
    /// let mut reader = inspector.attach_form(detached)?;
    /// assert_eq!(reader.feed(b"", true)?.events.len(), 1); // the end
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn attach_form(
        &mut self,
        d: Detached<FormKind>,
    ) -> Result<WasmFormReader<'_>, EngineError> {
        let (handle, window) = self.attach(d)?;
        Ok(WasmFormReader { handle, window })
    }

    /// A detached multipart reader, attached again for the next read (see [`Detached`]).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// let detached = reader.detach();
    /// let mut reader = inspector.attach_multipart(detached)?;
    /// assert_eq!(reader.feed(b"--b--", true)?.events.len(), 1); // the end
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn attach_multipart(
        &mut self,
        d: Detached<MultipartKind>,
    ) -> Result<WasmMultipartReader<'_>, EngineError> {
        let (handle, window) = self.attach(d)?;
        Ok(WasmMultipartReader { handle, window })
    }
}

impl WasmFormReader<'_> {
    /// Lets go of the inspector, keeping the reader's state in the guest (see [`Detached`]).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let mut reader = inspector.form_reader(Default::default(), Default::default())?;
    /// reader.feed(b"a=1&b=", false)?;
    /// let detached = reader.detach();
    /// let mut reader = inspector.attach_form(detached)?;
    /// assert_eq!(reader.held(), 2); // `b=` is still held
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn detach(self) -> Detached<FormKind> {
        let WasmFormReader { handle, window } = self;
        detach(handle, window)
    }
}

impl WasmMultipartReader<'_> {
    /// Lets go of the inspector, keeping the reader's state in the guest (see [`Detached`]).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// let _detached = reader.detach();
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn detach(self) -> Detached<MultipartKind> {
        let WasmMultipartReader { handle, window } = self;
        detach(handle, window)
    }
}
