#!/usr/bin/env bash
# Runs every test of every face on a fresh machine, installing what it needs:
#   the Rust crate (unit, conformance, allocation, property, CLI and host tests, doc examples,
#   benches and examples built and smoke-run), the WebAssembly component in wasmtime, and the
#   npm package under Node (first with Node alone, as a user installs it), and `reqparse serve`'s upload page in headless Chromium.
# Everything builds with one feature set so wasmtime and the dev-dependencies build once; the
# feature sets without the wasm engine are then checked (and, without idna, tested) on top, so
# their cfg paths compile too without a second wasmtime build.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
FEATURES=cli,engine-wasm,serde,http
step() { printf '\n=== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "toolchain"
rustup target add wasm32-unknown-unknown
rustup component add rustfmt clippy >/dev/null 2>&1 || true

step "format"
cargo fmt --all -- --check

step "one binaryen (wasm-opt) for both wasm builds: .ci/jco and js/ lock the same version"
binaryen() { node -p "require('./$1/package-lock.json').packages['node_modules/binaryen'].version"; }
if [ "$(binaryen .ci/jco)" != "$(binaryen js)" ]; then
    echo "binaryen differs: .ci/jco $(binaryen .ci/jco), js $(binaryen js); pin one version in both package.json files" >&2
    exit 1
fi
echo "binaryen $(binaryen js)"

step "core builds without std (no_std + alloc) for wasm32"
cargo build --lib --no-default-features --target wasm32-unknown-unknown

step "component: a fresh build is byte for byte the committed component/reqparse.component.wasm"
# The crate ships the committed file (src/bundled.rs): it must be what this source builds to.
mkdir -p target/wasm
cp component/reqparse.component.wasm target/wasm/committed.component.wasm
bash .ci/build-component.sh
if ! cmp -s target/wasm/committed.component.wasm component/reqparse.component.wasm; then
    echo "component/reqparse.component.wasm is stale: a fresh build of this source differs" \
        "($(stat -c %s target/wasm/committed.component.wasm) bytes committed," \
        "$(stat -c %s component/reqparse.component.wasm) built)." \
        "Run 'bash .ci/build-component.sh' and commit the file." >&2
    exit 1
fi

step "rust: tests, doc examples, benches and examples in test mode"
cargo test --features "$FEATURES" --all-targets
cargo test --features "$FEATURES" --doc

step "rust: the async readers, the axum extractors and the AsyncRead adapter (features async, axum, tokio)"
# Only what these features add: their test files, their doc examples (and the README's, whose
# "With axum" example needs them), the example's self-upload, and clippy over every target with them.
cargo test --features async,axum,tokio --test async_multipart --test async_form --test axum_server --test async_reader
cargo run --features async,axum --example axum_upload -- --demo
cargo test --features async,axum,tokio --doc -- src/stream/ src/axum.rs ReadmeDoctests
cargo clippy --features async,axum,tokio --all-targets -- -D warnings

step "the vector decoder under Miri (adds miri to the nightly toolchain; skipped where there is none)"
bash .ci/miri.sh

step "clippy"
cargo clippy --features "$FEATURES" --all-targets -- -D warnings

step "the package ships both licence files and the component"
cargo package --list --allow-dirty | grep -qx LICENSE-MIT
cargo package --list --allow-dirty | grep -qx LICENSE-APACHE
cargo package --list --allow-dirty | grep -qx component/reqparse.component.wasm

step "rustdoc: the docs.rs feature set, no warnings (reuses clippy's check build of wasmtime)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --features "$FEATURES"

step "feature sets without the wasm engine (cfg paths the build above never compiles)"
# No std, no idna, on the native target too: clippy is enough, a test run would add nothing.
cargo clippy --lib --no-default-features -- -D warnings
cargo clippy --lib --no-default-features --features serde -- -D warnings
# CLI and host shim without engine-wasm (src/cli.rs, src/host/, benches/idle.rs, the host tests).
cargo clippy --features cli --all-targets -- -D warnings
# Without idna a Unicode host is an IdnaDisabled error: run the tests that check that.
cargo test --no-default-features --features std --lib --test uri_vectors --test alloc_uri

step "the fuzz targets compile (running them is cargo fuzz's, on nightly: see fuzz/)"
# Nothing else builds them: fuzz/fuzz_targets/http1.rs went stale once, unnoticed.
cargo check --manifest-path fuzz/Cargo.toml --bins

step "host examples outside Rust: Python (wasmtime-py) and JavaScript (jco), each through every query, disposition and multipart vector"
bash examples/hosts/python/run.sh
bash examples/hosts/js/run.sh

step "npm package: tests (ESM, CJS, types, the packed tarball installed) with Node alone on PATH"
# What a user installs is the committed js/pkg: installing and testing the package needs no Rust.
# PATH is node, npm and sh (npm runs scripts with it) only; test/package.test.mjs also installs
# the packed tarball and the folder into fresh projects and calls them, under such a PATH.
(cd js && npm ci --no-audit --no-fund)
node_only="$PWD/target/npm-node-only"
rm -rf "$node_only" && mkdir -p "$node_only"
for tool in node npm sh; do ln -s "$(readlink -f "$(command -v "$tool")")" "$node_only/$tool"; done
(cd js && env -u CARGO_HOME -u RUSTUP_HOME PATH="$node_only" npm test)

step "npm package: a fresh build is byte for byte the committed js/pkg (reqparse.js, reqparse_bg.wasm)"
# The package ships the committed files: they must be what this source builds to.
mkdir -p target/wasm/committed-js
cp js/pkg/reqparse.js js/pkg/reqparse_bg.wasm target/wasm/committed-js/
(cd js && npm run build)
for f in reqparse.js reqparse_bg.wasm; do
    if ! cmp -s "target/wasm/committed-js/$f" "js/pkg/$f"; then
        echo "js/pkg/$f is stale: a fresh build of this source differs" \
            "($(stat -c %s "target/wasm/committed-js/$f") bytes committed, $(stat -c %s "js/pkg/$f") built)." \
            "Run 'cd js && npm ci && npm run build' and commit js/pkg." >&2
        exit 1
    fi
done

step "the upload page in a real browser: headless Chromium (tests/browser)"
FEATURES="$FEATURES" bash tests/browser/run.sh

step "all tests passed"
