//! What the integration tests share. Each test binary says `mod support;` and uses the parts it
//! needs; the parts that need a feature are compiled only with it.
//!
//! - [`alloc`]: the counting global allocator (declare it with one line, see there);
//! - [`vectors`]: `tests/vectors/*.json`, with the schema's defaults for missing keys;
//! - [`body`]: the body readers' vectors: outcomes, the native feeding loops, the splits;
//! - [`component`]: the bundled `component/reqparse.component.wasm` in wasmtime (feature `engine-wasm`);
//! - [`host`]: a shim server on a loopback port and a small HTTP/1.1 client (feature `host`);
//! - [`serve`]: `reqparse serve` as a child process, stopped by a signal (feature `cli`);
//! - [`stream`]: the async readers' executor, sources and chunkings (feature `async`).

// Every test binary compiles all of this and uses only some of it.
#![allow(dead_code)]

pub mod alloc;
pub mod body;
#[cfg(feature = "engine-wasm")]
pub mod component;
#[cfg(feature = "host")]
pub mod host;
#[cfg(feature = "cli")]
pub mod serve;
#[cfg(feature = "async")]
pub mod stream;
pub mod vectors;
