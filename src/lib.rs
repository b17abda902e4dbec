//! reqparse: allocation-free parsing of the parts of an HTTP request that servers touch most.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

extern crate alloc;

pub mod disposition;
pub mod percent;
pub mod query;
pub mod uri;

// Crate-private: class-table builders and checked slicing shared by the core parsers.
mod bytes;

// Not core: shared by the host shim and the component guest, so both answer alike.
#[cfg(feature = "inspect")]
pub mod inspect;

#[cfg(feature = "host")]
pub mod host;

#[cfg(feature = "engine-wasm")]
pub mod engine;

#[cfg(all(feature = "component", feature = "js", target_arch = "wasm32"))]
compile_error!("the `component` and `js` features are exclusive on wasm32: build them separately");

// The component (`component`) and npm (`js`) exports. wasm32 only: export names contain `:`,
// which native linkers reject.
#[cfg(all(any(feature = "component", feature = "js"), target_arch = "wasm32"))]
mod faces;

/// A profile name that is not one of the module's profiles (`"whatwg"`, `"dotnet"`,
/// `"strict"` for [`query::Profile`]; `"strict"`, `"browser"`, `"dotnet"` for
/// [`disposition::Profile`]).
///
/// ```
/// let err = "WHATWG".parse::<reqparse::query::Profile>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown profile (expected one of: whatwg, dotnet, strict)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownProfile {
    /// The names that would have been accepted, comma-separated.
    pub expected: &'static str,
}

impl core::fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "unknown profile (expected one of: {})", self.expected)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UnknownProfile {}

// The README's examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
