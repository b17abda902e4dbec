// Run after `jco transpile` (npm run transpile does): two fixes to what jco 1.35 writes.
import { readFileSync, writeFileSync } from 'node:fs';

const dir = new URL('./generated/', import.meta.url);

// 1. The output is ES modules: a package.json of its own keeps it ESM even when copied into a
// "type": "commonjs" project (where importing it fails: "Named export 'body' not found").
writeFileSync(new URL('package.json', dir), '{ "type": "module" }\n');

// 2. jco lifts every WIT string with `new TextDecoder()`, which drops a leading U+FEFF as a
// byte order mark: the query "%EF%BB%BFa=1" would come back as the name "a", not "\uFEFFa".
// A decoder with ignoreBOM keeps the string as the component sent it.
const js = new URL('reqparse.js', dir);
const source = readFileSync(js, 'utf8');
const stripping = 'const TEXT_DECODER_UTF8 = new TextDecoder();';
if (source.split(stripping).length !== 2) {
  throw new Error(`generated/reqparse.js: expected one "${stripping}"; has jco changed?`);
}
writeFileSync(js, source.replace(stripping,
  "const TEXT_DECODER_UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });"));
