//! wasm-bindgen exports: type conversion only.
