# Sourced by scripts/axum-wrk.sh and scripts/serve-wrk.sh: the table of two servers of one
# bench binary under wrk. The binary has the modes of benches/support/loopback.rs
# (`<kind> THREADS` prints `ADDR host:port` and serves until its stdin closes) and
# `write-shape SHAPE PATH` (writes a body, prints its Content-Type).

# The executable of bench $2 built with features $1 (honours CARGO_TARGET_DIR).
bench_exe() {
    cargo bench --no-run --features "$1" --bench "$2" --message-format=json 2>/dev/null |
        sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1
}

# wrk_table EXE KIND_A KIND_B LABEL_A LABEL_B: for each shape in $SHAPES and server threads in
# $SERVER_THREADS, each server under `wrk $WRK_ARGS` (POSTs of the shape's body through
# scripts/wrk-post.lua, which counts answers that are not 200: any fails the run); prints
# requests/s and the ratio A / B.
wrk_table() {
    local exe=$1 kinds=("$2" "$3") shape threads kind ct line addr out result ratio rps
    WRK_TMP=$(mktemp -d)
    trap 'rm -rf "$WRK_TMP"' EXIT
    echo "wrk $WRK_ARGS; requests/s"
    printf '%-7s %-8s %14s %14s %7s\n' shape threads "$4" "$5" ratio
    for shape in $SHAPES; do
        ct=$("$exe" write-shape "$shape" "$WRK_TMP/$shape.body")
        for threads in $SERVER_THREADS; do
            rps=()
            for kind in "${kinds[@]}"; do
                coproc SERVER { "$exe" "$kind" "$threads"; }
                read -r line <&"${SERVER[0]}"
                addr=${line#ADDR }
                # shellcheck disable=SC2086 # WRK_ARGS is a list of arguments
                out=$(BODY_FILE="$WRK_TMP/$shape.body" CONTENT_TYPE="$ct" \
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
}
