// The busboy facades alone (no sockets): the same chunks written into `reqparse/busboy` and into
// busboy 1.6.0, and into `reqparse/fastify-busboy` and into @fastify/busboy 3.2.6, each through
// its Writable (`write()` per chunk, then `end()`, as bench/body.mjs drives busboy), on 100
// fields, a 32 MiB file, small chunks and the adversarial bodies of bench/body.mjs.
//
// Every consumer does the same work: each field's name and value kept, each file's bytes counted
// and checksummed (zlib's CRC-32, chained over its pieces). Before any timing, every pair's
// answers (fields, files' names, filenames, sizes and CRCs, in order) must be equal, or the run
// stops. CPU time of this process, interleaved ~40 ms rounds, the median (bench/measure.mjs).
//
//   node bench/busboy.mjs                      # from js/: the full run (the lead's figures)
//   BENCH_SMOKE=1 node bench/busboy.mjs        # checks the answers, one tiny round: no figures
//   node bench/busboy.mjs --filter fields --rounds 21 --mb 32
//   node bench/busboy.mjs --no-checksum       # files counted only: the parsers' own share
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { crc32 } from 'node:zlib';
import { BOUNDARY, CONTENT_TYPE, body, chunked, fieldPart, filePart, pseudoRandom, repeat } from './bodies.mjs';
import { cpuNow, median } from './measure.mjs';

const require = createRequire(import.meta.url);
const busboy = require('busboy');
const FastifyBusboy = require('@fastify/busboy');
const facade = require('reqparse/busboy');
const FastifyFacade = require('reqparse/fastify-busboy');

const SMOKE = process.env.BENCH_SMOKE === '1';
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: SMOKE ? '1' : '15' },
    'round-ms': { type: 'string', default: SMOKE ? '0' : '40' },
    mb: { type: 'string', default: SMOKE ? '2' : '32' },
    filter: { type: 'string', default: '' },
    warmup: { type: 'string', default: '10' },
    // Times the consumers counting file bytes only (the answers are still checked with CRCs):
    // the CRC-32 of 32 MiB costs about as much CPU as the parsers, and is the same for both.
    'no-checksum': { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(args.rounds);
const ROUND_MS = Number(args['round-ms']);
const MB = Number(args.mb);
let checksum = true;
// Rounds before the timed ones: enough for V8 to have compiled what a shape runs (the facade,
// more code than busboy, needs more of them: bench/e2e.mjs, the warm-up).
const WARMUP = SMOKE ? 0 : Number(args.warmup);

// ---- bodies (bench/body.mjs's shapes) ---------------------------------------------------------

const HEADERS = { 'content-type': CONTENT_TYPE };

const KiB = 1024;
const big = MB * KiB * KiB;
const adversarial = Math.min(big, 8 * KiB * KiB);
const fields100 = body(...Array.from({ length: 100 }, (_, i) => fieldPart(`field${i}`, `value number ${i} of the form`)));
const mixed = body(...Array.from({ length: 20 }, (_, i) => fieldPart(`f${i}`, `v${i}`)), filePart('upload', 'a.bin', pseudoRandom(64 * KiB, 7)));
const file = body(fieldPart('title', 'x'), filePart('file', 'big.bin', pseudoRandom(big)));
// bench/e2e.mjs's 1 KB form (a sign-up page's fields and a 512-byte avatar), one chunk as a
// server's request hands it over: a new parser per body, the cost a server pays per request.
const form1k = body(
  fieldPart('name', 'Zoë Example'),
  fieldPart('email', 'zoe@example.com'),
  fieldPart('plan', 'team'),
  fieldPart('note', 'x'.repeat(120)),
  filePart('avatar', 'avatar.png', pseudoRandom(512, 1)),
);

const SHAPES = [
  ['1 KB form + 512 B file, one chunk', [form1k]],
  ['100 fields, one chunk', [fields100]],
  ['100 fields, 1 KiB chunks', chunked(fields100, KiB)],
  ['100 fields, 16 B chunks', chunked(fields100, 16)],
  [`file ${MB} MiB, 64 KiB chunks`, chunked(file, 64 * KiB)],
  [`file ${MB} MiB, 1 KiB chunks`, chunked(file, KiB)],
  ['20 fields + 64 KiB file, 1 KiB chunks', chunked(mixed, KiB)],
  ['20 fields + 64 KiB file, 16 B chunks', chunked(mixed, 16)],
  [`all CR, ${adversarial >> 20} MiB`, chunked(body(filePart('f', 'cr.bin', Buffer.alloc(adversarial, 13))), 64 * KiB)],
  [`near-miss delimiters, ${adversarial >> 20} MiB`, chunked(body(filePart('f', 'near.bin', repeat(`\r\n--${BOUNDARY.slice(0, -1)}x`, adversarial))), 64 * KiB)],
  [`dash-dense, ${adversarial >> 20} MiB`, chunked(body(filePart('f', 'dash.bin', repeat('\r\n-----\r\n--', adversarial))), 64 * KiB)],
];

// ---- consumers: chunks in, the answer out ----------------------------------------------------

const NO_LIMITS = { fieldSize: Infinity, fileSize: Infinity, parts: Infinity, fields: Infinity, files: Infinity };

/**
 * Writes `chunks` into the Writable `bb` and collects its answer: `[name, value]` per field,
 * `{name, filename, size, crc}` per file, in the order the parts came. `end` is the event after
 * the last part (busboy 1.x: `close`; @fastify/busboy: `finish`); `fileOf` reads a `file`
 * event's arguments after the name as `[stream, filename]`.
 */
function consume(bb, chunks, end, fileOf) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let open = 0;
    let ended = false;
    const settle = () => ended && open === 0 && resolve(parts);
    bb.on('field', (name, value) => parts.push([name, value]));
    bb.on('file', (name, ...rest) => {
      const [stream, filename] = fileOf(rest);
      const f = { name, filename, size: 0, crc: 0 };
      parts.push(f);
      open++;
      stream.on('data', (d) => {
        f.size += d.length;
        if (checksum) f.crc = crc32(d, f.crc);
      });
      stream.on('end', () => {
        open--;
        settle();
      });
    });
    bb.on(end, () => {
      ended = true;
      settle();
    });
    bb.on('error', reject);
    for (const c of chunks) bb.write(c);
    bb.end();
  });
}

const busboy1 = (rest) => [rest[0], rest[1].filename];
const fastify = (rest) => [rest[0], rest[1]];

/** [title, [[contender, parse(chunks)], ...]]: the facade first, its peer second. */
const PAIRS = [
  [
    'reqparse/busboy vs busboy 1.6.0',
    [
      ['reqparse/busboy', (chunks) => consume(facade({ headers: HEADERS, limits: NO_LIMITS }), chunks, 'close', busboy1)],
      ['busboy', (chunks) => consume(busboy({ headers: HEADERS, limits: NO_LIMITS }), chunks, 'close', busboy1)],
    ],
  ],
  [
    'reqparse/fastify-busboy vs @fastify/busboy 3.2.6',
    [
      ['reqparse/fastify-busboy', (chunks) => consume(new FastifyFacade({ headers: HEADERS, limits: NO_LIMITS }), chunks, 'finish', fastify)],
      ['@fastify/busboy', (chunks) => consume(new FastifyBusboy({ headers: HEADERS, limits: NO_LIMITS }), chunks, 'finish', fastify)],
    ],
  ],
];

// ---- check, then time -----------------------------------------------------------------------

const shapes = SHAPES.filter(([name]) => name.includes(args.filter));
for (const [title, contenders] of PAIRS) {
  for (const [shape, chunks] of shapes) {
    const [ours, theirs] = [await contenders[0][1](chunks), await contenders[1][1](chunks)];
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
      console.error(`${title}, ${shape}: the answers differ:\n  ${JSON.stringify(ours).slice(0, 300)}\n  ${JSON.stringify(theirs).slice(0, 300)}`);
      process.exit(1);
    }
  }
}
console.log(`answers checked equal on ${shapes.length} shapes for both pairs`);
checksum = !args['no-checksum'];

/** Parses per round so that one round takes about ROUND_MS of CPU time. */
async function repsFor(parse, chunks) {
  let reps = 1;
  for (;;) {
    const t0 = cpuNow();
    for (let i = 0; i < reps; i++) await parse(chunks);
    const ms = (cpuNow() - t0) / 1e6;
    if (ms >= ROUND_MS || reps >= 1 << 16) return reps;
    reps *= ms > 0 ? Math.min(16, Math.max(2, Math.ceil(ROUND_MS / ms))) : 16;
  }
}

const fmtMs = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);
console.log(
  `node ${process.version}: CPU time per body, median of ${ROUNDS} interleaved rounds of ~${ROUND_MS} ms after ${WARMUP} warm-up rounds; ` +
    `ratio = peer time / facade time (above 1: the facade is faster); files ${checksum ? 'counted and CRC-32 summed' : 'counted only (--no-checksum)'}` +
    `${SMOKE ? ' (SMOKE: not figures)' : ''}`,
);
for (const [title, contenders] of PAIRS) {
  console.log(`\n## ${title}\n`);
  console.log(`| shape | size | ${contenders[0][0]} | ${contenders[1][0]} | ratio |`);
  console.log('|---|---:|---:|---:|---:|');
  for (const [shape, chunks] of shapes) {
    const size = chunks.reduce((n, c) => n + c.length, 0);
    const reps = [];
    for (const [, parse] of contenders) reps.push(await repsFor(parse, chunks));
    const samples = contenders.map(() => []);
    for (let r = 0; r < WARMUP + ROUNDS; r++) {
      // Which side runs first alternates, so that neither always follows the other's garbage.
      for (let j = 0; j < contenders.length; j++) {
        const k = r % 2 === 0 ? j : contenders.length - 1 - j;
        const t0 = cpuNow();
        for (let i = 0; i < reps[k]; i++) await contenders[k][1](chunks);
        if (r >= WARMUP) samples[k].push((cpuNow() - t0) / reps[k]);
      }
    }
    const [a, b] = samples.map(median);
    const mbs = (ns) => `${(size / 1048576 / (ns / 1e9)).toFixed(0)} MB/s`;
    console.log(`| ${shape} | ${size} B | ${fmtMs(a)} (${mbs(a)}) | ${fmtMs(b)} (${mbs(b)}) | **${(b / a).toFixed(2)}x** |`);
  }
}
