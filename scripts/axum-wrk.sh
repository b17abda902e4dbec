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
WRK_THREADS=${WRK_THREADS:-1}
WRK_CONNS=${WRK_CONNS:-16}
WRK_SECS=${WRK_SECS:-5}
SHAPES=${SHAPES:-"small upload"}
SERVER_THREADS=${SERVER_THREADS:-"1 2"}
exe=$(cargo bench --no-run --features axum,tokio --bench axum --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
[ -x "$exe" ] || { echo "benches/axum.rs did not build" >&2; exit 1; }
"$exe" check >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "wrk -t$WRK_THREADS -c$WRK_CONNS -d${WRK_SECS}s; requests/s"
printf '%-7s %-8s %14s %14s %7s\n' shape threads axum+reqparse axum+multer ratio
for shape in $SHAPES; do
    ct=$("$exe" write-shape "$shape" "$tmp/$shape.body")
    for threads in $SERVER_THREADS; do
        rps=()
        for kind in server-reqparse server-axum; do
            coproc SERVER { "$exe" "$kind" "$threads"; }
            read -r line <&"${SERVER[0]}"
            addr=${line#ADDR }
            out=$(BODY_FILE="$tmp/$shape.body" CONTENT_TYPE="$ct" \
                wrk "-t$WRK_THREADS" "-c$WRK_CONNS" "-d${WRK_SECS}s" \
                -s scripts/wrk-post.lua "http://$addr/upload")
            result=$(grep '^RESULT' <<<"$out")
            set -- $result
            [ "$3" = 0 ] || { echo "$kind: $3 answers were not 200" >&2; exit 1; }
            rps+=("$2")
            exec {SERVER[1]}>&-
            wait "$SERVER_PID" 2>/dev/null || true
        done
        ratio=$(awk -v a="${rps[0]}" -v b="${rps[1]}" 'BEGIN { printf "%.2f", a / b }')
        printf '%-7s %-8s %14s %14s %6sx\n' "$shape" "$threads" "${rps[0]}" "${rps[1]}" "$ratio"
    done
done
