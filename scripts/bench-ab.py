#!/usr/bin/env python3
"""Wall-time A/B of bench binaries: interleaved criterion runs, the median per id per binary.

    scripts/bench-ab.py 5 '^decode/reqparse/(short2|1k)$' /tmp/q-before /tmp/q-after

ROUNDS times, each binary in turn runs the ids FILTER selects (criterion's regex, 0.5 s
warm-up, 1 s measurement, its own CRITERION_HOME so the project's baselines are untouched);
prints the median ns per id for each binary and first / each other (above 1: the other is
faster). Interleaving spreads the machine's drift over both sides. Build both binaries with
the same RUSTFLAGS, e.g. `-C llvm-args=-align-loops=64` in their own CARGO_TARGET_DIRs: loop
alignment alone moved some ids by 15-18% (BENCHMARKS.md, "Profiling and A/B"). Python 3
standard library only.
"""

import re
import statistics
import subprocess
import sys
import tempfile

UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "ms": 1e6, "s": 1e9}


def run(binary: str, filt: str, home: str) -> dict:
    """{id: median ns} from one criterion run of `binary`."""
    out = subprocess.run(
        [binary, "--bench", "--warm-up-time", "0.5", "--measurement-time", "1", filt],
        capture_output=True, text=True, check=True,
        env={"CRITERION_HOME": home, "PATH": "/usr/bin:/bin"},
    ).stdout
    found, current = {}, None
    for line in out.splitlines():
        m = re.match(r"^(\S+/\S+/\S+)", line)
        if m and not line.startswith(" "):
            current = m.group(1)
        m = re.search(r"time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
        if m and current:
            found[current] = float(m.group(1)) * UNITS[m.group(2)]
            current = None
    return found


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds, filt, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    times: dict = {}
    with tempfile.TemporaryDirectory() as home:
        for _ in range(rounds):
            for b in binaries:
                for i, ns in run(b, filt, home).items():
                    times.setdefault(i, {}).setdefault(b, []).append(ns)
    print("id".ljust(34), *[b.rsplit("/", 1)[-1].rjust(14) for b in binaries])
    for i, per in times.items():
        meds = [statistics.median(per.get(b, [float("nan")])) for b in binaries]
        ratios = " ".join(f"{meds[0] / m:.2f}" for m in meds[1:])
        print(i.ljust(34), *[f"{m:14.1f}" for m in meds], "  ", ratios)


if __name__ == "__main__":
    main()
