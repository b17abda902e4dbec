//! `reqparse serve`'s answer as a [`Handler`]: the inspection JSON of the head (from the native
//! core or the wasm component, [`crate::inspect`]) with what the body readers made of the body
//! under `"body"`, and an upload page at `GET /` to try it from a browser (a request whose
//! `Accept` names `text/html` gets the answer as [`ANSWER_PAGE`], tables and the same JSON). With the wasm engine
//! the form and multipart readers run in the component too (fed each read as it arrives, kept
//! detached between reads); the shim only removes the framing and hashes.
//!
//! The `"body"` member (keys always present, in this order):
//!
//! ```json
//! null                                       // no body
//! {"framing":"length",                       // or "chunked"
//!  "size":1234,                              // bytes after the transfer coding
//!  "kind":"multipart",                       // "form", "multipart" or "bytes"
//!  "pairs":[["a","1"]],                      // form: the decoded pairs (else [])
//!  "parts":[{"name":"file","filename":"a.txt","content_type":"text/plain",
//!            "size":5,"sha256":"…","value":null}],   // multipart (else []); "value" is the
//!                                            // text of a part without filename, up to 64 KiB
//!  "sha256":"…",                             // bytes: the body's SHA-256 (else null)
//!  "omitted":0,                              // pairs/parts not listed past the answer's 1 MiB
//!  "trailers":[["n","v"]],                   // chunked trailer fields
//!  "error":null}                             // or {"offset":N,"message":"…"}: the first
//!                                            // content error; the rest of the body was read
//! ```
//!
//! Nothing is dropped silently: a value over 64 KiB is `null` beside its `size` and `sha256`,
//! and a pair or part past the listing budget is counted in `"omitted"`.

use alloc::string::String;
use core::fmt::Write as _;

use sha2::{Digest, Sha256};

use super::body::{BodyEvent, MediaType};
use super::handler::{Handler, Reading, Response, Service};
use super::http1::{Framing, Head};
use super::Engine;
use crate::inspect::json_string;

/// The most text of one multipart value shown in the answer (a longer one is `null` beside
/// its `size` and `sha256`).
///
/// ```
/// assert_eq!(reqparse::host::MAX_SHOWN_VALUE, 64 * 1024);
/// ```
pub const MAX_SHOWN_VALUE: usize = 64 * 1024;

/// The most JSON the pairs and parts of one answer take; past it they are counted in
/// `"omitted"` only, so a 128 MiB form cannot make a 128 MiB answer.
///
/// ```
/// assert_eq!(reqparse::host::MAX_LISTED, 1 << 20);
/// ```
pub const MAX_LISTED: usize = 1024 * 1024;

/// The page `GET /` answers: a form that posts `multipart/form-data` to `/upload`.
///
/// ```
/// assert!(reqparse::host::UPLOAD_PAGE.contains(r#"enctype="multipart/form-data""#));
/// ```
pub const UPLOAD_PAGE: &str = include_str!("upload.html");

/// The page a browser gets instead of the JSON (a request whose `Accept` names `text/html`):
/// the answer embedded (`{{ANSWER}}`, every `<` written `\u003c`) and shown as text
/// (`{{ANSWER_TEXT}}`, HTML-escaped, for a browser without scripts), and a script that lays it
/// out as tables: the request, its query, and each part's name, filename, content type, size,
/// SHA-256 and text (or each form pair).
///
/// ```
/// assert!(reqparse::host::ANSWER_PAGE.contains("{{ANSWER}}"));
/// ```
pub const ANSWER_PAGE: &str = include_str!("answer.html");

/// Whether a request's `Accept` fields name `text/html` (with a q-value above zero), as a
/// browser's navigation does (`text/html,application/xhtml+xml,…`): it is answered with
/// [`ANSWER_PAGE`].
fn wants_html(head: &Head<'_>) -> bool {
    head.headers()
        .filter(|(name, _)| name.eq_ignore_ascii_case(b"accept"))
        .flat_map(|(_, value)| value.split(|&b| b == b','))
        .any(|range| {
            let mut params = range.split(|&b| b == b';');
            let media = params.next().unwrap_or_default().trim_ascii();
            let refused = params.any(|p| {
                let p = p.trim_ascii();
                p.len() > 2
                    && p[..2].eq_ignore_ascii_case(b"q=")
                    && p[2..].iter().all(|&b| b == b'0' || b == b'.')
            });
            media.eq_ignore_ascii_case(b"text/html") && !refused
        })
}

/// [`ANSWER_PAGE`] around `json`: each placeholder filled once, in the template only (never
/// in what was filled in before it).
fn answer_page(json: &str) -> String {
    let mut page = String::with_capacity(ANSWER_PAGE.len() + 2 * json.len());
    let mut rest = ANSWER_PAGE;
    for (mark, escaped) in [("{{ANSWER_TEXT}}", false), ("{{ANSWER}}", true)] {
        let (before, after) = rest.split_once(mark).unwrap_or((rest, ""));
        page.push_str(before);
        for c in json.chars() {
            match (c, escaped) {
                ('<', true) => page.push_str("\\u003c"),
                ('<', false) => page.push_str("&lt;"),
                ('>', false) => page.push_str("&gt;"),
                ('&', false) => page.push_str("&amp;"),
                (c, _) => page.push(c),
            }
        }
        rest = after;
    }
    page.push_str(rest);
    page
}

/// The inspection handler that `reqparse serve` runs.
///
/// ```no_run
/// use reqparse::host::{Config, Inspect, Server};
/// let config = Config::default();
/// let handler = Inspect::new(&config.engine);
/// let server = Server::bind(Config { addr: "127.0.0.1:0".parse().unwrap(), ..Config::default() })?;
/// server.run_with(&handler)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Inspect<'e> {
    engine: &'e Engine,
    /// The body readers' limits when they run in the component (natively the shim's readers
    /// use the server's own).
    limits: super::Limits,
}

impl<'e> Inspect<'e> {
    /// Inspects with `engine` (native, or the wasm component).
    ///
    /// ```
    /// let engine = reqparse::host::Engine::Native;
    /// let _handler = reqparse::host::Inspect::new(&engine);
    /// ```
    pub fn new(engine: &'e Engine) -> Inspect<'e> {
        Inspect::with_limits(engine, super::Limits::default())
    }

    /// Inspects with `engine`; with the wasm engine the component's body readers use the
    /// form and multipart limits (and `max_body`) of `limits`, as the shim's own readers do
    /// natively. [`Server::run`](super::Server::run) passes the server's limits.
    ///
    /// ```
    /// let engine = reqparse::host::Engine::Native;
    /// let _handler = reqparse::host::Inspect::with_limits(&engine, Default::default());
    /// ```
    pub fn with_limits(engine: &'e Engine, limits: super::Limits) -> Inspect<'e> {
        Inspect { engine, limits }
    }
}

impl Handler for Inspect<'_> {
    type Service = Inspector;

    fn service(&self) -> std::io::Result<Inspector> {
        let engine = match self.engine {
            Engine::Native => EngineRef::Native,
            #[cfg(feature = "engine-wasm")]
            Engine::Wasm(engine) => EngineRef::Wasm(Box::new(
                engine
                    .inspector()
                    .map_err(|e| std::io::Error::other(format!("wasm engine: {e:#}")))?,
            )),
        };
        Ok(Inspector {
            engine,
            spare: String::new(),
            limits: self.limits.clone(),
        })
    }
}

/// Where a head's JSON comes from, per loop.
enum EngineRef {
    Native,
    /// Boxed: one per loop, and the instance state is large.
    #[cfg(feature = "engine-wasm")]
    Wasm(Box<crate::engine::WasmInspector>),
}

/// One loop's inspection service (see [`Inspect`]), made by [`Handler::service`].
///
/// ```
/// use reqparse::host::{Engine, Handler, Inspect};
/// let engine = Engine::Native;
/// let _service = Inspect::new(&engine).service()?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Inspector {
    engine: EngineRef,
    /// The last answer's buffer, reused by the next head: a request costs the shim no
    /// allocation of its own (tests/host_alloc.rs).
    spare: String,
    /// For the component's body readers.
    #[cfg_attr(not(feature = "engine-wasm"), allow(dead_code))]
    limits: super::Limits,
}

impl core::fmt::Debug for Inspector {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Inspector")
    }
}

/// One request's answer while its body arrives.
#[derive(Debug)]
pub struct Exchange {
    answer: Answer,
}

#[derive(Debug)]
enum Answer {
    /// `GET /`: the upload page.
    Page,
    /// The engine failed on the head: 500 with this JSON error.
    Failed(String),
    /// The head's JSON (without its closing brace) and the body so far; `html`: answered as
    /// [`ANSWER_PAGE`].
    Json {
        json: String,
        body: Option<Box<BodySummary>>,
        html: bool,
    },
}

impl Service for Inspector {
    type Exchange = Exchange;

    fn head(&mut self, head: &Head<'_>) -> (Exchange, Reading) {
        let page = matches!(head.method, "GET" | "HEAD") && head.target == "/";
        if page {
            return (
                Exchange {
                    answer: Answer::Page,
                },
                Reading::Parse,
            );
        }
        let mut json = core::mem::take(&mut self.spare);
        json.clear();
        let request = super::request_head(head);
        let answer: Result<(), String> = match &mut self.engine {
            EngineRef::Native => {
                crate::inspect::inspect(&request, &mut json);
                Ok(())
            }
            #[cfg(feature = "engine-wasm")]
            EngineRef::Wasm(wasm) => wasm
                .inspect(&request, &mut json)
                .map_err(|e| format!("{e:#}")),
        };
        let answer = match answer {
            Ok(()) => {
                // The object is reopened to add "body".
                json.pop();
                let body = head.framing.has_body().then(|| {
                    let summary = Box::new(BodySummary::new(
                        head.framing,
                        MediaType::of(head.content_type),
                    ));
                    #[cfg(feature = "engine-wasm")]
                    let summary = {
                        let mut summary = summary;
                        if let EngineRef::Wasm(wasm) = &mut self.engine {
                            summary.open_wasm(wasm, head.content_type, &self.limits);
                        }
                        summary
                    };
                    summary
                });
                Answer::Json {
                    json,
                    body,
                    html: wants_html(head),
                }
            }
            Err(e) => {
                let mut body = String::new();
                super::http1::error_body(&mut body, &format!("500 engine error: {e}"));
                Answer::Failed(body)
            }
        };
        // With the component reading the content, the shim only removes the framing.
        #[cfg(feature = "engine-wasm")]
        if let Answer::Json {
            body: Some(summary),
            ..
        } = &answer
        {
            if summary.wasm.is_some() {
                return (Exchange { answer }, Reading::Raw);
            }
        }
        (Exchange { answer }, Reading::Parse)
    }

    fn body(&mut self, exchange: &mut Exchange, event: BodyEvent<'_>) {
        let Answer::Json {
            body: Some(summary),
            ..
        } = &mut exchange.answer
        else {
            return;
        };
        #[cfg(feature = "engine-wasm")]
        if let (EngineRef::Wasm(wasm), Some(reader)) = (&mut self.engine, summary.wasm.take()) {
            match event {
                BodyEvent::Data(data) => summary.feed_wasm(wasm, reader, data, false),
                BodyEvent::End { .. } => {
                    summary.feed_wasm(wasm, reader, &[], true);
                    summary.add(event);
                }
                other => {
                    summary.wasm = Some(reader);
                    summary.add(other);
                }
            }
            return;
        }
        summary.add(event);
    }

    fn respond(&mut self, exchange: Exchange, response: &mut Response<'_>) {
        // A refused write is a bug of this handler; the loop answers 500 for it.
        let _ = match exchange.answer {
            Answer::Page => response.send(
                200,
                "OK",
                "text/html; charset=utf-8",
                UPLOAD_PAGE.as_bytes(),
            ),
            Answer::Failed(json) => {
                response.close();
                response.send(
                    500,
                    "Internal Server Error",
                    "application/json",
                    json.as_bytes(),
                )
            }
            Answer::Json {
                mut json,
                body,
                html,
            } => {
                json.push_str(",\"body\":");
                match body {
                    None => json.push_str("null"),
                    Some(summary) => summary.finish(&mut json),
                }
                json.push('}');
                let sent = if html {
                    let page = answer_page(&json);
                    response.send(200, "OK", "text/html; charset=utf-8", page.as_bytes())
                } else {
                    response.send(200, "OK", "application/json", json.as_bytes())
                };
                self.spare = json;
                sent
            }
        };
    }
}

/// What the body readers made of a body, built as its events arrive.
#[derive(Debug)]
struct BodySummary {
    framing: Framing,
    size: u64,
    /// Decided with the head, so an empty multipart body is still `"multipart"`.
    kind: MediaType,
    /// Listed pairs or parts, as JSON array elements.
    listed: String,
    omitted: u64,
    trailers: String,
    error: Option<String>,
    /// The whole body's hash (kind bytes) or the current part's.
    hash: Sha256,
    part: Option<PartSummary>,
    /// With the wasm engine: the component's reader of this body, between reads.
    #[cfg(feature = "engine-wasm")]
    wasm: Option<WasmBody>,
}

/// The multipart part whose data is arriving.
#[derive(Debug)]
struct PartSummary {
    /// `{"name":…,"filename":…,"content_type":…,` so far.
    json: String,
    size: u64,
    /// The text of a part without filename, while it fits `MAX_SHOWN_VALUE`.
    value: Option<Vec<u8>>,
}

impl BodySummary {
    fn new(framing: Framing, kind: MediaType) -> BodySummary {
        BodySummary {
            framing,
            size: 0,
            kind,
            listed: String::new(),
            omitted: 0,
            trailers: String::new(),
            error: None,
            hash: Sha256::new(),
            part: None,
            #[cfg(feature = "engine-wasm")]
            wasm: None,
        }
    }

    fn add(&mut self, event: BodyEvent<'_>) {
        match event {
            BodyEvent::Data(data) => self.hash.update(data),
            BodyEvent::Pair(pair) => self.pair(pair.name, pair.value),
            BodyEvent::Part(part) => {
                let filename = part.filename().map(|f| f.into_cow());
                self.part(&part.name(), filename.as_deref(), part.content_type());
            }
            BodyEvent::PartData(data) => self.part_data(data),
            BodyEvent::PartEnd => self.part_end(),
            BodyEvent::Trailer { name, value } => {
                if !self.trailers.is_empty() {
                    self.trailers.push(',');
                }
                self.trailers.push('[');
                json_string(&mut self.trailers, &String::from_utf8_lossy(name));
                self.trailers.push(',');
                json_string(&mut self.trailers, &String::from_utf8_lossy(value));
                self.trailers.push(']');
            }
            BodyEvent::End { size } => self.size = size,
            BodyEvent::Invalid(e) => self.invalid(e.offset(), &e.to_string()),
        }
    }

    fn pair(&mut self, name: &str, value: &str) {
        let mut item = String::new();
        item.push('[');
        json_string(&mut item, name);
        item.push(',');
        json_string(&mut item, value);
        item.push(']');
        self.list(&item);
    }

    fn part(&mut self, name: &str, filename: Option<&str>, content_type: Option<&[u8]>) {
        let mut json = String::from("{\"name\":");
        json_string(&mut json, name);
        json.push_str(",\"filename\":");
        match filename {
            Some(f) => json_string(&mut json, f),
            None => json.push_str("null"),
        }
        json.push_str(",\"content_type\":");
        match content_type {
            Some(ct) => json_string(&mut json, &String::from_utf8_lossy(ct)),
            None => json.push_str("null"),
        }
        self.hash = Sha256::new();
        self.part = Some(PartSummary {
            json,
            size: 0,
            value: filename.is_none().then(Vec::new),
        });
    }

    fn part_data(&mut self, data: &[u8]) {
        if let Some(part) = &mut self.part {
            self.hash.update(data);
            part.size += data.len() as u64;
            if let Some(value) = &mut part.value {
                if value.len() + data.len() <= MAX_SHOWN_VALUE {
                    value.extend_from_slice(data);
                } else {
                    part.value = None;
                }
            }
        }
    }

    fn part_end(&mut self) {
        if let Some(mut part) = self.part.take() {
            let hash = core::mem::take(&mut self.hash);
            let _ = write!(part.json, ",\"size\":{},\"sha256\":", part.size);
            json_string(&mut part.json, &hex(hash));
            part.json.push_str(",\"value\":");
            match &part.value {
                // The Fetch Standard's "UTF-8 decode without BOM": bad bytes become U+FFFD.
                Some(v) => json_string(&mut part.json, &String::from_utf8_lossy(v)),
                None => part.json.push_str("null"),
            }
            part.json.push('}');
            self.list(&part.json);
        }
    }

    /// The first content error; no content event follows it.
    fn invalid(&mut self, offset: u64, message: &str) {
        if self.error.is_none() {
            let mut json = String::new();
            let _ = write!(json, "{{\"offset\":{offset},\"message\":");
            json_string(&mut json, message);
            json.push('}');
            self.error = Some(json);
        }
        self.part = None;
    }

    /// Adds one pair or part to the listing, or counts it past the budget.
    fn list(&mut self, item: &str) {
        if self.listed.len() + item.len() > MAX_LISTED {
            self.omitted += 1;
            return;
        }
        if !self.listed.is_empty() {
            self.listed.push(',');
        }
        self.listed.push_str(item);
    }

    fn finish(self, out: &mut String) {
        let body_size = self.size;
        let framing = match self.framing {
            Framing::Chunked => "chunked",
            _ => "length",
        };
        let kind = match self.kind {
            MediaType::Form => "form",
            MediaType::Multipart => "multipart",
            MediaType::Other => "bytes",
        };
        let _ = write!(
            out,
            "{{\"framing\":\"{framing}\",\"size\":{body_size},\"kind\":\"{kind}\",\"pairs\":["
        );
        if self.kind == MediaType::Form {
            out.push_str(&self.listed);
        }
        out.push_str("],\"parts\":[");
        if self.kind == MediaType::Multipart {
            out.push_str(&self.listed);
        }
        out.push_str("],\"sha256\":");
        if self.kind == MediaType::Other {
            json_string(out, &hex(self.hash));
        } else {
            out.push_str("null");
        }
        let _ = write!(out, ",\"omitted\":{},\"trailers\":[", self.omitted);
        out.push_str(&self.trailers);
        out.push_str("],\"error\":");
        out.push_str(self.error.as_deref().unwrap_or("null"));
        out.push('}');
    }
}

fn hex(hash: Sha256) -> String {
    let mut s = String::with_capacity(64);
    for byte in hash.finalize() {
        let _ = write!(s, "{byte:02x}");
    }
    s
}

/// A body's reader in the component, detached between reads (see
/// [`Detached`](crate::engine::Detached)).
#[cfg(feature = "engine-wasm")]
#[derive(Debug)]
enum WasmBody {
    Form(crate::engine::Detached<crate::engine::FormKind>),
    Multipart(crate::engine::Detached<crate::engine::MultipartKind>),
}

#[cfg(feature = "engine-wasm")]
impl BodySummary {
    /// Starts the component's reader for a form or multipart body (the boundary read in the
    /// guest too); other bodies are only hashed, natively.
    fn open_wasm(
        &mut self,
        wasm: &mut crate::engine::WasmInspector,
        content_type: Option<&[u8]>,
        limits: &super::Limits,
    ) {
        let opened = match self.kind {
            MediaType::Other => return,
            MediaType::Form => wasm
                .form_reader(limits.form_profile, limits.form_limits())
                .map(|r| Some(WasmBody::Form(r.detach()))),
            MediaType::Multipart => match wasm.multipart_boundary(content_type.unwrap_or_default())
            {
                Ok(Ok(boundary)) => wasm
                    .multipart_reader(
                        &boundary,
                        limits.multipart_profile,
                        limits.multipart_limits(),
                    )
                    .map(|made| match made {
                        Ok(r) => Some(WasmBody::Multipart(r.detach())),
                        Err(e) => {
                            self.add(BodyEvent::Invalid(super::ContentError::Multipart(e)));
                            None
                        }
                    }),
                Ok(Err(e)) => {
                    self.add(BodyEvent::Invalid(super::ContentError::ContentType(e)));
                    Ok(None)
                }
                Err(e) => Err(e),
            },
        };
        match opened {
            Ok(body) => self.wasm = body,
            Err(e) => self.invalid(0, &format!("engine error: {e}")),
        }
    }

    /// One read through the component's reader; the reader is kept for the next one unless
    /// the body ended or failed.
    fn feed_wasm(
        &mut self,
        wasm: &mut crate::engine::WasmInspector,
        reader: WasmBody,
        data: &[u8],
        eof: bool,
    ) {
        use crate::body::form::FormEvent;
        use crate::engine::WasmMultipartEvent;
        let kept = match reader {
            WasmBody::Form(d) => wasm.attach_form(d).and_then(|mut r| {
                let fed = r.feed(data, eof)?;
                let mut ended = false;
                for event in fed.events {
                    match event {
                        FormEvent::Pair(p) => self.pair(p.name, p.value),
                        FormEvent::End => ended = true,
                    }
                }
                if let Some(e) = fed.error {
                    self.add(BodyEvent::Invalid(super::ContentError::Form(e)));
                    ended = true;
                }
                Ok((!ended).then(|| WasmBody::Form(r.detach())))
            }),
            WasmBody::Multipart(d) => wasm.attach_multipart(d).and_then(|mut r| {
                let fed = r.feed(data, eof)?;
                let mut ended = false;
                for event in fed.events {
                    match event {
                        WasmMultipartEvent::Part(p) => {
                            let filename = p.filename().map(|f| f.into_cow());
                            self.part(p.name(), filename.as_deref(), p.content_type());
                        }
                        WasmMultipartEvent::Data(d) => self.part_data(d),
                        WasmMultipartEvent::PartEnd => self.part_end(),
                        WasmMultipartEvent::End => ended = true,
                    }
                }
                if let Some(e) = fed.error {
                    self.add(BodyEvent::Invalid(super::ContentError::Multipart(e)));
                    ended = true;
                }
                Ok((!ended).then(|| WasmBody::Multipart(r.detach())))
            }),
        };
        match kept {
            Ok(reader) => self.wasm = reader,
            Err(e) => self.invalid(0, &format!("engine error: {e}")),
        }
    }
}
