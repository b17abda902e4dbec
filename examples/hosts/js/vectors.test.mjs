// Every case of tests/vectors/{query,disposition,multipart}.json through the transpiled
// component: each answer must equal the vector's (the shapes of ARCHITECTURE.md, "Test
// vectors"). The files are read at run time, so new cases are run as they arrive.
//
//   npm run transpile && node --test vectors.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { query, disposition } from './generated/reqparse.js';
import { MultipartStream, attempt, dispose } from './reqparse-host.mjs';

const vectors = new URL('../../../tests/vectors/', import.meta.url);
const load = (name) => {
  const cases = JSON.parse(readFileSync(new URL(name, vectors), 'utf8'));
  assert.ok(Array.isArray(cases) && cases.length > 0, `${name}: no cases`);
  return cases;
};
// The vectors' profile names (the core's) and the WIT's.
const PROFILES = { whatwg: 'whatwg', dotnet: 'dot-net', strict: 'strict', browser: 'browser',
  fetch: 'fetch', lenient: 'lenient' };
const utf8 = new TextEncoder();
// U+FFFD for what is not UTF-8, as the vectors write bytes; a leading U+FEFF kept (it is text).
const lossy = new TextDecoder('utf-8', { ignoreBOM: true });

// Runs `each` on every case, then fails listing every case that failed.
function run(name, each) {
  const failures = [];
  for (const c of load(name)) {
    const problem = each(c);
    if (problem) failures.push(`${c.source}: ${problem}`);
  }
  assert.deepEqual(failures, [], `${failures.length} of ${name} failed`);
}

// `got` is { ok } or { err }: undefined when it is what the case expects, else why not.
function compare(c, got) {
  if (!c.expect_error) {
    if (got.err) return `unexpected error ${got.err.offset}: ${got.err.message}`;
    try {
      assert.deepEqual(got.ok, c.expect);
    } catch {
      return `got ${JSON.stringify(got.ok)}, want ${JSON.stringify(c.expect)}`;
    }
    return undefined;
  }
  if (!got.err) return `expected an error, got ${JSON.stringify(got.ok)}`;
  for (const key of ['offset', 'message']) {
    if (key in c.expect_error && got.err[key] !== c.expect_error[key]) {
      return `error ${key} ${got.err[key]}, want ${c.expect_error[key]}`;
    }
  }
  return undefined;
}

test('query.json: pairs, raw pairs, maps and spans', () => {
  run('query.json', (c) => {
    const profile = PROFILES[c.profile ?? 'whatwg'];
    if (c.raw) return compare(c, { ok: query.rawPairs(c.input) });
    if (c.map) {
      return compare(c, attempt(() => {
        const map = query.QueryMap.parse(c.input, { profile, ignoreCase: c.ignore_case ?? false });
        try {
          return Object.fromEntries(map.entries());
        } finally {
          map[dispose]();
        }
      }));
    }
    const pairs = compare(c, attempt(() => query.pairs(c.input, profile)));
    // The offsets mode gives the same pairs: four numbers a pair, bit 31 set for `decoded`.
    const spans = compare(c, attempt(() => {
      const { spans: s, decoded } = query.pairSpans(c.input, profile);
      const source = utf8.encode(c.input);
      const part = (start, end) => lossy.decode(start & 0x8000_0000
        ? decoded.subarray(start & 0x7fff_ffff, end & 0x7fff_ffff) : source.subarray(start, end));
      const out = [];
      for (let i = 0; i < s.length; i += 4) out.push([part(s[i], s[i + 1]), part(s[i + 2], s[i + 3])]);
      return out;
    }));
    return pairs ?? (spans && `spans: ${spans}`);
  });
});

// `input` as UTF-8, or with "input_encoding": "latin1" one byte per character.
const headerBytes = (c) => (c.input_encoding === 'latin1'
  ? Uint8Array.from(c.input, (ch) => ch.charCodeAt(0)) : utf8.encode(c.input));

test('disposition.json: parse', () => {
  run('disposition.json', (c) => compare(c, attempt(() => {
    const cd = disposition.parse(headerBytes(c), PROFILES[c.profile ?? 'strict'],
      c.decode_2047 ?? false);
    return { type: cd.type, filename: cd.filename ?? null, parameters: cd.parameters };
  })));
});

// A multipart-error as the vectors write it: { kind, offset }, and `part` (the index of the
// part the error is in, or null) when the case has an expect_error_part.
function errorShape(e, c) {
  let kind = e.kind.tag;
  if (kind === 'limit') kind += `:${e.kind.val.replaceAll('-', '_')}`; // "limit:max_parts"
  const shape = { error: { kind, offset: Number(e.offset) } }; // u64: a BigInt
  if ('expect_error_part' in c) shape.part = e.part ?? null; // option<u32>: undefined for none
  return shape;
}

// `deciding`: fed through feed-to-part, making the case's `decisions` ({ "<part index>": "skip" |
// { limit: n } }) at each part before its data is read.
function multipart(c, profile, reads, deciding) {
  // { max_parts: 2 } -> { maxParts: 2 }
  const limits = Object.fromEntries(Object.entries(c.limits ?? {})
    .map(([k, v]) => [k.replace(/_(.)/g, (_, ch) => ch.toUpperCase()), v]));
  const decisions = c.decisions ?? {};
  const refused = [];
  const decide = (stream, part) => {
    const d = decisions[part.index];
    if (d === undefined) return;
    if (!(d === 'skip' ? stream.skipPart() : stream.limitPart(d.limit))) refused.push(part.index);
  };
  const made = attempt(() => new MultipartStream(c.boundary, profile, limits));
  if (made.err) return errorShape(made.err, c);
  const stream = made.ok;
  const parts = [];
  const mimeTypes = []; // one serialized MIME type (or null) per part
  try {
    for (const [i, read] of reads.entries()) {
      const eof = i + 1 === reads.length;
      for (const event of stream.feed(read, eof, deciding ? decide : undefined)) {
        if (event.tag === 'part') {
          parts.push({ name: event.name, filename: event.filename ?? null,
            content_type: event.contentType ? lossy.decode(event.contentType) : null, data: [] });
          mimeTypes.push(event.mimeType ? lossy.decode(event.mimeType) : null);
        } else if (event.tag === 'data') {
          parts.at(-1).data.push(event.bytes.slice());
        } else if (event.tag === 'end') {
          if (!eof) return { error: 'end before the end of the input' };
          if (refused.length) return { error: `no decision taken in parts ${refused}` };
          for (const p of parts) p.data = lossy.decode(Buffer.concat(p.data));
          return 'mime_types' in c ? { parts, mime_types: mimeTypes } : { parts };
        }
      }
    }
    return { error: 'no end after the last read' };
  } catch (e) {
    if (!e.error) throw e;
    if (refused.length) return { error: `no decision taken in parts ${refused}` };
    return errorShape(e.error, c);
  } finally {
    stream.close();
  }
}

// Whole, split in two at every point, and one byte at a time (then an empty read).
function* splits(data) {
  yield ['whole', [data]];
  for (let at = 0; at <= data.length; at++) {
    yield [`split at ${at}`, [data.subarray(0, at), data.subarray(at)]];
  }
  const bytes = Array.from(data, (_, i) => data.subarray(i, i + 1));
  yield ['one byte at a time', [...bytes, new Uint8Array(0)]];
}

test('multipart.json: streamed through multipart-reader, whole, split anywhere, byte by byte', () => {
  run('multipart.json', (c) => {
    const want = c.expect_error ? { error: c.expect_error } : { parts: c.expect };
    if (!c.expect_error && 'mime_types' in c) want.mime_types = c.mime_types;
    if (c.expect_error && 'expect_error_part' in c) want.part = c.expect_error_part;
    // A case with decisions needs feed-to-part; the others run through both feeds.
    const feeds = c.decisions ? [true] : [false, true];
    for (const profile of c.profiles ?? ['fetch']) {
      for (const deciding of feeds) {
        for (const [label, reads] of splits(headerBytes(c))) {
          const got = multipart(c, PROFILES[profile], reads, deciding);
          try {
            assert.deepEqual(got, want);
          } catch {
            const feed = deciding ? 'feed-to-part' : 'feed';
            return `[${profile}, ${feed}] ${label}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
          }
        }
      }
    }
    return undefined;
  });
});
