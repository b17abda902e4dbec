// multipart/form-data bodies: reqparse's parseMultipart against busboy, @fastify/busboy,
// multipasta and @remix-run/multipart-parser, each used in its fastest documented way, on the
// same chunks in memory (no sockets): a large file part in 64 KiB chunks, 100 small fields,
// small chunks, and adversarial data (all CR, near-miss delimiters, dash-dense).
//
// Before any timing, every parser's output on every shape (names, filenames, sizes and SHA-256
// of each part) is printed and must agree with ours, or the run stops.
//
//   npm run bench:body                     # full run (the lead runs it on a quiet machine)
//   BENCH_SMOKE=1 npm run bench:body       # check outputs + 1 timed iteration each, small sizes
//   BENCH_MB=100 BENCH_ITER=15 npm run bench:body
//
// Timing: per shape, the parsers run in interleaved rounds (as bench.mjs does), each round
// ~40 ms of CPU time of this process (not wall time: the machine is shared); the median round,
// as time per body and MB/s of body bytes; ratios against @fastify/busboy and against the
// fastest other peer (above 1: reqparse is faster).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { parseMultipart } from 'reqparse';
import * as multipasta from 'multipasta';
import { parseMultipart as remixParse } from '@remix-run/multipart-parser';
import { BOUNDARY, CONTENT_TYPE, body, chunked, fieldPart, filePart, pseudoRandom, repeat } from './bodies.mjs';

const require = createRequire(import.meta.url);
const busboy = require('busboy');
const FastifyBusboy = require('@fastify/busboy');

const SMOKE = process.env.BENCH_SMOKE === '1';
const MB = Number(process.env.BENCH_MB ?? (SMOKE ? 2 : 32));
const ITER = Number(process.env.BENCH_ITER ?? (SMOKE ? 1 : 15));
const WARMUP = SMOKE ? 0 : 2;
const CHUNK = 64 * 1024;

// ---- bodies ---------------------------------------------------------------------------------

const big = MB * 1024 * 1024;
const adversarial = Math.min(big, 8 * 1024 * 1024);
const fields100 = body(...Array.from({ length: 100 }, (_, i) => fieldPart(`field${i}`, `value number ${i} of the form`)));
const mixed = body(
  ...Array.from({ length: 20 }, (_, i) => fieldPart(`f${i}`, `v${i}`)),
  filePart('upload', 'a.bin', pseudoRandom(64 * 1024, 7)),
);

const SHAPES = [
  { name: `file ${MB} MiB, 64 KiB chunks`, chunks: chunked(body(fieldPart('title', 'x'), filePart('file', 'big.bin', pseudoRandom(big))), CHUNK) },
  { name: '100 small fields, one chunk', chunks: [fields100] },
  { name: '100 small fields, 64 KiB chunks', chunks: chunked(fields100, CHUNK) },
  { name: '20 fields + 64 KiB file, 16-byte chunks', chunks: chunked(mixed, 16) },
  { name: `all CR, ${adversarial >> 20} MiB`, chunks: chunked(body(filePart('f', 'cr.bin', Buffer.alloc(adversarial, 13))), CHUNK) },
  {
    name: `near-miss delimiters, ${adversarial >> 20} MiB`,
    chunks: chunked(body(filePart('f', 'near.bin', repeat(`\r\n--${BOUNDARY.slice(0, -1)}x`, adversarial))), CHUNK),
  },
  { name: `dash-dense, ${adversarial >> 20} MiB`, chunks: chunked(body(filePart('f', 'dash.bin', repeat('\r\n-----\r\n--', adversarial))), CHUNK) },
];

// ---- one function per parser: chunks in, [{name, filename, size, sha256}] out ----------------

/** Counts (and, when checking, hashes) a part's bytes. */
class Sink {
  constructor(name, filename, hash) {
    this.out = { name, filename, size: 0, sha256: null };
    this.hash = hash ? createHash('sha256') : null;
  }
  add(bytes) {
    this.out.size += bytes.length;
    this.hash?.update(bytes);
  }
  done() {
    if (this.hash) this.out.sha256 = this.hash.digest('hex');
    return this.out;
  }
}

const text = (value, sink) => {
  sink.add(Buffer.from(value, 'utf8'));
  return sink.done();
};

const NO_LIMITS = { fieldSize: Infinity, fileSize: Infinity, parts: Infinity, fields: Infinity, files: Infinity };

/** busboy and @fastify/busboy: the same events, but for the file's arguments and the last event. */
function busboyParts(bb, chunks, hash, last, file) {
  return new Promise((resolve, reject) => {
    const parts = [];
    bb.on('field', (name, value) => parts.push(text(value, new Sink(name, null, hash))));
    bb.on('file', (name, ...args) => {
      const [stream, filename] = file(...args);
      const sink = new Sink(name, filename, hash);
      const at = parts.push(null) - 1;
      stream.on('data', (d) => sink.add(d));
      stream.on('end', () => (parts[at] = sink.done()));
    });
    bb.on(last, () => resolve(parts));
    bb.on('error', reject);
    for (const c of chunks) bb.write(c);
    bb.end();
  });
}

const PARSERS = {
  async reqparse(chunks, hash) {
    const parts = [];
    for await (const part of parseMultipart(chunks, { boundary: BOUNDARY, limits: { maxBodyBytes: Infinity } })) {
      const sink = new Sink(part.name, part.filename, hash);
      if (part.filename === null) {
        parts.push(text(part.value, sink));
      } else {
        for await (const piece of part.stream) sink.add(piece);
        parts.push(sink.done());
      }
    }
    return parts;
  },

  busboy(chunks, hash) {
    const bb = busboy({ headers: { 'content-type': CONTENT_TYPE }, limits: NO_LIMITS });
    return busboyParts(bb, chunks, hash, 'close', (stream, info) => [stream, info.filename]);
  },

  '@fastify/busboy'(chunks, hash) {
    const bb = new FastifyBusboy({ headers: { 'content-type': CONTENT_TYPE }, limits: NO_LIMITS });
    return busboyParts(bb, chunks, hash, 'finish', (stream, filename) => [stream, filename]);
  },

  multipasta(chunks, hash) {
    return new Promise((resolve, reject) => {
      const parts = [];
      const parser = multipasta.make({
        headers: { 'content-type': CONTENT_TYPE },
        onField: (info, value) => parts.push(text(multipasta.decodeField(info, value), new Sink(info.name, null, hash))),
        onFile: (info) => {
          const sink = new Sink(info.name, info.filename, hash);
          return (chunk) => (chunk === null ? parts.push(sink.done()) : sink.add(chunk));
        },
        onError: (e) => reject(new Error(`multipasta: ${JSON.stringify(e)}`)),
        onDone: () => resolve(parts),
      });
      for (const c of chunks) parser.write(c);
      parser.end();
    });
  },

  '@remix-run/multipart-parser'(chunks, hash) {
    const parts = [];
    const options = { boundary: BOUNDARY, maxFileSize: Infinity, maxTotalSize: Infinity };
    for (const part of remixParse(chunks, options)) {
      const sink = new Sink(part.name, part.filename ?? null, hash);
      if (part.isFile) for (const piece of part.content) sink.add(piece);
      else sink.add(Buffer.from(part.text, 'utf8'));
      parts.push(sink.done());
    }
    return Promise.resolve(parts);
  },
};

// ---- check, then time -----------------------------------------------------------------------

const summary = (parts) =>
  parts.map((p) => `${p.name}${p.filename === null ? '' : ` (${p.filename})`} ${p.size} B ${p.sha256.slice(0, 16)}`);

let agree = true;
for (const shape of SHAPES) {
  const ours = await PARSERS.reqparse(shape.chunks, true);
  const lines = summary(ours);
  console.log(`\n${shape.name}: ${ours.length} parts; reqparse: ${lines.slice(0, 2).join(', ')}${lines.length > 2 ? ', …' : ''}`);
  for (const [name, parse] of Object.entries(PARSERS)) {
    if (name === 'reqparse') continue;
    let theirs;
    try {
      theirs = await parse(shape.chunks, true);
    } catch (e) {
      theirs = e;
    }
    const same = !(theirs instanceof Error) && JSON.stringify(theirs) === JSON.stringify(ours);
    if (!same) agree = false;
    console.log(
      `  ${name}: ${same ? 'same parts, sizes and SHA-256' : `DIFFERS: ${theirs instanceof Error ? theirs.message : summary(theirs).slice(0, 3).join(', ')}`}`,
    );
  }
}
if (!agree) {
  console.error('\nA parser disagrees with reqparse: no timing.');
  process.exit(1);
}

const bytesOf = (chunks) => chunks.reduce((n, c) => n + c.length, 0);
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
/** CPU time of this process in ms (user + system): less disturbed by other load than wall time. */
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e3;
};

/** Parses per round so that one round takes about ROUND_MS (one, in a smoke run). */
const ROUND_MS = SMOKE ? 0 : 40;
async function repsFor(parse, chunks) {
  let reps = 1;
  for (;;) {
    const t0 = cpu();
    for (let i = 0; i < reps; i++) await parse(chunks, false);
    const ms = cpu() - t0;
    if (ms >= ROUND_MS || reps >= 1 << 16) return reps;
    reps *= ms > 0 ? Math.min(16, Math.max(2, Math.ceil(ROUND_MS / ms))) : 16;
  }
}

console.log(
  `\nTiming: CPU time per body, median of ${ITER} interleaved rounds of ~${ROUND_MS} ms each, ` +
    `after ${WARMUP} warm-up rounds, Node ${process.version}${SMOKE ? ' (SMOKE: not numbers to quote)' : ''}`,
);
const rows = [];
for (const shape of SHAPES) {
  const size = bytesOf(shape.chunks);
  const parsers = Object.entries(PARSERS);
  const reps = {};
  for (const [name, parse] of parsers) reps[name] = await repsFor(parse, shape.chunks);
  const runs = Object.fromEntries(parsers.map(([name]) => [name, []]));
  for (let round = 0; round < WARMUP + ITER; round++) {
    for (const [name, parse] of parsers) {
      const t0 = cpu();
      for (let i = 0; i < reps[name]; i++) await parse(shape.chunks, false);
      if (round >= WARMUP) runs[name].push((cpu() - t0) / reps[name]);
    }
  }
  const times = Object.fromEntries(parsers.map(([name]) => [name, median(runs[name])]));
  const row = { shape: shape.name };
  for (const [name] of parsers) {
    row[name] = `${(times[name] * 1e3).toFixed(0)} µs, ${(size / 1048576 / (times[name] / 1e3)).toFixed(0)} MB/s`;
  }
  const others = Object.entries(times).filter(([n]) => n !== 'reqparse' && n !== '@fastify/busboy');
  const fastest = Math.min(...others.map(([, t]) => t));
  row['vs @fastify/busboy'] = `${(times['@fastify/busboy'] / times.reqparse).toFixed(2)}x`;
  row['vs fastest other'] = `${(fastest / times.reqparse).toFixed(2)}x`;
  rows.push(row);
}
console.table(rows);
