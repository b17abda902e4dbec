//! Body readers detached from their inspector: [`Detached`].

use super::form::WasmFormReader;
use super::multipart::WasmMultipartReader;
use super::{Held, Window};
use crate::engine::error::{EngineError, EngineErrorKind};
use crate::engine::handle::Handle;
use crate::engine::inspector::WasmInspector;

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

fn detach<R>(held: Held<'_>) -> Detached<R> {
    let Held { handle, window } = held;
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
    fn attach<R>(&mut self, d: Detached<R>) -> Result<Held<'_>, EngineError> {
        if self.live.is_none() || self.instances != d.instance {
            return Err(EngineError::new(
                EngineErrorKind::StaleHandle,
                "the instance that held this reader was replaced",
            ));
        }
        let Detached {
            resource, window, ..
        } = d;
        Ok(Held {
            handle: Handle::new(self, resource),
            window,
        })
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
        self.attach(d).map(WasmFormReader)
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
        self.attach(d).map(WasmMultipartReader)
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
        detach(self.0)
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
        detach(self.0)
    }
}
