//! The body readers' vectors (`tests/vectors/{chunked,form,multipart}.json`), shared by the
//! native tests and the component's (`tests/component_body.rs`): what each reader's events add
//! up to, the native feeding loop that produces it, a case's limits, the shape the vectors
//! write, and the reads every case is split into.

use serde_json::{json, Value};

/// The reads a case is fed as: whole, split in two at every point, and one byte at a time
/// (with an empty last read, so the end of the input comes on its own), each with a label.
pub fn splits(input: &[u8]) -> Vec<(String, Vec<&[u8]>)> {
    let mut all = vec![("whole".to_string(), vec![input])];
    for at in 0..=input.len() {
        let (a, b) = input.split_at(at);
        all.push((format!("split at {at}"), vec![a, b]));
    }
    let mut bytes: Vec<&[u8]> = input.chunks(1).collect();
    bytes.push(b"");
    all.push(("one byte at a time".to_string(), bytes));
    all
}

/// `input` cut at the given points (a property test's reads).
pub fn cut<'a>(input: &'a [u8], cuts: &[proptest::sample::Index]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c.index(input.len() + 1)).collect();
    points.extend([0, input.len()]);
    points.sort_unstable();
    points.windows(2).map(|w| &input[w[0]..w[1]]).collect()
}

/// A vectors' expectation: `{"error": expect_error}` or `{key: expect}`.
fn expected(case: &Value, key: &str) -> Value {
    match case.get("expect_error") {
        Some(e) => json!({"error": e}),
        None => json!({ key: case["expect"] }),
    }
}

/// Bytes as the vectors write them.
fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub mod chunked {
    use reqparse::body::chunked::{Chunk, ChunkedDecoder, ChunkedError, ChunkedLimits};
    use serde_json::{json, Value};

    /// What a body decoded to, as the vectors write it: data, trailers and consumed bytes, or
    /// the error.
    #[derive(Debug, Default, PartialEq, Eq)]
    pub struct Outcome {
        pub data: Vec<u8>,
        pub trailers: Vec<(Vec<u8>, Vec<u8>)>,
        pub consumed: u64,
        pub error: Option<(&'static str, u64)>,
    }

    impl Outcome {
        /// Adds an event; `true` at the end.
        pub fn event(&mut self, event: Chunk<'_>) -> bool {
            match event {
                Chunk::Data(d) => self.data.extend_from_slice(d),
                Chunk::Trailer { name, value } => {
                    self.trailers.push((name.to_vec(), value.to_vec()))
                }
                Chunk::End => return true,
            }
            false
        }

        pub fn fail(&mut self, e: ChunkedError) {
            self.error = Some((e.kind.name(), e.offset));
        }

        /// The outcome as the vectors write it.
        pub fn shape(&self) -> Value {
            let text = super::text;
            match self.error {
                Some((kind, offset)) => json!({"error": {"kind": kind, "offset": offset}}),
                None => json!({
                    "data": text(&self.data),
                    "trailers": self.trailers.iter().map(|(n, v)| json!([text(n), text(v)])).collect::<Vec<_>>(),
                    "consumed": self.consumed,
                }),
            }
        }
    }

    /// Feeds `reads` in turn as a caller would: bytes not consumed stay at the front of its
    /// buffer, and never more than an incomplete line's limit of them.
    pub fn decode(reads: &[&[u8]], limits: ChunkedLimits) -> Outcome {
        let mut decoder = ChunkedDecoder::new(limits);
        let mut out = Outcome::default();
        let mut pending = Vec::new();
        'reads: for read in reads {
            pending.extend_from_slice(read);
            loop {
                let step = match decoder.decode(&pending) {
                    Ok(step) => step,
                    Err(e) => {
                        out.fail(e);
                        return out;
                    }
                };
                let Some(event) = step.event else {
                    pending.drain(..step.consumed);
                    assert!(
                        pending.len() < held_at_most(limits),
                        "held {} bytes",
                        pending.len()
                    );
                    continue 'reads;
                };
                let done = out.event(event);
                pending.drain(..step.consumed);
                if done {
                    break 'reads;
                }
            }
        }
        out.consumed = decoder.position();
        if let Err(e) = decoder.finish() {
            out.fail(e);
        }
        out
    }

    /// What a caller may have to hold of an incomplete line.
    pub fn held_at_most(limits: ChunkedLimits) -> usize {
        limits.max_line_bytes.max(limits.max_trailer_bytes)
    }

    pub fn limits(case: &Value) -> ChunkedLimits {
        crate::support::vectors::limits_with(case, ChunkedLimits::set)
    }

    /// The case's expectation; `consumed` defaults to the whole input.
    pub fn expected(case: &Value, consumed: u64) -> Value {
        if let Some(e) = case.get("expect_error") {
            return json!({"error": e});
        }
        let mut want = case["expect"].clone();
        if want.get("consumed").is_none() {
            want["consumed"] = json!(consumed);
        }
        want
    }
}

pub mod form {
    use reqparse::body::form::{FormError, FormErrorKind, FormEvent, FormLimits, FormReader};
    use reqparse::query::Profile;
    use serde_json::{json, Value};

    /// The pairs and offsets a body decoded to, or the error's kind name and offset.
    pub type Outcome = Result<Vec<(String, String, u64)>, (String, u64)>;

    pub fn kind_name(kind: FormErrorKind) -> String {
        kind.name().to_owned()
    }

    pub fn failure(e: FormError) -> (String, u64) {
        (kind_name(e.kind), e.offset)
    }

    /// Adds an event to the pairs; `true` at the end.
    pub fn event(pairs: &mut Vec<(String, String, u64)>, event: FormEvent<'_>) -> bool {
        match event {
            FormEvent::Pair(p) => pairs.push((p.name.to_owned(), p.value.to_owned(), p.offset)),
            FormEvent::End => return true,
        }
        false
    }

    /// Feeds `reads` as a caller would: what was not consumed stays at the front of its buffer.
    pub fn decode(reads: &[&[u8]], profile: Profile, limits: FormLimits) -> Outcome {
        let mut reader = FormReader::new(profile, limits);
        let mut pairs = Vec::new();
        let mut pending = Vec::new();
        for (i, read) in reads.iter().enumerate() {
            pending.extend_from_slice(read);
            let eof = i + 1 == reads.len();
            loop {
                let step = reader.decode(&pending, eof).map_err(failure)?;
                let consumed = step.consumed;
                let Some(e) = step.event else {
                    pending.drain(..consumed);
                    break;
                };
                let end = event(&mut pairs, e);
                pending.drain(..consumed);
                if end {
                    return Ok(pairs);
                }
            }
        }
        panic!("no end after the last read");
    }

    pub fn limits(case: &Value) -> FormLimits {
        crate::support::vectors::limits_with(case, FormLimits::set)
    }

    /// The outcome as the vectors write it.
    pub fn shape(got: &Outcome) -> Value {
        match got {
            Ok(pairs) => {
                json!({"expect": pairs.iter().map(|(n, v, _)| json!([n, v])).collect::<Vec<_>>()})
            }
            Err((kind, offset)) => json!({"expect_error": {"kind": kind, "offset": offset}}),
        }
    }

    pub fn expected(case: &Value) -> Value {
        match case.get("expect_error") {
            Some(e) => json!({"expect_error": e}),
            None => json!({"expect": case["expect"]}),
        }
    }
}

pub mod multipart {
    use reqparse::body::multipart::{
        MultipartError, MultipartEvent, MultipartLimits, MultipartReader, Profile,
    };
    use serde_json::{json, Value};

    /// One part as the tests compare it.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct PartOut {
        pub name: String,
        pub filename: Option<String>,
        pub content_type: Option<Vec<u8>>,
        pub data: Vec<u8>,
    }

    /// What a body read to: its parts (the last one perhaps cut short by the error) and the
    /// error, as `(kind name, offset)`.
    #[derive(Debug, Default, PartialEq, Eq)]
    pub struct Outcome {
        pub parts: Vec<PartOut>,
        pub error: Option<(&'static str, u64)>,
        /// The index of the part the error is in (`MultipartError::part`), compared with a
        /// case's `expect_error_part`.
        pub error_part: Option<usize>,
        /// Each part's MIME type (`Part::mime_type`, serialized), when the feeding loop was
        /// asked for them ([`decode_case`]); empty otherwise: a reader whose test does not
        /// record them (the async readers') is compared without them.
        pub mime_types: Vec<Option<Vec<u8>>>,
    }

    impl Outcome {
        pub fn part(&mut self, name: &str, filename: Option<&str>, content_type: Option<&[u8]>) {
            self.parts.push(PartOut {
                name: name.to_owned(),
                filename: filename.map(str::to_owned),
                content_type: content_type.map(<[u8]>::to_vec),
                data: Vec::new(),
            });
        }

        pub fn data(&mut self, d: &[u8]) {
            assert!(!d.is_empty(), "empty data");
            let part = self.parts.last_mut().expect("data outside a part");
            part.data.extend_from_slice(d);
        }

        pub fn fail(&mut self, e: MultipartError) {
            self.error = Some((e.kind.name(), e.offset));
            self.error_part = e.part;
        }

        /// The MIME types as the vectors' `mime_types` write them: one string (or null) per
        /// part.
        pub fn mime_shape(&self) -> Value {
            self.mime_types
                .iter()
                .map(|m| m.as_deref().map(super::text))
                .collect()
        }

        /// The outcome as the vectors write it.
        pub fn shape(&self) -> Value {
            if let Some((kind, offset)) = self.error {
                return json!({"error": {"kind": kind, "offset": offset}});
            }
            let parts: Vec<Value> = self
                .parts
                .iter()
                .map(|p| {
                    json!({
                        "name": p.name,
                        "filename": p.filename,
                        "content_type": p.content_type.as_deref().map(super::text),
                        "data": super::text(&p.data),
                    })
                })
                .collect();
            json!({"parts": parts})
        }
    }

    /// What a caller may have to hold back: in a part's data, less than the delimiter; else
    /// an incomplete header block.
    pub fn held_at_most(boundary: &[u8], limits: MultipartLimits, in_data: bool) -> usize {
        let delimiter = boundary.len() + 4;
        if in_data {
            delimiter
        } else {
            limits.max_header_bytes.max(delimiter)
        }
    }

    /// A caller's decision about one part, once its headers are read: a case's `decisions`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Decision {
        /// `"skip"`: `MultipartReader::skip_part`.
        Skip,
        /// `{"limit": n}`: `MultipartReader::limit_part(n)`.
        Limit(u64),
    }

    /// A case's `decisions`: `{"<part index>": "skip" | {"limit": n}}`, by part index.
    pub fn decisions(case: &Value) -> Vec<(usize, Decision)> {
        let Some(map) = case.get("decisions").and_then(Value::as_object) else {
            return Vec::new();
        };
        map.iter()
            .map(|(index, d)| {
                let index = index.parse().expect("a decision's key is a part index");
                let decision = match d {
                    Value::String(s) if s == "skip" => Decision::Skip,
                    _ => Decision::Limit(d["limit"].as_u64().expect("a decision: skip or limit")),
                };
                (index, decision)
            })
            .collect()
    }

    /// A case's `expect_error_part` (the index of the part its error is in, or null), when it
    /// has one.
    pub fn expected_error_part(case: &Value) -> Option<Option<usize>> {
        case.get("expect_error_part")
            .map(|v| v.as_u64().map(|i| i as usize))
    }

    /// Feeds `reads` in turn as a caller would: bytes not consumed stay at the front of its
    /// buffer, and the reader may hold back only what its contract says.
    pub fn decode(
        reads: &[&[u8]],
        boundary: &[u8],
        profile: Profile,
        limits: MultipartLimits,
    ) -> Outcome {
        feed(reads, boundary, profile, limits, false, &[])
    }

    /// [`decode`] with MIME types, applying a case's `decisions` to its parts.
    pub fn decode_case(
        reads: &[&[u8]],
        boundary: &[u8],
        profile: Profile,
        limits: MultipartLimits,
        decisions: &[(usize, Decision)],
    ) -> Outcome {
        feed(reads, boundary, profile, limits, true, decisions)
    }

    fn feed(
        reads: &[&[u8]],
        boundary: &[u8],
        profile: Profile,
        limits: MultipartLimits,
        mime_types: bool,
        decisions: &[(usize, Decision)],
    ) -> Outcome {
        let mut out = Outcome::default();
        let mut reader = match MultipartReader::new(boundary, profile, limits) {
            Ok(reader) => reader,
            Err(e) => {
                out.fail(e);
                return out;
            }
        };
        let mut pending = Vec::new();
        let mut in_data = false;
        for (i, read) in reads.iter().enumerate() {
            pending.extend_from_slice(read);
            let eof = i + 1 == reads.len();
            loop {
                let step = match reader.decode(&pending, eof) {
                    Ok(step) => step,
                    Err(e) => {
                        out.fail(e);
                        return out;
                    }
                };
                let mut end = false;
                match step.event {
                    Some(MultipartEvent::Part(p)) => {
                        in_data = true;
                        let filename = p.filename();
                        out.part(
                            &p.name(),
                            filename.as_ref().map(|f| f.as_str()),
                            p.content_type(),
                        );
                        if mime_types {
                            let mime = p.mime_type();
                            out.mime_types.push(mime.map(|m| m.as_bytes().to_vec()));
                        }
                        match decisions.iter().find(|(i, _)| *i == p.index()) {
                            Some((_, Decision::Skip)) => assert!(reader.skip_part()),
                            Some((_, Decision::Limit(n))) => assert!(reader.limit_part(*n)),
                            None => {}
                        }
                    }
                    Some(MultipartEvent::Data(d)) => {
                        assert!(in_data, "data outside a part");
                        out.data(d);
                    }
                    Some(MultipartEvent::PartEnd) => in_data = false,
                    Some(MultipartEvent::End) => end = true,
                    None => {
                        pending.drain(..step.consumed);
                        let cap = held_at_most(boundary, limits, in_data);
                        assert!(pending.len() < cap, "held {} bytes", pending.len());
                        assert!(!eof, "no event at the end of the input");
                        break;
                    }
                }
                pending.drain(..step.consumed);
                if end {
                    assert!(pending.is_empty() && eof, "End before the end of the input");
                    return out;
                }
            }
        }
        unreachable!("the last read has eof set")
    }

    pub fn limits(case: &Value) -> MultipartLimits {
        crate::support::vectors::limits_with(case, MultipartLimits::set)
    }

    /// The case's profiles: `profiles` (names), the default when absent.
    pub fn profiles(case: &Value) -> Vec<Profile> {
        match case.get("profiles").and_then(Value::as_array) {
            None => vec![Profile::default()],
            Some(names) => names
                .iter()
                .map(|n| n.as_str().and_then(|n| n.parse().ok()))
                .map(|p| p.unwrap_or_else(|| panic!("profiles in {case}")))
                .collect(),
        }
    }

    pub fn expected(case: &Value) -> Value {
        super::expected(case, "parts")
    }

    /// The case's `mime_types` (one per expected part: the serialized MIME type or null),
    /// when it has them.
    pub fn expected_mime_types(case: &Value) -> Option<&Value> {
        case.get("mime_types")
    }

    /// A case's `content_type` as bytes: one byte per character (each U+0000-U+00FF), as a
    /// header is a byte string.
    pub fn content_type_bytes(case: &Value) -> Option<Vec<u8>> {
        let text = case.get("content_type")?.as_str()?;
        Some(
            text.chars()
                .map(|c| {
                    u8::try_from(c).unwrap_or_else(|_| panic!("{c:?} in content_type of {case}"))
                })
                .collect(),
        )
    }
}
