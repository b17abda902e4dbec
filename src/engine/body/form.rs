//! The form-urlencoded reader through the component: [`WasmFormReader`].

use super::convert::{self, form_error};
use super::{Fed, Held};
use crate::body::form;
use crate::engine::bindings::exports::reqparse::http::body as wit;
use crate::engine::error::EngineError;
use crate::engine::inspector::WasmInspector;
use crate::query;

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
pub struct WasmFormReader<'i>(pub(super) Held<'i>);

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
        Ok(WasmFormReader(Held::new(self, handle)))
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
        let fed = self.0.handle.call(bytes.len(), |api, store, h| {
            api.reqparse_http_body()
                .form_reader()
                .call_feed(store, h, bytes, eof)
        })?;
        let ended = fed.error.is_some() || matches!(fed.events.last(), Some(wit::FormEvent::End));
        let decoded = (fed.held, fed.decoded);
        let events = self
            .0
            .events(bytes, decoded, ended, fed.events, |spans, event| {
                Ok(match event {
                    wit::FormEvent::Pair(p) => form::FormEvent::Pair(form::FormPair {
                        name: spans.text(p.name)?,
                        value: spans.text(p.value)?,
                        offset: p.offset,
                    }),
                    wit::FormEvent::End => form::FormEvent::End,
                })
            })?;
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
        self.0.window.position
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
        self.0.window.tail.len()
    }
}
