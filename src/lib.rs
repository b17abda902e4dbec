//! reqparse: allocation-free parsing of the parts of an HTTP request that servers touch most.
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod disposition;
pub mod percent;
pub mod query;
pub mod uri;

// Not core: shared by the host shim and the component guest, so both answer alike.
pub mod inspect;

#[cfg(feature = "host")]
pub mod host;

#[cfg(feature = "engine-wasm")]
pub mod engine;

#[cfg(all(feature = "component", feature = "js", target_arch = "wasm32"))]
compile_error!("the `component` and `js` features are exclusive on wasm32: build them separately");

// Export names contain `:`, which native linkers reject.
#[cfg(all(feature = "component", target_arch = "wasm32"))]
mod component;

#[cfg(all(feature = "js", target_arch = "wasm32"))]
mod js;

// The README's examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
