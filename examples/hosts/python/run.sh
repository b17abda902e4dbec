#!/usr/bin/env bash
# The Python host example and its vector test (.ci/test-all.sh runs this): a venv under
# target/hosts/python (ignored) with the pinned wasmtime, then the example and every vector
# through it. An argument: another component file (default: component/reqparse.component.wasm).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/../../../target/hosts/python"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
cd "$here"
"$venv/bin/python" reqparse_host.py "$@"
"$venv/bin/python" test_vectors.py "$@"
