#!/usr/bin/env bash
# Throughput of form posts and uploads under wrk, end to end through axum: axum +
# reqparse::axum::Multipart against axum + axum::extract::Multipart (multer) doing the same work
# (the server modes of benches/axum.rs: SHA-256 of each file, the fields echoed, one JSON
# answer), 1 and 2 server threads, POST bodies of shapes small (~1 KB form) and upload (1 MiB).
# Before any timing, `check` proves both servers give the same, expected answer to each shape.
#
#   scripts/axum-wrk.sh                                   # wrk -t1 -c16 -d5s
#   WRK_THREADS=2 WRK_CONNS=64 WRK_SECS=10 scripts/axum-wrk.sh
#   SHAPES=small SERVER_THREADS=1 scripts/axum-wrk.sh     # one row
#
# Honours CARGO_TARGET_DIR. On a 2-core machine wrk and the server share the cores: read the
# ratio, not the rates.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/wrk-table.sh
WRK_ARGS="-t${WRK_THREADS:-1} -c${WRK_CONNS:-16} -d${WRK_SECS:-5}s"
SHAPES=${SHAPES:-"small upload"}
SERVER_THREADS=${SERVER_THREADS:-"1 2"}
exe=$(bench_exe axum,tokio axum)
[ -x "$exe" ] || { echo "benches/axum.rs did not build" >&2; exit 1; }
"$exe" check >&2
wrk_table "$exe" server-reqparse server-axum axum+reqparse axum+multer
