//! The engine's one error type: what went wrong loading the component or in one call.

use std::borrow::Cow;
use std::error::Error;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Which kind of [`EngineError`] (not a parse error: those are the guest's answer,
/// [`ParseError`](super::ParseError)).
///
/// ```
/// use reqparse::engine::EngineErrorKind;
/// assert_ne!(EngineErrorKind::InputTooLarge, EngineErrorKind::Trap);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineErrorKind {
    /// The component could not be loaded: read, compiled, checked or prepared
    /// ([`EngineError::path`] names the file).
    Load,
    /// A new instance could not be created.
    Instantiate,
    /// The input exceeded [`Limits::max_input_bytes`](super::Limits::max_input_bytes); the
    /// guest was not entered.
    InputTooLarge,
    /// The guest ran past [`Limits::deadline`](super::Limits::deadline).
    Deadline,
    /// The guest tried to grow its memory past
    /// [`Limits::max_memory_bytes`](super::Limits::max_memory_bytes).
    MemoryLimit,
    /// Any other trap in the guest.
    Trap,
    /// A resource (a query map, a body reader) was used after a fault dropped the instance
    /// that made it.
    StaleHandle,
    /// The guest's answer broke the interface's contract (a span outside what was fed, text
    /// that is not UTF-8): a faulty or foreign component.
    InvalidAnswer,
}

/// An error of the engine: loading the component ([`WasmEngine::load`](super::WasmEngine::load)),
/// creating an instance, or one call.
///
/// `Display` is one line; `{:#}` appends the causes (wasmtime's error, an I/O error), still on
/// one line, which [`Error::source`] also hands out.
///
/// ```
/// use reqparse::engine::{EngineErrorKind, WasmEngine};
/// use std::path::Path;
///
/// let Err(err) = WasmEngine::load(Some(Path::new("/nonexistent/reqparse.wasm"))) else {
///     panic!("loaded a file that does not exist");
/// };
/// assert_eq!(err.kind(), EngineErrorKind::Load);
/// assert_eq!(err.path(), Some(Path::new("/nonexistent/reqparse.wasm")));
/// assert!(format!("{err:#}").starts_with(&format!("{err}: ")), "{err:#}");
///
/// let mut inspector = WasmEngine::load(None)?.inspector()?;
/// let err = inspector.query_raw_pairs(&"a".repeat(10 << 20)).unwrap_err();
/// assert_eq!(err.kind(), EngineErrorKind::InputTooLarge);
/// assert_eq!(err.to_string(), "input of 10485760 bytes exceeds the limit of 262144 bytes");
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
#[derive(Clone, Debug)]
pub struct EngineError {
    kind: EngineErrorKind,
    message: Cow<'static, str>,
    path: Option<PathBuf>,
    // Arc: wasmtime's error is not Clone, and this type has always been.
    source: Option<Arc<wasmtime::Error>>,
}

impl EngineError {
    /// Which kind of fault this was.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let err = inspector.query_raw_pairs(&"a".repeat(10 << 20)).unwrap_err();
    /// assert_eq!(err.kind(), reqparse::engine::EngineErrorKind::InputTooLarge);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn kind(&self) -> EngineErrorKind {
        self.kind
    }

    /// The component file, for [`EngineErrorKind::Load`] errors about a file (`None` for the
    /// bundled component and for every other kind).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let err = inspector.query_raw_pairs(&"a".repeat(10 << 20)).unwrap_err();
    /// assert_eq!(err.path(), None);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub(super) fn new(kind: EngineErrorKind, message: impl Into<Cow<'static, str>>) -> Self {
        EngineError {
            kind,
            message: message.into(),
            path: None,
            source: None,
        }
    }

    /// A [`EngineErrorKind::Load`] error about the component at `path` (`None`: the bundled
    /// one).
    pub(super) fn load(path: Option<&Path>, message: impl Into<Cow<'static, str>>) -> Self {
        EngineError {
            path: path.map(Path::to_path_buf),
            ..Self::new(EngineErrorKind::Load, message)
        }
    }

    /// Keeps `cause` (wasmtime's error, or any error wasmtime can wrap: `std::io::Error`) as
    /// the [`Error::source`].
    pub(super) fn caused_by(mut self, cause: impl Into<wasmtime::Error>) -> Self {
        self.source = Some(Arc::new(cause.into()));
        self
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        // `{:#}` as anyhow and wasmtime write it: the causes on the same line.
        if f.alternate() {
            let mut cause = self.source();
            while let Some(e) = cause {
                write!(f, ": {e}")?;
                cause = e.source();
            }
        }
        Ok(())
    }
}

impl Error for EngineError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        // wasmtime's error derefs to the `dyn Error` it wraps (it is no `Error` itself).
        let cause: &wasmtime::Error = self.source.as_deref()?;
        Some(&**cause)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_one_line_and_alternate_appends_the_causes() {
        let cause = wasmtime::Error::msg("wasm trap: unreachable").context("in the guest");
        let err = EngineError::new(EngineErrorKind::Trap, "the guest trapped").caused_by(cause);
        assert_eq!(err.to_string(), "the guest trapped");
        assert_eq!(
            format!("{err:#}"),
            "the guest trapped: in the guest: wasm trap: unreachable"
        );
        let source = err.source().expect("wasmtime's error is the source");
        assert_eq!(source.to_string(), "in the guest");
        assert_eq!(err.clone().kind(), EngineErrorKind::Trap);
        assert_eq!(err.path(), None);
    }

    #[test]
    fn load_errors_name_the_file_and_keep_io_errors() {
        let path = Path::new("/x/reqparse.wasm");
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let err = EngineError::load(Some(path), "cannot read it").caused_by(io);
        assert_eq!(err.kind(), EngineErrorKind::Load);
        assert_eq!(err.path(), Some(path));
        assert_eq!(format!("{err:#}"), "cannot read it: gone");
    }
}
