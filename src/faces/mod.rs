//! The two WebAssembly faces: thin exports over the core, one per binding generator, compiled
//! only for wasm32 (see src/lib.rs). Each converts types and nothing else, so every face
//! answers exactly what the native crate answers.

// wit-bindgen exports of `wit/reqparse.wit` (feature `component`).
#[cfg(feature = "component")]
mod component;

// wasm-bindgen exports for the npm package in `js/` (feature `js`).
#[cfg(feature = "js")]
mod js;
