//! `reqparse serve` stops the same way with either engine: SIGINT or SIGTERM, exit status 0,
//! also when SIGINT is ignored on entry (what a script's background job inherits). The wasm
//! engine starts wasmtime's threads (epoch ticker, compiler) before serving, so this is where
//! a signal mask set too late shows: SIGTERM killed it (143) and an ignored SIGINT was lost.
//! The wasm case runs the component built into the binary (`reqparse::bundled`).
#![cfg(feature = "cli")]

mod support;

use std::os::unix::process::CommandExt;

use support::serve::{command, Serve};

/// Starts `serve ARGS`, checks it answers, sends `signal` with an idle connection open, and
/// asserts exit status 0.
fn stops_cleanly(args: &[&str], signal: libc::c_int, sigint_ignored: bool) {
    let mut cmd = command(args);
    if sigint_ignored {
        // SAFETY: signal(2) is async-signal-safe, as a pre_exec hook must be.
        unsafe {
            cmd.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_IGN);
                Ok(())
            });
        }
    }
    Serve::start(cmd).answers_then_stops(
        signal,
        &format!("{args:?}, SIGINT ignored on entry: {sigint_ignored}"),
    );
}

fn every_signal(args: &[&str]) {
    for (signal, sigint_ignored) in [
        (libc::SIGINT, false),
        (libc::SIGTERM, false),
        (libc::SIGINT, true),
    ] {
        stops_cleanly(args, signal, sigint_ignored);
    }
}

#[test]
fn native_engine_stops_cleanly() {
    every_signal(&["--addr", "127.0.0.1:0", "--threads", "2"]);
}

#[cfg(feature = "engine-wasm")]
#[test]
fn wasm_engine_stops_cleanly() {
    // No --component: the binary runs the component built into it.
    every_signal(&[
        "--addr",
        "127.0.0.1:0",
        "--threads",
        "2",
        "--engine",
        "wasm",
    ]);
}
