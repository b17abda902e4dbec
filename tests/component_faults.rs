#![cfg(feature = "engine-wasm")]
//! Faults in the guest are errors for one call, never a crashed host: each case provokes one
//! (input limit, epoch deadline, memory cap) and checks that the next call works again.
//! One `#[test]` per engine configuration; cases inside run in order on one inspector.

mod support;

use std::time::Duration;

use reqparse::engine::{
    DispositionProfile, EngineErrorKind, Limits, QueryProfile, WasmEngine, WasmInspector,
};
use reqparse::inspect::RequestHead;
use support::component::engine_with;

/// The call that proves an inspector works after a fault.
fn assert_works(inspector: &mut WasmInspector) {
    let pairs = inspector
        .query_raw_pairs("ok=1&b")
        .expect("the next call works");
    assert_eq!(pairs, [("ok".into(), "1".into()), ("b".into(), "".into())]);
}

#[test]
fn engine_and_inspector_cross_threads() {
    fn send_sync<T: Send + Sync + Clone>() {}
    fn send<T: Send>() {}
    send_sync::<WasmEngine>();
    send::<WasmInspector>();
}

#[test]
fn hostile_10_mb_input_is_rejected_before_the_guest() {
    let mut inspector = engine_with(Limits::default()).inspector().unwrap();
    let huge = "a=b&".repeat(10 << 20 >> 2);
    let huge_bytes = vec![b'a'; 10 << 20];
    let head = RequestHead {
        method: "GET",
        scheme: "http",
        host: "example.com",
        target: &huge,
        content_disposition: None,
    };
    let head_cd = RequestHead {
        target: "/",
        content_disposition: Some(&huge_bytes),
        ..head
    };
    let mut out = String::new();
    let errors = [
        (
            "query_pairs",
            inspector.query_pairs(&huge, QueryProfile::Whatwg).map(drop),
        ),
        (
            "query_raw_pairs",
            inspector.query_raw_pairs(&huge).map(drop),
        ),
        (
            "query_spans",
            inspector.query_spans(&huge, QueryProfile::Strict).map(drop),
        ),
        ("split_absolute", inspector.split_absolute(&huge).map(drop)),
        (
            "build_relative",
            inspector.build_relative("", &huge, "", "").map(drop),
        ),
        (
            "parse_disposition",
            inspector
                .parse_disposition(&huge_bytes, DispositionProfile::Browser, true)
                .map(drop),
        ),
        ("inspect target", inspector.inspect(&head, &mut out)),
        (
            "inspect content-disposition",
            inspector.inspect(&head_cd, &mut out),
        ),
    ];
    for (case, result) in errors {
        let err = result.expect_err(case);
        assert_eq!(err.kind(), EngineErrorKind::InputTooLarge, "{case}: {err}");
        assert!(
            err.to_string().contains("exceeds the limit"),
            "{case}: {err}"
        );
    }
    assert!(out.is_empty());
    // Rejected up front: the instance never saw them and is still the first one.
    assert_eq!(inspector.instances_created(), 1);
    assert_works(&mut inspector);
    assert_eq!(inspector.instances_created(), 1);
}

#[test]
fn deadline_is_an_error_for_that_call_only() {
    let mut inspector = engine_with(Limits::default()).inspector().unwrap();
    // A zero deadline has always passed: the guest is interrupted at its first check.
    inspector.set_deadline(Duration::ZERO);
    let err = inspector
        .query_pairs("a=1", QueryProfile::Whatwg)
        .unwrap_err();
    assert_eq!(err.kind(), EngineErrorKind::Deadline, "{err}");
    assert!(!err.to_string().contains('\n'), "one line: {err}");
    inspector.set_deadline(Duration::from_secs(1));
    assert_works(&mut inspector);
    // The interrupted instance was replaced.
    assert_eq!(inspector.instances_created(), 2);
}

#[test]
fn memory_cap_is_an_error_for_that_call_only() {
    let limits = Limits {
        max_memory_bytes: 1 << 20,
        max_input_bytes: 1 << 20,
        ..Limits::default()
    };
    let mut inspector = engine_with(limits).inspector().unwrap();
    // 200 000 pairs become 200 000 pairs of guest strings: far past 1 MiB.
    let many = "a&".repeat(200_000);
    for (case, result) in [
        ("raw pairs", inspector.query_raw_pairs(&many).map(drop)),
        (
            "decoded pairs",
            inspector.query_pairs(&many, QueryProfile::Whatwg).map(drop),
        ),
    ] {
        let err = result.expect_err(case);
        assert_eq!(err.kind(), EngineErrorKind::MemoryLimit, "{case}: {err}");
        assert_works(&mut inspector);
    }
    assert_eq!(inspector.instances_created(), 3);
}

#[test]
fn instances_are_recycled_by_calls_and_by_memory() {
    let limits = Limits {
        recycle_after_calls: 3,
        ..Limits::default()
    };
    let mut inspector = engine_with(limits).inspector().unwrap();
    for _ in 0..3 {
        assert_works(&mut inspector);
    }
    assert_eq!(inspector.instances_created(), 1);
    assert_works(&mut inspector);
    assert_eq!(inspector.instances_created(), 2);

    let limits = Limits {
        recycle_memory_bytes: 1 << 20,
        ..Limits::default()
    };
    let mut inspector = engine_with(limits).inspector().unwrap();
    assert_works(&mut inspector);
    assert_eq!(
        inspector.instances_created(),
        1,
        "a small call keeps the instance"
    );
    let pairs = inspector.query_raw_pairs(&"a&".repeat(50_000)).unwrap();
    assert_eq!(pairs.len(), 50_000);
    assert_works(&mut inspector);
    assert_eq!(
        inspector.instances_created(),
        2,
        "memory grew past 1 MiB: replaced"
    );
}

#[test]
fn huge_deadline_is_clamped_not_overflowed() {
    let mut inspector = engine_with(Limits::default()).inspector().unwrap();
    inspector.set_deadline(Duration::MAX);
    assert_works(&mut inspector);
    assert_eq!(inspector.instances_created(), 1);
}
