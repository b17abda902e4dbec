// The pure-JS paths (beside the wasm path in lib/query.cjs, uri.cjs and disposition.cjs) against
// wasm, the Rust core's answer: every input below is answered twice, once with the JS paths on
// and once with them off (the internal hook `Symbol.for('reqparse.internal')`, for this test
// only), and the two answers (or errors: class, message, offset, index) must be the same.
// Inputs: every case of the shared vectors (tests/vectors/*.json) and seeded random inputs
// (ASCII, non-ASCII, hostile, malformed), with every option. Each JS path must also have
// answered a good share of the inputs itself, so that the comparison is not vacuous.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const api = require('reqparse');
const { load } = require('./vectors.cjs');
const internal = api[Symbol.for('reqparse.internal')];

/** What a call gave: its answer, or its error's class, message and offsets. */
function outcome(run) {
  try {
    const v = run();
    if (v instanceof api.QueryMap) {
      // Lookups first: a map made from pairs answers them before it builds its index.
      const names = [...new Set(ALL_NAMES)];
      const gets = names.map((n) => v.get(n));
      return { value: { gets, has: names.map((n) => v.has(n)), size: v.size, entries: [...v.entries()] } };
    }
    return { value: v };
  } catch (e) {
    return { error: { name: e.name, ctor: e.constructor.name, message: e.message, offset: e.offset, index: e.index } };
  }
}

/** Names every map answer is asked for (the random queries' names are made of these). */
const ALL_NAMES = ['a', 'B', 'b', 'k', 'K', 'aa', 'ab', '', 'a b', 'é', 'missing', 'A', '+', 'a&b'];

/** Answers `run` with the JS paths on and off; they must agree. */
function agree(label, run) {
  const viaJs = outcome(run);
  internal.setFastPaths(false);
  let viaWasm;
  try {
    viaWasm = outcome(run);
  } finally {
    internal.setFastPaths(true);
  }
  assert.deepStrictEqual(viaJs, viaWasm, label);
  return viaJs;
}

/** xorshift32: the same inputs on every run. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  const int = (n) => next() % n;
  const pick = (xs) => xs[int(xs.length)];
  const str = (alphabet, max) => {
    let s = '';
    for (let n = int(max + 1); n > 0; n--) s += pick(alphabet);
    return s;
  };
  return { int, pick, str };
}

/** Coverage: how many inputs a JS path answered itself, out of how many. */
function counter() {
  return { js: 0, all: 0 };
}

// ---- Content-Disposition ----------------------------------------------------------------------

const DISPOSITION_OPTIONS = [
  undefined,
  {},
  { profile: 'strict' },
  { profile: 'strict', decode2047: true },
  { decode2047: true },
  { profile: 'browser' },
  { profile: 'dotnet', decode2047: true },
];

function checkDisposition(h, count, label) {
  for (const o of DISPOSITION_OPTIONS) {
    agree(`${label} ${JSON.stringify(h)} ${JSON.stringify(o)}`, () => api.parseContentDisposition(h, o));
  }
  count.all++;
  if (internal.fast.disposition(h, false) !== undefined) count.js++;
}

test('parseContentDisposition: the vectors, JS path against wasm', () => {
  const count = counter();
  for (const c of load('disposition.json')) {
    const text = c.input_encoding === 'latin1' ? Buffer.from(c.input, 'latin1').toString('latin1') : c.input;
    checkDisposition(text, count, c.source);
    // As req.headers gives it: each UTF-8 byte a char.
    checkDisposition(Buffer.from(c.input, 'utf8').toString('latin1'), count, `${c.source} (latin1)`);
  }
  assert.ok(count.js > count.all / 4, `JS answered ${count.js} of ${count.all}`);
});

test('parseContentDisposition: seeded random headers, JS path against wasm', () => {
  const r = rng(0xc0ffee);
  const types = ['inline', 'attachment', 'form-data', 'Attachment', 'INLINE', 'x-foo', '', '"inline"', 'in line', 'é'];
  const names = ['filename', 'FileName', 'name', 'size', 'filename*', 'FILENAME*', 'filename*0', 'filename*1*',
    'filename*0*', 'title*', 'x', 'creation-date', 'a*b', 'name', 'filenames', 'p1', 'é', ''];
  const qchars = ['a', 'b', ' ', '.', '\\', '"', '\t', '\x01', '\x7f', 'é', '–', '😀', '\ud800', '\udc00', 'ä', '=?',
    '?=', '%', '%41', '\\"', '\\\\', "'", ';', ','];
  const tchars = ['a', 'B', '0', '.', '-', '%', '%41', '%e2%82%ac', '%C3', '%c3%a4', '%ED%A0%80', '%zz', "'", '*', '!',
    'é', ' ', ',', '~'];
  const extPrefixes = ["UTF-8''", "utf-8'en'", "UTF-8'en-US'", "iso-8859-1''", "US-ASCII''", "utf-8'e n'", "x''", "''",
    "UTF-8'", 'UTF-8', "utf.8''", "UTF-8''%", "utf-8'*'"];
  const seps = ['; ', ';', ' ; ', ';  ', '\t;\t', ',', ' ', '', '; ;', ';\t '];
  const value = () => {
    switch (r.int(4)) {
      case 0:
        return `"${r.str(qchars, 8)}"`;
      case 1:
        return r.pick(extPrefixes) + r.str(tchars, 6);
      case 2:
        return `"${r.pick(extPrefixes)}${r.str(tchars, 4)}"`;
      default:
        return r.str(tchars, 6);
    }
  };
  const count = counter();
  for (let n = 0; n < 2500; n++) {
    let h = r.int(10) === 0 ? ' ' : '';
    h += r.pick(types);
    for (let p = r.int(5); p > 0; p--) {
      h += r.pick(seps) + r.pick(names) + (r.int(12) === 0 ? ' = ' : '=') + value();
    }
    if (r.int(12) === 0) h += r.pick([';', ' ', '\t', ' x', '"']);
    if (r.int(6) === 0 && h.length > 0) {
      // A random mutation: a char dropped or put in.
      const at = r.int(h.length);
      h = r.int(2) ? h.slice(0, at) + h.slice(at + 1) : h.slice(0, at) + r.pick(qchars) + h.slice(at);
    }
    checkDisposition(h, count, `random ${n}`);
  }
  // Long and many-parameter headers: the limits are wasm's.
  for (const n of [7, 8, 9, 10, 20, 40, 63, 64, 65]) {
    let h = 'attachment';
    for (let i = 0; i < n; i++) h += `; p${i}="v ${i}"`;
    checkDisposition(h, count, `${n} params`);
    checkDisposition(`${h}; filename="a.txt"`, count, `${n} params + filename`);
    // A duplicate past the first few names (found through a set on the JS path).
    checkDisposition(`${h}; P${n - 1}=x`, count, `${n} params + a duplicate`);
    checkDisposition(`${h}; p${n}=x; p0=y`, count, `${n} params + a duplicate of the first`);
  }
  // Each char after a `\` in a quoted string (RFC 9110 quoted-pair: HTAB, SP, VCHAR and
  // obs-text; no other control, no DEL), and the same char unescaped, before and after the
  // closing quote.
  const after = [...Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)), '\x7f', ' ', 'a', '"', '\\', 'é', '–',
    '😀', '\ud800', '\udc00'];
  for (const c of after) {
    checkDisposition(`attachment; filename="a\\${c}b"`, count, `quoted-pair ${JSON.stringify(c)}`);
    checkDisposition(`attachment; filename="\\${c}"`, count, `quoted-pair ${JSON.stringify(c)} alone`);
    checkDisposition(`form-data; name="x"; filename="a${c}b"; size=1`, count, `quoted ${JSON.stringify(c)}`);
  }
  for (const len of [511, 512, 513, 16384, 16385]) {
    checkDisposition('a'.repeat(len), count, `a bare type ${len} long`);
  }
  for (const len of [5000, 5461, 5462, 16384, 16385]) {
    checkDisposition(`attachment; filename="${'x'.repeat(len)}"`, count, `${len} long`);
    checkDisposition(`attachment; filename="${'é'.repeat(len / 2)}"`, count, `${len} long, non-ASCII`);
  }
  assert.ok(count.js > count.all / 10, `JS answered ${count.js} of ${count.all}`);
});

// ---- URIs ---------------------------------------------------------------------------------------

function checkBuild(parts, label) {
  agree(`${label} buildAbsolute ${JSON.stringify(parts)}`, () => api.buildAbsolute(parts));
  const { scheme, host, ...relative } = parts;
  agree(`${label} buildRelative ${JSON.stringify(relative)}`, () => api.buildRelative(relative));
}

const buildArgs = (p) => [p.scheme ?? '', p.host ?? '', p.pathBase ?? '', p.path ?? '', p.query ?? '', p.fragment ?? ''];

test('buildAbsolute, buildRelative, splitAbsolute: the vectors, JS path against wasm', () => {
  const built = counter();
  const split = counter();
  for (const c of load('uri.json')) {
    if (c.op === 'split') {
      agree(`${c.source} split ${c.uri}`, () => api.splitAbsolute(c.uri));
      split.all++;
      if (internal.fast.splitAbsolute(c.uri) !== undefined) split.js++;
    } else {
      const parts = { scheme: c.scheme, host: c.host, pathBase: c.path_base, path: c.path, query: c.query, fragment: c.fragment };
      checkBuild(parts, c.source);
      built.all++;
      if (internal.fast.buildAbsolute(...buildArgs(parts)) !== undefined) built.js++;
    }
  }
  assert.ok(built.js > 0 && split.js > 0, `JS answered ${built.js} of ${built.all} builds, ${split.js} of ${split.all} splits`);
});

test('buildAbsolute, buildRelative, splitAbsolute: seeded random parts, JS path against wasm', () => {
  const r = rng(0x5eed);
  const schemes = ['https', 'http', 'HTTP', 'a+b.c-d', '1x', '', 'ht tp', 'é', 'x'];
  const hosts = ['localhost', 'Example.COM', 'a:80', 'a:0', 'a:65535', 'a:65536', 'a:080', 'a:000080', '[::1]', '::1',
    '[::1]:8080', 'b%41', 'b%4', 'bücher.de', '', ':80', 'a:b', "x_y~!$&'()*+,;=", 'h@x', 'a:', 'a b', '\ud800'];
  const pchars = ['a', 'Z', '9', '/', ':', '@', '-', '.', '_', '~', '!', '$', '&', "'", '(', '*', '+', ',', ';', '=',
    ' ', '%', '%41', '%4', '%zz', 'é', '😀', '\ud800', '?', '#', '[', '"', '\\'];
  const qchars = ['a', '=', '&', '?', '#', ' ', '%', 'é', '😀', '\ud800', '/'];
  // Half the inputs from what the JS path takes only (plain parts), half from anything.
  const plainP = pchars.filter((c) => /^([-\w/:@.~!$&'()*+,;=]|%41)$/.test(c));
  const plainQ = qchars.filter((c) => c !== '#' && c !== '\ud800');
  const built = counter();
  for (let n = 0; n < 3000; n++) {
    const plain = n % 2 === 0;
    const parts = {};
    if (r.int(8)) parts.scheme = plain ? r.pick(schemes.slice(0, 4)) : r.pick(schemes);
    if (r.int(8)) parts.host = plain ? r.pick(hosts.slice(0, 5)) : r.pick(hosts);
    if (r.int(2)) parts.pathBase = r.str(plain ? plainP : pchars, r.int(3) ? 3 : 10);
    if (r.int(3)) parts.path = r.str(plain ? plainP : pchars, r.int(3) ? 3 : 10);
    if (r.int(2)) parts.query = r.str(plain ? plainQ : qchars, 6);
    if (r.int(3) === 0) parts.fragment = r.str(plain ? plainQ : qchars, 4);
    checkBuild(parts, `random ${n}`);
    built.all++;
    if (internal.fast.buildAbsolute(...buildArgs(parts)) !== undefined) built.js++;
  }
  // Non-string and unknown parts: the same TypeErrors either way.
  for (const parts of [{ scheme: 1 }, { scheme: 'https', host: 'a', path: null }, { scheme: 'https', host: 'a', Path: '/' },
    Object.create({ extra: 1 }), null, undefined]) {
    agree(`odd parts ${JSON.stringify(parts)}`, () => api.buildAbsolute(parts));
  }
  assert.ok(built.js > built.all / 10, `JS answered ${built.js} of ${built.all}`);

  const split = counter();
  const tails = ['', '/', '/a/b', '/a%20b', '/%2F', '/é', '?q', '?q#f', '#f', '/p?q=1#x', '/%', '/%00', '/\ud800',
    '/caf%C3%A9', '/%C3', '/%C3%C3%A9', '/%E2%82%AC', '/%E2%82', '/%C0%AF', '/%ED%A0%80', '/%F0%9F%98%80', '/%F4%90%80%80',
    '/%F8', '/%80', '/%c3%a9', '/%E2%2F%AC', '/%4', '/%zz', '/%41%42'];
  const authorities = ['localhost', 'u@h', 'u:p@h:1', '@h', 'h@', ':80', '', 'a@b@c', 'é', '[::1]:80'];
  for (let n = 0; n < 3000; n++) {
    let u = r.pick(schemes) + r.pick(['://', ':/', '//', '://', '://']) + r.pick(authorities);
    for (let k = r.int(3); k > 0; k--) u += r.pick(tails);
    if (r.int(6) === 0 && u.length > 0) {
      const at = r.int(u.length);
      u = u.slice(0, at) + r.pick(pchars) + u.slice(at + 1);
    }
    agree(`random split ${JSON.stringify(u)}`, () => api.splitAbsolute(u));
    split.all++;
    if (internal.fast.splitAbsolute(u) !== undefined) split.js++;
  }
  agree('split non-string', () => api.splitAbsolute(42));
  assert.ok(split.js > split.all / 10, `JS answered ${split.js} of ${split.all}`);
});

// ---- queries ------------------------------------------------------------------------------------

const QUERY_OPTIONS = [undefined, { profile: 'whatwg' }, { profile: 'dotnet' }, { profile: 'strict' }, { raw: true },
  { profile: 'strict', raw: true }];
const MAP_OPTIONS = [undefined, { ignoreCase: true }, { profile: 'dotnet' }, { profile: 'strict', ignoreCase: true }];

function checkQuery(q, label) {
  for (const o of QUERY_OPTIONS) agree(`${label} queryPairs ${JSON.stringify(q)} ${JSON.stringify(o)}`, () => api.queryPairs(q, o));
  for (const o of MAP_OPTIONS) agree(`${label} parseQuery ${JSON.stringify(q)} ${JSON.stringify(o)}`, () => api.parseQuery(q, o));
}

test('queryPairs, parseQuery: the vectors, JS path against wasm', () => {
  for (const c of load('query.json')) checkQuery(c.input, c.source);
});

test('queryPairs, parseQuery: seeded random queries, JS path against wasm', () => {
  const r = rng(0xbeef);
  const pieces = ['a', 'B', 'k', '=', '&', '&&', '%', '%%', '%41', '%4', '%zz', '%C3%A9', '%E2%82', '%80', '%FF', '%00',
    '+', '%2B', 'é', '?', 'ﬀ', '\ud800', '😀', ' ', ';', 'K', '\u212a', '%7E', '%20'];
  for (let n = 0; n < 2500; n++) {
    const max = r.int(4) === 0 ? 400 : 20;
    checkQuery(r.str(pieces, max), `random ${n}`);
  }
  // Long queries of tiny pairs (answered by the JS path), valid and not.
  for (const piece of ['a=%41&', 'a=1&', 'é=%C3%A9&', 'a=%4&', 'a=%FF&', 'a&&', '%%=%&', 'k=+&']) {
    checkQuery(piece.repeat(Math.ceil(3000 / piece.length)), `tiny pairs ${piece}`);
  }
  // A `%` without two hex digits after it (`100%`, `%zz`) in queries the indexOf path takes:
  // kept as written under whatwg and dotnet, answered in JS, compared with wasm above.
  const bare = counter();
  // The pieces above but those that send a query to wasm (invalid UTF-8, a lone surrogate).
  const kept = pieces.filter((p) => !['%E2%82', '%80', '%FF', '\ud800'].includes(p));
  for (let n = 0; n < 400; n++) {
    const q = `${r.str(n % 2 ? kept : pieces, 60)}&p=100%&${r.str(kept, 60)}`.padEnd(32, 'x');
    checkQuery(q, `bare % ${n}`);
    bare.all++;
    if (internal.fast.queryPairs(q, false, true) !== undefined) bare.js++;
    // Strict rejects it: never answered in JS.
    assert.equal(internal.fast.queryPairs(q, false, false), undefined, q);
  }
  assert.ok(bare.js > bare.all / 3, `the JS path answered ${bare.js} of ${bare.all} queries with a bare %`);
  // Around the JS paths' length thresholds.
  for (const len of [30, 31, 32, 33, 1022, 1023, 1024, 1025, 1535, 1536, 1537, 1999, 2001]) {
    checkQuery('a=1&'.repeat(len).slice(0, len), `${len} long`);
    checkQuery(`q=${'%41'.repeat(len)}`.slice(0, len), `${len} long escaped`);
  }
});
