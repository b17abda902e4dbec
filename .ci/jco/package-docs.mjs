// Appends a `package-docs` custom section to a component: the doc comments of its WIT file, in
// the format wit-parser (wasm-tools, wit-bindgen, jco) reads (.ci/build-component.sh runs it).
//
//   node package-docs.mjs <world.wit> <in.component.wasm> <out.component.wasm>
//
// A decoder gives a component's WIT as world `root` of package `root:component`, exporting the
// interfaces of a foreign package (here `reqparse:http`), and applies the component's
// `package-docs` to `root:component` alone: the docs of foreign interfaces, functions and types
// cannot be placed. (The section `wasm-tools component wit wit/ --wasm` writes for the package,
// appended as is, makes wasm-tools and jco refuse the component: `missing world "reqparse"`.)
// What can be shown is the world's documentation, so that is where this puts the package's,
// then each exported interface's under a heading with its name.
//
// The section is the version-0 format (`{"worlds": {"root": {"docs": ...}}}`), which every
// wit-parser since package-docs exist reads. The version-1 format's `interface_export_docs`
// (wit-parser 0.252 on) would print each interface's docs on its `export` line, but older
// decoders refuse unknown fields and so the whole component: `jco transpile` of jco before 1.26
// (wit-parser 0.251, July 2026) would fail on it.
import { readFileSync, writeFileSync } from 'node:fs';

const [witPath, inPath, outPath] = process.argv.slice(2);
if (!outPath) throw new Error('usage: node package-docs.mjs <world.wit> <in.wasm> <out.wasm>');
const lines = readFileSync(witPath, 'utf8').split('\n');

// Doc comments as wit-parser keeps them: `///` stripped, trailing space trimmed, the lines'
// common indentation removed, joined by newlines.
function docText(comments) {
  const bare = comments.map((c) => c.replace(/^\/+/, '').trimEnd());
  const indent = Math.min(...bare.filter((l) => l).map((l) => l.length - l.trimStart().length));
  return bare.map((l) => l.slice(indent)).join('\n');
}

// Top-level items (outside any braces) with the `///` block right before each.
let pending = [];
let depth = 0;
let pkg;
const docs = new Map(); // 'package', 'interface <name>', 'world <name>' -> text
const exports = [];
for (const raw of lines) {
  const line = raw.trim();
  if (line.startsWith('///')) {
    pending.push(line);
    continue;
  }
  if (depth === 0) {
    let m;
    if ((m = line.match(/^package\s+([^;\s]+)\s*;/))) {
      pkg = m[1];
      docs.set('package', docText(pending));
    } else if ((m = line.match(/^(interface|world)\s+([\w-]+)/))) {
      docs.set(`${m[1]} ${m[2]}`, pending.length ? docText(pending) : undefined);
    }
  } else if (depth === 1) {
    const m = line.match(/^export\s+([\w-]+)\s*;/);
    if (m) exports.push(m[1]);
  }
  if (line && !line.startsWith('//')) pending = [];
  depth += (line.match(/\{/g) || []).length - (line.match(/\}/g) || []).length;
}
if (!pkg || exports.length === 0) throw new Error(`${witPath}: no package or no exports found`);

const [name, version] = pkg.split('@');
const worlds = [...docs.keys()].filter((k) => k.startsWith('world '));
const parts = [docs.get('package'), ...worlds.map((w) => docs.get(w))];
for (const iface of exports) {
  const text = docs.get(`interface ${iface}`);
  if (text) parts.push(`# \`${name}/${iface}${version ? `@${version}` : ''}\`\n\n${text}`);
}
parts.push(`The documentation of every function, type and field is in the WIT (\`${name}\`),\n`
  + 'which `reqparse component --wit` prints.');
const json = JSON.stringify({ worlds: { root: { docs: parts.filter(Boolean).join('\n\n') } } });

// A custom section: id 0, its size, then the name and the payload (version byte 0, the JSON).
const uleb = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};
const sectionName = Buffer.from('package-docs');
const payload = Buffer.concat([Buffer.from(uleb(sectionName.length)), sectionName,
  Buffer.from([0]), Buffer.from(json)]);
const component = readFileSync(inPath);
if (component.includes(sectionName)) throw new Error(`${inPath} already has package-docs`);
writeFileSync(outPath, Buffer.concat([component, Buffer.from([0, ...uleb(payload.length)]),
  payload]));
