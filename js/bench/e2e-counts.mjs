// Instructions a request in the end-to-end servers of bench/e2e.mjs, in steady state: exact
// whatever the machine's load, where e2e.mjs's CPU times and rates need a quiet machine.
//
// Each server (Express + multer, Fastify + @fastify/multipart; on the facade and on the real
// busboy, installed as test/apps/harness.mjs installs them) runs under
// `valgrind --tool=callgrind --instr-atstart=no` with `node --single-threaded` (the GC and the
// compilers on the main thread, so that their work is counted too). It answers `--warm` 1 KB
// forms uncounted (the JIT settled), then counting is switched on (`callgrind_control -i on`)
// for `--count` more, from `--concurrency` connections; instructions / requests. The same for
// `/drain` (the body read and dropped: the app without its multipart middleware), whose
// difference is the multipart share: the framework's plugin and the parser. The facade's answer
// to the form (fields, file sizes, SHA-256) must equal the peer's.
//
//   node bench/e2e-counts.mjs                          # from js/: both apps (a few minutes)
//   node bench/e2e-counts.mjs --app multer --warm 3000 --count 500
//
// Needs valgrind (apt-get install valgrind).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installOverridden, js } from '../test/apps/harness.mjs';
import { SMALL, post } from './e2e-bodies.mjs';

const { values: args } = parseArgs({
  options: {
    app: { type: 'string', default: '' },
    warm: { type: 'string', default: '10000' },
    count: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
  },
});
const WARM = Number(args.warm);
const COUNT = Number(args.count);
const CONCURRENCY = Number(args.concurrency);

/** POSTs the 1 KB form to `url` on `agent`: the answer's text (a status other than 200 throws). */
async function postForm(agent, url) {
  const { status, text } = await post(agent, url, SMALL);
  if (status !== 200) throw new Error(`${url}: ${status} ${text.slice(0, 200)}`);
  return text;
}

/** `n` posts to `url`, `CONCURRENCY` in flight. */
async function many(agent, url, n) {
  let sent = 0;
  const worker = async () => {
    while (sent < n) {
      sent++;
      await postForm(agent, url);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/**
 * Instructions a request of `path` for the server in `dir`, counted as the header says, and
 * its answer to `path?check` (asked before the warm-up).
 */
async function count(dir, path, tag) {
  const out = join(js, `.e2e-counts-${process.pid}-${tag}.callgrind`);
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', 'server.cjs'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  try {
    const port = await new Promise((resolve, reject) => {
      child.stdout.once('data', (d) => resolve(String(d).trim()));
      child.once('exit', (code) => reject(new Error(`server in ${dir} exited (${code}): is valgrind installed?`)));
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const url = `http://127.0.0.1:${port}${path}`;
    const answer = await postForm(agent, `${url}?check`);
    await many(agent, url, WARM);
    const on = spawnSync('callgrind_control', ['-i', 'on', String(child.pid)], { encoding: 'utf8' });
    assert.equal(on.status, 0, `callgrind_control: ${on.stderr}`);
    await many(agent, url, COUNT);
    spawnSync('callgrind_control', ['-i', 'off', String(child.pid)]);
    agent.destroy();
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGINT');
    });
    const annotated = spawnSync('callgrind_annotate', ['--threshold=100', out], { encoding: 'utf8' }).stdout;
    const total = annotated.split('\n').find((l) => l.includes('PROGRAM TOTALS'));
    assert.ok(total, `no callgrind totals for ${tag}`);
    return [Number(total.trim().split(/\s+/)[0].replaceAll(',', '')) / COUNT, answer];
  } finally {
    child.kill();
    rmSync(out, { force: true });
  }
}

const APPS = [
  ['multer', 'Express + multer', 'busboy 1.6.0'],
  ['fastify', 'Fastify + @fastify/multipart', '@fastify/busboy 3.2.6'],
].filter(([kind]) => args.app === '' || args.app === kind);

console.log(`node ${process.version}, instructions a request (callgrind, node --single-threaded): ` + `${WARM} warm-up requests, then ${COUNT} counted, ${CONCURRENCY} in flight; the 1 KB form of bench/e2e.mjs`);
for (const [kind, title, peer] of APPS) {
  const tmp = installOverridden(kind);
  try {
    const dirs = [
      ['facade', tmp],
      [peer, join(js, 'test', 'apps', kind)],
    ];
    const rows = [];
    const answers = [];
    for (const [name, dir] of dirs) {
      const [e2e, answer] = await count(dir, '/e2e', `${kind}-${rows.length}-e2e`);
      const [drain] = await count(dir, '/drain', `${kind}-${rows.length}-drain`);
      rows.push([name, e2e, drain]);
      answers.push(JSON.parse(answer));
    }
    assert.deepStrictEqual(answers[0], answers[1], `${title}: the facade's answer differs from ${peer}'s`);
    console.log(`\n## ${title}\n`);
    console.log('| busboy | /e2e | /drain | multipart share |');
    console.log('|---|---:|---:|---:|');
    for (const [name, e2e, drain] of rows) console.log(`| ${name} | ${e2e.toFixed(0)} | ${drain.toFixed(0)} | ${(e2e - drain).toFixed(0)} |`);
    const [[, fe, fd], [, pe, pd]] = rows;
    console.log(`| ratio (peer / facade) | ${(pe / fe).toFixed(3)}x | ${(pd / fd).toFixed(3)}x | ${((pe - pd) / (fe - fd)).toFixed(3)}x |`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
