//! The precompiled-component cache: machine code kept next to the component as
//! `<component>.<key>.cwasm`, so only the first load compiles.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::Mutex;

use wasmtime::component::Component;
use wasmtime::Engine;

use super::error::EngineError;

/// Loads `path`, through the precompiled cache when it is valid.
pub(super) fn load_component(engine: &Engine, path: &Path) -> Result<Component, EngineError> {
    let bytes = std::fs::read(path).map_err(|e| {
        EngineError::load(
            path,
            format!(
                "cannot read the reqparse component at {} (build it with .ci/build-component.sh)",
                path.display()
            ),
        )
        .caused_by(e)
    })?;
    // One compilation at a time in this process: the others then find the cache.
    static COMPILING: Mutex<()> = Mutex::new(());
    let _compiling = COMPILING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let file_name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("component.wasm");
    let cached = path.with_file_name(format!("{file_name}.{:016x}.cwasm", key(engine, &bytes)));

    if cached.is_file() {
        // SAFETY: `deserialize_file` trusts the file to be wasmtime's own output for this
        // engine's version and settings. It is: we only ever create it below, from
        // `precompile_component` on an engine with the same compatibility hash (the key in
        // its name), by writing a temporary file and renaming it into place, so a reader never
        // sees a partial file and a mapped file is never rewritten. Anyone able to write this
        // file could equally replace the component itself, which is trusted input here.
        // wasmtime also checks the header's version and settings and errors on a mismatch.
        // On error (a stale or foreign file) fall through and rebuild it.
        if let Ok(component) = unsafe { Component::deserialize_file(engine, &cached) } {
            return Ok(component);
        }
    }
    let not_compiled = |e: wasmtime::Error| {
        EngineError::load(
            path,
            format!("cannot compile the component at {}", path.display()),
        )
        .caused_by(e)
    };
    let compiled = engine.precompile_component(&bytes).map_err(not_compiled)?;
    // The cache is an optimisation: a read-only directory must not stop the load.
    let _ = write_cache(path, file_name, &cached, &compiled);
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

fn write_cache(
    path: &Path,
    file_name: &str,
    cached: &Path,
    compiled: &[u8],
) -> std::io::Result<()> {
    let tmp = cached.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, compiled)?;
    std::fs::rename(&tmp, cached)?;
    // Drop caches of older components or wasmtime versions.
    if let Some(dir) = path.parent() {
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
