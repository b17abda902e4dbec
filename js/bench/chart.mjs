// The median of several `npm run bench` runs, as markdown tables and an SVG chart of the
// ratios (peer time / reqparse time, above 1: reqparse is faster), like scripts/bench-chart.py
// draws for the Rust benches.
//
//   node bench/bench.mjs --rounds 21 --json /tmp/run1.json   (three times, on a quiet machine)
//   node bench/chart.mjs /tmp/run1.json /tmp/run2.json /tmp/run3.json [--out BENCHMARKS-npm.svg]
//
// Each cell is the median over the runs (that measured it) of each run's median round; a peer
// that threw on an input in any run is shown as such and not drawn. Node's standard library only.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fmt } from './measure.mjs';

const { values: args, positionals: files } = parseArgs({
  options: { out: { type: 'string', default: 'BENCHMARKS-npm.svg' } },
  allowPositionals: true,
});
if (files.length === 0) {
  console.error('usage: node bench/chart.mjs run.json [run.json ...] [--out chart.svg]');
  process.exit(2);
}
const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The tables of the first run, each cell the median over every run that has it. */
const tables = runs[0].tables.map((t) => ({
  ...t,
  rows: t.rows.map((row) => {
    // The runs that measured this input (a run with --filter may have left it out).
    const cells = runs
      .map((r) => r.tables.find((x) => x.title === t.title)?.rows.find((x) => x.label === row.label))
      .filter((c) => c !== undefined);
    const ns = row.ns.map((_, k) => {
      const xs = cells.map((c) => c.ns[k]);
      return xs.some((x) => x === null) ? null : median(xs);
    });
    return { ...row, ns };
  }),
}));


console.log(`${runs.length} run(s), ${runs.map((r) => `${r.node} ${r.date}`).join('; ')}; median of the runs' medians`);
for (const t of tables) {
  console.log(`\n### ${t.title}\n`);
  console.log(`| input | size | ${t.contenders.join(' | ')} |`);
  console.log(`|---|---:|${t.contenders.map(() => '---:').join('|')}|`);
  for (const row of t.rows) {
    const ours = row.ns[0];
    const cells = row.ns.map((ns, k) =>
      ns === null ? 'throws' : k === 0 ? fmt(ns) : `${fmt(ns)} (**${(ns / ours).toFixed(2)}x**)`,
    );
    console.log(`| ${row.label} | ${row.size} | ${cells.join(' | ')} |`);
  }
}

// ---- the chart: one bar per input and peer, log scale, a line at 1x ----------------------------

const bars = [];
for (const t of tables) {
  for (const row of t.rows) {
    const ours = row.ns[0];
    const peers = row.ns.map((ns, k) => ({ k, ratio: ns === null || ours === null || k === 0 ? null : ns / ours }));
    const drawn = peers.filter((p) => p.ratio !== null);
    if (drawn.length === 0) continue;
    const strongest = Math.min(...drawn.map((p) => p.ratio));
    for (const p of drawn) {
      bars.push({ group: t.title, label: `${row.label} · ${t.contenders[p.k]}`, ratio: p.ratio, strongest: p.ratio === strongest });
    }
  }
}

const ROW = 16;
const LEFT = 430;
const WIDTH = 900;
const TOP = 40;
const lo = Math.log10(0.1);
const hi = Math.log10(Math.max(20, ...bars.map((b) => b.ratio)));
const x = (r) => LEFT + ((Math.log10(Math.min(Math.max(r, 0.1), 10 ** hi)) - lo) / (hi - lo)) * (WIDTH - LEFT - 20);
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const groups = [...new Set(bars.map((b) => b.group))];
const height = TOP + bars.length * ROW + groups.length * ROW + 40;
const svg = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="11">`,
  `<rect width="100%" height="100%" fill="white"/>`,
  `<text x="10" y="18" font-size="13" font-weight="bold">npm package: peer time / reqparse time (log scale; above 1: reqparse is faster)</text>`,
  `<text x="10" y="32" fill="#555">${esc(`median of ${runs.length} run(s) of bench/bench.mjs, ${runs[0].node}; darker bar: the strongest peer of the input`)}</text>`,
];
let y = TOP;
for (const g of groups) {
  svg.push(`<text x="10" y="${y + 12}" font-weight="bold">${esc(g)}</text>`);
  y += ROW;
  for (const b of bars.filter((bb) => bb.group === g)) {
    const x1 = x(1);
    const x2 = x(b.ratio);
    const color = b.ratio >= 1 ? (b.strongest ? '#2b7a3d' : '#9fd1aa') : b.strongest ? '#b03a2e' : '#e6a59e';
    svg.push(`<text x="${LEFT - 6}" y="${y + 11}" text-anchor="end">${esc(b.label)}</text>`);
    svg.push(`<rect x="${Math.min(x1, x2)}" y="${y + 2}" width="${Math.max(1, Math.abs(x2 - x1))}" height="${ROW - 4}" fill="${color}"/>`);
    svg.push(`<text x="${Math.max(x1, x2) + 4}" y="${y + 11}">${b.ratio.toFixed(2)}x</text>`);
    y += ROW;
  }
}
for (const r of [0.1, 0.5, 1, 1.5, 2, 5, 10, 20].filter((v) => Math.log10(v) <= hi)) {
  const xr = x(r);
  svg.push(`<line x1="${xr}" y1="${TOP}" x2="${xr}" y2="${y}" stroke="${r === 1 ? '#000' : '#ccc'}" stroke-dasharray="${r === 1 ? '' : '3,3'}"/>`);
  svg.push(`<text x="${xr}" y="${y + 14}" text-anchor="middle" fill="#555">${r}x</text>`);
}
svg.push('</svg>');
writeFileSync(args.out, `${svg.join('\n')}\n`);
console.error(`wrote ${args.out} (${bars.length} bars)`);
