// reqparse/busboy against busboy 1.6 itself: the same bytes, written the same ways, must give
// the same events in the same order (test/busboy-harness.mjs records them): the shared
// multipart vectors (../../tests/vectors/multipart.json), bodies serialized by Node's own
// FormData (the Fetch Standard's multipart/form-data encoding, as browsers send it) under
// every limit busboy has and its options, bodies cut short, and urlencoded bodies. Where the
// two differ on purpose, KNOWN says why; those cases must still differ (the list stays true).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { bytes as random } from './apps/harness.mjs';
import { KNOWN_BOTH, chunked, formBody, pastCoreLimits, record, sameOf, vectorsAgree } from './busboy-harness.mjs';

const require = createRequire(import.meta.url);
const busboy = require('busboy');
const facade = require('reqparse/busboy');

/**
 * Vectors on which reqparse/busboy answers otherwise than busboy 1.6, by the vector's source,
 * and why (js/README.md, "reqparse/busboy", lists the same): those of both facades
 * (KNOWN_BOTH), and these.
 */
const KNOWN = {
  ...KNOWN_BOTH,
  // busboy skips a part without a usable Content-Disposition silently; the core refuses it
  // (here, one broken by a folded line).
  'obs-fold: a line starting with a space is not a field': 'disposition',
  'RFC 9112 §5.2 (Strict): no obs-fold': 'disposition',
  // busboy reports a malformed header block, then goes on and emits `finish` too; the facade
  // ends with the error (`error`, `close`).
  'a bare LF in the headers': 'error then finish',
  'a bare CR in the headers': 'error then finish',
  'a part without headers': 'error then finish',
  'a header line without a colon': 'error then finish',
  'a field name is a token followed by a colon': 'error then finish',
  // busboy 1.6 decodes a charset outside its own table to `undefined` (its `other` decoder
  // is an arrow function: `this` is not the charset); the facade decodes it (TextDecoder).
  'RFC 7578 §4.2 example: a file': 'charset',
  // The Fetch profile's WPT cases (formdata-parsing.any.js): where busboy drops or misreads a
  // part, or accepts what the core refuses.
  'Parse Content-Type containing a control character is ignored': 'header bytes',
  'Parse other control characters in a name': 'header bytes',
  'Parse failure: NUL in a name': 'header bytes',
  'Parse failure: NUL in an unknown header': 'header bytes',
  'Parse a non-ASCII boundary parameter': 'boundary',
};

const same = sameOf(busboy, facade);

test('the multipart vectors: busboy 1.6 and reqparse/busboy give the same events, or differ as KNOWN says', async () => {
  const { cases, compared } = await vectorsAgree(busboy, facade, KNOWN, ['whole', 'every 1', 'every 7']);
  assert.equal(compared, cases * 3);
});

// The form of a typical upload page: text fields (one non-ASCII, one with the escapes the
// encoding makes: `"` as %22, a newline as %0D%0A), files with a non-ASCII name, a Windows path,
// a name that is a path, an empty file, a Blob (filename 'blob'), and binary data holding
// boundary-like bytes.
const FORM = [
  ['title', 'Holiday'],
  ['café', 'crème brûlée ✓'],
  ['a"b\nc', 'multi\r\nline'],
  ['empty', ''],
  ['photo', new File([random(20_000, 1)], 'résumé – final.pdf', { type: 'application/pdf' })],
  ['doc', new File(['hello\r\n--not-the-boundary\r\n'], 'C:\\Users\\x\\a"b.txt', { type: 'text/plain' })],
  ['up', new File(['x'], '../../etc/passwd')],
  ['none', new File([], '')],
  ['blob', new Blob(['zz'])],
];

test('browser-shaped bodies: every option, every chunking', async () => {
  const { body, contentType } = await formBody(FORM);
  const headers = { 'content-type': contentType };
  const options = [{}, { defParamCharset: 'utf8' }, { preservePath: true }, { defCharset: 'latin1' }, { fileHwm: 1024, highWaterMark: 2048 }];
  for (const o of options) {
    await same({ headers, ...o }, body, ['whole', 'every 1000', 'every 65536', 'at 100', 'at 300'], JSON.stringify(o));
  }
  // One byte at a time, and a cut at every byte of the first part (its delimiter, headers).
  await same({ headers }, body, ['every 1'], 'bytes');
  for (let at = 0; at < 200; at += 7) await same({ headers }, body, [`at ${at}`], `cut at ${at}`);
});

test('browser-shaped bodies: busboy limits truncate and report as busboy does', async () => {
  const { body, contentType } = await formBody(FORM);
  const headers = { 'content-type': contentType };
  const limits = [];
  for (const fileSize of [0, 1, 2, 27, 28, 29, 19_999, 20_000, 20_001]) limits.push({ fileSize });
  for (const fieldSize of [0, 1, 6, 7, 8, 20, 100]) limits.push({ fieldSize });
  for (const files of [0, 1, 2, 5, 6]) limits.push({ files });
  for (const fields of [0, 1, 3, 4, 5]) limits.push({ fields });
  for (const parts of [0, 1, 4, 8, 9, 10]) limits.push({ parts });
  limits.push({ files: 1, fields: 1 }, { parts: 3, fileSize: 1 }, { headerPairs: 1, fieldNameSize: 2 });
  for (const l of limits) await same({ headers, limits: l }, body, ['whole', 'every 4093'], JSON.stringify(l));
  // Without a 'file' or 'field' listener busboy skips those parts (still counted).
  for (const drop of ['file', 'field']) {
    const make = (impl) => (config) => {
      const bb = impl(config);
      const on = bb.on.bind(bb);
      bb.on = (event, fn) => (event === drop ? bb : on(event, fn));
      return bb;
    };
    const want = await record(make(busboy), { headers, limits: { files: 3, fields: 2 } }, [body]);
    const got = await record(make(facade), { headers, limits: { files: 3, fields: 2 } }, [body]);
    assert.deepStrictEqual(got, want, `no '${drop}' listener`);
  }
});

test("the core's upload limits (maxFiles, maxFields, maxTextBytes, maxNameBytes, maxFilenameBytes) do not reach the facade", async () => {
  const { body, headers } = pastCoreLimits();
  await same({ headers }, body, ['whole', 'every 65536'], 'past the core limits');
  // busboy's own limits still cut, and report, as busboy does.
  await same({ headers, limits: { files: 100, fields: 1024, fieldSize: 10 } }, body, ['every 65536'], 'busboy limits');
  const events = await record(facade, { headers }, [body]);
  assert.deepStrictEqual(events.at(-1), ['finish']);
  assert.ok(!events.some((e) => e[0] === 'error'));
  assert.equal(events.filter((e) => e[0] === 'file').length, 103);
});

test('bodies cut short: the same error, never a hang or a close alone', async () => {
  const { body, contentType } = await formBody(FORM.slice(0, 6));
  const headers = { 'content-type': contentType };
  const cuts = [0, 1, 10, 40, 60, 100, 150, 200, 400, 1000, 10_000, body.length - 60, body.length - 8, body.length - 3];
  for (const at of cuts) {
    const cut = body.subarray(0, at);
    await same({ headers }, cut, ['whole', 'every 997'], `cut to ${at} bytes`);
    // Before the close delimiter's `--`: an error, then `close`, and nothing after.
    const got = await record(facade, { headers }, [cut]);
    assert.deepStrictEqual(got.at(-1)[0], 'error', `cut to ${at}: an error`);
  }
  // With an epilogue, and a preamble.
  const framed = Buffer.concat([Buffer.from('preamble\r\n'), body, Buffer.from('epilogue')]);
  await same({ headers }, framed, ['whole', 'every 5'], 'preamble and epilogue');
});

test('Content-Type: the same throws and the same bodies', async () => {
  const types = [
    undefined,
    '',
    'text/plain',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data;boundary="a b"',
    'Multipart/Form-Data; charset=utf-8; boundary=XyZ',
    'multipart/form-data; boundary=XyZ; boundary=other',
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=utf-8',
    'application/json',
  ];
  for (const t of types) {
    const config = { headers: t === undefined ? {} : { 'content-type': t } };
    const want = await record(busboy, config, [Buffer.from('--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--XyZ--')]);
    const got = await record(facade, config, [Buffer.from('--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--XyZ--')]);
    assert.deepStrictEqual(got, want, String(t));
  }
});

test('urlencoded bodies: the same fields, truncations and limits', async () => {
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const bodies = [
    '',
    'a=1',
    'a=1&b=2&c=3',
    'q=caf%C3%A9+cr%C3%A8me&page=2',
    'novalue&=x&a=&&b=2',
    `long=${'x'.repeat(300)}&${'n'.repeat(150)}=v`,
    new URLSearchParams({ 'na me': 'v a', 'ü': '✓', sym: '&=?#%+' }).toString(),
  ];
  const limits = [undefined, { fieldSize: 2 }, { fieldSize: 0 }, { fieldNameSize: 1 }, { fields: 1 }, { fields: 2 }];
  // busboy 1.6 reads an escape cut between two writes otherwise than a whole one: it drops a
  // pair whose name is only escapes cut one byte at a time (its `_bytesKey` stays 0), and cuts
  // a value at another length when an escape straddles the limit. The facade answers what
  // busboy answers for the body written whole, whatever the writes: limits are compared on
  // whole bodies, the rest on cuts too.
  for (const b of bodies) {
    for (const l of limits) {
      const hows = l === undefined ? ['whole', 'every 2', 'every 5'] : ['whole'];
      await same({ headers, limits: l }, Buffer.from(b), hows, `${JSON.stringify(b.slice(0, 40))} ${JSON.stringify(l)}`);
      const cut = await record(facade, { headers, limits: l }, chunked(Buffer.from(b), 'every 1'));
      assert.deepStrictEqual(cut, await record(facade, { headers, limits: l }, [Buffer.from(b)]), 'the facade: whatever the writes');
    }
  }
});
