#![cfg(feature = "engine-wasm")]
//! The body readers through the component (`body` interface, `reqparse::engine`'s wrappers):
//! every case of `tests/vectors/{chunked,form,multipart}.json` fed to the guest's resources
//! whole, split in two at every point and one byte at a time. Each outcome must equal the
//! native reader's for the same reads and the vector's expectation; the guest may hold only
//! what the core's contract lets a caller hold. Multipart cases run through `feed` and through
//! `feed-to-part`, which stops at each part so that a case's `decisions` (`limit-part`,
//! `skip-part`) are made where a native caller makes them, errors name the part the vector's
//! `expect_error_part` does, and each part's MIME type (`mime-type`) is the native
//! `Part::mime_type` and the vector's `mime_types` entry. Then the guards: the input cap per
//! feed, and guest memory that a long body fed in reads does not grow.

mod support;

use proptest::prelude::*;
use reqparse::body::chunked::ChunkedLimits;
use reqparse::body::form::FormLimits;
use reqparse::body::multipart::{MultipartLimits, Profile};
use reqparse::engine::{EngineErrorKind, Limits, WasmInspector, WasmMultipartEvent};
use reqparse::query;
use support::body::multipart::Decision;
use support::body::{self, chunked, form, multipart};
use support::component::{engine_with, inspector};
use support::vectors;

/// The chunked decoder's outcome through the component, for these reads.
fn wasm_chunked(
    inspector: &mut WasmInspector,
    reads: &[&[u8]],
    limits: ChunkedLimits,
) -> chunked::Outcome {
    let mut decoder = inspector.chunked_decoder(limits).expect("a decoder");
    let mut out = chunked::Outcome::default();
    for read in reads {
        let fed = decoder.feed(read).expect("a feed");
        let mut end = false;
        for event in fed.events {
            end |= out.event(event);
        }
        if let Some(e) = fed.error {
            out.fail(e);
            return out;
        }
        if end {
            break;
        }
        let held = decoder.held();
        assert!(held < chunked::held_at_most(limits), "held {held} bytes");
    }
    out.consumed = decoder.position();
    if let Err(e) = decoder.finish().expect("finish") {
        out.fail(e);
    }
    out
}

/// The form reader's outcome through the component.
fn wasm_form(
    inspector: &mut WasmInspector,
    reads: &[&[u8]],
    profile: query::Profile,
    limits: FormLimits,
) -> form::Outcome {
    let mut reader = inspector.form_reader(profile, limits).expect("a reader");
    let mut pairs = Vec::new();
    for (i, read) in reads.iter().enumerate() {
        let fed = reader.feed(read, i + 1 == reads.len()).expect("a feed");
        let mut end = false;
        for event in fed.events {
            end |= form::event(&mut pairs, event);
        }
        if let Some(e) = fed.error {
            return Err(form::failure(e));
        }
        if end {
            return Ok(pairs);
        }
    }
    panic!("no end after the last read");
}

/// How the component's multipart reader is fed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feeding {
    /// `feed`: every event a read completes.
    Whole,
    /// `feed-to-part`: up to each part, where `decisions` are applied (then on with no bytes).
    ToPart,
}

/// The multipart reader's outcome through the component; `decisions` need
/// [`Feeding::ToPart`].
fn wasm_multipart(
    inspector: &mut WasmInspector,
    reads: &[&[u8]],
    boundary: &[u8],
    profile: Profile,
    limits: MultipartLimits,
    feeding: Feeding,
    decisions: &[(usize, Decision)],
) -> multipart::Outcome {
    assert!(feeding == Feeding::ToPart || decisions.is_empty());
    let mut out = multipart::Outcome::default();
    let made = inspector.multipart_reader(boundary, profile, limits);
    let mut reader = match made.expect("a call") {
        Ok(reader) => reader,
        Err(e) => {
            out.fail(e);
            return out;
        }
    };
    let mut in_data = false;
    for (i, read) in reads.iter().enumerate() {
        let eof = i + 1 == reads.len();
        let mut bytes: &[u8] = read;
        // Paused at a part: on with what the guest holds, once its decision is made.
        loop {
            let fed = match feeding {
                Feeding::Whole => reader.feed(bytes, eof),
                Feeding::ToPart => reader.feed_to_part(bytes, eof),
            };
            let fed = fed.expect("a feed");
            let (mut end, mut decision) = (false, None);
            let paused = feeding == Feeding::ToPart
                && matches!(fed.events.last(), Some(WasmMultipartEvent::Part(_)));
            for event in fed.events {
                match event {
                    WasmMultipartEvent::Part(p) => {
                        in_data = true;
                        let filename = p.filename();
                        out.part(
                            p.name(),
                            filename.as_ref().map(|f| f.as_str()),
                            p.content_type(),
                        );
                        out.mime_types
                            .push(p.mime_type().map(|m| m.as_bytes().to_vec()));
                        decision = decisions.iter().find(|(i, _)| *i == p.index());
                    }
                    WasmMultipartEvent::Data(d) => {
                        assert!(in_data, "data outside a part");
                        out.data(d);
                    }
                    WasmMultipartEvent::PartEnd => in_data = false,
                    WasmMultipartEvent::End => end = true,
                }
            }
            if let Some(e) = fed.error {
                out.fail(e);
                return out;
            }
            if end {
                assert!(eof, "End before the end of the input");
                return out;
            }
            if let Some((index, decision)) = decision {
                assert!(paused, "part {index}'s data was read before its decision");
                let applied = match decision {
                    Decision::Skip => reader.skip_part(),
                    Decision::Limit(n) => reader.limit_part(*n),
                };
                assert!(applied.expect("a call"), "part {index}: no decision taken");
            }
            if !paused {
                break;
            }
            bytes = b"";
        }
        let held = reader.held();
        let cap = multipart::held_at_most(boundary, limits, in_data);
        assert!(held < cap, "held {held} bytes");
    }
    unreachable!("the last read has eof set")
}

/// Checks every split of a case: component == native, and == the expectation.
fn check_splits<O: PartialEq + std::fmt::Debug>(
    failures: &mut Vec<String>,
    source: &str,
    input: &[u8],
    mut run: impl FnMut(&[&[u8]]) -> (O, O),
    matches: impl Fn(&O) -> Result<(), String>,
) {
    for (label, reads) in body::splits(input) {
        let (wasm, native) = run(&reads);
        if wasm != native {
            failures.push(format!(
                "{source}: {label}: component {wasm:?} != native {native:?}"
            ));
            return;
        }
        if let Err(e) = matches(&wasm) {
            failures.push(format!("{source}: {label}: {e}"));
            return;
        }
    }
}

#[test]
fn chunked_vectors_through_the_component() {
    let mut inspector = inspector();
    vectors::run("chunked.json", 40, |case, failures| {
        let source = vectors::required(case, "source");
        let input = vectors::input_bytes(case);
        let limits = chunked::limits(case);
        let want = chunked::expected(case, input.len() as u64);
        check_splits(
            failures,
            source,
            &input,
            |reads| {
                let wasm = wasm_chunked(&mut inspector, reads, limits);
                (wasm, chunked::decode(reads, limits))
            },
            |got| match got.shape() {
                shape if shape == want => Ok(()),
                shape => Err(format!("got {shape} want {want}")),
            },
        );
    });
}

#[test]
fn form_vectors_through_the_component() {
    let mut inspector = inspector();
    vectors::run("form.json", 10, |case, failures| {
        let source = vectors::required(case, "source");
        let input = vectors::required(case, "input").as_bytes();
        let (profile, limits) = (vectors::profile(case), form::limits(case));
        let want = form::expected(case);
        check_splits(
            failures,
            source,
            input,
            |reads| {
                let wasm = wasm_form(&mut inspector, reads, profile, limits);
                (wasm, form::decode(reads, profile, limits))
            },
            |got| match form::shape(got) {
                shape if shape == want => Ok(()),
                shape => Err(format!("got {shape} want {want}")),
            },
        );
    });
}

/// The native reader's outcome for the same reads and decisions, MIME types included.
fn native_multipart(
    reads: &[&[u8]],
    boundary: &[u8],
    profile: Profile,
    limits: MultipartLimits,
    decisions: &[(usize, Decision)],
) -> multipart::Outcome {
    multipart::decode_case(reads, boundary, profile, limits, decisions)
}

#[test]
fn multipart_vectors_through_the_component() {
    let mut inspector = inspector();
    vectors::run("multipart.json", 60, |case, failures| {
        let source = vectors::required(case, "source");
        let boundary = vectors::required(case, "boundary").as_bytes();
        let input = vectors::input_bytes(case);
        let limits = multipart::limits(case);
        let decisions = multipart::decisions(case);
        let want = multipart::expected(case);
        let want_part = multipart::expected_error_part(case);
        let want_mime = multipart::expected_mime_types(case);
        // A case with decisions needs the pause at each part; the others run both ways.
        let feedings = if decisions.is_empty() {
            &[Feeding::Whole, Feeding::ToPart][..]
        } else {
            &[Feeding::ToPart][..]
        };
        for profile in multipart::profiles(case) {
            for &feeding in feedings {
                check_splits(
                    failures,
                    &format!("{source} [{profile}, {feeding:?}]"),
                    &input,
                    |reads| {
                        let wasm = wasm_multipart(
                            &mut inspector,
                            reads,
                            boundary,
                            profile,
                            limits,
                            feeding,
                            &decisions,
                        );
                        let native = native_multipart(reads, boundary, profile, limits, &decisions);
                        (wasm, native)
                    },
                    |got| match (got.shape(), want_part) {
                        (shape, _) if shape != want => Err(format!("got {shape} want {want}")),
                        (_, Some(part)) if got.error_part != part => {
                            Err(format!("error in part {:?} want {part:?}", got.error_part))
                        }
                        _ => match want_mime {
                            Some(m) if got.mime_shape() != *m => {
                                Err(format!("MIME types {} want {m}", got.mime_shape()))
                            }
                            _ => Ok(()),
                        },
                    },
                );
            }
        }
    });
}

#[test]
fn a_feed_over_the_input_cap_never_enters_the_guest() {
    let limits = Limits {
        max_input_bytes: 1024,
        ..Limits::default()
    };
    let mut inspector = engine_with(limits).inspector().expect("an instance");
    let mut decoder = inspector
        .chunked_decoder(ChunkedLimits::default())
        .expect("a decoder");
    let big = vec![b'a'; 1025];
    let err = decoder.feed(&big).expect_err("over the cap");
    assert_eq!(err.kind(), EngineErrorKind::InputTooLarge);
    // The decoder is untouched: the body goes on.
    let fed = decoder.feed(b"1\r\nx\r\n0\r\n\r\n").expect("a feed");
    assert_eq!(fed.events.len(), 2, "{:?}", fed.events);
    drop(decoder);
    assert_eq!(inspector.instances_created(), 1);
}

#[test]
fn a_fault_in_a_feed_is_one_error_then_a_stale_reader_then_a_fresh_instance() {
    // Reads may be large, the guest's memory may not: lifting a 4 MiB read traps.
    let limits = Limits {
        max_input_bytes: 8 << 20,
        max_memory_bytes: 2 << 20,
        ..Limits::default()
    };
    let mut inspector = engine_with(limits).inspector().expect("an instance");
    let mut reader = inspector
        .form_reader(query::Profile::Whatwg, FormLimits::default())
        .expect("a reader");
    let big = vec![b'a'; 4 << 20];
    let err = reader.feed(&big, false).expect_err("over the memory cap");
    assert_eq!(err.kind(), EngineErrorKind::MemoryLimit, "{err:#}");
    let err = reader.feed(b"a=1", true).expect_err("the instance is gone");
    assert_eq!(err.kind(), EngineErrorKind::StaleHandle, "{err:#}");
    drop(reader);
    // The inspector makes a new instance, and a new reader works.
    let mut reader = inspector
        .form_reader(query::Profile::Whatwg, FormLimits::default())
        .expect("a reader on a new instance");
    let fed = reader.feed(b"a=1", true).expect("a feed");
    assert_eq!(fed.events.len(), 2, "{:?}", fed.events);
    drop(reader);
    assert_eq!(inspector.instances_created(), 2);
}

#[test]
fn a_long_body_in_reads_keeps_guest_memory_flat() {
    // 16 MiB of file data in 64 KiB reads, each read ending in a piece of the delimiter so
    // the guest always holds a tail: the guest's memory must not follow the body.
    let boundary = b"----WebKitFormBoundary7MA4YWxkTrZu0gW";
    let mut head = b"--".to_vec();
    head.extend_from_slice(boundary);
    head.extend_from_slice(
        b"\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.bin\"\r\n\r\n",
    );
    let mut read = vec![b'x'; 64 << 10];
    let tail = b"\r\n--";
    let at = read.len() - tail.len();
    read[at..].copy_from_slice(tail);
    let mut inspector = inspector();
    let mut reader = inspector
        .multipart_reader(boundary, Profile::Fetch, MultipartLimits::default())
        .expect("a call")
        .expect("a reader");
    // The data's length and hash, against those of the 256 reads.
    let (mut data, mut hash) = (0usize, Fnv::default());
    let mut count = |events: Vec<WasmMultipartEvent<'_>>| {
        for event in events {
            if let WasmMultipartEvent::Data(d) = event {
                data += d.len();
                hash.add(d);
            }
        }
    };
    count(reader.feed(&head, false).expect("head").events);
    for _ in 0..256 {
        let fed = reader.feed(&read, false).expect("a read");
        assert_eq!(fed.error, None);
        count(fed.events);
    }
    let mut end = b"\r\n--".to_vec();
    end.extend_from_slice(boundary);
    end.extend_from_slice(b"--\r\n");
    let fed = reader.feed(&end, true).expect("the end");
    assert_eq!(fed.error, None);
    assert_eq!(fed.events.last(), Some(&WasmMultipartEvent::End));
    count(fed.events);
    drop(reader);
    assert_eq!(data, 256 * (64 << 10));
    let mut want = Fnv::default();
    for _ in 0..256 {
        want.add(&read);
    }
    assert_eq!(hash.0, want.0, "the data differs from what was fed");
    let memory = inspector.guest_memory_bytes();
    assert!(memory < 2 << 20, "the guest grew to {memory} bytes");
}

/// The vector inputs of one reader (with each case's settings), loaded once per test.
fn inputs(file: &str) -> Vec<serde_json::Value> {
    vectors::load(file)
}

/// A vector input with perhaps one byte changed to one that matters to the grammars, so that
/// errors are split-invariant through the component too.
fn changed(mut input: Vec<u8>, change: Option<(prop::sample::Index, u8)>) -> Vec<u8> {
    if let (Some((at, byte)), false) = (change, input.is_empty()) {
        let i = at.index(input.len());
        input[i] = [b'\r', b'\n', b'-', b';', b'"', b':', b'&', byte][usize::from(byte % 8)];
    }
    input
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Reads cut anywhere (up to 8 cuts) of every reader's vector inputs, some with a byte
    /// changed: the component's outcome is the native reader's.
    #[test]
    fn random_reads_match_native(
        pick in any::<prop::sample::Index>(),
        change in any::<Option<(prop::sample::Index, u8)>>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let mut inspector = inspector();
        let chunked_cases = inputs("chunked.json");
        let case = pick.get(&chunked_cases);
        let input = changed(vectors::input_bytes(case), change);
        let (reads, limits) = (body::cut(&input, &cuts), chunked::limits(case));
        prop_assert_eq!(wasm_chunked(&mut inspector, &reads, limits), chunked::decode(&reads, limits));

        let form_cases = inputs("form.json");
        let case = pick.get(&form_cases);
        let input = changed(vectors::required(case, "input").as_bytes().to_vec(), change);
        let (reads, profile, limits) = (body::cut(&input, &cuts), vectors::profile(case), form::limits(case));
        prop_assert_eq!(wasm_form(&mut inspector, &reads, profile, limits), form::decode(&reads, profile, limits));

        let multipart_cases = inputs("multipart.json");
        let case = pick.get(&multipart_cases);
        let boundary = vectors::required(case, "boundary").as_bytes();
        let input = changed(vectors::input_bytes(case), change);
        let (reads, limits) = (body::cut(&input, &cuts), multipart::limits(case));
        let decisions = multipart::decisions(case);
        for profile in Profile::ALL {
            prop_assert_eq!(
                wasm_multipart(&mut inspector, &reads, boundary, profile, limits, Feeding::Whole, &[]),
                native_multipart(&reads, boundary, profile, limits, &[])
            );
            prop_assert_eq!(
                wasm_multipart(&mut inspector, &reads, boundary, profile, limits, Feeding::ToPart, &decisions),
                native_multipart(&reads, boundary, profile, limits, &decisions)
            );
        }
    }
}

/// FNV-1a over a stream of pieces: the same whatever the pieces.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[test]
fn a_detached_reader_keeps_its_instance_until_it_is_dropped() {
    // An instance is recycled after every call, except while a detached reader lives: its
    // resource would go with it.
    let limits = Limits {
        recycle_after_calls: 1,
        ..Limits::default()
    };
    let mut inspector = engine_with(limits).inspector().expect("an instance");
    let head = reqparse::inspect::RequestHead {
        method: "GET",
        scheme: "http",
        host: "h",
        target: "/?a=1",
        content_disposition: None,
    };
    let mut reader = inspector
        .form_reader(query::Profile::Whatwg, FormLimits::default())
        .unwrap();
    assert!(reader.feed(b"name=Jo", false).unwrap().events.is_empty());
    let detached = reader.detach();
    let before = inspector.instances_created();
    for _ in 0..3 {
        inspector.inspect(&head, &mut String::new()).unwrap();
    }
    assert_eq!(
        inspector.instances_created(),
        before,
        "no recycling while detached"
    );
    let mut reader = inspector.attach_form(detached).unwrap();
    let fed = reader.feed(b"s&x=2", true).unwrap();
    let pairs: Vec<_> = fed
        .events
        .iter()
        .filter_map(|e| match e {
            reqparse::body::form::FormEvent::Pair(p) => Some((p.name, p.value)),
            _ => None,
        })
        .collect();
    assert_eq!(pairs, [("name", "Jos"), ("x", "2")]);
    drop(reader);
    // Nothing detached: the next calls recycle again.
    inspector.inspect(&head, &mut String::new()).unwrap();
    inspector.inspect(&head, &mut String::new()).unwrap();
    assert!(inspector.instances_created() > before);
    // A feed refused before the guest (over the input cap) is no fault: the instance lives on
    // and a reader detached from it still attaches.
    let detached = inspector
        .form_reader(query::Profile::Whatwg, FormLimits::default())
        .unwrap()
        .detach();
    let too_big = vec![b'a'; Limits::default().max_input_bytes + 1];
    let mut other = inspector
        .form_reader(query::Profile::Whatwg, FormLimits::default())
        .unwrap();
    assert_eq!(
        other.feed(&too_big, false).err().map(|e| e.kind()),
        Some(EngineErrorKind::InputTooLarge)
    );
    drop(other);
    assert!(inspector.attach_form(detached).is_ok());
}
