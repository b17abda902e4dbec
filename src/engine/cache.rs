//! Where the component comes from, and the precompiled-component cache: machine code kept as
//! `<component>.<key>.cwasm` (next to a component file; in the user's cache directory for the
//! bundled one), so only the first load compiles.

use std::borrow::Cow;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use wasmtime::component::Component;
use wasmtime::Engine;

use super::error::EngineError;

/// The component an engine runs.
#[derive(Clone, Debug)]
pub(super) enum Origin {
    /// A file (`WasmEngine::load` with a path, or `$REQPARSE_COMPONENT`).
    File(PathBuf),
    /// [`crate::bundled::COMPONENT`], the one that ships with the crate.
    Bundled,
}

impl Origin {
    pub(super) fn path(&self) -> Option<&Path> {
        match self {
            Origin::File(path) => Some(path),
            Origin::Bundled => None,
        }
    }

    /// "the component at PATH" or "the bundled component", for messages.
    pub(super) fn describe(&self) -> String {
        match self {
            Origin::File(path) => format!("the component at {}", path.display()),
            Origin::Bundled => "the bundled component".into(),
        }
    }

    /// A [`EngineErrorKind::Load`](super::EngineErrorKind::Load) error: `what` followed by
    /// [`Origin::describe`].
    pub(super) fn error(&self, what: &str) -> EngineError {
        EngineError::load(self.path(), format!("{what} {}", self.describe()))
    }
}

/// Loads the component of `origin`, through the precompiled cache when it is valid.
pub(super) fn load_component(engine: &Engine, origin: &Origin) -> Result<Component, EngineError> {
    let (bytes, cache_dir, file_name): (Cow<'_, [u8]>, _, _) = match origin {
        Origin::File(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| origin.error("cannot read").caused_by(e))?;
            let file_name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("component.wasm");
            (
                bytes.into(),
                path.parent().map(Path::to_path_buf),
                file_name,
            )
        }
        Origin::Bundled => (
            crate::bundled::COMPONENT.into(),
            user_cache_dir(),
            crate::bundled::FILE_NAME,
        ),
    };
    // One compilation at a time in this process: the others then find the cache.
    static COMPILING: Mutex<()> = Mutex::new(());
    let _compiling = COMPILING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let cached =
        cache_dir.map(|dir| dir.join(format!("{file_name}.{:016x}.cwasm", key(engine, &bytes))));

    if let Some(cached) = cached.as_ref().filter(|c| c.is_file()) {
        // SAFETY: `deserialize_file` trusts the file to be wasmtime's own output for this
        // engine's version and settings. It is: we only ever create it below, from
        // `precompile_component` on an engine with the same compatibility hash (the key in
        // its name), by writing a temporary file and renaming it into place, so a reader never
        // sees a partial file and a mapped file is never rewritten. Anyone able to write this
        // file could equally replace what it is cached from: the component file beside it
        // (trusted input here), or, for the bundled component, files in a directory that only
        // its owner may write (`user_cache_dir` checks), such as their shell's start-up files.
        // wasmtime also checks the header's version and settings and errors on a mismatch.
        // On error (a stale or foreign file) fall through and rebuild it.
        if let Ok(component) = unsafe { Component::deserialize_file(engine, cached) } {
            return Ok(component);
        }
    }
    let not_compiled = |e: wasmtime::Error| origin.error("cannot compile").caused_by(e);
    let compiled = engine.precompile_component(&bytes).map_err(not_compiled)?;
    if let Some(cached) = cached.as_deref() {
        // The cache is an optimisation: a read-only directory must not stop the load. Only a
        // component file's own directory is swept of older caches: the user's cache directory
        // is shared by every reqparse version on the machine, which must not evict each other.
        let sweep = matches!(origin, Origin::File(_));
        let _ = write_cache(file_name, cached, &compiled, sweep);
    }
    // SAFETY: `compiled` was produced by `precompile_component` on this very engine just above.
    unsafe { Component::deserialize(engine, &compiled) }.map_err(not_compiled)
}

/// What makes machine code valid: the component's bytes, and wasmtime's version and engine
/// settings (`precompile_compatibility_hash` covers both).
fn key(engine: &Engine, component: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    component.hash(&mut hasher);
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hasher.finish()
}

/// `$REQPARSE_CACHE_DIR`, else `$XDG_CACHE_HOME/reqparse`, else `$HOME/.cache/reqparse`,
/// created if missing; `None` (compile in memory at each load) when there is none or it may
/// be written by others than its owner.
fn user_cache_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    let dir = var("REQPARSE_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| var("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("reqparse")))
        .or_else(|| var("HOME").map(|d| PathBuf::from(d).join(".cache/reqparse")))?;
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(&dir).ok()?;
    private(&dir).then_some(dir)
}

/// Whether only the owner may write to `dir` (the machine code in it is mapped executable).
#[cfg(unix)]
fn private(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(dir).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o022 == 0)
}

#[cfg(not(unix))]
fn private(dir: &Path) -> bool {
    dir.is_dir()
}

/// Writes `compiled` to `cached`; with `sweep`, removes the other caches of `file_name` beside it.
fn write_cache(
    file_name: &str,
    cached: &Path,
    compiled: &[u8],
    sweep: bool,
) -> std::io::Result<()> {
    let tmp = cached.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, compiled)?;
    std::fs::rename(&tmp, cached)?;
    if let (true, Some(dir)) = (sweep, cached.parent()) {
        // Drop caches of older components or wasmtime versions.
        let prefix = format!("{file_name}.");
        for entry in std::fs::read_dir(dir)?.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with(&prefix) && name.ends_with(".cwasm") && entry.path() != cached {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    Ok(())
}
