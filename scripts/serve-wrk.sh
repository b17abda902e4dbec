#!/usr/bin/env bash
# Throughput of uploads under wrk: the shim against hyper + multer doing the same work (the
# server modes of benches/serve.rs), 1 and 2 server threads, POST bodies of each shape.
#
#   scripts/serve-wrk.sh              # wrk -t1 -c16 -d5s, shapes small and upload
#   WRK_ARGS="-t2 -c64 -d10s" scripts/serve-wrk.sh
#   SHAPES=small SERVER_THREADS=1 scripts/serve-wrk.sh     # one row
#
# Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/wrk-table.sh
WRK_ARGS=${WRK_ARGS:-"-t1 -c16 -d5s"}
SHAPES=${SHAPES:-"small upload"}
SERVER_THREADS=${SERVER_THREADS:-"1 2"}
exe=$(bench_exe host serve)
[ -x "$exe" ] || { echo "benches/serve.rs did not build" >&2; exit 1; }
wrk_table "$exe" server-ours server-hyper reqparse hyper+multer
