// What the app tests (test/busboy-multer.test.mjs, test/busboy-fastify-app.test.mjs,
// test/formdata-hono.test.mjs) and bench/e2e.mjs share: an app of test/apps/ installed with
// npm's `overrides` switching its busboy to reqparse's facade, the same app run on the real
// busboy, started as servers, and uploads sent to them.
//
// The switch, proved with npm's own resolution: a temporary app whose package.json carries
//   "overrides": { "busboy": "<reqparse-busboy>" }        (multer)
//   "overrides": { "@fastify/busboy": "<reqparse-fastify-busboy>" }   (fastify)
// is installed with `npm install` (reqparse and the shim packed as tarballs, as the registry
// would hand them over; the framework from npm's cache or the registry, at the versions js/
// tests the real busboy with: its devDependencies), beside the same server.cjs run from
// test/apps/<kind>/, where the framework finds the real busboy in js/'s dev dependencies.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's folder (js/). */
export const js = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The two apps that run on a busboy: the framework packages each needs, the package its
 * framework requires for busboy, and reqparse's shim for it (js/shims/).
 */
const APPS = {
  multer: { dependencies: ['express', 'multer'], busboy: 'busboy', shim: 'busboy' },
  fastify: { dependencies: ['fastify', '@fastify/multipart'], busboy: '@fastify/busboy', shim: 'fastify-busboy' },
};

/** `npm args` in `cwd`: its stdout; fails (an assertion) when npm does. */
export function npm(args, cwd) {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** `n` pseudo-random bytes from `seed` (the same bytes for the same seed). */
export function bytes(n, seed) {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) b[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return b;
}

/** A FormData of `[name, value]` entries. */
export function form(entries) {
  const fd = new FormData();
  for (const [k, v] of entries) fd.append(k, v);
  return fd;
}

/** Starts `node server.cjs` in `dir` (it prints its port): `{ base, child }`. */
export function start(dir) {
  const child = spawn(process.execPath, ['server.cjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve({ base: `http://127.0.0.1:${String(d).trim()}`, child }));
    child.once('exit', (code) => reject(new Error(`server in ${dir} exited (${code})`)));
  });
}

/**
 * Installs app `kind` ('multer' or 'fastify') in a new temporary folder with the override
 * switching its busboy to reqparse's shim: the folder, to run its server.cjs from.
 */
export function installOverridden(kind) {
  const app = APPS[kind];
  const tmp = mkdtempSync(join(tmpdir(), `reqparse-${kind}-`));
  const devDependencies = JSON.parse(readFileSync(join(js, 'package.json'), 'utf8')).devDependencies;
  const pack = (dir) => npm(['pack', '--silent', '--ignore-scripts', '--pack-destination', tmp], dir).trim().split('\n').at(-1);
  const reqparse = pack(js);
  const shim = pack(join(js, 'shims', app.shim));
  const pkg = {
    name: `${kind}-on-reqparse`,
    private: true,
    dependencies: { ...Object.fromEntries(app.dependencies.map((d) => [d, devDependencies[d]])), reqparse: `file:${reqparse}` },
    // The switch. Published, it reads "<busboy>": "npm:reqparse-<shim>@^0.1.0".
    overrides: { [app.busboy]: `file:${shim}` },
  };
  writeFileSync(join(tmp, 'package.json'), JSON.stringify(pkg, null, 2));
  copyFileSync(join(js, 'test', 'apps', kind, 'server.cjs'), join(tmp, 'server.cjs'));
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], tmp);
  return tmp;
}

/**
 * App `kind` twice, started: on reqparse's facade (installed by installOverridden) and on the
 * real busboy (from test/apps/<kind>/). `close()` stops both and removes the install.
 */
export async function openApps(kind) {
  const tmp = installOverridden(kind);
  const [onReqparse, onBusboy] = await Promise.all([start(tmp), start(join(js, 'test', 'apps', kind))]);
  return {
    onReqparse: onReqparse.base,
    onBusboy: onBusboy.base,
    children: { onReqparse: onReqparse.child, onBusboy: onBusboy.child },
    close() {
      onReqparse.child.kill();
      onBusboy.child.kill();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** POSTs a form (a FormData, or [contentType, raw bytes]) to `base + path`: its answer. */
export async function send(base, path, body) {
  const init = Array.isArray(body)
    ? { method: 'POST', headers: { 'content-type': body[0] }, body: body[1] }
    : { method: 'POST', body };
  const res = await fetch(base + path, init);
  return { status: res.status, body: await res.json() };
}

/** POSTs a form to both apps of openApps(): the facade's answer, which must equal busboy's. */
export async function both(apps, path, body) {
  const [got, want] = await Promise.all([send(apps.onReqparse, path, body), send(apps.onBusboy, path, body)]);
  assert.deepStrictEqual(got, want, path);
  return got;
}

/** Whether each app's framework resolved its busboy to the facade: `[onReqparse, onBusboy]`. */
export function which(apps) {
  return Promise.all([fetch(`${apps.onReqparse}/which`).then((r) => r.json()), fetch(`${apps.onBusboy}/which`).then((r) => r.json())]);
}
