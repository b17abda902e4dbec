//! The chunked decoder through the component: [`WasmChunkedDecoder`].

use super::convert::{self, chunked_error};
use super::{Fed, Held};
use crate::body::chunked;
use crate::engine::bindings::exports::reqparse::http::body as wit;
use crate::engine::error::EngineError;
use crate::engine::inspector::WasmInspector;

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
pub struct WasmChunkedDecoder<'i>(pub(super) Held<'i>);

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
        Ok(WasmChunkedDecoder(Held::new(self, handle)))
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
        let fed = self.0.handle.call(bytes.len(), |api, store, h| {
            api.reqparse_http_body()
                .chunked_decoder()
                .call_feed(store, h, bytes)
        })?;
        let ended =
            fed.error.is_some() || matches!(fed.events.last(), Some(wit::ChunkedEvent::End));
        let decoded = (fed.held, Vec::new());
        let events = self
            .0
            .events(bytes, decoded, ended, fed.events, |spans, event| {
                Ok(match event {
                    wit::ChunkedEvent::Data(d) => chunked::Chunk::Data(spans.span(d)?),
                    wit::ChunkedEvent::Trailer((name, value)) => chunked::Chunk::Trailer {
                        name: spans.span(name)?,
                        value: spans.span(value)?,
                    },
                    wit::ChunkedEvent::End => chunked::Chunk::End,
                })
            })?;
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
        let done = self.0.handle.call(0, |api, store, h| {
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
        self.0.window.position
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
        self.0.window.tail.len()
    }
}
