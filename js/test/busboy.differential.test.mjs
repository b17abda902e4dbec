// reqparse/busboy against busboy 1.6 itself: the same bytes, written the same ways, must give
// the same events in the same order (test/busboy-harness.mjs records them): the shared
// multipart vectors (../../tests/vectors/multipart.json), bodies serialized by Node's own
// FormData (the Fetch Standard's multipart/form-data encoding, as browsers send it) under
// every limit busboy has and its options, bodies cut short, and urlencoded bodies. Where the
// two differ on purpose, KNOWN says why; those cases must still differ (the list stays true).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { chunked, record } from './busboy-harness.mjs';

const require = createRequire(import.meta.url);
const busboy = require('busboy');
const facade = require('reqparse/busboy');

/**
 * Vectors on which reqparse/busboy answers otherwise than busboy 1.6, by the vector's source,
 * and why (js/README.md, "reqparse/busboy", lists the same).
 */
const KNOWN = {
  // busboy drops what follows a malformed delimiter line silently (it waits for the next
  // delimiter); the core refuses it: an `error` instead of lost data.
  'RFC 2046 §5.1.1: transport padding after a boundary is ignored': 'padding',
  'transport padding counts against the header limit': 'padding',
  'a boundary followed by other bytes': 'delimiter',
  'the delimiter must not occur in the data': 'delimiter',
  'LF line endings are refused': 'delimiter',
  '--boundary at the start of data is the delimiter': 'delimiter',
  'an error between parts (after a delimiter) is in no part': 'delimiter',
  // A part with no data and no empty line (RFC 2046 §5.1.1, Go and werkzeug write them):
  // busboy reads the next part's headers as this part's value.
  'two parts with neither the empty line': 'empty part',
  'a part without data right before the close delimiter': 'empty part',
  'an empty part as werkzeug writes it': 'empty part',
  'an empty file part without the empty line': 'empty part',
  // busboy skips a part without a usable Content-Disposition silently (or reports a part
  // without a name with name undefined); the core refuses it.
  'a name ending in a backslash ends at the quote': 'disposition',
  'the same header reads \\" as a quoted-pair': 'disposition',
  'a part without Content-Disposition': 'disposition',
  'a Content-Disposition without name': 'disposition',
  'the disposition type is form-data': 'disposition',
  'a malformed header block names the part whose block it is': 'disposition',
  'an unterminated quoted name': 'disposition',
  'obs-fold: a line starting with a space is not a field': 'disposition',
  'RFC 9112 §5.2 (Strict): no obs-fold': 'disposition',
  // busboy reports a malformed header block, then goes on and emits `finish` too; the facade
  // ends with the error (`error`, `close`).
  'a bare LF in the headers': 'error then finish',
  'a bare CR in the headers': 'error then finish',
  'a part without headers': 'error then finish',
  'a header line without a colon': 'error then finish',
  'a field name is a token followed by a colon': 'error then finish',
  // Whitespace before a header's colon: busboy refuses the block, the core trims it.
  'whitespace around a header name is removed': 'header whitespace',
  'no whitespace before the colon': 'header whitespace',
  // A repeated header: busboy takes the first, the core the last.
  'a repeated Content-Disposition': 'repeated header',
  'one Content-Disposition per part': 'repeated header',
  'a repeated Content-Type': 'repeated header',
  'one Content-Type per part': 'repeated header',
  // The core does not hand Content-Transfer-Encoding over: `encoding` is always '7bit'.
  'Content-Transfer-Encoding is ignored': 'transfer encoding',
  'senders must not use Content-Transfer-Encoding': 'transfer encoding',
  '8bit and binary are identity encodings': 'transfer encoding',
  // busboy 1.6 decodes a charset outside its own table to `undefined` (its `other` decoder
  // is an arrow function: `this` is not the charset); the facade decodes it (TextDecoder).
  'RFC 7578 §4.2 example: a file': 'charset',
  // The Fetch profile's WPT cases (formdata-parsing.any.js) and the Lenient LF and obs-fold
  // readings: where busboy drops or misreads a part, or accepts what the core refuses.
  'Parse transport padding after a delimiter': 'padding',
  'Parse whitespace before a header name': 'header whitespace',
  'Parse whitespace between a header name and the colon': 'header whitespace',
  'Parse duplicate Content-Type, last one wins': 'repeated header',
  'Parse Content-Type containing a control character is ignored': 'header bytes',
  'Parse other control characters in a name': 'header bytes',
  'Parse failure: part without headers': 'error then finish',
  'Parse failure: no Content-Disposition': 'disposition',
  'Parse failure: header without a colon': 'error then finish',
  'Parse failure: header name that is not a token': 'error then finish',
  'Parse failure: NUL in a name': 'header bytes',
  'Parse failure: NUL in an unknown header': 'header bytes',
  'Parse failure: bare LF in a name': 'error then finish',
  'Parse failure: bare CR in a name': 'error then finish',
  'Parse failure: bare LF in a filename': 'error then finish',
  'Parse failure: bare LF in a header value': 'error then finish',
  'Parse failure: empty boundary parameter': 'boundary',
  'Parse a non-ASCII boundary parameter': 'boundary',
  'a body whose lines end in LF (the first delimiter line decides)': 'LF body',
  'an LF body': 'LF body',
  'LF line endings throughout, consistently': 'LF body',
  'CRLF line endings throughout': 'LF body',
  'a body whose lines end in LF, with a preamble': 'LF body',
  'a continuation that is no parameter is a Content-Disposition error': 'obs-fold',
  'a fold inside a quoted name is one space': 'obs-fold',
};
const knownOf = (source) => Object.entries(KNOWN).find(([k]) => source.includes(k))?.[1];

const same = async (config, body, hows, what) => {
  for (const how of hows) {
    const want = await record(busboy, config, chunked(body, how));
    const got = await record(facade, config, chunked(body, how));
    assert.deepStrictEqual(got, want, `${what} (${how})`);
  }
};

const ctOf = (boundary) =>
  `multipart/form-data; boundary=${/^[A-Za-z0-9'()+_,./:=?-]+$/.test(boundary) ? boundary : JSON.stringify(boundary)}`;

test('the multipart vectors: busboy 1.6 and reqparse/busboy give the same events, or differ as KNOWN says', async () => {
  const cases = JSON.parse(readFileSync(new URL('../../tests/vectors/multipart.json', import.meta.url), 'utf8'));
  let compared = 0;
  const differing = new Set();
  for (const c of cases) {
    const body = Buffer.from(c.input, c.input_encoding === 'latin1' ? 'latin1' : 'utf8');
    const config = { headers: { 'content-type': ctOf(c.boundary) } };
    const known = knownOf(c.source);
    for (const how of ['whole', 'every 1', 'every 7']) {
      const want = await record(busboy, config, chunked(body, how));
      const got = await record(facade, config, chunked(body, how));
      compared++;
      if (known === undefined) {
        assert.deepStrictEqual(got, want, `${c.source} (${how})`);
      } else {
        assert.notDeepStrictEqual(got, want, `${c.source} (${how}) is listed as differing (${known}): it does not any more`);
        differing.add(c.source);
      }
    }
  }
  assert.equal(compared, cases.length * 3);
  // Every KNOWN entry names a vector.
  for (const k of Object.keys(KNOWN)) assert.ok([...differing].some((s) => s.includes(k)), `KNOWN entry '${k}' names no vector`);
});

/** A form as Node's FormData serializes it (the Fetch Standard's encoding, as browsers send). */
async function formBody(entries) {
  const fd = new FormData();
  for (const [name, value] of entries) fd.append(name, value);
  const req = new Request('http://localhost/', { method: 'POST', body: fd });
  return { body: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type') };
}

const random = (n, seed) => {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
};

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

/**
 * A body past every default upload limit of the core (js/README.md, parseMultipart's `limits`),
 * none of which busboy has: 101 files, 1,025 fields, a 3,000-byte name, a 2,000-byte filename,
 * 17 fields over busboy's 1 MiB `fieldSize` (17 MiB of field data) and a 17 MiB
 * `application/octet-stream` part without a filename (a file to busboy, a field to the core).
 */
function pastCoreLimits() {
  const boundary = 'LimitsBoundary';
  const head = (disposition, type) =>
    `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type === undefined ? '' : `Content-Type: ${type}\r\n`}\r\n`;
  const parts = [];
  for (let i = 0; i < 101; i++) parts.push(head(`name="f${i}"; filename="${i}.txt"`, 'text/plain'), `file ${i}\r\n`);
  for (let i = 0; i < 1025; i++) parts.push(head(`name="k${i}"`), `${i}\r\n`);
  parts.push(head(`name="${'n'.repeat(3000)}"`), 'long name\r\n');
  parts.push(head(`name="doc"; filename="${'d'.repeat(1996)}.txt"`, 'text/plain'), 'long filename\r\n');
  const mib = Buffer.alloc((1 << 20) + 10, 'v');
  const body = [Buffer.from(parts.join(''))];
  for (let i = 0; i < 17; i++) body.push(Buffer.from(head(`name="big${i}"`)), mib, Buffer.from('\r\n'));
  body.push(Buffer.from(head('name="raw"', 'application/octet-stream')), Buffer.alloc(17 << 20, 0x5a), Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(body), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

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
