#!/usr/bin/env bash
# Builds the reqparse WebAssembly component: component/reqparse.component.wasm, the file that
# ships with the crate (src/bundled.rs includes it). Commit it with the change that changed it:
# CI runs this script on a clean clone and fails when the fresh build differs from the
# committed file (.ci/test-all.sh), so the build must be reproducible: paths are remapped, and
# rustc, binaryen and jco are the pinned ones.
#
#   wasm32-unknown-unknown core module (wit-bindgen exports, --profile wasm)
#     -> wasm-opt (binaryen, from .ci/jco)  -> jco new (component wrapping)
#     -> package-docs section (.ci/jco/package-docs.mjs: the WIT's doc comments)
#
# wasm32-unknown-unknown, not wasip2: the result imports nothing, so a host instantiates it
# with an empty linker (tests/component_imports.rs checks that). Idempotent; a warm run only
# re-links what changed.
#
# Environment:
#   REQPARSE_WASM_FEATURES  cargo features of the guest (default: component,idna)
#   REQPARSE_WASM_OPT       wasm-opt level flag (default: -O3, see BENCHMARKS.md for -Oz)
#   REQPARSE_WASM_SIMD      1 to build with +simd128 (default: 0: in wasmtime 48 the multipart
#                           search's simd128 packed pair ran 11-14% slower than Horspool's
#                           scalar search on a 4 MiB file and on near misses, where V8 runs it
#                           2-3x faster, so the npm build has it; BENCHMARKS.md)
#   REQPARSE_COMPONENT_OUT  output path (default: component/reqparse.component.wasm)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

features="${REQPARSE_WASM_FEATURES:-component,idna}"
opt="${REQPARSE_WASM_OPT:--O3}"
out="${REQPARSE_COMPONENT_OUT:-$repo/component/reqparse.component.wasm}"
target_dir="$repo/target/wasm-component"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

# A 64 KiB stack (not Rust's default 1 MiB) lets the guest start at 2 pages, so the host's
# StoreLimits memory cap measures what the input makes it use.
rustflags=(-C link-arg=-zstack-size=65536)
# Panic locations embed source paths, and the checkout's and cargo's registry differ between
# machines: remapped, the bytes do not depend on where the build ran.
rustflags+=("--remap-path-prefix=$repo=/reqparse" "--remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo")
if [ "${REQPARSE_WASM_SIMD:-0}" = 1 ]; then
    rustflags+=(-C target-feature=+simd128)
fi
# Our own target dir: RUSTFLAGS differ from native builds, sharing one would rebuild both.
# CARGO_ENCODED_RUSTFLAGS (0x1f-separated): paths with spaces stay one argument.
CARGO_ENCODED_RUSTFLAGS="$(IFS=$'\x1f'; echo "${rustflags[*]}")" CARGO_TARGET_DIR="$target_dir" \
    cargo rustc --lib --crate-type cdylib --target wasm32-unknown-unknown --profile wasm \
    --no-default-features --features "$features"
core="$target_dir/wasm32-unknown-unknown/wasm/reqparse.wasm"

jco_dir="$repo/.ci/jco"
if [ ! -x "$jco_dir/node_modules/.bin/jco" ] || [ "$jco_dir/package-lock.json" -nt "$jco_dir/node_modules/.package-lock.json" ]; then
    (cd "$jco_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi

work="$target_dir/wrap"
mkdir -p "$work" "$(dirname "$out")"
# wasm-opt keeps the component-type custom section that wit-bindgen embedded, and reads the
# enabled wasm features from the target_features section (why the profile strips only debuginfo).
"$jco_dir/node_modules/.bin/wasm-opt" "$opt" "$core" -o "$work/reqparse.opt.wasm"
"$jco_dir/node_modules/.bin/jco" new "$work/reqparse.opt.wasm" -o "$work/reqparse.nodocs.wasm" >/dev/null
# The docs travel with the component: `wasm-tools component wit` and jco read the package-docs
# custom section (what a component's section can hold: .ci/jco/package-docs.mjs). Deterministic:
# a function of wit/reqparse.wit alone.
node "$jco_dir/package-docs.mjs" wit/reqparse.wit "$work/reqparse.nodocs.wasm" "$out.tmp"
# Read back as a host's tools read it (jco's wit-parser): the package's first doc line shows.
first_doc="$(sed -n 's|^/// ||p' wit/reqparse.wit | head -n 1)"
if ! "$jco_dir/node_modules/.bin/jco" wit "$out.tmp" | grep -qF -- "/// $first_doc"; then
    echo "jco wit does not show the package docs of $out.tmp" >&2
    exit 1
fi
mv "$out.tmp" "$out"

echo "core module:        $(stat -c %s "$core") bytes ($core)"
echo "after wasm-opt $opt: $(stat -c %s "$work/reqparse.opt.wasm") bytes"
echo "component:          $(stat -c %s "$out") bytes ($out)," \
    "of which docs: $(($(stat -c %s "$out") - $(stat -c %s "$work/reqparse.nodocs.wasm")))"
