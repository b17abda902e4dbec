//! The multipart/form-data reader against `tests/vectors/multipart.json`, whole, split into
//! two reads at every point and one byte at a time; property tests of split invariance and
//! of `parse(write(parts)) == parts`; the allocation count of the data path.

mod support;

use proptest::prelude::*;
use reqparse::body::multipart::{
    boundary as boundary_of, write, MultipartEvent, MultipartLimits, MultipartReader, Profile,
    WriteError, WritePart,
};
use serde_json::json;
use support::body::cut;
use support::body::multipart::{
    content_type_bytes, decisions, decode, decode_case, expected, expected_error_part,
    expected_mime_types, limits, profiles, Outcome, PartOut,
};
use support::vectors;

#[global_allocator]
static GLOBAL: support::alloc::Counting = support::alloc::Counting;

#[test]
fn vectors_whole_and_split() {
    vectors::run("multipart.json", 60, |case, failures| {
        let source = vectors::required(case, "source");
        let boundary = vectors::required(case, "boundary").as_bytes();
        let input = vectors::input_bytes(case);
        let limits = limits(case);
        let want = expected(case);
        if let Some(problem) = content_type_problem(case, boundary) {
            failures.push(format!("{source}: {problem}"));
        }
        let decisions = decisions(case);
        let decode = |reads: &[&[u8]], boundary, profile, limits| {
            decode_case(reads, boundary, profile, limits, &decisions)
        };
        for profile in profiles(case) {
            let whole = decode(&[&input], boundary, profile, limits);
            if whole.shape() != want {
                failures.push(format!(
                    "{source} [{profile}]: got {} want {want}",
                    whole.shape()
                ));
                continue;
            }
            if let Some(part) = expected_error_part(case) {
                if whole.error_part != part {
                    failures.push(format!(
                        "{source} [{profile}]: error in part {:?} want {part:?}",
                        whole.error_part
                    ));
                }
            }
            if let Some(mime_types) = expected_mime_types(case) {
                if whole.mime_shape() != *mime_types {
                    failures.push(format!(
                        "{source} [{profile}]: MIME types {} want {mime_types}",
                        whole.mime_shape()
                    ));
                }
            }
            // Every split into two reads, and one byte at a time: the same outcome (MIME types
            // included).
            for at in 0..=input.len() {
                let (a, b) = input.split_at(at);
                let split = decode(&[a, b], boundary, profile, limits);
                if split != whole {
                    failures.push(format!("{source} [{profile}]: split at {at}: {split:?}"));
                    break;
                }
            }
            let mut bytes: Vec<&[u8]> = input.chunks(1).collect();
            bytes.push(b"");
            if decode(&bytes, boundary, profile, limits) != whole {
                failures.push(format!("{source} [{profile}]: one byte at a time differs"));
            }
        }
    });
}

/// A case's `content_type` (the request's header), when it has one: `boundary()` must find the
/// case's boundary in it, as the Fetch Standard reads it (the header's bytes as ISO-8859-1
/// text, the boundary looked for UTF-8 encoded: WPT formdata-parsing "Parse a non-ASCII
/// boundary parameter"), or refuse it with the case's `expect_error` (a case about the header
/// alone, whose body no profile reads).
fn content_type_problem(case: &serde_json::Value, boundary: &[u8]) -> Option<String> {
    let header = content_type_bytes(case)?;
    let (got, want) = match boundary_of(&header) {
        Ok(b) => {
            let text: String = b.iter().map(|&b| char::from(b)).collect();
            (json!(text), json!(std::str::from_utf8(boundary).unwrap()))
        }
        Err(e) => (
            json!({"kind": e.kind.name(), "offset": e.offset}),
            case["expect_error"].clone(),
        ),
    };
    (got != want).then(|| format!("content_type gives {got}, want {want}"))
}

#[test]
fn data_path_allocates_nothing() {
    let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n\
        --XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\
        Content-Type: image/jpeg\r\n\r\n\xff\xd8\r\n--X\xff\xe0\r\n--XyZ--\r\n";
    for profile in Profile::ALL {
        let mut reader = MultipartReader::new(b"XyZ", profile, MultipartLimits::default()).unwrap();
        // Reads of 7 bytes into a fixed buffer, as a caller with a small buffer makes them.
        let (n, events) = support::alloc::count(|| {
            let mut buf = [0u8; 256];
            let (mut fed, mut held, mut events) = (0, 0, 0);
            loop {
                let take = (body.len() - fed).min(7);
                buf[held..held + take].copy_from_slice(&body[fed..fed + take]);
                fed += take;
                let (mut start, end) = (0, held + take);
                loop {
                    let step = reader.decode(&buf[start..end], fed == body.len()).unwrap();
                    start += step.consumed;
                    match step.event {
                        Some(MultipartEvent::Part(p)) => {
                            assert!(!p.name().is_empty());
                            events += p.filename().map_or(1, |f| f.basename().len());
                        }
                        Some(MultipartEvent::End) => return events,
                        Some(_) => events += 1,
                        None => break,
                    }
                }
                buf.copy_within(start..end, 0);
                held = end - start;
            }
        });
        assert_eq!(n, 0, "{profile}: {n} allocations");
        assert!(events >= 10, "{profile}: {events} events");
    }
}

/// A boundary of RFC 2046 bchars, not ending in a space.
fn boundary() -> impl Strategy<Value = String> {
    "[A-Za-z0-9'()+_,./:=?-]([A-Za-z0-9'()+_,./:=? -]{0,20}[A-Za-z0-9'()+_,./:=?-])?"
}

/// Parts every profile reads back the same: names and filenames without `"`, `\` or
/// control characters.
fn parts(text: &'static str) -> impl Strategy<Value = Vec<PartOut>> {
    let part = (
        text,
        prop::option::of(text),
        prop::option::of("[!-~]([ -~]{0,10}[!-~])?"),
        prop_oneof![
            prop::collection::vec(any::<u8>(), 0..48),
            // Long and dense in the delimiter's bytes: near misses, CRs far from the start.
            prop::collection::vec(prop::sample::select(b"\r\n-xa0".to_vec()), 0..600),
        ],
    )
        .prop_map(|(name, filename, content_type, data)| PartOut {
            name,
            filename,
            content_type: content_type.map(String::into_bytes),
            data,
        });
    prop::collection::vec(part, 0..5)
}

/// Writes `parts`; `None` when the data happens to hold the delimiter.
fn written(boundary: &str, parts: &[PartOut]) -> Option<Vec<u8>> {
    let spec: Vec<WritePart<'_>> = parts
        .iter()
        .map(|p| WritePart {
            name: &p.name,
            filename: p.filename.as_deref(),
            content_type: p
                .content_type
                .as_deref()
                .map(|c| std::str::from_utf8(c).unwrap()),
            data: &p.data,
        })
        .collect();
    let len = match reqparse::body::multipart::written_len(boundary, &spec) {
        Ok(len) => len,
        Err(WriteError::BoundaryInData { .. }) => return None,
        Err(e) => panic!("{e} for {parts:?}"),
    };
    let body = write(boundary, &spec).unwrap();
    assert_eq!((body.len(), body.capacity()), (len, len));
    Some(body)
}

proptest! {
    #[test]
    fn written_bodies_read_back(b in boundary(), ps in parts("[ !#-\\[\\]-~é€😀]{0,12}")) {
        let Some(body) = written(&b, &ps) else { return Ok(()) };
        for profile in Profile::ALL {
            let out = decode(&[&body], b.as_bytes(), profile, MultipartLimits::default());
            prop_assert_eq!(&out, &Outcome { parts: ps.clone(), ..Outcome::default() }, "{}", profile);
        }
    }

    #[test]
    fn empty_parts_read_back_in_both_forms(
        b in boundary(),
        ps in parts("[ !#-\\[\\]-~é]{0,8}"),
        empty in prop::collection::vec(any::<bool>(), 5),
    ) {
        // Most parts empty: as the writer writes them (the empty line, no data, the
        // delimiter's CRLF) and as RFC 2046 §5.1.1 also allows (no CRLF between the empty
        // line and the delimiter, werkzeug's form): both read back to the same empty parts.
        let ps: Vec<PartOut> = ps
            .into_iter()
            .zip(&empty)
            .map(|(p, &e)| if e { PartOut { data: Vec::new(), ..p } } else { p })
            .collect();
        let Some(body) = written(&b, &ps) else { return Ok(()) };
        let want = Outcome { parts: ps.clone(), ..Outcome::default() };
        // The compact form, part by part: each part written alone, its close delimiter cut,
        // and for an empty part the CRLF before the delimiter too.
        let close = format!("--{b}--\r\n");
        let mut compact = Vec::new();
        for p in &ps {
            let one = written(&b, std::slice::from_ref(p)).unwrap();
            let cut = close.len() + if p.data.is_empty() { 2 } else { 0 };
            compact.extend_from_slice(&one[..one.len() - cut]);
        }
        compact.extend_from_slice(close.as_bytes());
        for profile in Profile::ALL {
            for form in [&body, &compact] {
                let out = decode(&[form], b.as_bytes(), profile, MultipartLimits::default());
                prop_assert_eq!(&out, &want, "{}", profile);
                let mut bytes: Vec<&[u8]> = form.chunks(1).collect();
                bytes.push(b"");
                prop_assert_eq!(&decode(&bytes, b.as_bytes(), profile, MultipartLimits::default()), &want);
            }
        }
    }

    #[test]
    fn lenient_skips_preamble_and_epilogue(
        b in boundary(),
        ps in parts("[ !#-\\[\\]-~é]{0,8}"),
        preamble in "[a-z .]{0,40}",
        epilogue in prop::collection::vec(any::<u8>(), 0..40),
    ) {
        let Some(body) = written(&b, &ps) else { return Ok(()) };
        let framed = [preamble.as_bytes(), b"\r\n", &body, &epilogue].concat();
        let out = decode(&[&framed], b.as_bytes(), Profile::Lenient, MultipartLimits::default());
        prop_assert_eq!(out, Outcome { parts: ps, ..Outcome::default() });
    }

    /// Lenient reads a body whose lines all end in LF (Go's and werkzeug's readers take
    /// them) as the same parts, however it is cut into reads.
    #[test]
    fn lenient_reads_lf_bodies(
        b in boundary(),
        ps in parts("[ !#-\\[\\]-~é]{0,8}"),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
    ) {
        let delimiter = format!("\n--{b}").into_bytes();
        // The data as the body has it: after the LF of the empty line, which with data that
        // begins `--b` is a delimiter (an empty part, then what follows it), as a CRLF is in
        // the writer's check (`WriteError::BoundaryInData`).
        let in_body = |data: &[u8]| [&b"\n"[..], data].concat();
        if ps.iter().any(|p| in_body(&p.data).windows(delimiter.len()).any(|w| w == delimiter)) {
            return Ok(());
        }
        let mut body = Vec::new();
        for p in &ps {
            body.extend_from_slice(format!("--{b}\nContent-Disposition: form-data; name=\"{}\"", p.name).as_bytes());
            if let Some(f) = &p.filename {
                body.extend_from_slice(format!("; filename=\"{f}\"").as_bytes());
            }
            if let Some(ct) = &p.content_type {
                body.extend_from_slice(b"\nContent-Type: ");
                body.extend_from_slice(ct);
            }
            body.extend_from_slice(b"\n\n");
            body.extend_from_slice(&p.data);
            body.push(b'\n');
        }
        body.extend_from_slice(format!("--{b}--\n").as_bytes());
        let want = Outcome { parts: ps, ..Outcome::default() };
        let limits = MultipartLimits::default();
        let whole = decode(&[&body], b.as_bytes(), Profile::Lenient, limits);
        prop_assert_eq!(&whole, &want);
        prop_assert_eq!(&decode(&cut(&body, &cuts), b.as_bytes(), Profile::Lenient, limits), &want);
    }

    /// Names and filenames with backslashes and controls, NUL excepted (Fetch refuses a NUL
    /// in a header: WPT formdata-parsing "Parse failure: NUL in a name").
    #[test]
    fn fetch_reads_back_backslashes_and_controls(b in boundary(), ps in parts("[^\"\r\n\x00]{0,12}")) {
        let Some(body) = written(&b, &ps) else { return Ok(()) };
        let out = decode(&[&body], b.as_bytes(), Profile::Fetch, MultipartLimits::default());
        prop_assert_eq!(out, Outcome { parts: ps, ..Outcome::default() });
    }

    #[test]
    fn split_invariance(
        b in boundary(),
        ps in parts("[ !#-\\[\\]-~é]{0,8}"),
        change in any::<Option<(prop::sample::Index, u8)>>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
    ) {
        let Some(mut body) = written(&b, &ps) else { return Ok(()) };
        if let Some((at, byte)) = change {
            // One byte changed, to something that matters to the grammar: errors must be
            // split-invariant too.
            let i = at.index(body.len());
            body[i] = [b'\r', b'\n', b'-', b' ', b'"', b':', b'\\', byte][usize::from(byte % 8)];
        }
        let limits = MultipartLimits { max_header_bytes: 96, ..MultipartLimits::default() };
        for profile in Profile::ALL {
            let whole = decode(&[&body], b.as_bytes(), profile, limits);
            prop_assert_eq!(&decode(&cut(&body, &cuts), b.as_bytes(), profile, limits), &whole);
            let mut bytes: Vec<&[u8]> = body.chunks(1).collect();
            bytes.push(b"");
            prop_assert_eq!(&decode(&bytes, b.as_bytes(), profile, limits), &whole);
        }
    }
}
