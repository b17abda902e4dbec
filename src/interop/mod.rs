//! Interoperation with other crates, each behind its own feature (neither is in the defaults):
//!
//! - `serde`: [`Serialize`](::serde::Serialize) for what the parsers return, in the JSON shapes the
//!   `reqparse` command prints (see [`serde`]); no new names, only trait impls.
//! - `http`: parsing straight from the `http` crate's `Uri`, `HeaderValue`, `Request` and
//!   `request::Parts` (see [`http`]).
#![forbid(unsafe_code)]

#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "serde")]
pub mod serde;
