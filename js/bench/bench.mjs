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

const require = createRequire(import.meta.url);
const fastQuerystring = require('fast-querystring');
const contentDisposition3 = require('content-disposition');
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

/** A realistic query of about `size` bytes: tracking ids, escaped search text, some UTF-8. */
function query(size) {
  const parts = [];
  const words = ['shoes', 'red+leather', 'size%3D42', 'caf%C3%A9', 'new%20arrivals', 'x'];
  let i = 0;
  let len = 0;
  while (len < size) {
    const p = [
      `utm_source=newsletter${i}`,
      `q=${words[i % words.length]}+${words[(i + 3) % words.length]}`,
      `id=${(i * 7919) % 100000}`,
      `filter%5Bcolor%5D=${i % 2 ? 'blue' : 'green'}`,
      `page=${i}`,
      `sessionid=${(i * 104729).toString(36)}abc${i}`,
    ][i % 6];
    parts.push(p);
    len += p.length + 1;
    i++;
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
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink += fn(input);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
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
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) sink += fn(input);
      samples[k].push(Number(process.hrtime.bigint() - t0) / n);
    });
  }
  return samples.map(median);
}

function fmt(ns) {
  return ns >= 10000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`;
}

function table(title, contenders, inputs, check) {
  console.log(`\n## ${title}\n`);
  console.log(`| input | bytes | ${contenders.map(([n]) => n).join(' | ')} |`);
  console.log(`|---|---:|${contenders.map(() => '---:').join('|')}|`);
  for (const [label, input] of inputs) {
    if (args.filter && !`${title} ${label}`.includes(args.filter)) continue;
    check(input);
    const ns = measure(contenders, input);
    const cells = ns.map((t, k) =>
      k === 0 ? `${fmt(t)} (${(1e9 / t / 1e6).toFixed(2)} M ops/s)` : `${fmt(t)} (**${(t / ns[0]).toFixed(2)}x**)`,
    );
    console.log(`| ${label} | ${Buffer.byteLength(input)} | ${cells.join(' | ')} |`);
  }
}

// Same answers before timing anything: a fast wrong parser is no result.
function checkQuery(q) {
  const ours = reqparse.queryPairs(q);
  const theirs = [...new URLSearchParams(q)];
  if (JSON.stringify(ours) !== JSON.stringify(theirs)) throw new Error(`queryPairs disagrees with URLSearchParams on ${q}`);
}
function checkDisposition(h) {
  const ours = reqparse.parseContentDisposition(h).filename;
  const theirs = contentDisposition3.parse(h).parameters.filename;
  if (ours !== theirs) throw new Error(`filename ${ours} != content-disposition's ${theirs} on ${h}`);
}

console.log(`node ${process.version}, ${ROUNDS} rounds of ~${ROUND_MS} ms, median ns/op;`);
console.log('ratios are peer time / reqparse time (above 1: reqparse is faster)');
table('queryPairs', queryContenders, QUERIES, checkQuery);
table('parseContentDisposition', dispositionContenders, DISPOSITIONS, checkDisposition);
if (sink === 0.5) console.log(sink);
