#!/usr/bin/env bash
# Runs every test of every face on a fresh machine, installing what it needs:
#   the Rust crate (unit, conformance, allocation, property, CLI and host tests, doc examples,
#   benches and examples built and smoke-run), the WebAssembly component in wasmtime, and the
#   npm package under Node.
# Everything builds with one feature set so wasmtime and the dev-dependencies build once.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
FEATURES=cli,engine-wasm
step() { printf '\n=== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "toolchain"
rustup target add wasm32-unknown-unknown
rustup component add rustfmt clippy >/dev/null 2>&1 || true

step "format"
cargo fmt --all -- --check

step "core builds without std (no_std + alloc) for wasm32"
cargo build --lib --no-default-features --target wasm32-unknown-unknown

step "component: build target/wasm/reqparse.component.wasm"
bash .ci/build-component.sh

step "rust: tests, doc examples, benches and examples in test mode"
cargo test --features "$FEATURES" --all-targets
cargo test --features "$FEATURES" --doc

step "clippy"
cargo clippy --features "$FEATURES" --all-targets -- -D warnings

step "npm package: build and test (ESM, CJS, types)"
(cd js && npm ci --no-audit --no-fund && npm run build && npm test)

step "all tests passed"
