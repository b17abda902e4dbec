//! The component that ships with the crate (`component/reqparse.component.wasm`, which
//! `.ci/build-component.sh` rebuilds) in wasmtime, for the tests that run it.

use reqparse::engine::{Limits, WasmEngine, WasmInspector};

/// The component with default limits.
pub fn engine() -> WasmEngine {
    engine_with(Limits::default())
}

/// The bundled component with `limits`.
pub fn engine_with(limits: Limits) -> WasmEngine {
    WasmEngine::bundled_with(limits).unwrap_or_else(|e| {
        panic!("the bundled component: {e:#} (rebuild it with `bash .ci/build-component.sh`)")
    })
}

/// An inspector (one instance) of the component with default limits.
pub fn inspector() -> WasmInspector {
    engine().inspector().expect("an instance of the component")
}
