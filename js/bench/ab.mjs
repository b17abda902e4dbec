// Before and after one change to the package, in one process: `node bench/ab.mjs A B`, where A
// and B are two folders that each hold a build of the package (index.cjs, lib/ and pkg/, as
// `npm run build` leaves them in js/). Times both on bench.mjs's inputs, in
// interleaved rounds whose order alternates (A first, then B first), and prints each side's
// median and their ratio (A time / B time: above 1 means B is faster).
//   node bench/ab.mjs A B [--filter text] [--rounds N] [--round-ms MS]
// Only a ratio inside one process counts: two processes of the same code can settle at
// different speeds (js/BENCHMARKS.md, "Profiling and A/B"). Run it with identical A and B
// first: the spread of that null A/B is the harness's noise on this machine (0.90-1.04x on
// the headers in its first run: js/BENCHMARKS.md, "Profiling and A/B"), so a difference under
// 10% needs several runs that agree.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DISPOSITIONS, LOOKUPS, QUERIES, RELATIVE_PARTS, URI_PARTS, URIS } from './inputs.mjs';
import { cpuNow, fmt, median } from './measure.mjs';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '31' },
    'round-ms': { type: 'string', default: '20' },
    filter: { type: 'string', default: '' },
  },
});
if (positionals.length !== 2) {
  console.error('usage: node bench/ab.mjs A B [--filter text] [--rounds N] [--round-ms MS]');
  process.exit(1);
}
const ROUNDS = Number(args.rounds);
const ROUND_MS = Number(args['round-ms']);
const require = createRequire(import.meta.url);
const [a, b] = positionals.map((dir) => require(resolve(dir, 'index.cjs')));

let kept;

/** What each function of the package is asked, on which inputs: [title, call, inputs]. */
const CASES = [
  ['queryPairs', (m, q) => m.queryPairs(q), QUERIES],
  ['parseQuery + get', (m, [q, name]) => m.parseQuery(q).get(name), LOOKUPS.map(([l, q, n]) => [l, [q, n]])],
  ['parseContentDisposition', (m, h) => m.parseContentDisposition(h), DISPOSITIONS],
  ['buildAbsolute', (m, p) => m.buildAbsolute(p), URI_PARTS],
  ['buildRelative', (m, p) => m.buildRelative(p), RELATIVE_PARTS],
  ['splitAbsolute', (m, u) => m.splitAbsolute(u), URIS],
];

/** ns a call of `fn` over `n` calls. */
function time(fn, n) {
  const t0 = cpuNow();
  for (let i = 0; i < n; i++) kept = fn();
  return (cpuNow() - t0) / n;
}

/** Calls enough for a round of about ROUND_MS. */
function calibrate(fn) {
  for (let n = 1; ; n *= 2) {
    const ms = (time(fn, n) * n) / 1e6;
    if (ms > ROUND_MS / 4) return Math.max(1, Math.round((n * ROUND_MS) / ms));
  }
}

console.log(`| function | input | A | B | A / B |\n|---|---|---:|---:|---:|`);
for (const [title, call, inputs] of CASES) {
  for (const [label, input] of inputs) {
    if (args.filter && !`${title} ${label}`.includes(args.filter)) continue;
    // One closure a side, so that neither shares its call site with the other's package.
    const runA = () => call(a, input);
    const runB = () => call(b, input);
    // The same answer from both, or the comparison means nothing.
    if (JSON.stringify(runA()) !== JSON.stringify(runB())) {
      throw new Error(`${title} ${label}: A and B answer differently`);
    }
    const n = Math.min(calibrate(runA), calibrate(runB));
    const ta = [];
    const tb = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) {
        ta.push(time(runA, n));
        tb.push(time(runB, n));
      } else {
        tb.push(time(runB, n));
        ta.push(time(runA, n));
      }
    }
    const [ma, mb] = [median(ta), median(tb)];
    console.log(`| ${title} | ${label} | ${fmt(ma)} | ${fmt(mb)} | ${(ma / mb).toFixed(3)} |`);
  }
}
