// reqparse/fastify-busboy against @fastify/busboy 3.2.6 itself, as
// busboy.differential.test.mjs does for busboy 1.6: the shared multipart vectors, bodies
// serialized by Node's FormData under @fastify/busboy's options and limits, bodies cut short,
// urlencoded bodies. KNOWN says where the two differ on purpose, and why.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { chunked, record } from './busboy-harness.mjs';

const require = createRequire(import.meta.url);
const FastifyBusboy = require('@fastify/busboy');
const Facade = require('reqparse/fastify-busboy');
const real = (config) => new FastifyBusboy(config);
const facade = (config) => new Facade(config);
const opts = { args: 'fastify' };

/** Vectors on which the facade answers otherwise, by source, and why (js/README.md lists them). */
const KNOWN = {
  // What busboy 1.6 and @fastify/busboy both skip, or read on, silently, the core refuses: an
  // `error` (then `finish`, as @fastify/busboy ends) instead of lost or misread data.
  'RFC 2046 §5.1.1: transport padding after a boundary is ignored': 'padding',
  'transport padding counts against the header limit': 'padding',
  'a boundary followed by other bytes': 'delimiter',
  'the delimiter must not occur in the data': 'delimiter',
  'LF line endings are refused': 'delimiter',
  '--boundary at the start of data is the delimiter': 'delimiter',
  'an error between parts (after a delimiter) is in no part': 'delimiter',
  'two parts with neither the empty line': 'empty part',
  'a part without data right before the close delimiter': 'empty part',
  'an empty part as werkzeug writes it': 'empty part',
  'an empty file part without the empty line': 'empty part',
  'a name ending in a backslash ends at the quote': 'disposition',
  'the same header reads \\" as a quoted-pair': 'disposition',
  'a part without Content-Disposition': 'disposition',
  'a part without headers': 'disposition',
  'a Content-Disposition without name': 'disposition',
  'the disposition type is form-data': 'disposition',
  'a malformed header block names the part whose block it is': 'disposition',
  'an unterminated quoted name': 'disposition',
  'obs-fold: a line starting with a space is not a field': 'header',
  'RFC 9112 §5.2 (Strict): no obs-fold': 'header',
  'a bare LF in the headers': 'header',
  'a bare CR in the headers': 'header',
  'a header line without a colon': 'header',
  'a field name is a token followed by a colon': 'header',
  'whitespace around a header name is removed': 'header whitespace',
  'no whitespace before the colon': 'header whitespace',
  'a repeated Content-Disposition': 'repeated header',
  'one Content-Disposition per part': 'repeated header',
  'a repeated Content-Type': 'repeated header',
  'one Content-Type per part': 'repeated header',
  'Content-Transfer-Encoding is ignored': 'transfer encoding',
  'senders must not use Content-Transfer-Encoding': 'transfer encoding',
  '8bit and binary are identity encodings': 'transfer encoding',
  // The Fetch profile's WPT cases (formdata-parsing.any.js) and the Lenient LF and obs-fold
  // readings: where @fastify/busboy drops or misreads a part, or accepts what the core refuses.
  'Parse transport padding after a delimiter': 'padding',
  'Parse whitespace before a header name': 'header whitespace',
  'Parse whitespace between a header name and the colon': 'header whitespace',
  'Parse duplicate Content-Type, last one wins': 'repeated header',
  'Parse Content-Type value is trimmed': 'content type',
  'Parse Content-Type with multiple values, last one wins': 'content type',
  'Parse failure: part without headers': 'error then finish',
  'Parse failure: no Content-Disposition': 'disposition',
  'Parse failure: header without a colon': 'error then finish',
  'Parse failure: header name that is not a token': 'error then finish',
  'Parse failure: bare LF in a name': 'error then finish',
  'Parse failure: bare CR in a name': 'error then finish',
  'Parse failure: bare LF in a filename': 'error then finish',
  'Parse failure: bare LF in a header value': 'error then finish',
  'Parse failure: empty boundary parameter': 'boundary',
  'a body whose lines end in LF (the first delimiter line decides)': 'LF body',
  'an LF body': 'LF body',
  'LF line endings throughout, consistently': 'LF body',
  'CRLF line endings throughout': 'LF body',
  'a body whose lines end in LF, with a preamble': 'LF body',
  'a continuation that is no parameter is a Content-Disposition error': 'obs-fold',
  'Content-Type: CRLF SP text/plain, is unfolded': 'obs-fold',
  'a folded header is a line without a colon': 'obs-fold',
  'a folded header is refused where its continuation starts': 'obs-fold',
  'a fold inside a quoted name is one space': 'obs-fold',
};
const knownOf = (source) => Object.entries(KNOWN).find(([k]) => source.includes(k))?.[1];

/**
 * Events without the 'Part terminated early' error on a file: @fastify/busboy forwards it to
 * the file only when the previous file's `end` came first (a shared `curFile`, cleared by the
 * previous file's end); the facade always tells the file being read.
 */
const unforwarded = (events) =>
  events.map((e) => (e[0] === 'file' ? e.filter((x) => !(x && typeof x === 'object' && /terminated early/.test(x.error ?? ''))) : e));

const same = async (config, body, hows, what, normalize = (x) => x) => {
  for (const how of hows) {
    const want = await record(real, config, chunked(body, how), opts);
    const got = await record(facade, config, chunked(body, how), opts);
    assert.deepStrictEqual(normalize(got), normalize(want), `${what} (${how})`);
  }
};

test('the multipart vectors: @fastify/busboy and reqparse/fastify-busboy give the same events, or differ as KNOWN says', async () => {
  const cases = JSON.parse(readFileSync(new URL('../../tests/vectors/multipart.json', import.meta.url), 'utf8'));
  const differing = new Set();
  for (const c of cases) {
    const body = Buffer.from(c.input, c.input_encoding === 'latin1' ? 'latin1' : 'utf8');
    const boundary = /^[A-Za-z0-9'()+_,./:=?-]+$/.test(c.boundary) ? c.boundary : JSON.stringify(c.boundary);
    const config = { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
    const known = knownOf(c.source);
    for (const how of ['whole', 'every 7']) {
      const want = await record(real, config, chunked(body, how), opts);
      const got = await record(facade, config, chunked(body, how), opts);
      if (known === undefined) {
        assert.deepStrictEqual(got, want, `${c.source} (${how})`);
      } else {
        assert.notDeepStrictEqual(got, want, `${c.source} (${how}) is listed as differing (${known}): it does not any more`);
        differing.add(c.source);
      }
    }
  }
  for (const k of Object.keys(KNOWN)) assert.ok([...differing].some((s) => s.includes(k)), `KNOWN entry '${k}' names no vector`);
});

async function formBody(entries) {
  const fd = new FormData();
  for (const [name, value] of entries) fd.append(name, value);
  const req = new Request('http://localhost/', { method: 'POST', body: fd });
  return { body: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type') };
}

const FORM = [
  ['title', 'Holiday'],
  ['café', 'crème brûlée ✓'],
  ['a"b\nc', 'multi\r\nline'],
  ['json', new Blob(['{"a":1}'], { type: 'application/json' })],
  ['photo', new File([Buffer.alloc(20_000, 0xd8)], 'résumé – final.pdf', { type: 'application/pdf' })],
  ['doc', new File(['hello\r\n--not-the-boundary\r\n'], 'C:\\Users\\x\\a"b.txt', { type: 'text/plain; charset=utf-8' })],
  ['none', new File([], '')],
  ['blob', new Blob(['zz'])],
];

test('browser-shaped bodies: options, limits, chunkings', async () => {
  const { body, contentType } = await formBody(FORM);
  const headers = { 'content-type': contentType };
  const configs = [
    {},
    { preservePath: true },
    { defCharset: 'latin1' },
    { isPartAFile: (name) => name !== 'title' && name !== 'café' && name !== 'a"b\nc' },
  ];
  for (const fileSize of [0, 1, 7, 19_999, 20_000, 20_001]) configs.push({ limits: { fileSize } });
  for (const fieldSize of [0, 1, 7, 8]) configs.push({ limits: { fieldSize } });
  for (const files of [4, 5]) configs.push({ limits: { files } });
  for (const fields of [0, 1, 3]) configs.push({ limits: { fields } });
    for (const c of configs) await same({ headers, ...c }, body, ['whole', 'every 4093'], JSON.stringify(c.limits ?? Object.keys(c)));
  // A part skipped for `files` or `parts` whose data is over its stream's highWaterMark:
  // @fastify/busboy stops taking writes and never emits `finish` (@fastify/multipart ends on
  // the limit event instead); the facade reads past it and finishes. The events before are
  // the same.
  const noEnd = (events) => events.filter((e) => e[0] !== 'finish' && e[0] !== 'no end');
  for (const limits of [{ files: 0 }, { files: 1 }, { parts: 0 }, { parts: 1 }, { parts: 4 }, { parts: 7 }]) {
    const want = await record(real, { headers, limits }, [body], { ...opts, wait: 300 });
    const got = await record(facade, { headers, limits }, [body], opts);
    assert.deepStrictEqual(noEnd(got), noEnd(want), JSON.stringify(limits));
    assert.deepStrictEqual(got.at(-1), ['finish']);
  }
  await same({ headers }, body, ['every 1'], 'bytes');
  // A limit that is not a number throws, as @fastify/busboy's getLimit does.
  for (const l of [{ fileSize: '1' }, { parts: Number.NaN }]) {
    assert.deepStrictEqual(await record(facade, { headers, limits: l }, [body], opts), await record(real, { headers, limits: l }, [body], opts));
  }
});

test("the core's upload limits (maxFiles, maxFields, maxTextBytes, maxNameBytes, maxFilenameBytes) do not reach the facade", async () => {
  // As busboy.differential.test.mjs's pastCoreLimits: 101 files, 1,025 fields, a 3,000-byte
  // name, a 2,000-byte filename, 17 MiB of fields over `fieldSize`, a 17 MiB
  // `application/octet-stream` part without a filename (a file here, a field to the core).
  const boundary = 'LimitsBoundary';
  const head = (disposition, type) =>
    `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type === undefined ? '' : `Content-Type: ${type}\r\n`}\r\n`;
  const parts = [];
  for (let i = 0; i < 101; i++) parts.push(head(`name="f${i}"; filename="${i}.txt"`, 'text/plain'), `file ${i}\r\n`);
  for (let i = 0; i < 1025; i++) parts.push(head(`name="k${i}"`), `${i}\r\n`);
  parts.push(head(`name="${'n'.repeat(3000)}"`), 'long name\r\n');
  parts.push(head(`name="doc"; filename="${'d'.repeat(1996)}.txt"`, 'text/plain'), 'long filename\r\n');
  const chunks = [Buffer.from(parts.join(''))];
  for (let i = 0; i < 17; i++) chunks.push(Buffer.from(head(`name="big${i}"`)), Buffer.alloc((1 << 20) + 10, 'v'), Buffer.from('\r\n'));
  chunks.push(Buffer.from(head('name="raw"', 'application/octet-stream')), Buffer.alloc(17 << 20, 0x5a), Buffer.from(`\r\n--${boundary}--\r\n`));
  const body = Buffer.concat(chunks);
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  await same({ headers }, body, ['whole', 'every 65536'], 'past the core limits');
  // @fastify/busboy's own limits still cut, and report (not `files`: a file it skips for that,
  // over its stream's highWaterMark, stops it for good, as 'browser-shaped bodies' says).
  await same({ headers, limits: { fields: 1024, fieldSize: 10, fileSize: 5 } }, body, ['every 65536'], 'busboy limits');
  const events = await record(facade, { headers }, [body], opts);
  assert.deepStrictEqual(events.at(-1), ['finish']);
  assert.equal(events.filter((e) => e[0] === 'file').length, 103);
});

test('bodies cut short: an error, then finish, as Dicer ends them', async () => {
  const { body, contentType } = await formBody(FORM);
  const headers = { 'content-type': contentType };
  for (const at of [0, 1, 40, 100, 200, 400, 1000, 10_000, body.length - 60, body.length - 10]) {
    await same({ headers }, body.subarray(0, at), ['whole', 'every 1009'], `cut to ${at} bytes`, unforwarded);
  }
});

test('Content-Type: the same throws and bodies', async () => {
  for (const t of [undefined, 'text/plain', 'multipart/form-data', 'multipart/form-data; boundary="XyZ"', 'MULTIPART/form-data;boundary=XyZ', 'application/x-www-form-urlencoded']) {
    const config = { headers: t === undefined ? {} : { 'content-type': t } };
    const b = Buffer.from('--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--XyZ--');
    assert.deepStrictEqual(await record(facade, config, [b], opts), await record(real, config, [b], opts), String(t));
  }
});

test('urlencoded bodies: the same fields, truncations and limits', async () => {
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const bodies = ['', 'a=1', 'a=1&b=2&c=3', 'q=caf%C3%A9+cr%C3%A8me&page=2', `long=${'x'.repeat(300)}&${'n'.repeat(150)}=v`];
  // @fastify/busboy emits `fieldsLimit` at the next write after the limit's count (never for a
  // body written whole); the facade when a pair past the limit arrives: compared without it.
  const noLimitEvent = (events) => events.filter((e) => e[0] !== 'fieldsLimit');
  for (const b of bodies) {
    for (const l of [undefined, { fieldSize: 2 }, { fieldNameSize: 1 }, { fields: 1 }]) {
      await same({ headers, limits: l }, Buffer.from(b), ['whole'], `${JSON.stringify(b.slice(0, 40))} ${JSON.stringify(l)}`, noLimitEvent);
    }
  }
});
