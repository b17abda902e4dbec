#!/usr/bin/env bash
# The upload page submitted by headless Chromium (issue 12): installs what it needs, then runs
# `node --test` in tests/browser/.
#
#   bash tests/browser/run.sh
#
# The browser is Debian's `chromium` (/usr/bin/chromium): when it is missing and we are root,
# one `apt-get install` brings it (skipped when it is already there). When it cannot be had,
# the test says so in one line ("browser test NOT RUN: <why>") and is reported as skipped by the
# test runner, not passed; with REQPARSE_BROWSER_REQUIRED=1 that is a failure instead.
# A browser that is installed but does not start, or any wrong answer, always fails.
#
# Environment:
#   FEATURES                  cargo features for the reqparse binary (default: cli; CI passes
#                             its own set so the binary its tests built is reused; with
#                             engine-wasm and component/reqparse.component.wasm present the
#                             page is also tried through `--engine wasm`)
#   CHROMIUM, REQPARSE_BIN, REQPARSE_COMPONENT, REQPARSE_BROWSER_REQUIRED: see upload.test.mjs
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
chromium="${CHROMIUM:-/usr/bin/chromium}"

if [ ! -x "$chromium" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing Debian's chromium (apt-get)"
        if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends chromium >/dev/null; }; then
            echo "apt-get could not install chromium (see above)"
        fi
    else
        echo "no $chromium, and not root with apt-get to install it"
    fi
fi

(cd "$repo" && cargo build --features "${FEATURES:-cli}" --bin reqparse)
export REQPARSE_BIN="${REQPARSE_BIN:-$repo/target/debug/reqparse}"
cd "$here"
npm ci --no-audit --no-fund
node --test upload.test.mjs
