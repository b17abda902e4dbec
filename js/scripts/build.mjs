#!/usr/bin/env node
// Builds the package's wasm from the repository's crate: cargo (wasm32, feature `js`) →
// wasm-bindgen (exactly the crate's version, installed into <repo>/.tools if missing) →
// wasm-opt (from the `binaryen` devDependency). Output: js/pkg/reqparse.js + reqparse_bg.wasm.
//
// Both files are committed, so that installing the package needs Node alone. Commit them with
// the change that changed them: CI runs this script on a clean clone and fails when the fresh
// build differs from the committed files (.ci/test-all.sh), so the build is reproducible byte
// for byte: the checkout's and cargo's paths are remapped, rustflags come from here alone, and
// wasm-bindgen (Cargo.lock) and binaryen (package-lock.json) are pinned; the rustc is the one
// installed (the same stable for CI and the developers, as for the component).
//
// Environment:
//   REQPARSE_IDNA=0   leave out the `idna` feature (Unicode hosts in buildAbsolute): saves
//                     ~145 KB of wasm (~59 KB gzipped); see README.md ("Unicode hosts").
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(js, '..');
const tools = join(repo, '.tools');
const targetDir = join(repo, 'target', 'wasm-js');
const pkg = join(js, 'pkg');
const idna = process.env.REQPARSE_IDNA !== '0';

function run(cmd, args, opts = {}) {
  console.error(`> ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: repo, ...opts });
}

function output(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
}

// The CLI must match the crate exactly, or its generated glue and the wasm disagree.
function bindgenVersion() {
  const lock = readFileSync(join(repo, 'Cargo.lock'), 'utf8');
  const m = /name = "wasm-bindgen"\nversion = "([^"]+)"/.exec(lock);
  if (!m) throw new Error('wasm-bindgen not found in Cargo.lock');
  return m[1];
}

const version = bindgenVersion();
const bindgen = join(tools, 'bin', 'wasm-bindgen');
if (!output(bindgen, ['--version']).includes(version)) {
  // Not --locked: the CLI's own lockfile pins a crate version the registry lacks.
  run('cargo', ['install', 'wasm-bindgen-cli', '--version', version, '--root', tools, '--force']);
}

if (output('rustup', ['--version'])) {
  if (!output('rustup', ['target', 'list', '--installed']).includes('wasm32-unknown-unknown')) {
    run('rustup', ['target', 'add', 'wasm32-unknown-unknown']);
  }
}

const features = idna ? 'js,idna' : 'js';
// WASM_BINDGEN_* variables switch what the macros and the CLI emit: not for this build.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WASM_BINDGEN')));
const rustflags = [
  '-C', 'target-feature=+simd128',
  // Panic locations embed source paths, and the checkout's and cargo's registry differ between
  // machines: remapped, the bytes do not depend on where the build ran (as .ci/build-component.sh
  // does; the last matching prefix wins, so a cargo home inside the checkout is /cargo).
  `--remap-path-prefix=${repo}=/reqparse`,
  `--remap-path-prefix=${process.env.CARGO_HOME || join(homedir(), '.cargo')}=/cargo`,
];
// CARGO_ENCODED_RUSTFLAGS (0x1f-separated) outranks RUSTFLAGS, target.*.rustflags and
// build.rustflags: flags set anywhere else cannot change the bytes, and paths with spaces stay
// one argument.
const env = { ...baseEnv, CARGO_ENCODED_RUSTFLAGS: rustflags.join('\x1f') };
delete env.RUSTFLAGS;
// A shared CARGO_TARGET_DIR would make this build wait on (and evict) everyone else's.
delete env.CARGO_TARGET_DIR;
run(
  'cargo',
  [
    'rustc', '--lib', '--crate-type', 'cdylib', '--target', 'wasm32-unknown-unknown', '--profile', 'wasm',
    '--no-default-features', '--features', features, '--target-dir', targetDir,
  ],
  { env },
);

const raw = join(targetDir, 'wasm32-unknown-unknown', 'wasm', 'reqparse.wasm');
rmSync(pkg, { recursive: true, force: true });
mkdirSync(pkg, { recursive: true });
// --target nodejs: CommonJS glue that instantiates synchronously; index.mjs re-exports it, so
// `import` and `require` share one instance (and one ReqparseError class).
run(bindgen, ['--target', 'nodejs', '--no-typescript', '--out-dir', pkg, '--out-name', 'reqparse', raw], {
  env: baseEnv,
});

const wasm = join(pkg, 'reqparse_bg.wasm');
const before = statSync(wasm).size;
// -O3, not -Oz: the scan loops are the product, and -Oz saved only ~0.2 KB here.
run(join(js, 'node_modules', '.bin', 'wasm-opt'), [
  '-O3', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-simd', '--enable-reference-types', '--enable-multivalue',
  wasm, '-o', wasm,
]);
const after = statSync(wasm).size;
console.error(`reqparse_bg.wasm: ${before} B → ${after} B after wasm-opt (idna ${idna ? 'on' : 'off'})`);
if (!existsSync(join(pkg, 'reqparse.js'))) throw new Error('wasm-bindgen produced no reqparse.js');
// Two builds of one source give these two lines, wherever they ran.
for (const f of ['reqparse.js', 'reqparse_bg.wasm']) {
  console.error(`sha256 ${createHash('sha256').update(readFileSync(join(pkg, f))).digest('hex')}  js/pkg/${f}`);
}
