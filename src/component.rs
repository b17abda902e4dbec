//! wit-bindgen exports: type conversion only.
