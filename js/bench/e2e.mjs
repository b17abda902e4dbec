// End to end over loopback: Express + multer (memory storage) on busboy 1.6.0 against the same
// app on reqparse/busboy, and Fastify + @fastify/multipart on @fastify/busboy 3.2.6 against the
// same app on reqparse/fastify-busboy: the apps of test/apps/, installed as the app tests
// install them (test/apps/harness.mjs: the override in a temporary install, the real busboy
// from js/'s dev dependencies), each its own server process.
//
// Per app and round, interleaved (which server goes first alternates):
// - a 1 KB form with a file: requests per second from a client of this process (node:http,
//   keep-alive, `--concurrency` requests in flight, for `--seconds`), and the server's CPU
//   time per request (process.cpuUsage() in the server, read over HTTP before and after);
// - `--uploads` uploads of a `--mb` MiB file, one at a time: MB/s, and CPU time per upload;
// - the multipart share ("of which multipart"): the same requests to `/drain`, which reads the
//   body and drops it (the app without its multipart middleware and parser), subtracted from
//   the CPU time per request: multer's or @fastify/multipart's work and the parser's, whose
//   own cost bench/busboy.mjs measures alone.
// Before any timing, both servers of a pair must answer both bodies the same (fields, file
// sizes, SHA-256), or the run stops. Medians of the rounds. Wall time (requests per second,
// MB/s) needs a quiet machine; the CPU times less so.
//
//   node bench/e2e.mjs                           # from js/: the lead's figures (installs the apps first)
//   node bench/e2e.mjs --rounds 1 --seconds 0.5 --mb 8 --uploads 2 --warm 100   # does it run (not figures)
import assert from 'node:assert/strict';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { bytes, openApps } from '../test/apps/harness.mjs';
import { SMALL, close, field, file, post } from './e2e-bodies.mjs';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '8' },
    mb: { type: 'string', default: '32' },
    uploads: { type: 'string', default: '5' },
    // 1 KB forms each server answers before the rounds (its JIT warm-up).
    warm: { type: 'string', default: '10000' },
  },
});
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const CONCURRENCY = Number(args.concurrency);
const MB = Number(args.mb);
const UPLOADS = Number(args.uploads);
const WARM = Number(args.warm);

// ---- bodies and the client ----------------------------------------------------------------

const BIG = Buffer.concat([Buffer.from(field('title', 'backup')), file('archive', 'backup.tar', bytes(MB << 20, 2)), close]);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
/** POSTs `body` to `base + path`: the status and the answer's text. */
const send = (base, path, body) => post(agent, `${base}${path}`, body);

/** The server's CPU time so far, in µs. */
async function cpuOf(base) {
  const res = await fetch(`${base}/cpu`);
  const { user, system } = await res.json();
  return user + system;
}

/**
 * `count` requests (or as many as fit in `seconds`, with `count` 0), `concurrency` at a time:
 * requests, wall seconds, and the server's CPU µs per request.
 */
async function load(base, path, body, { seconds = 0, count = 0, concurrency = CONCURRENCY }) {
  const cpu0 = await cpuOf(base);
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  let sent = 0;
  const worker = async () => {
    while (count > 0 ? sent < count : performance.now() < until) {
      sent++;
      const r = await send(base, path, body);
      if (r.status !== 200) throw new Error(`${base}${path}: ${r.status} ${r.text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wall = (performance.now() - t0) / 1000;
  const cpu = (await cpuOf(base)) - cpu0;
  return { requests: sent, wall, cpuPerRequest: cpu / sent };
}

// ---- run --------------------------------------------------------------------------------------

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(`node ${process.version}: installing the apps (npm install of each, with the override)…`);
const pairs = [
  ['Express + multer', await openApps('multer'), 'busboy 1.6.0', 'reqparse/busboy'],
  ['Fastify + @fastify/multipart', await openApps('fastify'), '@fastify/busboy 3.2.6', 'reqparse/fastify-busboy'],
];
try {
  for (const [title, apps] of pairs) {
    for (const [what, body] of [['1 KB form', SMALL], [`${MB} MiB upload`, BIG]]) {
      const [got, want] = await Promise.all([send(apps.onReqparse, '/e2e?check', body), send(apps.onBusboy, '/e2e?check', body)]);
      assert.equal(want.status, 200, `${title}, ${what}: ${want.text.slice(0, 200)}`);
      assert.deepStrictEqual(JSON.parse(got.text), JSON.parse(want.text), `${title}, ${what}: the answers differ`);
    }
  }
  console.log('answers checked equal (fields, file sizes, SHA-256) on both bodies, both apps');
  console.log(
    `${ROUNDS} rounds: ${SECONDS} s of the 1 KB form at ${CONCURRENCY} in flight, ${UPLOADS} uploads of ${MB} MiB one at a time, ` +
      'each also to /drain (the body read and dropped); medians. CPU: the server process\'s.',
  );
  for (const [title, apps, peer, facade] of pairs) {
    const servers = [
      [facade, apps.onReqparse],
      [peer, apps.onBusboy],
    ];
    const runs = servers.map(() => ({ rps: [], cpu: [], drain: [], mbs: [], bigCpu: [], bigDrain: [] }));
    // A warm-up of each server before the rounds, long enough for V8 to have compiled what the
    // requests run: a server's first few thousand forms still pay for the optimizing compiler
    // (bench/e2e-counts.mjs, Express + multer: 1.43M instructions a form on the facade and
    // 1.28M on busboy over the 300 after 2,000; 913K and 914K over the 2,000 after 10,000),
    // and what a server runs for hours is the steady state.
    for (const [, base] of servers) {
      await load(base, '/e2e', SMALL, { count: WARM });
      await load(base, '/drain', SMALL, { count: WARM >> 1 });
      await load(base, '/e2e', BIG, { count: 1, concurrency: 1 });
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (let j = 0; j < servers.length; j++) {
        const k = r % 2 === 0 ? j : servers.length - 1 - j;
        const base = servers[k][1];
        const run = runs[k];
        const small = await load(base, '/e2e', SMALL, { seconds: SECONDS });
        run.rps.push(small.requests / small.wall);
        run.cpu.push(small.cpuPerRequest);
        run.drain.push((await load(base, '/drain', SMALL, { seconds: SECONDS / 2 })).cpuPerRequest);
        const big = await load(base, '/e2e', BIG, { count: UPLOADS, concurrency: 1 });
        run.mbs.push((UPLOADS * BIG.length) / 1048576 / big.wall);
        run.bigCpu.push(big.cpuPerRequest);
        run.bigDrain.push((await load(base, '/drain', BIG, { count: UPLOADS, concurrency: 1 })).cpuPerRequest);
      }
    }
    const m = runs.map((run) => Object.fromEntries(Object.entries(run).map(([k, v]) => [k, median(v)])));
    console.log(`\n## ${title}\n`);
    console.log('| busboy | 1 KB form: req/s | CPU µs/req | of which multipart | MB/s, ' + `${MB} MiB` + ' | CPU ms/upload | of which multipart |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (let k = 0; k < servers.length; k++) {
      const x = m[k];
      console.log(
        `| ${servers[k][0]} | ${x.rps.toFixed(0)} | ${x.cpu.toFixed(0)} | ${(x.cpu - x.drain).toFixed(0)} | ${x.mbs.toFixed(0)} | ` +
          `${(x.bigCpu / 1000).toFixed(1)} | ${((x.bigCpu - x.bigDrain) / 1000).toFixed(1)} |`,
      );
    }
    const [f, p] = m;
    console.log(
      `| ratio (peer / facade) | ${(f.rps / p.rps).toFixed(2)}x (req/s: facade / peer) | ${(p.cpu / f.cpu).toFixed(2)}x | ` +
        `${((p.cpu - p.drain) / (f.cpu - f.drain)).toFixed(2)}x | ${(f.mbs / p.mbs).toFixed(2)}x (facade / peer) | ` +
        `${(p.bigCpu / f.bigCpu).toFixed(2)}x | ${((p.bigCpu - p.bigDrain) / (f.bigCpu - f.bigDrain)).toFixed(2)}x |`,
    );
  }
} finally {
  agent.destroy();
  for (const [, apps] of pairs) apps.close();
}
