#!/usr/bin/env bash
# The vector decoder's tests under Miri (src/vector.rs, the core's one `unsafe` module), with
# both kernels compiled in: Miri has no CPUID, so `-C target-feature` promises AVX2 (and with
# it SSSE3) at compile time. Miri needs a nightly toolchain with the miri component; where
# there is none (CI's machine has one stable toolchain and fetches no other), this says so and
# exits 0 — run it where nightly exists, as the issue notes record.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! cargo +nightly miri --version >/dev/null 2>&1; then
    echo "miri: no nightly toolchain with miri here; skipped (rustup toolchain install nightly --component miri)"
    exit 0
fi
RUSTFLAGS="-C target-feature=+avx2,+popcnt" \
    CARGO_TARGET_DIR="${MIRI_TARGET_DIR:-target/miri}" \
    cargo +nightly miri test --lib vector::
