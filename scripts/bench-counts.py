#!/usr/bin/env python3
"""Instructions per operation, per bench id, from callgrind (independent of machine load).

Each selected id (`group/impl/input`, the ids criterion reports) is run in its own bench
binary with `REQPARSE_COUNT=<id>` under `valgrind --tool=callgrind`, once for N iterations and
once for 2N, collecting only inside the harness's count loop; the difference divided by N is
the cost of one operation (the process's start, the building of every input and the agreement
checks are never counted, and the loop's own entry and exit cancel out). Prints a markdown
table: for each group/input, ours (`reqparse`) and every other implementation selected, with
the ratio theirs / ours (above 1: we execute fewer instructions).

    scripts/bench-counts.py 'decode/*/1k' 'disposition/*/quoted'
    scripts/bench-counts.py --n 200 'map/*/260p_get16'
    scripts/bench-counts.py --list 'owned/*'
    scripts/bench-counts.py --json target/counts.json 'decode/*' 'map/*' 'disposition/*'
    scripts/bench-counts.py --features async --bench body --n 3 'multipart/*/fields-100*'

Patterns are shell-style globs over the ids (`*` also matches `/`). The bench binaries are
built first (`cargo bench --no-run`) unless --no-build; python3 standard library only.
"""

import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import subprocess
import sys
import tempfile

BENCHES = ["query", "disposition", "uri", "body", "component"]


def bench_binaries(build: bool, features: str, benches: list) -> dict:
    """{bench name: executable}, from cargo's JSON messages (builds when `build`)."""
    cmd = ["cargo", "bench", "--no-run", "--message-format=json", "--features", features]
    for b in benches:
        cmd += ["--bench", b]
    if not build:
        cmd.append("--offline")
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"cargo bench --no-run failed:\n{out.stderr}")
    found = {}
    for line in out.stdout.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        target = msg.get("target") or {}
        if msg.get("reason") == "compiler-artifact" and "bench" in target.get("kind", []):
            if msg.get("executable") and target.get("name") in benches:
                found[target["name"]] = msg["executable"]
    return found


def list_ids(exe: str):
    """(ids, notes {id: text}): the notes are what the bench prints while building its cases
    (e.g. ours errors on that input)."""
    env = dict(os.environ, REQPARSE_COUNT="list")
    out = subprocess.run([exe], env=env, capture_output=True, text=True, check=True)
    ids = [line for line in out.stdout.splitlines() if line.count("/") >= 2]
    notes = {}
    for line in out.stderr.splitlines():
        if line.startswith("note: ") and ": " in line[6:]:
            case, text = line[6:].split(": ", 1)
            notes[case] = text
    return ids, notes


def callgrind_total(exe: str, case: str, n: int, tmp: str) -> int:
    """Instructions executed by `exe` running `case` n times."""
    out_file = os.path.join(tmp, re.sub(r"[^A-Za-z0-9_.-]", "_", f"{case}.{n}") + ".out")
    env = dict(os.environ, REQPARSE_COUNT=case, REQPARSE_COUNT_N=str(n))
    # Only the harness's count loop is collected (see benches/support/mod.rs); the N / 2N
    # difference then removes the loop's own entry and exit.
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--toggle-collect=*reqparse_count_loop*",
        f"--callgrind-out-file={out_file}",
        exe,
    ]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{case}: valgrind failed ({run.returncode}):\n{run.stderr[-2000:]}")
    with open(out_file) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    sys.exit(f"{case}: no totals in {out_file}")


def per_op(exe: str, case: str, n: int, tmp: str) -> float:
    once = callgrind_total(exe, case, n, tmp)
    twice = callgrind_total(exe, case, 2 * n, tmp)
    return (twice - once) / n


def split_id(case: str):
    group, rest = case.split("/", 1)
    imp, inp = rest.split("/", 1)
    return group, imp, inp


def table(results: dict, notes: dict) -> str:
    """Markdown: one row per implementation, grouped by group/input, ours first. The ratio is
    theirs / ours (`reqparse`; in a group without it, the first row of the input)."""
    rows = {}
    for case, ir in results.items():
        group, imp, inp = split_id(case)
        rows.setdefault((group, inp), {})[imp] = ir
    lines = [
        "| group/input | impl | instructions/op | vs reqparse |",
        "|---|---|---:|---:|",
    ]
    footnotes = []
    for (group, inp), imps in rows.items():
        order = sorted(imps, key=lambda i: (not i.startswith("reqparse"), i != "reqparse", i))
        base = "reqparse" if "reqparse" in imps else order[0]
        for imp in order:
            ir = imps[imp]
            ratio = f"{ir / imps[base]:.2f}x" + ("" if base == "reqparse" else f" (vs {base})")
            note = notes.get(f"{group}/{imp}/{inp}")
            mark = ""
            if note:
                footnotes.append(note)
                mark = " " + "†" * len(footnotes)
            lines.append(f"| {group}/{inp} | {imp}{mark} | {ir:,.0f} | {ratio} |")
    for i, note in enumerate(footnotes):
        lines.append(f"\n{'†' * (i + 1)} {note}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("patterns", nargs="+", help="globs over bench ids, e.g. 'decode/*/1k'")
    ap.add_argument("--n", type=int, default=500, help="iterations of the short run (default 500)")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="valgrind runs at once (default 1)")
    ap.add_argument("--no-build", action="store_true", help="use the bench binaries as built")
    # engine-wasm by default: the component bench runs the bundled component in wasmtime.
    ap.add_argument("--features", default="engine-wasm",
                    help="cargo features of the bench build (default engine-wasm; e.g. "
                    "`--features async` for body's reqparse-async rows, which then skips the "
                    "component bench unless engine-wasm is listed too)")
    ap.add_argument("--bench", action="append", choices=BENCHES,
                    help="only this bench binary (repeatable; default: all of them)")
    ap.add_argument("--list", action="store_true", help="print the matching ids and stop")
    ap.add_argument("--json", metavar="FILE",
                    help="also write {id: instructions/op} to FILE (bench-chart.py --counts FILE "
                    "puts them beside the wall times)")
    args = ap.parse_args()

    benches = args.bench or BENCHES
    if "engine-wasm" not in args.features.replace(",", " ").split():
        # The component bench requires engine-wasm (Cargo.toml's required-features).
        benches = [b for b in benches if b != "component"]
    binaries = bench_binaries(build=not args.no_build, features=args.features, benches=benches)
    selected = []  # (exe, id), in the binaries' own order
    notes = {}
    for bench in benches:
        exe = binaries.get(bench)
        if exe is None:
            continue
        ids, bench_notes = list_ids(exe)
        notes.update(bench_notes)
        for case in ids:
            if any(fnmatch.fnmatchcase(case, p) for p in args.patterns):
                selected.append((exe, case))
    if not selected:
        sys.exit("no bench id matches (try --list '*')")
    if args.list:
        print("\n".join(case for _, case in selected))
        return

    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-counts-") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {case: pool.submit(per_op, exe, case, args.n, tmp) for exe, case in selected}
            for case, fut in futures.items():
                results[case] = fut.result()
                print(f"{case}: {results[case]:,.0f} instructions/op", file=sys.stderr)
    print(f"Instructions per op (callgrind, runs of {args.n} and {2 * args.n} iterations, difference / {args.n}):\n")
    print(table(results, notes))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"n": args.n, "instructions_per_op": results}, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
