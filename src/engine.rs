//! wasmtime embedding of the reqparse component.
