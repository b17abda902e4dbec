// What the registry gets: `npm pack --dry-run` lists the licence texts and the README, the
// tarball stays small, and every README link works from the registry page (no links into the
// repository, which the package does not carry).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
