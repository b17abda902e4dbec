#!/usr/bin/env bash
# The JavaScript host example and its vector test (.ci/test-all.sh runs this): installs the
# pinned jco (npm ci, into node_modules/ here), transpiles component/reqparse.component.wasm into
# generated/ (an ES module), runs the example, then checks every vector through it.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x node_modules/.bin/jco ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent transpile
node reqparse-host.mjs
node --test vectors.test.mjs
