//! The component (`target/wasm/reqparse.component.wasm`) in wasmtime, for the tests that run it.

use reqparse::engine::{Limits, WasmEngine, WasmInspector};

/// The component with default limits.
pub fn engine() -> WasmEngine {
    engine_with(Limits::default())
}

/// The component with `limits`. Panics telling how to build the file when it is missing.
pub fn engine_with(limits: Limits) -> WasmEngine {
    let path = WasmEngine::default_component_path();
    assert!(
        path.exists(),
        "{} is missing: build it first with `bash .ci/build-component.sh`",
        path.display()
    );
    WasmEngine::load_with(Some(&path), limits).unwrap_or_else(|e| {
        panic!(
            "{}: {e:#} (rebuild it with `bash .ci/build-component.sh`)",
            path.display()
        )
    })
}

/// An inspector (one instance) of the component with default limits.
pub fn inspector() -> WasmInspector {
    engine().inspector().expect("an instance of the component")
}
