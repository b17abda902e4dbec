//! The native host shim (issue 5).
