//! [`WasmInspector`]: one component instance, its typed calls, and the fault handling that
//! replaces it after a trap or a limit.

use std::sync::Arc;
use std::time::Duration;

use wasmtime::{Store, Trap};

use super::bindings::exports::reqparse::http::inspect;
use super::bindings::Reqparse;
use super::error::{EngineError, EngineErrorKind};
use super::limits::{ticks, GuestState};
use super::{
    ContentDisposition, DispositionBuildError, DispositionProfile, ParseError, Parts, QueryProfile,
    Shared, Spans,
};

/// An instance and its store; dropped whole after a fault.
pub(super) struct Live {
    pub(super) store: Store<GuestState>,
    api: Reqparse,
    /// Calls answered, for `recycle_after_calls`.
    calls: u64,
}

/// One component instance, reused call after call. `Send`; use one per thread or event loop.
///
/// Every call checks the input size, enters the guest once, and returns either the guest's
/// answer or an [`EngineError`] for that call alone.
///
/// ```
/// use reqparse::engine::WasmEngine;
/// use reqparse::inspect::RequestHead;
///
/// let mut inspector = WasmEngine::load(None)?.inspector()?;
/// let head = RequestHead {
///     method: "GET", scheme: "http", host: "example.com",
///     target: "/a?b=c", content_disposition: None,
/// };
/// let mut json = String::new();
/// inspector.inspect(&head, &mut json)?;
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
pub struct WasmInspector {
    pub(super) shared: Arc<Shared>,
    pub(super) deadline_ticks: u64,
    /// `None` after a fault, until the next call makes a new one.
    pub(super) live: Option<Live>,
    /// Instances made so far, for [`WasmInspector::instances_created`]; also the generation
    /// a detached resource checks before it is used again.
    pub(super) instances: u64,
    /// Detached body readers alive: while there is one the instance is not recycled (its
    /// resources would go with it); a fault still replaces it.
    pub(super) detached: Arc<std::sync::atomic::AtomicUsize>,
}

impl WasmInspector {
    /// An inspector with its first instance, so a broken component fails here, not later.
    pub(super) fn new(shared: Arc<Shared>) -> Result<Self, EngineError> {
        let mut inspector = WasmInspector {
            deadline_ticks: ticks(shared.limits.deadline),
            shared,
            live: None,
            instances: 0,
            detached: Arc::default(),
        };
        inspector.live()?;
        Ok(inspector)
    }

    /// Appends the JSON document of `reqparse::inspect::inspect` for `head`: the whole
    /// request's work in one guest call.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let head = reqparse::inspect::RequestHead {
    ///     method: "GET", scheme: "https", host: "example.com",
    ///     target: "/?q=1", content_disposition: Some(b"attachment; filename=a.txt"),
    /// };
    /// let mut json = String::new();
    /// inspector.inspect(&head, &mut json)?;
    /// assert!(json.starts_with('{'));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn inspect(
        &mut self,
        head: &crate::inspect::RequestHead<'_>,
        out: &mut String,
    ) -> Result<(), EngineError> {
        let size = [
            head.method.len(),
            head.scheme.len(),
            head.host.len(),
            head.target.len(),
        ]
        .iter()
        .sum::<usize>()
        .saturating_add(head.content_disposition.map_or(0, <[u8]>::len));
        // Before copying anything into the WIT record.
        self.shared.limits.check_input(size)?;
        let wit_head = inspect::RequestHead {
            method: head.method,
            scheme: head.scheme,
            host: head.host,
            target: head.target,
            content_disposition: head.content_disposition,
        };
        let json = self.call(size, |api, store| {
            api.reqparse_http_inspect().call_inspect(store, wit_head)
        })?;
        out.push_str(&json);
        Ok(())
    }

    /// `query.pairs`: decoded pairs.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::engine::QueryProfile;
    /// let pairs = inspector.query_pairs("?a=b+c", QueryProfile::Whatwg)?.unwrap();
    /// assert_eq!(pairs, [("a".to_string(), "b c".to_string())]);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn query_pairs(
        &mut self,
        input: &str,
        profile: QueryProfile,
    ) -> Result<Result<Vec<(String, String)>, ParseError>, EngineError> {
        self.call(input.len(), |api, store| {
            api.reqparse_http_query().call_pairs(store, input, profile)
        })
    }

    /// `query.raw-pairs`: the pairs as written.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let pairs = inspector.query_raw_pairs("a=b+c")?;
    /// assert_eq!(pairs, [("a".to_string(), "b+c".to_string())]);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn query_raw_pairs(&mut self, input: &str) -> Result<Vec<(String, String)>, EngineError> {
        self.call(input.len(), |api, store| {
            api.reqparse_http_query().call_raw_pairs(store, input)
        })
    }

    /// `query.pair-spans`: the offsets mode (see [`span_text`] to read a span).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::engine::{span_text, QueryProfile};
    /// let input = "a=%41";
    /// let spans = inspector.query_spans(input, QueryProfile::Whatwg)?.unwrap();
    /// assert_eq!(span_text(input, &spans, spans.spans[2], spans.spans[3]), Some("A"));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn query_spans(
        &mut self,
        input: &str,
        profile: QueryProfile,
    ) -> Result<Result<Spans, ParseError>, EngineError> {
        self.call(input.len(), |api, store| {
            api.reqparse_http_query()
                .call_pair_spans(store, input, profile)
        })
    }

    /// `uri.build-absolute`.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let uri = inspector.build_absolute("https", "example.com", "", "/a b", "?q", "")?.unwrap();
    /// assert_eq!(uri, "https://example.com/a%20b?q");
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn build_absolute(
        &mut self,
        scheme: &str,
        host: &str,
        path_base: &str,
        path: &str,
        query: &str,
        fragment: &str,
    ) -> Result<Result<String, ParseError>, EngineError> {
        let size = [scheme, host, path_base, path, query, fragment]
            .iter()
            .map(|s| s.len())
            .sum();
        self.call(size, |api, store| {
            api.reqparse_http_uri()
                .call_build_absolute(store, scheme, host, path_base, path, query, fragment)
        })
    }

    /// `uri.build-relative`.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// assert_eq!(inspector.build_relative("/base", "/p", "", "")?, "/base/p");
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn build_relative(
        &mut self,
        path_base: &str,
        path: &str,
        query: &str,
        fragment: &str,
    ) -> Result<String, EngineError> {
        let size = [path_base, path, query, fragment]
            .iter()
            .map(|s| s.len())
            .sum();
        self.call(size, |api, store| {
            api.reqparse_http_uri()
                .call_build_relative(store, path_base, path, query, fragment)
        })
    }

    /// `uri.split-absolute`.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let parts = inspector.split_absolute("http://h/p?q#f")?.unwrap();
    /// assert_eq!((parts.host.as_str(), parts.query.as_str()), ("h", "?q"));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn split_absolute(&mut self, uri: &str) -> Result<Result<Parts, ParseError>, EngineError> {
        self.call(uri.len(), |api, store| {
            api.reqparse_http_uri().call_split_absolute(store, uri)
        })
    }

    /// `disposition.parse`.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::engine::DispositionProfile;
    /// let cd = inspector
    ///     .parse_disposition(b"attachment; filename=\"a.txt\"", DispositionProfile::Strict, false)?
    ///     .unwrap();
    /// assert_eq!(cd.filename.as_deref(), Some("a.txt"));
    /// // The header's bytes as sent: 0xE4 alone is not UTF-8, so it reads as ISO-8859-1.
    /// let cd = inspector
    ///     .parse_disposition(b"attachment; filename=\"\xe4.txt\"", DispositionProfile::Strict, false)?
    ///     .unwrap();
    /// assert_eq!(cd.filename.as_deref(), Some("ä.txt"));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn parse_disposition(
        &mut self,
        header: &[u8],
        profile: DispositionProfile,
        decode_2047: bool,
    ) -> Result<Result<ContentDisposition, ParseError>, EngineError> {
        self.call(header.len(), |api, store| {
            api.reqparse_http_disposition()
                .call_parse(store, header, profile, decode_2047)
        })
    }

    /// `disposition.format`.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let header = inspector.format_disposition("attachment", Some("a.txt"), &[])?.unwrap();
    /// assert_eq!(header, "attachment; filename=a.txt");
    /// // What the builder cannot write faithfully is an error, with the crate's message.
    /// let e = inspector.format_disposition("bad type", None, &[])?.unwrap_err();
    /// assert_eq!(e.message, "disposition type is not a token");
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn format_disposition(
        &mut self,
        disposition_type: &str,
        filename: Option<&str>,
        parameters: &[(&str, &str)],
    ) -> Result<Result<String, DispositionBuildError>, EngineError> {
        let size = disposition_type.len()
            + filename.map_or(0, str::len)
            + parameters
                .iter()
                .map(|(n, v)| n.len() + v.len())
                .sum::<usize>();
        self.call(size, |api, store| {
            api.reqparse_http_disposition().call_format(
                store,
                disposition_type,
                filename,
                parameters,
            )
        })
    }

    /// Changes this inspector's per-call deadline (the engine's
    /// [`Limits::deadline`](super::Limits::deadline) by default).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// inspector.set_deadline(std::time::Duration::from_millis(50));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn set_deadline(&mut self, deadline: Duration) {
        self.deadline_ticks = ticks(deadline);
    }

    /// How many instances this inspector has created so far (1 after
    /// [`WasmEngine::inspector`](super::WasmEngine::inspector); grows after each fault and each
    /// recycling).
    ///
    /// ```
    /// # let inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// assert_eq!(inspector.instances_created(), 1);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn instances_created(&self) -> u64 {
        self.instances
    }

    /// The current size of the instance's linear memory in bytes (0 before the first instance
    /// or right after a fault). It never shrinks;
    /// [`Limits::recycle_memory_bytes`](super::Limits::recycle_memory_bytes) bounds it.
    ///
    /// ```
    /// # let inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// assert!(inspector.guest_memory_bytes() >= 64 * 1024);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn guest_memory_bytes(&self) -> usize {
        self.live
            .as_ref()
            .map_or(0, |live| live.store.data().memory)
    }

    /// The instance to call: the current one, or a new one when there is none or it has served
    /// its [`Limits`](super::Limits) (`recycle_after_calls`, `recycle_memory_bytes`).
    fn live(&mut self) -> Result<&mut Live, EngineError> {
        let keep = self.detached.load(std::sync::atomic::Ordering::Relaxed) > 0;
        // Looked at in place: `Live` holds the store and every export's handle (about 1 KB),
        // and moving it out and back on each call was a tenth of the cost of an empty call.
        let stale = match &self.live {
            Some(live) => !keep && live.worn_out(&self.shared),
            None => true,
        };
        if stale {
            self.live = None;
            self.live = Some(self.instantiate()?);
        }
        match &mut self.live {
            Some(live) => Ok(live),
            // Just made above.
            None => Err(EngineError::new(
                EngineErrorKind::Instantiate,
                "no instance of the component",
            )),
        }
    }

    fn instantiate(&mut self) -> Result<Live, EngineError> {
        let mut store = Store::new(&self.shared.engine, GuestState::new(&self.shared.limits));
        store.limiter(|state| state);
        // Instantiation runs no guest code we care to bound, but epochs are on: give it time.
        store.set_epoch_deadline(self.deadline_ticks.max(ticks(Duration::from_secs(1))));
        let api = self.shared.pre.instantiate(&mut store).map_err(|e| {
            EngineError::new(
                EngineErrorKind::Instantiate,
                "cannot instantiate the component",
            )
            .caused_by(e)
        })?;
        self.instances += 1;
        Ok(Live {
            store,
            api,
            calls: 0,
        })
    }

    /// Runs one guest call under the limits; on any fault the instance is dropped so the next
    /// call starts clean (a trapped instance cannot be entered again).
    pub(super) fn call<R>(
        &mut self,
        input_len: usize,
        f: impl FnOnce(&Reqparse, &mut Store<GuestState>) -> wasmtime::Result<R>,
    ) -> Result<R, EngineError> {
        self.shared.limits.check_input(input_len)?;
        let deadline = self.deadline_ticks;
        let result = self.live()?.enter(deadline, f);
        self.drop_on_fault(result)
    }

    /// Drops the instance if `result` is a fault: nothing can enter a trapped instance again.
    pub(super) fn drop_on_fault<R>(
        &mut self,
        result: Result<R, EngineError>,
    ) -> Result<R, EngineError> {
        if result.is_err() {
            self.live = None;
        }
        result
    }
}

impl Live {
    fn worn_out(&self, shared: &Shared) -> bool {
        self.calls >= shared.limits.recycle_after_calls
            || self.store.data().memory > shared.limits.recycle_memory_bytes
    }

    /// One call into the guest with a fresh deadline; a fault becomes an [`EngineError`] of the
    /// kind the store's state tells.
    pub(super) fn enter<R>(
        &mut self,
        deadline: u64,
        f: impl FnOnce(&Reqparse, &mut Store<GuestState>) -> wasmtime::Result<R>,
    ) -> Result<R, EngineError> {
        self.store.data_mut().hit_memory_cap = false;
        self.store.set_epoch_deadline(deadline);
        let r = f(&self.api, &mut self.store).map_err(|e| fault(e, self.store.data()))?;
        self.calls += 1;
        Ok(r)
    }
}

fn fault(e: wasmtime::Error, state: &GuestState) -> EngineError {
    let error = if state.hit_memory_cap {
        EngineError::new(
            EngineErrorKind::MemoryLimit,
            format!(
                "the guest tried to grow its memory past {} bytes",
                state.max_memory
            ),
        )
    } else if e.downcast_ref::<Trap>() == Some(&Trap::Interrupt) {
        EngineError::new(EngineErrorKind::Deadline, "the guest ran past its deadline")
    } else {
        EngineError::new(EngineErrorKind::Trap, "the guest trapped")
    };
    error.caused_by(e)
}

/// The text a span of [`Spans`] points at: into `input` when
/// [`SPAN_DECODED`](crate::query::SPAN_DECODED) (bit 31) is clear, into `spans.decoded` when it
/// is set, as the core's [`decode_spans`](crate::query::decode_spans) writes them. `None` if the
/// span is out of range or not UTF-8.
///
/// ```
/// use reqparse::engine::{span_text, Spans};
/// use reqparse::query::SPAN_DECODED;
/// let spans = Spans { spans: vec![0, 1, SPAN_DECODED, SPAN_DECODED | 1], decoded: b"A".to_vec() };
/// assert_eq!(span_text("a=%41", &spans, spans.spans[0], spans.spans[1]), Some("a"));
/// assert_eq!(span_text("a=%41", &spans, spans.spans[2], spans.spans[3]), Some("A"));
/// ```
pub fn span_text<'a>(input: &'a str, spans: &'a Spans, start: u32, end: u32) -> Option<&'a str> {
    const DECODED: u32 = crate::query::SPAN_DECODED;
    let (source, start, end) = if start & DECODED != 0 {
        (spans.decoded.as_slice(), start & !DECODED, end & !DECODED)
    } else {
        (input.as_bytes(), start, end)
    };
    let bytes = source.get(start as usize..end as usize)?;
    std::str::from_utf8(bytes).ok()
}
