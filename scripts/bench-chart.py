#!/usr/bin/env python3
"""BENCHMARKS.svg and a markdown table of ours-vs-peer ratios, from criterion's output only.

Reads every `<criterion dir>/**/new/estimates.json` (the median's point estimate, ns) with the
`benchmark.json` beside it (the id `group/impl/input`); given several criterion dirs (one per
run, `CRITERION_HOME=target/criterion-run1 cargo bench ...`), the median of the runs. For every group/input where our
`reqparse` case and at least one peer were measured, the ratio is peer time / our time (above
1: we are faster). Peers are the implementations named exactly by crate (see PEERS); variants
(`reqparse_*`, `form-net_into`, ...) are left out of the chart and listed with --all.

Writes a horizontal bar chart (one bar per input and peer, log scale, a line at the floor;
the strongest peer of each input drawn solid, the others lighter) and prints the tables.
Notes the benches wrote (`<criterion dir>/reqparse-notes/*.tsv`, e.g. "ours errors on this
input") mark the bars and are printed under the tables.

    scripts/bench-chart.py                      # target/criterion -> BENCHMARKS.svg
    scripts/bench-chart.py --criterion-dir target/criterion-run1 \
        --criterion-dir target/criterion-run2 --criterion-dir target/criterion-run3
    scripts/bench-chart.py --groups '.*' --out /tmp/all.svg --all

python3 standard library only.
"""

import argparse
import glob
import json
import math
import os
import re
import statistics
import sys
from xml.sax.saxutils import escape

# Peers by crate, in legend order; anything else not starting with `reqparse` is a variant.
PEERS = [
    "form-net",
    "form_urlencoded",
    "serde_urlencoded",
    "url",
    "parse-net",
    "content_disposition",
    "ada-url",
    "hyper",
    "format!",
    "idna+format!",
    "multer",
    "copy",
]
COLORS = ["#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#2ca02c", "#d62728", "#17becf",
          "#bcbd22", "#7f7f7f", "#e377c2", "#393b79", "#637939"]
DEFAULT_GROUPS = r"decode|owned|map|disposition"
SIZES = {}  # (group, input): bytes, from criterion's throughput


def load(criterion_dir: str) -> dict:
    """{(group, impl, input): median ns}; input sizes go to SIZES."""
    times = {}
    pattern = os.path.join(criterion_dir, "**", "new", "estimates.json")
    for est_path in glob.glob(pattern, recursive=True):
        meta_path = os.path.join(os.path.dirname(est_path), "benchmark.json")
        try:
            with open(meta_path) as f:
                meta = json.load(f)
            with open(est_path) as f:
                est = json.load(f)
        except (OSError, json.JSONDecodeError):
            continue
        group, imp, inp = meta.get("group_id"), meta.get("function_id"), meta.get("value_str")
        if group and imp and inp is not None:
            times[(group, imp, inp)] = est["median"]["point_estimate"]
            size = (meta.get("throughput") or {}).get("Bytes")
            if size:
                SIZES[(group, inp)] = size
    return times


def load_side_files(criterion_dir: str):
    """(notes {id: text}, order {id: rank}) from the files the bench harness writes."""
    notes, order = {}, {}
    side = os.path.join(criterion_dir, "reqparse-notes")
    for path in sorted(glob.glob(os.path.join(side, "*.tsv"))):
        with open(path) as f:
            for line in f:
                if "\t" in line:
                    case, text = line.rstrip("\n").split("\t", 1)
                    notes[case] = text
    # The query bench first (the headline goals), then the others as named.
    ids = sorted(glob.glob(os.path.join(side, "*.ids")))
    ids.sort(key=lambda p: os.path.basename(p) != "query.ids")
    for path in ids:
        with open(path) as f:
            for line in f:
                order.setdefault(line.strip(), len(order))
    return notes, order


def fmt_ns(ns: float) -> str:
    if ns >= 1e6:
        return f"{ns / 1e6:,.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:,.2f} µs"
    return f"{ns:,.1f} ns"


def collect(times: dict, groups: str, order: dict):
    """[(group, input, ours ns, {peer: ns})] in the benches' order."""
    keep = re.compile(rf"^(?:{groups})$")
    rows = {}
    for (group, imp, inp), ns in times.items():
        if keep.match(group):
            rows.setdefault((group, inp), {})[imp] = ns
    out = []
    for (group, inp), imps in rows.items():
        if "reqparse" not in imps:
            continue
        peers = {p: imps[p] for p in PEERS if p in imps}
        if peers:
            out.append((group, inp, imps["reqparse"], peers, imps))
    big = len(order) + 1
    out.sort(key=lambda r: (order.get(f"{r[0]}/reqparse/{r[1]}", big), r[0], r[1]))
    return out


def tables(rows, notes: dict, show_all: bool, floor: float, counts: dict) -> str:
    lines = []
    by_group = {}
    for row in rows:
        by_group.setdefault(row[0], []).append(row)
    marks = {}
    for group, grows in by_group.items():
        peers = [p for p in PEERS if any(p in r[3] for r in grows)]
        variants = sorted({i for r in grows for i in r[4] if i not in PEERS and i != "reqparse"})
        cols = peers + (variants if show_all else [])
        lines.append(f"### {group}\n")
        head = ["input", "reqparse"] + cols + ["strongest peer", "ratio"]
        if counts:
            head.append("instructions/op: ours / that peer (ratio)")
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|---|" + "---:|" * (len(head) - 1))
        for _, inp, ours, pts, imps in grows:
            note = notes.get(f"{group}/reqparse/{inp}")
            mark = ""
            if note:
                mark = marks.setdefault(note, "†" * (len(marks) + 1))
            cells = [f"{inp}{mark}", fmt_ns(ours)]
            for c in cols:
                ns = imps.get(c)
                cells.append("" if ns is None else f"{fmt_ns(ns)} ({ns / ours:.2f}x)")
            best = min(pts, key=pts.get)
            ratio = pts[best] / ours
            flag = "" if ratio >= floor else " (below floor)"
            cells += [best, f"**{ratio:.2f}x**{flag}"]
            if counts:
                cells.append(count_cell(counts, group, inp, best))
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    for note, mark in marks.items():
        lines.append(f"{mark} {note}")
    # Issue 9: hostile input never slower per byte than realistic (ours).
    sized = [(g, i, o) for g, i, o, _, _ in rows if (g, i) in SIZES]
    if sized:
        lines.append("\n### reqparse per byte\n")
        lines.append("| group/input | bytes | reqparse ns/B |")
        lines.append("|---|---:|---:|")
        for group, inp, ours in sized:
            size = SIZES[(group, inp)]
            lines.append(f"| {group}/{inp} | {size:,} | {ours / size:.3f} |")
    return "\n".join(lines)


def count_cell(counts: dict, group: str, inp: str, peer: str) -> str:
    ours = counts.get(f"{group}/reqparse/{inp}")
    theirs = counts.get(f"{group}/{peer}/{inp}")
    if not ours or not theirs:
        return ""
    return f"{ours:,.0f} / {theirs:,.0f} ({theirs / ours:.2f}x)"


def svg(rows, notes: dict, floor: float, title: str) -> str:
    bars = []  # (label, peer, ratio, strongest, group_start, noted)
    for group, inp, ours, pts, _ in rows:
        best = min(pts, key=pts.get)
        noted = f"{group}/reqparse/{inp}" in notes
        first = True
        for peer in PEERS:
            if peer in pts:
                bars.append((f"{group}/{inp}" if first else "", peer, pts[peer] / ours,
                             peer == best, first, noted))
                first = False
    if not bars:
        sys.exit("no group/input with both reqparse and a peer in the criterion output")
    ratios = [b[2] for b in bars]
    lo = 2 ** math.floor(math.log2(min(min(ratios), 0.5)))
    hi = 2 ** math.ceil(math.log2(max(max(ratios), 2.0)))
    label_w, plot_w, bar_h, gap, top = 230, 600, 14, 6, 56
    legend_h = 54
    height = top + sum(bar_h + 2 + (gap if b[4] else 0) for b in bars) + legend_h + 30
    width = label_w + plot_w + 150  # room for the value label of the longest bar

    def x(r: float) -> float:
        return label_w + plot_w * (math.log2(r) - math.log2(lo)) / (math.log2(hi) - math.log2(lo))

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="14" font-weight="bold">'
        f"{escape(title)}</text>",
        f'<text x="{width / 2}" y="34" text-anchor="middle" fill="#555">peer time / reqparse '
        f"time, median of criterion's samples, log scale (right of 1x: reqparse is faster)"
        f"</text>",
    ]
    plot_bottom = height - legend_h - 30
    # Grid: powers of two, and the floor.
    r = lo
    while r <= hi + 1e-9:
        out.append(f'<line x1="{x(r):.1f}" y1="{top - 6}" x2="{x(r):.1f}" y2="{plot_bottom}" '
                   f'stroke="{"#888" if r == 1 else "#ddd"}"/>')
        out.append(f'<text x="{x(r):.1f}" y="{plot_bottom + 14}" text-anchor="middle">'
                   f"{r:g}x</text>")
        r *= 2
    out.append(f'<line x1="{x(floor):.1f}" y1="{top - 6}" x2="{x(floor):.1f}" y2="{plot_bottom}" '
               f'stroke="#c00" stroke-width="1.5" stroke-dasharray="5,3"/>')
    out.append(f'<text x="{x(floor) + 3:.1f}" y="{top - 9}" fill="#c00">{floor:g}x floor</text>')
    y = top
    for label, peer, ratio, strongest, group_start, noted in bars:
        if group_start:
            y += gap
        color = COLORS[PEERS.index(peer) % len(COLORS)]
        x0, x1 = x(1.0), x(ratio)
        left, w = (x0, x1 - x0) if ratio >= 1 else (x1, x0 - x1)
        opacity = "1" if strongest else "0.35"
        hatch = ' stroke="#000" stroke-dasharray="2,2"' if noted else ""
        out.append(f'<rect x="{left:.1f}" y="{y}" width="{max(w, 1):.1f}" height="{bar_h}" '
                   f'fill="{color}" fill-opacity="{opacity}"{hatch}/>')
        if label:
            mark = " †" if noted else ""
            out.append(f'<text x="{label_w - 8}" y="{y + bar_h - 3}" text-anchor="end">'
                       f"{escape(label + mark)}</text>")
        below = ratio < floor
        tx = max(x0, x1) + 4
        weight = ' font-weight="bold"' if strongest else ""
        fill = "#c00" if below and strongest else "#222"
        out.append(f'<text x="{tx:.1f}" y="{y + bar_h - 3}" fill="{fill}"{weight}>'
                   f"{ratio:.2f}x {escape(peer)}</text>")
        y += bar_h + 2
    # Legend.
    lx, ly = label_w, plot_bottom + 32
    for peer in PEERS:
        if any(b[1] == peer for b in bars):
            color = COLORS[PEERS.index(peer) % len(COLORS)]
            out.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" fill="{color}"/>')
            out.append(f'<text x="{lx + 14}" y="{ly}">{escape(peer)}</text>')
            lx += 24 + 7 * len(peer)
    foot = ["solid bar: the strongest peer of the input; bold red: it is below the floor"]
    if any(b[5] for b in bars):
        foot.append("† dashed outline: ours errors on that input (the bench's note, see the table)")
    for i, line in enumerate(foot):
        out.append(f'<text x="{label_w}" y="{ly + 18 + 14 * i}" fill="#555">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--criterion-dir", action="append",
                    help="criterion's output (default $CRITERION_HOME or target/criterion); "
                    "give it once per run to chart the median of several runs")
    ap.add_argument("--out", default="BENCHMARKS.svg")
    ap.add_argument("--groups", default=DEFAULT_GROUPS, help=f"regex over group names (default {DEFAULT_GROUPS})")
    ap.add_argument("--floor", type=float, default=1.5)
    ap.add_argument("--title", default="reqparse against its peers (issue 9 goals: floor 1.5x)")
    ap.add_argument("--all", action="store_true", help="also list variants in the tables")
    ap.add_argument("--counts", metavar="FILE",
                    help="instruction counts from bench-counts.py --json, shown beside the times")
    args = ap.parse_args()

    dirs = args.criterion_dir or [os.environ.get("CRITERION_HOME", "target/criterion")]
    runs = [load(d) for d in dirs]
    for d, run in zip(dirs, runs):
        if not run:
            sys.exit(f"no criterion estimates under {d}")
    # Several runs: the median, per id, of the runs' medians (ids missing from a run are
    # left out rather than taken from fewer runs).
    common = set.intersection(*(set(r) for r in runs))
    times = {k: statistics.median(r[k] for r in runs) for k in common}
    notes, order = load_side_files(dirs[0])
    rows = collect(times, args.groups, order)
    with open(args.out, "w") as f:
        f.write(svg(rows, notes, args.floor, args.title))
    counts = {}
    if args.counts:
        with open(args.counts) as f:
            counts = json.load(f)["instructions_per_op"]
    print(tables(rows, notes, args.all, args.floor, counts))
    print(f"\n(wrote {args.out}: {sum(len(r[3]) for r in rows)} bars, median of {len(dirs)} run(s): "
          f"{', '.join(dirs)})", file=sys.stderr)


if __name__ == "__main__":
    main()
