// reqparse/fastify-busboy against @fastify/busboy 3.2.6 itself, as
// busboy.differential.test.mjs does for busboy 1.6: the shared multipart vectors, bodies
// serialized by Node's FormData under @fastify/busboy's options and limits, bodies cut short,
// urlencoded bodies. KNOWN says where the two differ on purpose, and why.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { KNOWN_BOTH, formBody, pastCoreLimits, record, sameOf, vectorsAgree } from './busboy-harness.mjs';

const require = createRequire(import.meta.url);
const FastifyBusboy = require('@fastify/busboy');
const Facade = require('reqparse/fastify-busboy');
const real = (config) => new FastifyBusboy(config);
const facade = (config) => new Facade(config);
const opts = { args: 'fastify' };

/**
 * Vectors on which the facade answers otherwise, by source, and why (js/README.md lists them):
 * those of both facades (KNOWN_BOTH), and these. Where busboy 1.6 and @fastify/busboy both
 * skip, or read on, silently, the core refuses: an `error` (then `finish`, as @fastify/busboy
 * ends) instead of lost or misread data.
 */
const KNOWN = {
  ...KNOWN_BOTH,
  'a part without headers': 'disposition',
  'obs-fold: a line starting with a space is not a field': 'header',
  'RFC 9112 §5.2 (Strict): no obs-fold': 'header',
  'a bare LF in the headers': 'header',
  'a bare CR in the headers': 'header',
  'a header line without a colon': 'header',
  'a field name is a token followed by a colon': 'header',
  // The Fetch profile's WPT cases (formdata-parsing.any.js) and the Lenient obs-fold readings:
  // where @fastify/busboy misreads a part, or accepts what the core refuses.
  'Parse Content-Type value is trimmed': 'content type',
  'Parse Content-Type with multiple values, last one wins': 'content type',
  'Content-Type: CRLF SP text/plain, is unfolded': 'obs-fold',
  'a folded header is a line without a colon': 'obs-fold',
  'a folded header is refused where its continuation starts': 'obs-fold',
};

/**
 * Events without the 'Part terminated early' error on a file: @fastify/busboy forwards it to
 * the file only when the previous file's `end` came first (a shared `curFile`, cleared by the
 * previous file's end); the facade always tells the file being read.
 */
const unforwarded = (events) =>
  events.map((e) => (e[0] === 'file' ? e.filter((x) => !(x && typeof x === 'object' && /terminated early/.test(x.error ?? ''))) : e));

const same = sameOf(real, facade, opts);

test('the multipart vectors: @fastify/busboy and reqparse/fastify-busboy give the same events, or differ as KNOWN says', async () => {
  await vectorsAgree(real, facade, KNOWN, ['whole', 'every 7'], opts);
});

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
  // test/busboy-harness.mjs's pastCoreLimits: 101 files, 1,025 fields, a 3,000-byte name, a
  // 2,000-byte filename, 17 MiB of fields over `fieldSize`, a 17 MiB
  // `application/octet-stream` part without a filename (a file here, a field to the core).
  const { body, headers } = pastCoreLimits();
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
