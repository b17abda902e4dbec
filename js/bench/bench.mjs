// `npm run bench`: reqparse against its peers, in the same run, on the same inputs.
// Prints ns/op and ratios (peer time / reqparse time: above 1 means reqparse is faster).
//
// Each contender runs in rounds of ~ROUND_MS, interleaved with the others so that machine noise
// (2 shared cores) hits everyone alike; the median round is reported.
//   node bench/bench.mjs [--rounds N] [--round-ms MS] [--filter text]
import { createRequire } from 'node:module';
import querystring from 'node:querystring';
import { parseArgs } from 'node:util';
import * as reqparse from 'reqparse';
// 3.x is ESM and declares Node 22+: it lives in bench/peers (`npm run bench` installs it there).
import * as contentDisposition3 from './peers/content-disposition.mjs';

// CPU time of this process (ns), not wall time: the machine's other load does not count.
const cpuNow = () => { const u = process.cpuUsage(); return (u.user + u.system) * 1000; };

const require = createRequire(import.meta.url);
const fastQuerystring = require('fast-querystring');
const contentDisposition1 = require('content-disposition-v1');

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    'round-ms': { type: 'string', default: '40' },
    filter: { type: 'string', default: '' },
  },
});
const ROUNDS = Number(args.rounds);
const ROUND_MS = Number(args['round-ms']);

// ---- inputs ---------------------------------------------------------------------------------

/**
 * A query of about `size` bytes shaped like what shops and search pages send: campaign tags,
 * ids, search text with `+` and UTF-8 escapes, an encoded redirect URL, a token: ~28 pairs per
 * KB (36 bytes a pair), 1 in 3 values needing decoding.
 */
function query(size) {
  const words = ['red', 'leather', 'caf%C3%A9', 'cr%C3%A8me', 'size+42', 'new%20arrivals'];
  const kinds = [
    (i) => `utm_campaign=spring_sale_${2020 + (i % 5)}_newsletter`,
    (i) => `q=${words[i % 6]}+${words[(i + 1) % 6]}+${words[(i + 4) % 6]}`,
    (i) => `product_id=${(i * 7919) % 1000003}-${(i * 31) % 97}`,
    (i) => `redirect=https%3A%2F%2Fshop.example.com%2Fcart%3Fstep%3D${i}`,
    (i) => `session=${(i * 104729 + 1e9).toString(36)}${(i * 8191 + 1e12).toString(36)}`,
    (i) => `filter%5Bcolor%5D=${i % 2 ? 'blue' : 'green'}`,
  ];
  const parts = [];
  let len = 0;
  for (let i = 0; len < size; i++) {
    const p = kinds[i % kinds.length](i);
    parts.push(p);
    len += p.length + 1;
  }
  return parts.join('&');
}

const QUERIES = [
  ['short', 'a=1&b=2&c=hello'],
  ['short escaped', 'q=hello%20world&lang=en'],
  ['1 KB', query(1024)],
  ['8 KB', query(8192)],
];

function longFilename(bytes) {
  let s = '';
  for (let i = 0; s.length < bytes; i++) s += i % 3 ? `part${i}%20` : '%E2%82%AC';
  return s;
}

const DISPOSITIONS = [
  ['typical', 'attachment; filename="quarterly-report-2024.pdf"'],
  ['filename*', `attachment; filename="EURO rates.txt"; filename*=UTF-8''%E2%82%AC%20rates%20%C3%A9t%C3%A9.txt`],
  ['2 KB', `attachment; filename="fallback.bin"; filename*=UTF-8''${longFilename(2000)}.bin`],
];

// ---- contenders -----------------------------------------------------------------------------

const queryContenders = [
  ['reqparse queryPairs', (q) => reqparse.queryPairs(q).length],
  ['URLSearchParams', (q) => new URLSearchParams(q).size],
  ['node:querystring', (q) => Object.keys(querystring.parse(q)).length],
  ['fast-querystring', (q) => Object.keys(fastQuerystring.parse(q)).length],
];

const dispositionContenders = [
  ['reqparse parseContentDisposition', (h) => reqparse.parseContentDisposition(h).parameters.length],
  ['content-disposition 3.x', (h) => Object.keys(contentDisposition3.parse(h).parameters).length],
  ['content-disposition 1.x', (h) => Object.keys(contentDisposition1.parse(h).parameters).length],
];

// ---- measurement ----------------------------------------------------------------------------

let sink = 0;

function calibrate(fn, input) {
  let n = 1;
  for (;;) {
    const t0 = cpuNow();
    for (let i = 0; i < n; i++) sink += fn(input);
    const ms = (cpuNow() - t0) / 1e6;
    if (ms > ROUND_MS / 4) return Math.max(1, Math.round((n * ROUND_MS) / ms));
    n *= 2;
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function measure(contenders, input) {
  const iters = contenders.map(([, fn]) => calibrate(fn, input));
  const samples = contenders.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    contenders.forEach(([, fn], k) => {
      const n = iters[k];
      const t0 = cpuNow();
      for (let i = 0; i < n; i++) sink += fn(input);
      samples[k].push((cpuNow() - t0) / n);
    });
  }
  return samples.map(median);
}

function fmt(ns) {
  return ns >= 10000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`;
}

function table(title, contenders, inputs, check) {
  console.log(`\n## ${title}\n`);
  console.log(`| input | size | ${contenders.map(([n]) => n).join(' | ')} |`);
  console.log(`|---|---:|${contenders.map(() => '---:').join('|')}|`);
  for (const [label, input] of inputs) {
    if (args.filter && !`${title} ${label}`.includes(args.filter)) continue;
    const size = check(input);
    const ns = measure(contenders, input);
    const cells = ns.map((t, k) =>
      k === 0 ? `${fmt(t)} (${(1e9 / t / 1e6).toFixed(2)} M ops/s)` : `${fmt(t)} (**${(t / ns[0]).toFixed(2)}x**)`,
    );
    console.log(`| ${label} | ${size} | ${cells.join(' | ')} |`);
  }
}

// Same answers before timing anything: a fast wrong parser is no result.
function checkQuery(q) {
  const ours = reqparse.queryPairs(q);
  const theirs = [...new URLSearchParams(q)];
  if (JSON.stringify(ours) !== JSON.stringify(theirs)) throw new Error(`queryPairs disagrees with URLSearchParams on ${q}`);
  return `${Buffer.byteLength(q)} B, ${ours.length} pairs`;
}
function checkDisposition(h) {
  const ours = reqparse.parseContentDisposition(h).filename;
  const theirs = contentDisposition3.parse(h).parameters.filename;
  if (ours !== theirs) throw new Error(`filename ${ours} != content-disposition's ${theirs} on ${h}`);
  return `${Buffer.byteLength(h)} B`;
}

console.log(`node ${process.version}, ${ROUNDS} rounds of ~${ROUND_MS} ms, median ns/op;`);
console.log('ratios are peer time / reqparse time (above 1: reqparse is faster)');
table('queryPairs', queryContenders, QUERIES, checkQuery);
table('parseContentDisposition', dispositionContenders, DISPOSITIONS, checkDisposition);
if (sink === 0.5) console.log(sink);
