// The web-standard readers (parseFormData, readFormData, FileUpload) over Fetch API Requests
// made as a server gets them: from a real FormData (Node's `new Request(url, { method: 'POST',
// body: formData })`), from URLSearchParams, from hand-written bodies and from web streams.
// readFormData must answer what `await request.formData()` answers for the same request (names,
// values, file names, types and bytes), one byte per chunk included; a file's stream must read
// the body only as it is read; limits answer 413 naming the part, malformed bodies 400, other
// media types 415; upload handlers' answers become the form's entries.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { test } from 'node:test';
import { FileUpload, ReqparseError, parseFormData, readFormData } from 'reqparse';

const require = createRequire(import.meta.url);
const cjs = require('reqparse');

const URL_ = 'http://localhost/upload';
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

/** Every byte value, then the bytes that could begin a delimiter, then a seeded run. */
function binary(n, seed) {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) b[i] = i < 256 ? i : (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  if (n > 300) b.write('\r\n--\r\n------formdata-undici-', 256, 'latin1');
  return b;
}

/** The FormData every comparison sends: non-ASCII names and filenames, binary data, empty parts. */
function sample() {
  const fd = new FormData();
  fd.append('title', 'Vacances à l’été 🌞');
  fd.append('empty', '');
  fd.append('lines', 'one\r\ntwo\nthree\rfour');
  fd.append('naïve name', 'x');
  fd.append('photo', new File([binary(70_000, 1)], 'résumé.pdf', { type: 'Application/PDF' }));
  fd.append('photo', new File([binary(300, 2)], '写真 2.jpg', { type: 'image/jpeg' }));
  fd.append('blob', new Blob([binary(5, 3)]));
  fd.append('no-type', new File(['plain'], 'notes'));
  fd.append('nothing', new File([], 'empty.txt', { type: 'text/plain' }));
  fd.append('title', 'second value');
  return fd;
}

const post = (body, headers) => new Request(URL_, { method: 'POST', body, headers, duplex: 'half' });

/** A form's entries in order: strings as they are, files as { file, name, type, size, bytes }. */
async function entriesOf(form) {
  const out = [];
  for (const [name, value] of form) {
    if (typeof value === 'string') {
      out.push([name, value]);
    } else {
      assert.ok(value instanceof File, `${name} is a File`);
      assert.equal(typeof value.lastModified, 'number');
      out.push([name, { name: value.name, type: value.type, size: value.size, bytes: Buffer.from(await value.arrayBuffer()) }]);
    }
  }
  return out;
}

/** The request's body bytes, and its Content-Type. */
async function wire(request) {
  return { bytes: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') };
}

/** A web ReadableStream of `bytes` cut into `size`-byte chunks, pulled only when read; counts its pulls. */
function pulled(bytes, size) {
  const source = { pulls: 0, cancelled: false, at: 0 };
  source.stream = new ReadableStream(
    {
      pull(c) {
        source.pulls++;
        if (source.at >= bytes.length) return c.close();
        c.enqueue(new Uint8Array(bytes.subarray(source.at, source.at + size)));
        source.at += size;
      },
      cancel() {
        source.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return source;
}

async function* oneByteAtATime(bytes) {
  for (const b of bytes) yield Uint8Array.of(b);
}

/** Rejects with a ReqparseError: answers it after checking its status and kind. */
async function refusal(promise, status, kind) {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ReqparseError, e && e.stack);
    assert.equal(e.status, status, e.message);
    if (kind !== undefined) assert.equal(e.kind, kind, e.message);
    return e;
  }
  assert.fail(`no ${status} error`);
}

async function all(iterable) {
  const out = [];
  for await (const x of iterable) out.push(x);
  return out;
}

test('exports: both entries, one class', () => {
  assert.equal(cjs.parseFormData, parseFormData);
  assert.equal(cjs.readFormData, readFormData);
  assert.equal(cjs.FileUpload, FileUpload);
});

test('readFormData answers what request.formData() answers: a FormData with files, names and bytes as sent', async () => {
  const fd = sample();
  const want = await entriesOf(await post(fd).formData());
  const got = await entriesOf(await readFormData(post(fd)));
  assert.deepStrictEqual(got, want);
  // What the sample holds, so that the comparison compares something.
  assert.equal(got.length, 10);
  assert.deepStrictEqual(got[4][1].name, 'résumé.pdf');
  assert.equal(got[4][1].type, 'application/pdf');
  assert.equal(got[4][1].size, 70_000);
  assert.equal(got[5][1].name, '写真 2.jpg');
  assert.deepStrictEqual([got[6][1].name, got[6][1].type], ['blob', 'application/octet-stream']);
  assert.deepStrictEqual(got[0], ['title', 'Vacances à l’été 🌞']);
});

test('readFormData: the same answer from a body cut into 1-byte chunks (a Request over a stream, and { body, contentType })', async () => {
  const { bytes, contentType } = await wire(post(sample()));
  const want = await entriesOf(await post(bytes, { 'content-type': contentType }).formData());
  const overStream = await readFormData(post(pulled(bytes, 1).stream, { 'content-type': contentType }));
  assert.deepStrictEqual(await entriesOf(overStream), want);
  const overIterable = await readFormData({ body: oneByteAtATime(bytes), contentType });
  assert.deepStrictEqual(await entriesOf(overIterable), want);
});

test('readFormData: urlencoded bodies as request.formData() reads them', async () => {
  for (const body of [
    new URLSearchParams([['q', 'café crème'], ['a', '1'], ['a', '2'], ['sym', '&=+%'], ['', 'empty name']]),
    'a=%zz&b=%C3%A9+x&&c&=d&e=f=g',
  ]) {
    const headers = typeof body === 'string' ? { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' } : undefined;
    const want = await entriesOf(await post(body, headers).formData());
    assert.deepStrictEqual(await entriesOf(await readFormData(post(body, headers))), want, String(body));
    const bytes = Buffer.from(String(body));
    const oneByte = await readFormData({ body: oneByteAtATime(bytes), contentType: 'application/x-www-form-urlencoded' });
    assert.deepStrictEqual(await entriesOf(oneByte), want, `${body}, one byte at a time`);
  }
  // No body at all: an empty form, as request.formData() answers.
  const none = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.deepStrictEqual(await entriesOf(await readFormData(none)), []);
});

test('readFormData: a file\'s type as the Fetch Standard reads it (WPT formdata-parsing): the MIME type serialized, text/plain when the part has no Content-Type, empty when it is not a MIME type', async () => {
  const part = (name, type) =>
    `--XyZ\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.txt"\r\n${type === null ? '' : `Content-Type: ${type}\r\n`}\r\n${name}\r\n`;
  const parts = [
    ['none', null, 'text/plain'],
    ['upper', 'Text/HTML; Charset=UTF-8', 'text/html;charset=utf-8'],
    ['latin1', 'text/pl\u00e4in', ''],
    ['empty', '', ''],
    ['list', 'text/html, text/plain', 'text/plain'],
    ['params', 'text/html;;x="y"', 'text/html;x=y'],
  ];
  const body = Buffer.from(parts.map(([name, type]) => part(name, type)).join('') + '--XyZ--\r\n', 'latin1');
  const headers = { 'content-type': 'multipart/form-data; boundary=XyZ' };
  const types = parts.map(([, , type]) => type);
  // Node 20's request.formData() (undici) gives each entry so but for the type, which it takes
  // from the header as sent, lowercased ('text/html; charset=utf-8').
  const undici = await entriesOf(await post(body, headers).formData());
  const want = undici.map(([name, f], i) => [name, { ...f, type: types[i] }]);
  assert.deepStrictEqual(await entriesOf(await readFormData(post(body, headers))), want);
  const got = [];
  for await (const entry of parseFormData(post(body, headers))) got.push(entry.type);
  assert.deepStrictEqual(got, types);
  const uploads = [];
  await readFormData(post(body, headers), (file) => { uploads.push(file.type); });
  assert.deepStrictEqual(uploads, types);
});

test('readFormData: names with a quote, CR or LF read as the Fetch Standard and WPT read them, where Node 20\'s undici decodes %22 and %0D%0A', async () => {
  // A FormData writes `"` as %22 and CR, LF as %0D%0A in names and filenames (HTML's form
  // serialisation); WPT's html/semantics/forms/form-submission-0/multipart-formdata.window.js
  // expects them read back as written, as browsers do: so does the core's 'fetch' profile.
  const fd = new FormData();
  fd.append('a"b', 'c');
  fd.append('d\ne', new File(['x'], 'f"g\r.txt'));
  const got = await entriesOf(await readFormData(post(fd)));
  assert.deepStrictEqual(
    got.map(([name, v]) => [name, typeof v === 'string' ? v : v.name]),
    [['a%22b', 'c'], ['d%0D%0Ae', 'f%22g%0D.txt']],
  );
});

test('parseFormData: fields as strings, files as web streams, in body order, with their part index', async () => {
  const fd = sample();
  const want = await post(fd).formData();
  const seen = [];
  for await (const entry of parseFormData(post(fd))) {
    if (entry.kind === 'field') {
      assert.deepStrictEqual(Object.keys(entry).sort(), ['index', 'kind', 'name', 'value']);
      seen.push([entry.index, entry.name, entry.value]);
    } else {
      assert.ok(entry.stream instanceof ReadableStream);
      const bytes = Buffer.from(await new Response(entry.stream).arrayBuffer());
      seen.push([entry.index, entry.name, { name: entry.filename, type: entry.type, size: bytes.length, bytes }]);
      assert.equal(typeof entry.filenamePortable, 'string');
      assert.ok(entry.filenameRaw instanceof Uint8Array);
    }
  }
  assert.deepStrictEqual(seen.map(([index]) => index), [...seen.keys()]);
  assert.deepStrictEqual(seen.map(([, ...rest]) => rest), await entriesOf(want));
  // urlencoded: the same shape, the index counting pairs.
  const form = await all(parseFormData(post(new URLSearchParams('a=1&b=%C3%A9'))));
  assert.deepStrictEqual(form, [
    { kind: 'field', name: 'a', value: '1', index: 0 },
    { kind: 'field', name: 'b', value: 'é', index: 1 },
  ]);
});

test('parseFormData: a file\'s stream reads the body only as it is read (back-pressure)', async () => {
  const boundary = 'XyZ';
  const file = binary(1 << 20, 9);
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const CHUNK = 16 * 1024;
  const chunks = Math.ceil(body.length / CHUNK);
  const source = pulled(body, CHUNK);
  const entries = parseFormData(post(source.stream, { 'content-type': `multipart/form-data; boundary=${boundary}` }));
  const field = (await entries.next()).value;
  assert.deepStrictEqual(field, { kind: 'field', name: 'a', value: '1', index: 0 });
  const f = (await entries.next()).value;
  assert.equal(f.filename, 'big.bin');
  await tick();
  // One chunk so far: the field and the file's header were in it; nothing is read ahead.
  assert.equal(source.pulls, 1);
  const reader = f.stream.getReader();
  let got = 0;
  const first = await reader.read();
  got += first.value.length;
  await tick();
  assert.ok(source.pulls <= 2, `${source.pulls} pulls after one read`);
  const before = source.pulls;
  await tick();
  assert.equal(source.pulls, before, 'the source is not read while the stream is not');
  for (let i = 0; i < 10; i++) got += (await reader.read()).value.length;
  assert.ok(source.pulls <= before + 10, `${source.pulls} pulls after 11 reads`);
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    got += r.value.length;
  }
  assert.equal(got, file.length);
  assert.ok(source.pulls <= chunks + 1, `${source.pulls} pulls for ${chunks} chunks`);
  assert.deepStrictEqual(await entries.next(), { done: true, value: undefined });

  // An async iterable source, the same: a chunk is asked for only when the stream is read.
  let yielded = 0;
  async function* counted() {
    for (let at = 0; at < body.length; at += CHUNK) {
      yielded++;
      yield body.subarray(at, at + CHUNK);
    }
  }
  const it = parseFormData({ body: counted(), contentType: `multipart/form-data; boundary=${boundary}` });
  await it.next();
  const g = (await it.next()).value;
  await tick();
  assert.equal(yielded, 1);
  const r = g.stream.getReader();
  await r.read();
  await r.read();
  await tick();
  assert.ok(yielded <= 3, `${yielded} chunks for two reads`);
  await r.cancel();
  assert.deepStrictEqual(await it.next(), { done: true, value: undefined });
  assert.equal(yielded, chunks);
});

test('parseFormData: a file not read before the next entry is read past, and its stream errors; cancel() skips it quietly', async () => {
  const fd = new FormData();
  fd.append('a', new File([binary(100_000, 4)], 'a.bin'));
  fd.append('b', new File(['second'], 'b.txt'));
  fd.append('c', 'after');
  const entries = parseFormData(post(fd));
  const a = (await entries.next()).value;
  const b = (await entries.next()).value;
  await assert.rejects(new Response(a.stream).arrayBuffer(), /skipped/);
  await b.stream.cancel();
  const c = (await entries.next()).value;
  assert.deepStrictEqual(c, { kind: 'field', name: 'c', value: 'after', index: 2 });
  assert.equal((await entries.next()).done, true);
});

test('parseFormData: leaving early (break) lets the request\'s body go', async () => {
  const { bytes, contentType } = await wire(post(sample()));
  const source = pulled(bytes, 1024);
  for await (const entry of parseFormData(post(source.stream, { 'content-type': contentType }))) {
    if (entry.kind === 'file') break;
  }
  await tick();
  assert.equal(source.cancelled, true);
});

test('limits: 413 with the limit\'s option name and the part it is in', async () => {
  // readFormData reads at most 1 MiB of body unless told otherwise.
  const big = new FormData();
  big.append('note', 'hi');
  big.append('scan', new File([binary((1 << 20) + 1, 5)], 'scan.tif', { type: 'image/tiff' }));
  const e = await refusal(readFormData(post(big)), 413, 'limit:max_body_bytes');
  assert.deepStrictEqual([e.limit, e.part, e.partName], ['maxBodyBytes', 1, 'scan']);
  assert.equal(e.offset, 1 << 20);
  const raised = await readFormData(post(big), { limits: { maxBodyBytes: 2 << 20 } });
  assert.equal(raised.get('scan').size, (1 << 20) + 1);

  // A file over maxFileBytes: its stream's read rejects first, then the entries' read.
  const entries = parseFormData(post(big), { limits: { maxFileBytes: 1000 } });
  await entries.next();
  const scan = (await entries.next()).value;
  const inStream = await refusal(new Response(scan.stream).arrayBuffer(), 413, 'limit:max_file_bytes');
  assert.deepStrictEqual([inStream.limit, inStream.part, inStream.partName], ['maxFileBytes', 1, 'scan']);
  assert.equal(await refusal(entries.next(), 413), inStream);

  // Too many files: refused at the part's header (no name read for it yet).
  const many = new FormData();
  for (let i = 0; i < 3; i++) many.append(`f${i}`, new File([`${i}`], `${i}.txt`));
  const files = await refusal(readFormData(post(many), { limits: { maxFiles: 2 } }), 413, 'limit:max_files');
  assert.deepStrictEqual([files.limit, files.part, files.partName], ['maxFiles', 2, undefined]);

  // onPart's own limit, passed through.
  const avatar = await refusal(
    readFormData(post(big), { onPart: (part) => (part.name === 'scan' ? { maxBytes: 10 } : undefined) }),
    413,
    'limit:max_part_bytes',
  );
  assert.deepStrictEqual([avatar.limit, avatar.part], ['maxPartBytes', 1]);
  const skipped = await readFormData(post(big), { onPart: (part) => (part.filename !== null ? 'skip' : undefined), limits: { maxBodyBytes: 2 << 20 } });
  assert.deepStrictEqual([...skipped.keys()], ['note']);

  // urlencoded: the same option names.
  const pairs = new URLSearchParams('a=1&b=2&c=3');
  const fields = await refusal(readFormData(post(pairs), { limits: { maxFields: 2 } }), 413, 'limit:max_pairs');
  assert.equal(fields.limit, 'maxFields');
  const text = await refusal(all(parseFormData(post(pairs), { limits: { maxTextBytes: 5 } })), 413);
  assert.deepStrictEqual([text.limit, text.offset], ['maxTextBytes', 5]);
  const whole = await refusal(readFormData(post(new URLSearchParams({ a: 'x'.repeat(1 << 20) }))), 413);
  assert.equal(whole.limit, 'maxBodyBytes');
  const value = await refusal(readFormData(post(pairs), { limits: { maxValueBytes: 0 } }), 413, 'limit:max_value_bytes');
  assert.equal(value.limit, 'maxValueBytes');
});

test('malformed bodies: 400', async () => {
  const contentType = 'multipart/form-data; boundary=XyZ';
  const cut = Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhalf a fi');
  const e = await refusal(readFormData(post(cut, { 'content-type': contentType })), 400, 'unexpected-end');
  assert.deepStrictEqual([e.part, e.partName], [0, 'f']);
  const noDisposition = Buffer.from('--XyZ\r\nContent-Type: text/plain\r\n\r\nx\r\n--XyZ--\r\n');
  await refusal(all(parseFormData(post(noDisposition, { 'content-type': contentType }))), 400, 'missing-disposition');
  // A body that is no multipart body at all.
  await refusal(readFormData(post('garbage', { 'content-type': contentType })), 400);
  // A bad boundary is known before the body is read: parseFormData throws at once.
  const source = pulled(Buffer.from('x'), 1);
  assert.throws(() => parseFormData(post(source.stream, { 'content-type': 'multipart/form-data' })), (err) => err instanceof ReqparseError && err.status === 400 && err.kind === 'missing-boundary');
  assert.equal(source.pulls, 0);
  await refusal(readFormData(post('x', { 'content-type': 'multipart/form-data; boundary=' })), 400);
});

test('other media types, none, and content codings: 415, the body left unread', async () => {
  for (const [contentType, kind] of [
    ['text/plain', 'unsupported-media-type'],
    ['multipart/mixed; boundary=x', 'unsupported-media-type'],
    ['application/json', 'unsupported-media-type'],
    ['', 'unsupported-media-type'],
  ]) {
    const source = pulled(Buffer.from('a=1'), 1);
    const request = post(source.stream, { 'content-type': contentType });
    assert.throws(() => parseFormData(request), (e) => e instanceof ReqparseError && e.status === 415 && e.kind === kind, contentType);
    await refusal(readFormData(request), 415, kind);
    assert.equal(source.pulls, 0, contentType);
    assert.equal(request.bodyUsed, false);
  }
  // No Content-Type at all (a Request over bytes has none).
  const bare = new Request(URL_, { method: 'POST', body: new Uint8Array([97, 61, 49]) });
  const none = await refusal(readFormData(bare), 415, 'unsupported-media-type');
  assert.match(none.message, /no Content-Type/);
  await refusal(readFormData({ body: [], contentType: undefined }), 415);
  await refusal(readFormData({ body: [], contentType: null }), 415);
  // The media type is read case-insensitively, its parameters aside.
  const upper = await readFormData({ body: [Buffer.from('a=1')], contentType: ' Application/X-WWW-Form-URLEncoded ; charset=utf-8' });
  assert.equal(upper.get('a'), '1');
  // A content coding the server does not undo (RFC 9110 §8.4.1).
  const gzip = post('a=1', { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' });
  await refusal(readFormData(gzip), 415, 'unsupported-encoding');
  const identity = post('a=1', { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'identity' });
  assert.equal((await readFormData(identity)).get('a'), '1');
});

test('upload handlers: each file as a FileUpload; a File, Blob or string answered is kept, null and undefined drop it', async () => {
  const fd = new FormData();
  fd.append('title', 'Holiday');
  fd.append('keep', new File([binary(40_000, 6)], 'ü.bin', { type: 'Application/Octet-Stream' }));
  fd.append('blob', new File(['blob data'], 'b.txt'));
  fd.append('path', new File(['stored'], 'stored.txt', { type: 'text/plain' }));
  fd.append('drop', new File(['x'], 'drop.txt'));
  fd.append('void', new File(['y'], 'void.txt'));
  fd.append('bom', new File(['\uFEFFhé \uFFFE'], 'bom.txt'));
  fd.append('after', 'last');
  const seen = [];
  const form = await readFormData(post(fd), async (upload) => {
    assert.ok(upload instanceof FileUpload);
    seen.push([upload.fieldName, upload.name, upload.type, upload.index, upload.filenamePortable]);
    assert.equal(typeof upload.lastModified, 'number');
    switch (upload.fieldName) {
      case 'keep': {
        const bytes = await upload.bytes();
        assert.equal(bytes.byteOffset, 0);
        assert.equal(bytes.buffer.byteLength, bytes.length);
        return new File([bytes], upload.name, { type: upload.type });
      }
      case 'blob':
        return new Blob([await upload.text()]);
      case 'path':
        return `/uploads/${upload.filenamePortable} (${(await upload.arrayBuffer()).byteLength} bytes)`;
      case 'drop':
        return null;
      case 'bom':
        // Decoded as Blob.text() decodes: the leading BOM dropped.
        return upload.text();
      default:
        return undefined;
    }
  });
  assert.deepStrictEqual(seen, [
    ['keep', 'ü.bin', 'application/octet-stream', 1, 'ü.bin'],
    ['blob', 'b.txt', 'application/octet-stream', 2, 'b.txt'],
    ['path', 'stored.txt', 'text/plain', 3, 'stored.txt'],
    ['drop', 'drop.txt', 'application/octet-stream', 4, 'drop.txt'],
    ['void', 'void.txt', 'application/octet-stream', 5, 'void.txt'],
    ['bom', 'bom.txt', 'application/octet-stream', 6, 'bom.txt'],
  ]);
  const got = await entriesOf(form);
  assert.deepStrictEqual(got.map(([name]) => name), ['title', 'keep', 'blob', 'path', 'bom', 'after']);
  assert.deepStrictEqual(got[1][1].bytes, binary(40_000, 6));
  assert.deepStrictEqual([got[1][1].name, got[1][1].type], ['ü.bin', 'application/octet-stream']);
  // A Blob becomes a File named 'blob', as FormData.append makes it.
  assert.deepStrictEqual([got[2][1].name, got[2][1].bytes.toString()], ['blob', 'blob data']);
  assert.equal(got[3][1], '/uploads/stored.txt (6 bytes)');
  assert.equal(got[4][1], await new File(['\uFEFFhé \uFFFE'], 'bom.txt').text());
  assert.equal(got[4][1], 'hé \uFFFE');
  assert.equal(got[5][1], 'last');
});

test('upload handlers: the data streamed with back-pressure, read once, only until the handler settles', async () => {
  const fd = new FormData();
  fd.append('a', new File([binary(300_000, 7)], 'a.bin'));
  fd.append('b', new File([binary(100_000, 8)], 'b.bin'));
  fd.append('c', 'end');
  const { bytes, contentType } = await wire(post(fd));
  const source = pulled(bytes, 8192);
  let held;
  const form = await readFormData(post(source.stream, { 'content-type': contentType }), async (upload) => {
    if (upload.fieldName === 'a') {
      const reader = upload.stream().getReader();
      await reader.read();
      const pulls = source.pulls;
      await tick();
      assert.equal(source.pulls, pulls, 'not read ahead of the handler');
      let n = (await reader.read()).value.length;
      for (;;) {
        const r = await reader.read();
        if (r.done) break;
        n += r.value.length;
      }
      assert.ok(n > 0);
      assert.throws(() => upload.stream(), /read once/);
      await assert.rejects(upload.bytes(), /read once/);
      return 'a';
    }
    // b: read a piece, keep the stream, answer: the rest is read past and the stream errors.
    held = upload.stream().getReader();
    await held.read();
    return 'b';
  });
  assert.deepStrictEqual([...form], [['a', 'a'], ['b', 'b'], ['c', 'end']]);
  await assert.rejects(held.read(), /skipped/);
});

test('upload handlers: what one throws rejects readFormData, unwrapped, and lets the body go; bad answers are TypeErrors', async () => {
  const { bytes, contentType } = await wire(post(sample()));
  const source = pulled(bytes, 1024);
  const boom = new Error('storage is down');
  await assert.rejects(readFormData(post(source.stream, { 'content-type': contentType }), () => { throw boom; }), (e) => e === boom);
  await tick();
  assert.equal(source.cancelled, true);
  await assert.rejects(readFormData(post(sample()), () => 42), /uploadHandler must answer a File, a Blob, a string, null or undefined/);
  await assert.rejects(readFormData(post(sample()), {}, 'not a function'), /uploadHandler must be a function/);
});

test('upload handlers: parseMultipart\'s limits (128 MiB of body), not the 1 MiB readFormData keeps in memory', async () => {
  const fd = new FormData();
  fd.append('big', new File([binary(3 << 20, 10)], 'big.bin'));
  let size = 0;
  const form = await readFormData(post(fd), async (upload) => {
    for await (const piece of upload.stream()) size += piece.length;
    return upload.name;
  });
  assert.equal(size, 3 << 20);
  assert.equal(form.get('big'), 'big.bin');
  await refusal(readFormData(post(fd)), 413, 'limit:max_body_bytes');
  // With options: readFormData(request, options, uploadHandler).
  const limited = await refusal(readFormData(post(fd), { limits: { maxFileBytes: 1 << 20 } }, (u) => u.bytes().then(() => 'x')), 413);
  assert.deepStrictEqual([limited.limit, limited.part, limited.partName], ['maxFileBytes', 0, 'big']);
});

test('the route shapes README shows: a Next.js route handler and a Remix action', async () => {
  // Next.js: app/upload/route.ts
  async function POST(request) {
    const form = await readFormData(request, { limits: { maxFiles: 4 } });
    const avatar = form.get('avatar');
    return Response.json({ name: form.get('name'), size: avatar instanceof File ? avatar.size : 0 });
  }
  const fd = new FormData();
  fd.append('name', 'Zoë');
  fd.append('avatar', new File([binary(2000, 11)], 'me.png', { type: 'image/png' }));
  const res = await POST(post(fd));
  assert.deepStrictEqual(await res.json(), { name: 'Zoë', size: 2000 });

  // Remix: an action whose files go to disk (a temporary folder here), the form keeping where.
  const uploads = mkdtempSync(join(tmpdir(), 'reqparse-remix-'));
  try {
    async function uploadHandler(upload) {
      if (upload.fieldName !== 'avatar') return;
      const path = join(uploads, `${randomUUID()}-${upload.filenamePortable}`);
      await pipeline(Readable.fromWeb(upload.stream()), createWriteStream(path));
      return path;
    }
    async function action({ request }) {
      const form = await readFormData(request, { limits: { maxFileBytes: 20 << 20 } }, uploadHandler);
      return { avatar: form.get('avatar') };
    }
    const { avatar } = await action({ request: post(fd) });
    assert.ok(avatar.startsWith(uploads) && avatar.endsWith('-me.png'), avatar);
    assert.deepStrictEqual(readFileSync(avatar), binary(2000, 11));
    assert.deepStrictEqual(readdirSync(uploads), [basename(avatar)]);
  } finally {
    rmSync(uploads, { recursive: true, force: true });
  }
});

test('option and input checks: TypeErrors naming what is wrong', async () => {
  const request = () => post(new URLSearchParams('a=1'));
  assert.throws(() => parseFormData(request(), { limit: {} }), /unknown option 'limit'/);
  // Checked whatever the body's media type.
  assert.throws(() => parseFormData(request(), { limits: { maxPairs: 1 } }), /unknown limit 'maxPairs'/);
  assert.throws(() => parseFormData(request(), { limits: { maxFiles: -1 } }), /maxFiles must be a non-negative integer/);
  assert.throws(() => parseFormData(request(), { profile: 'whatwg' }), /profile must be one of/);
  assert.throws(() => parseFormData(request(), { onPart: 'skip' }), /onPart must be a function/);
  assert.throws(() => parseFormData('a=1'), /input must be a Request or \{ body, contentType \}/);
  assert.throws(() => parseFormData(Readable.from([])), /a body alone has no Content-Type/);
  assert.throws(() => parseFormData(new ReadableStream()), /a body alone has no Content-Type/);
  // Options are checked before the request: a typo fails a request of any media type alike.
  assert.throws(() => parseFormData(post('x', { 'content-type': 'text/plain' }), { limits: { maxfiles: 1 } }), /unknown limit 'maxfiles'/);
  assert.throws(() => parseFormData({ body: [], contentType: 'application/x-www-form-urlencoded', headers: {} }), /unknown input key 'headers'/);
  assert.throws(() => parseFormData({ body: [], contentType: 42 }), /contentType must be a string or a Uint8Array/);
  const used = request();
  await used.text();
  assert.throws(() => parseFormData(used), /body was read already/);
  await assert.rejects(readFormData(request(), { nope: 1 }), /unknown option 'nope'/);
  assert.throws(() => new FileUpload(), /FileUploads are made by readFormData/);
});
