#!/usr/bin/env bash
# Throughput of uploads under wrk: the shim against hyper + multer doing the same work (the
# server modes of benches/serve.rs), 1 and 2 server threads, POST bodies of each shape.
#
#   scripts/serve-wrk.sh              # wrk -t1 -c16 -d5s, shapes small and upload
#   WRK_ARGS="-t2 -c64 -d10s" scripts/serve-wrk.sh
set -euo pipefail
cd "$(dirname "$0")/.."
WRK_ARGS=${WRK_ARGS:-"-t1 -c16 -d5s"}
cargo bench --no-run --features host --bench serve 2>/dev/null
exe=$(ls -t target/release/deps/serve-* | grep -v '\.d$' | head -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-7s %-8s %14s %14s %7s\n' shape threads reqparse hyper+multer ratio
for shape in small upload; do
    ct=$("$exe" write-shape "$shape" "$tmp/$shape.body")
    for threads in 1 2; do
        rps=()
        for kind in server-ours server-hyper; do
            coproc SERVER { "$exe" "$kind" "$threads"; }
            read -r line <&"${SERVER[0]}"
            addr=${line#ADDR }
            out=$(BODY_FILE="$tmp/$shape.body" CONTENT_TYPE="$ct" \
                wrk $WRK_ARGS -s scripts/wrk-post.lua "http://$addr/upload")
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
