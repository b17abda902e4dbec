#!/usr/bin/env bash
# The vector decoder's tests under Miri (src/vector.rs, the core's one `unsafe` module), with
# both kernels compiled in: Miri has no CPUID, so `-C target-feature` promises AVX2 (and with
# it SSSE3) at compile time.
#
# Miri needs a nightly toolchain with the miri and rust-src components. The machines this
# project runs on carry a nightly toolchain without them, and reach rustup's servers (as
# `rustup target add` does), so this adds them: about 3 minutes in all, the sysroot Miri
# builds included. Where there is no nightly toolchain, or the components cannot be fetched,
# it says so and exits 0: the rest of CI does not depend on a second toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
has_miri() { cargo +nightly miri --version >/dev/null 2>&1; }
if ! has_miri && rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "miri: adding the miri and rust-src components to the nightly toolchain"
    timeout 600 rustup component add --toolchain nightly miri rust-src || true
fi
if ! has_miri; then
    echo "miri: no nightly toolchain with miri here; skipped (rustup toolchain install nightly --component miri)"
    exit 0
fi
cargo +nightly miri --version
RUSTFLAGS="-C target-feature=+avx2,+popcnt" \
    CARGO_TARGET_DIR="${MIRI_TARGET_DIR:-target/miri}" \
    cargo +nightly miri test --lib vector::
