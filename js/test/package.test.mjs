// What the registry gets: `npm pack --dry-run` lists the licence texts and the README, the
// tarball stays small, and every README link works from the registry page (no links into the
// repository, which the package does not carry). And what a user gets: the package installs and
// answers on a machine with Node alone (the wasm is committed: no Rust, no wasm-bindgen).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const js = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(js, 'package.json'), 'utf8'));

test('npm pack: licence texts, README and the built files, at most 250 KB packed', () => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const [info] = JSON.parse(execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: js, encoding: 'utf8' }));
  const files = info.files.map((f) => f.path).sort();
  for (const f of ['LICENSE-MIT', 'LICENSE-APACHE', 'README.md', 'package.json', ...pkg.files]) {
    assert.ok(files.includes(f), `${f} not in the tarball (${files.join(', ')})`);
  }
  assert.ok(info.size <= 250 * 1024, `packed size ${info.size} B is over 250 KB`);
  assert.equal(pkg.license, 'MIT OR Apache-2.0');
  assert.match(readFileSync(join(js, 'LICENSE-MIT'), 'utf8'), /Copyright \(c\) .*the reqparse developers/);
  assert.match(readFileSync(join(js, 'LICENSE-APACHE'), 'utf8'), /Apache License\s+Version 2\.0, January 2004/);
  // The package's copies are the repository's texts, byte for byte.
  for (const f of ['LICENSE-MIT', 'LICENSE-APACHE']) {
    const root = join(js, '..', f);
    if (existsSync(root)) assert.equal(readFileSync(join(js, f), 'utf8'), readFileSync(root, 'utf8'), `js/${f} differs from ${f}`);
  }
});

test('README: every link works from the registry page', () => {
  const readme = readFileSync(join(js, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/\]\(([^)\s]+)[^)]*\)|<a\s[^>]*href="([^"]+)"|^\[[^\]]+\]:\s*(\S+)/gm)].map(
    (m) => m[1] ?? m[2] ?? m[3],
  );
  for (const link of links) {
    if (/^(https?:|#)/.test(link)) continue;
    // The registry resolves a relative link against the `repository` field's tree, not the
    // tarball: with none (there is no public repository yet) it is a dead link.
    assert.fail(`README link ${link} does not work from the registry page`);
  }
});

// The first `name` on PATH, as a real path.
function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return realpathSync(join(dir, name));
  }
  throw new Error(`${name} not found on PATH`);
}

test('Node alone: npm pack, then the tarball and the folder install and answer with no Rust on PATH', {
  skip: process.platform === 'win32' && 'the PATH of links below is POSIX',
}, (t) => {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'reqparse-pack-')));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  // PATH holds node, npm and sh (npm runs scripts with it) and nothing else: no cargo, rustc,
  // rustup, wasm-bindgen or wasm-opt (the one in js/node_modules is not in a fresh project
  // either). An empty npm cache and --offline: the package has no dependencies to fetch, so
  // nothing may be downloaded.
  const bin = join(tmp, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  const underNpm = /npm-cli\.js$/.test(process.env.npm_execpath ?? '');
  symlinkSync(underNpm ? process.env.npm_execpath : onPath('npm'), join(bin, 'npm'));
  symlinkSync(onPath('sh'), join(bin, 'sh'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(cargo|rustup|rustc|npm_)/i.test(k)));
  env.PATH = bin;
  env.npm_config_cache = join(tmp, 'cache');
  const npm = (cwd, ...args) =>
    execFileSync(join(bin, 'npm'), [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    });
  assert.throws(() => execFileSync('cargo', ['--version'], { env, stdio: 'ignore' }), /ENOENT/, 'cargo still on PATH');

  // `npm pack` runs prepack (scripts/check-built.mjs): it must not need Rust either.
  const [info] = JSON.parse(npm(js, 'pack', '--json', '--pack-destination', tmp));
  const packed = new Map(info.files.map((f) => [f.path, f.size]));
  for (const f of ['pkg/reqparse.js', 'pkg/reqparse_bg.wasm']) {
    assert.equal(packed.get(f), statSync(join(js, f)).size, `${f} in the tarball is not js/${f}`);
  }

  // A project's own smoke test: both entries load from where the install put the package (given
  // as argv[1]), and calls that only wasm answers answer (a Unicode host through IDNA, an
  // ISO-8859-1 filename*, a strict-profile refusal with its offset).
  const smoke = `
    const rp = require('reqparse');
    const assert = require('node:assert/strict');
    assert.ok(require.resolve('reqparse').startsWith(process.argv[1]), require.resolve('reqparse'));
    assert.deepEqual(rp.queryPairs('?q=caf%C3%A9+cr%C3%A8me&page=2'), [['q', 'café crème'], ['page', '2']]);
    assert.equal(rp.buildAbsolute({ scheme: 'https', host: 'bücher.example', path: '/a b' }), 'https://xn--bcher-kva.example/a%20b');
    assert.equal(rp.parseContentDisposition("attachment; filename*=ISO-8859-1''%E4.txt").filename, 'ä.txt');
    assert.throws(() => rp.queryPairs('a=%zz', { profile: 'strict' }), (e) => e instanceof rp.ReqparseError && e.offset === 2);
    import('reqparse').then((m) => { assert.equal(m.default, rp); assert.equal(m.queryPairs, rp.queryPairs); console.log('ok'); });
  `;
  const project = (name) => {
    const dir = join(tmp, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
    return dir;
  };
  const installed = (dir, from) =>
    execFileSync(join(bin, 'node'), ['-e', smoke, from], { cwd: dir, env, encoding: 'utf8', stdio: 'pipe' }).trim();

  // The tarball `npm pack` made, as the registry would serve it.
  const fromTarball = project('from-tarball');
  npm(fromTarball, 'install', '--offline', join(tmp, info.filename));
  assert.equal(installed(fromTarball, join(fromTarball, 'node_modules', 'reqparse') + sep), 'ok');
  // `npm install path/to/js`: a link to the folder (npm's default), and a copy of what it packs
  // (--install-links).
  const linked = project('linked');
  npm(linked, 'install', '--offline', js);
  assert.equal(installed(linked, realpathSync(js) + sep), 'ok');
  const copied = project('copied');
  npm(copied, 'install', '--offline', '--install-links', js);
  assert.equal(installed(copied, join(copied, 'node_modules', 'reqparse') + sep), 'ok');
});
