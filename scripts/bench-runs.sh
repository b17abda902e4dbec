#!/usr/bin/env bash
# The wall-time measurement of BENCHMARKS.md, "How to measure": RUNS criterion runs of the
# query, disposition and uri benches, each into its own criterion directory, each started
# only when the machine is quiet (1-minute load average below MAX_LOAD), then the chart and
# tables of the median of the runs (scripts/bench-chart.py).
#
#   scripts/bench-runs.sh                       # 3 runs, every case, warm-up 1 s, measure 3 s
#   scripts/bench-runs.sh -f '^(decode|map)/'   # a subset (criterion's regex filter)
#   scripts/bench-runs.sh -r 5 -w 2 -m 5 -o /tmp/ratios.svg
#   scripts/bench-runs.sh -b body -o BENCHMARKS-body.svg   # other bench binaries
#
# The load average before and after each run goes to <prefix><i>.load; a run after which the
# load was at or above MAX_LOAD is reported at the end, to be discarded and redone.
set -euo pipefail

RUNS=3
FILTER=""
WARMUP=1
MEASURE=3
MAX_LOAD=1.5
PREFIX=target/criterion-run
OUT=BENCHMARKS.svg
CHART_GROUPS=()
BENCH_NAMES="query disposition uri"
usage() {
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    echo "options: -r RUNS (3) -f FILTER -w WARMUP_S (1) -m MEASURE_S (3) -l MAX_LOAD (1.5)"
    echo "         -p DIR_PREFIX (target/criterion-run) -o SVG (BENCHMARKS.svg)"
    echo "         -g GROUPS (the chart's groups regex); -b 'BENCH ...' (query disposition uri)"
    echo "         after --: criterion args"
}
while getopts "r:f:w:m:l:p:o:g:b:h" opt; do
    case $opt in
        r) RUNS=$OPTARG ;;
        f) FILTER=$OPTARG ;;
        w) WARMUP=$OPTARG ;;
        m) MEASURE=$OPTARG ;;
        l) MAX_LOAD=$OPTARG ;;
        p) PREFIX=$OPTARG ;;
        o) OUT=$OPTARG ;;
        g) CHART_GROUPS=(--groups "$OPTARG") ;;
        b) BENCH_NAMES=$OPTARG ;;
        *) usage; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift

cd "$(dirname "$0")/.."
BENCHES=()
for b in $BENCH_NAMES; do BENCHES+=(--bench "$b"); done

load1() { cut -d' ' -f1 /proc/loadavg; }
quiet() { awk -v l="$(load1)" -v m="$MAX_LOAD" 'BEGIN { exit !(l < m) }'; }

# Build first: no compile may overlap a measurement.
cargo bench --no-run "${BENCHES[@]}"

loud=()
dirs=()
for i in $(seq 1 "$RUNS"); do
    until quiet; do
        echo "run $i: load $(load1) >= $MAX_LOAD, waiting 30 s ($(uptime))" >&2
        sleep 30
    done
    dir=$PREFIX$i
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "before: $(uptime)" | tee "$dir.load" >&2
    args=(--warm-up-time "$WARMUP" --measurement-time "$MEASURE" "$@")
    [ -n "$FILTER" ] && args=("$FILTER" "${args[@]}")
    CRITERION_HOME=$dir cargo bench "${BENCHES[@]}" -- "${args[@]}"
    echo "after: $(uptime)" | tee -a "$dir.load" >&2
    quiet || loud+=("$dir (load $(load1) after the run)")
    dirs+=(--criterion-dir "$dir")
done

scripts/bench-chart.py "${dirs[@]}" "${CHART_GROUPS[@]}" --out "$OUT"
if [ ${#loud[@]} -gt 0 ]; then
    echo "NOT QUIET, discard and redo: ${loud[*]}" >&2
    exit 1
fi
