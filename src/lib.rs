//! reqparse: allocation-free parsing of the parts of an HTTP request that servers touch most.
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod disposition;
pub mod percent;
pub mod query;
pub mod uri;
