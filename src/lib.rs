//! reqparse: allocation-free parsing of the parts of an HTTP request that servers touch most:
//! query strings, URIs, `Content-Disposition` headers and request bodies (chunked,
//! urlencoded, multipart/form-data), with the same answers from Rust, from a WebAssembly
//! component and from an npm package.
//!
//! # Guarantees
//!
//! - **`no_std` + `alloc`.** The parsers ([`query`], [`uri`], [`disposition`], [`body`]) need
//!   only `alloc`, and depend on `memchr` (and `idna` for Unicode hosts).
//! - **Zero allocations where it is proven**: enumerating pairs, decoding what needs no
//!   decoding, decoding into a buffer with room, parsing a `Content-Disposition` and reading
//!   its parameters, reading a body; exactly one for each builder. Counting-allocator tests
//!   (`tests/alloc_*.rs`) hold the crate to it.
//! - **No panics** on any input: property tests and fuzz targets. The core's one `unsafe`
//!   module is the vector percent-decoder (`src/vector.rs`, SSSE3/AVX2 or simd128: its invariants written at its top,
//!   its tests run under Miri).
//! - **Finite limits, reported as errors**: every limit on attacker-controlled input
//!   ([`disposition::MAX_HEADER_LEN`], [`query::MapOptions`], the body readers' limits) is an
//!   error naming it and the byte offset, never a silent truncation.
//! - **Profiles, not guesses**: where implementations disagree on bad input, a `Profile` says
//!   whose answer you get (WHATWG or ASP.NET Core for queries; RFC 6266, Chromium or ASP.NET
//!   Core for `Content-Disposition`); the names ([`query::Profile::as_str`]) are the ones
//!   every face uses.
//!
//! # A tour
//!
//! [`query`]: raw pairs borrow from the input and decode on demand; [`query::str_pairs`]
//! hands out the raw name and value as `&str`, and `value_in` borrows or decodes into one
//! scratch buffer.
//!
//! ```
//! use reqparse::query::{self, Profile};
//!
//! let mut scratch = String::new();
//! for pair in query::str_pairs("?q=rust+forms&lang=en") {
//!     let raw: &str = pair.value();
//!     let decoded = pair.value_in(Profile::Whatwg, &mut scratch)?;
//!     if pair.name() == "q" {
//!         assert_eq!((raw, decoded), ("rust+forms", "rust forms"));
//!     }
//! }
//! # Ok::<(), reqparse::query::QueryError>(())
//! ```
//!
//! [`uri`]: ASP.NET Core's `UriHelper`, building with one exactly sized allocation and
//! splitting without any (unless the path has escapes to decode).
//!
//! ```
//! use reqparse::uri;
//!
//! let url = uri::build_absolute("https", "bücher.example", "", "/a b", "?x=1", "")?;
//! assert_eq!(url, "https://xn--bcher-kva.example/a%20b?x=1");
//! let parts = uri::split_absolute(&url)?;
//! assert_eq!((parts.host, &*parts.path), ("xn--bcher-kva.example", "/a b"));
//! # Ok::<(), reqparse::uri::UriError>(())
//! ```
//!
//! [`disposition`]: RFC 6266 with RFC 8187 ext-values and RFC 2231 continuations, borrowed
//! views, the effective filename, and a builder that writes only what it reads back.
//!
//! ```
//! use reqparse::disposition::{ContentDisposition, DispositionBuilder, DispositionType, Profile};
//!
//! let cd = ContentDisposition::parse(
//!     "form-data; name=\"upload\"; filename=\"résumé.pdf\"".as_bytes(),
//!     Profile::Strict,
//! )?;
//! assert_eq!(cd.kind(), DispositionType::FormData);
//! assert_eq!(cd.filename().as_deref(), Some("résumé.pdf"));
//! let header = DispositionBuilder::new("attachment").filename("€ rates.pdf").build()?;
//! // An ASCII fallback for old clients, the exact name as an RFC 8187 ext-value.
//! assert_eq!(header, "attachment; filename=\"_ rates.pdf\"; filename*=UTF-8''%E2%82%AC%20rates.pdf");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`body`]: sans-io readers fed the bytes read so far: [`body::chunked`] (RFC 9112 §7.1),
//! [`body::form`] (urlencoded, through the query decoder), [`body::multipart`]
//! (multipart/form-data, with a writer).
//!
//! ```
//! use reqparse::body::form::{FormEvent, FormReader};
//!
//! let mut reader = FormReader::default();
//! let step = reader.decode(b"city=S%C3%A3o+Paulo", true)?;
//! let Some(FormEvent::Pair(pair)) = step.event else { unreachable!() };
//! assert_eq!((pair.name, pair.value), ("city", "São Paulo"));
//! # Ok::<(), reqparse::body::form::FormError>(())
//! ```
//!
//! `host` (feature `host`): the HTTP/1.1 inspection server behind `reqparse serve`, mio
//! event loops whose idle connections hold almost no memory.
//!
//! ```no_run
//! # #[cfg(feature = "host")]
//! reqparse::host::serve(reqparse::host::Config::default())?;
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! `engine` (feature `engine-wasm`): the WebAssembly component in wasmtime, the same answers
//! from an untrusted guest. The component ships with the crate (`reqparse::bundled`, rebuilt and
//! compared by CI on every run), so nothing needs building on the host's side.
//!
//! ```no_run
//! # #[cfg(feature = "engine-wasm")] {
//! use reqparse::engine::{QueryProfile, WasmEngine};
//! let mut inspector = WasmEngine::bundled()?.inspector()?;
//! let pairs = inspector.query_pairs("a=1", QueryProfile::Whatwg)?;
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `interop` (features `serde` and `http`): `Serialize` in the CLI's JSON shapes, and
//! parsing from the `http` crate's `Uri`, `HeaderValue` and `Request`.
//!
//! ```
//! # #[cfg(all(feature = "http", feature = "serde"))] {
//! use reqparse::interop::http::RequestExt;
//!
//! let req = http::Request::get("/?q=1").header("Host", "localhost").body(())?;
//! assert_eq!(req.absolute_url()?, "http://localhost/?q=1");
//! let pairs: Vec<_> = req.query_pairs().collect();
//! assert_eq!(serde_json::to_string(&pairs)?, r#"[["q","1"]]"#);
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | `std::error::Error` impls, `multipart::MultipartReader::read_from` over `std::io::Read` |
//! | `idna` | yes | Unicode hosts become punycode in [`uri::build_absolute`] (without it they are an error) |
//! | `serde` | | `serde::Serialize` for what the parsers return (`interop::serde`); `no_std` |
//! | `http` | | `interop::http`: parsing from `http::Uri`, `HeaderValue`, `Request`, `request::Parts` |
//! | `async` | | `stream`: the multipart and form readers over a `Stream` of `Bytes` or an `http_body::Body`, data handed out as slices of the source's chunks |
//! | `axum` | | `axum`: `Multipart` and `Form` extractors for axum 0.8, limits per route, refusals answered 413 / 400 |
//! | `host` | | `host`: the native HTTP/1.1 server shim (mio) |
//! | `engine-wasm` | | `engine`: the component in wasmtime (the one that ships with the crate, or a file) |
//! | `bundled` | | `bundled`: the component's bytes and its WIT, for hosts of any runtime (`engine-wasm` and `cli` turn it on) |
//! | `cli` | | the `reqparse` command (`cargo install --path . --features cli`) |
//! | `inspect` | | the `reqparse serve` answer, shared by `host` and the component (an implementation detail) |
//! | `component`, `js` | | the wasm32 exports of the component and the npm package (wasm32 only, exclusive) |
#![cfg_attr(not(feature = "std"), no_std)]
// docs.rs (nightly, `--cfg docsrs`): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

extern crate alloc;

/// `Profile::ALL`, `as_str`, `Display` and `FromStr` for a module's `Profile`, from one list of
/// names (the default first): the name every face uses (CLI flag, JSON vectors, WIT, JS).
macro_rules! profile_names {
    ($($module:ident)::+: $first:ident => $first_name:literal $(, $variant:ident => $name:literal)* $(,)?) => {
        impl Profile {
            /// Every profile, the default first.
            ///
            /// ```
            #[doc = concat!("use reqparse::", stringify!($($module)::+), "::Profile;")]
            /// assert_eq!(Profile::ALL[0], Profile::default());
            /// ```
            pub const ALL: [Profile; [$first_name $(, $name)*].len()] =
                [Profile::$first $(, Profile::$variant)*];

            #[doc = concat!(
                "The profile's name in every face (CLI flag, JSON vectors, WIT, JS): `",
                $first_name $(, "`, `", $name)*, "`."
            )]
            ///
            /// ```
            #[doc = concat!("use reqparse::", stringify!($($module)::+), "::Profile;")]
            #[doc = concat!("assert_eq!(Profile::", stringify!($first), ".as_str(), \"", $first_name, "\");")]
            #[doc = concat!("assert_eq!(\"", $first_name, "\".parse::<Profile>(), Ok(Profile::", stringify!($first), "));")]
            /// assert!("nope".parse::<Profile>().is_err());
            /// ```
            pub const fn as_str(self) -> &'static str {
                match self {
                    Profile::$first => $first_name,
                    $(Profile::$variant => $name,)*
                }
            }
        }

        impl core::fmt::Display for Profile {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl core::str::FromStr for Profile {
            type Err = $crate::UnknownProfile;

            /// Parses a name written by [`Profile::as_str`] (exactly, lowercase).
            fn from_str(name: &str) -> Result<Self, Self::Err> {
                // The names are `as_str`'s, so the two cannot drift apart.
                Profile::ALL
                    .into_iter()
                    .find(|p| p.as_str() == name)
                    .ok_or($crate::UnknownProfile {
                        expected: concat!($first_name $(, ", ", $name)*),
                    })
            }
        }
    };
}
pub(crate) use profile_names;

// The no-panic rule of the core, checked rather than remembered: no indexing or slicing the
// compiler cannot prove in bounds (ARCHITECTURE.md, "No panics"); checked slicing goes
// through `bytes::slice`, 256-entry table lookups through `bytes::row`, and the few
// exceptions carry an `allow` with their reason. Tests index freely.
#[cfg_attr(not(test), deny(clippy::indexing_slicing))]
pub mod body;
#[cfg_attr(not(test), deny(clippy::indexing_slicing))]
pub mod disposition;
#[cfg_attr(not(test), deny(clippy::indexing_slicing))]
pub mod query;
#[cfg_attr(not(test), deny(clippy::indexing_slicing))]
pub mod uri;

// The core's percent toolbox: public for the property tests that check against it, not part
// of the API users are offered (hidden from the docs, no stability promise).
#[doc(hidden)]
#[cfg_attr(not(test), deny(clippy::indexing_slicing))]
pub mod percent;

// Async readers over streams of chunks (feature `async`): not core, and the core does not
// know them; they drive the body readers through the same protocol.
#[cfg(feature = "async")]
pub mod stream;

// axum extractors over `stream` (feature `axum`).
#[cfg(feature = "axum")]
pub mod axum;

// Trait impls and adapters for other crates (features `serde`, `http`).
#[cfg(any(feature = "serde", feature = "http"))]
pub mod interop;

// Crate-private: class-table builders and checked slicing shared by the core parsers.
#[cfg_attr(not(test), deny(clippy::indexing_slicing))]
mod bytes;

// Crate-private: percent-decoding 16 or 32 bytes a step (SSSE3/AVX2, simd128), the core's one
// module with `unsafe`; its invariants are written at its top.
#[cfg_attr(not(test), deny(clippy::indexing_slicing))]
mod vector;

// Not core: shared by the host shim and the component guest, so both answer alike. Public for
// the tests and benches that compare the two; an implementation detail of `reqparse serve`.
#[cfg(feature = "inspect")]
#[doc(hidden)]
pub mod inspect;

#[cfg(feature = "host")]
pub mod host;

#[cfg(feature = "engine-wasm")]
pub mod engine;

#[cfg(feature = "bundled")]
pub mod bundled;

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
