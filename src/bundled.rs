//! The reqparse WebAssembly component as it ships with the crate (feature `bundled`, which
//! `engine-wasm` and `cli` turn on).
//!
//! [`COMPONENT`] is `component/reqparse.component.wasm` of this crate, built by
//! `.ci/build-component.sh` from this very source (wit-bindgen exports of [`WIT`], features
//! `component,idna`, wasm32-unknown-unknown, wasm-opt, `jco new`). It imports nothing: any
//! component runtime instantiates it with an empty linker. CI rebuilds it from scratch on every
//! run and fails when the fresh build differs from the committed file by a single byte, so it
//! can never be older than the code beside it.
//!
//! Rust hosts load it with [`WasmEngine::bundled`](crate::engine::WasmEngine::bundled)
//! (feature `engine-wasm`); hosts in other languages get the file from
//! `reqparse component --out reqparse.component.wasm`, or from these bytes.
//!
//! ```
//! use reqparse::bundled::{COMPONENT, WIT};
//!
//! // A WebAssembly component (layer 1), not a core module (layer 0).
//! assert_eq!(&COMPONENT[..4], b"\0asm");
//! assert_eq!(&COMPONENT[6..8], &[1, 0]);
//! assert!(WIT.contains("world reqparse"));
//! ```

/// The component's bytes (`component/reqparse.component.wasm`).
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("reqparse-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join(reqparse::bundled::FILE_NAME), reqparse::bundled::COMPONENT)?;
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub const COMPONENT: &[u8] = include_bytes!("../component/reqparse.component.wasm");

/// The file name hosts expect: `reqparse.component.wasm`.
///
/// ```
/// assert!(reqparse::bundled::FILE_NAME.ends_with(".wasm"));
/// ```
pub const FILE_NAME: &str = "reqparse.component.wasm";

/// The WIT the component exports (`wit/reqparse.wit`, package `reqparse:http`), for hosts that
/// generate bindings from it.
///
/// ```
/// assert!(reqparse::bundled::WIT.contains("package reqparse:http@"));
/// ```
pub const WIT: &str = include_str!("../wit/reqparse.wit");
