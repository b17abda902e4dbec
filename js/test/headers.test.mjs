// Header strings as Node hands them over: text strings with any char, raw header bytes (a
// Buffer or a plain Uint8Array), and what node:http's req.headers / req.rawHeaders give for a
// header sent as raw UTF-8 or ISO-8859-1 bytes.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { test } from 'node:test';
import { MAX_INPUT_LENGTH, ReqparseError, parseContentDisposition } from 'reqparse';

const PROFILES = ['strict', 'browser', 'dotnet'];
const RESUME = 'résumé 2024 – final.pdf';

test('parseContentDisposition: a text string reads every char as itself', () => {
  for (const profile of PROFILES) {
    const cd = parseContentDisposition(`form-data; name="upload"; filename="${RESUME}"`, { profile });
    assert.equal(cd.filename, RESUME, profile);
    assert.deepEqual(cd.parameters, [['name', 'upload'], ['filename', RESUME]], profile);
    // Chars U+0080-U+00FF in a string are text too, not bytes: 'Ã©' stays 'Ã©'.
    assert.equal(parseContentDisposition('attachment; filename="rÃ©sumÃ©.pdf"', { profile }).filename, 'rÃ©sumÃ©.pdf');
    // Astral chars and a value of nothing but non-ASCII.
    assert.equal(parseContentDisposition('attachment; filename="😀日本語"', { profile }).filename, '😀日本語');
  }
  // Unquoted (a token): Browser reads it as the chars it is; RFC 9110 allows no non-ASCII
  // there, so Strict and DotNet refuse it as the Rust core does, at the char's byte offset.
  assert.equal(parseContentDisposition('attachment; filename=résumé.pdf', { profile: 'browser' }).filename, 'résumé.pdf');
  for (const profile of ['strict', 'dotnet']) {
    assert.throws(
      () => parseContentDisposition('attachment; filename=résumé.pdf', { profile }),
      (e) => e instanceof ReqparseError && e.offset === 22 && e.index === 22,
    );
  }
});

test('parseContentDisposition: raw header bytes read as UTF-8 when valid, else ISO-8859-1', () => {
  const utf8 = Buffer.from(`attachment; filename="${RESUME}"`, 'utf8');
  const latin1 = Buffer.from('attachment; filename="r\xe9sum\xe9.pdf"', 'latin1');
  for (const profile of PROFILES) {
    assert.equal(parseContentDisposition(utf8, { profile }).filename, RESUME, profile);
    assert.equal(parseContentDisposition(latin1, { profile }).filename, 'résumé.pdf', profile);
    // A plain Uint8Array (not a Buffer), and a view into a larger buffer.
    assert.equal(parseContentDisposition(new Uint8Array(utf8), { profile }).filename, RESUME);
    const framed = Buffer.concat([Buffer.from('xx'), utf8, Buffer.from('yy')]);
    assert.equal(parseContentDisposition(framed.subarray(2, 2 + utf8.length), { profile }).filename, RESUME);
  }
  // The decision is per value: one UTF-8 value and one Latin-1 value in the same header.
  const mixed = Buffer.concat([
    Buffer.from('attachment; title="日本"; filename="', 'utf8'),
    Buffer.from([0xe4]),
    Buffer.from('.txt"'),
  ]);
  assert.deepEqual(parseContentDisposition(mixed).parameters, [['title', '日本'], ['filename', 'ä.txt']]);
  // ASCII bytes answer as the same string does.
  const ascii = `attachment; FileName="a b.txt"; filename*=UTF-8''%E2%82%AC.txt`;
  assert.deepEqual(parseContentDisposition(Buffer.from(ascii)), parseContentDisposition(ascii));
  // No bytes: refused as the empty string is.
  assert.throws(() => parseContentDisposition(''), ReqparseError);
  assert.throws(() => parseContentDisposition(new Uint8Array(0)), ReqparseError);
});

test('parseContentDisposition: errors on bytes carry the byte offset as both offset and index', () => {
  // An unquoted é (not allowed there in Strict) right after `filename=`, at byte 21.
  const bad = Buffer.from('attachment; filename=\xe9.pdf', 'latin1');
  assert.throws(() => parseContentDisposition(bad), (e) => e instanceof ReqparseError && e.offset === 21 && e.index === 21);
  const bad8 = Buffer.from('attachment; x="日本"; filename=\xe9.pdf', 'utf8');
  // 日本 is 6 bytes (2 code units): the index is the byte offset, not a string index.
  assert.throws(() => parseContentDisposition(bad8), (e) => e instanceof ReqparseError && e.offset === 33 && e.index === 33);
  assert.throws(
    () => parseContentDisposition(new Uint8Array(MAX_INPUT_LENGTH + 1)),
    (e) => e instanceof ReqparseError && e.offset === MAX_INPUT_LENGTH && /bytes is over the limit/.test(e.message),
  );
  for (const bad of [42, null, [104], new Uint16Array(2), new ArrayBuffer(2)]) {
    assert.throws(() => parseContentDisposition(bad), (e) => e instanceof TypeError && !(e instanceof ReqparseError));
  }
});

/**
 * Sends one request with a raw Content-Disposition header of `value` (bytes) to a node:http
 * server, and answers what `handler(req)` returned there.
 */
async function serve(value, handler) {
  let result;
  const server = createServer((req, res) => {
    try {
      result = { ok: handler(req) };
    } catch (e) {
      result = { error: e };
    }
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const socket = connect(server.address().port, '127.0.0.1');
    await once(socket, 'connect');
    socket.end(
      Buffer.concat([
        Buffer.from('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Disposition: '),
        value,
        Buffer.from('\r\n\r\n'),
      ]),
    );
    socket.resume();
    await once(socket, 'close');
  } finally {
    server.close();
  }
  if (result.error) throw result.error;
  return result.ok;
}

/** The README's two ways from a node:http request to the header's bytes. */
const fromHeaders = (req) => Buffer.from(req.headers['content-disposition'], 'latin1');
function fromRawHeaders(req) {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].toLowerCase() === 'content-disposition') return Buffer.from(raw[i + 1], 'latin1');
  }
  return undefined;
}

test('node:http: req.headers and req.rawHeaders, back to bytes, give the right filename', async () => {
  const cases = [
    [Buffer.from(`attachment; filename="${RESUME}"`, 'utf8'), RESUME],
    [Buffer.from('attachment; filename="r\xe9sum\xe9.pdf"', 'latin1'), 'résumé.pdf'],
    [Buffer.from(`attachment; filename="x.pdf"; filename*=UTF-8''%E2%82%AC.pdf`), '€.pdf'],
  ];
  for (const [value, filename] of cases) {
    const got = await serve(value, (req) => {
      // Node decodes header bytes as latin1: one char per byte, so the string is not the text.
      const header = req.headers['content-disposition'];
      assert.equal(header, value.toString('latin1'));
      return [fromHeaders(req), fromRawHeaders(req)].map((b) => parseContentDisposition(b).filename);
    });
    assert.deepEqual(got, [filename, filename]);
  }
});

/** A small seeded PRNG (mulberry32): the same inputs on every run. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('parseContentDisposition: a string and its UTF-8 bytes answer alike (seeded random headers)', () => {
  const random = rng(10);
  const pieces = ['attachment', 'inline', 'form-data', ';', ' ', '=', '"', '\\', 'filename', 'filename*', 'name',
    "UTF-8''", '%E2%82%AC', '%', 'a', 'Z', '.', 'é', '€', '日本', '😀', '\t', ',', '*0', '=?UTF-8?B?w6k=?='];
  for (let i = 0; i < 3000; i++) {
    let h = '';
    const n = 1 + Math.floor(random() * 12);
    for (let j = 0; j < n; j++) h += pieces[Math.floor(random() * pieces.length)];
    const options = { profile: PROFILES[i % 3], decode2047: random() < 0.3 };
    const answer = (input) => {
      try {
        return parseContentDisposition(input, options);
      } catch (e) {
        assert.ok(e instanceof ReqparseError, e.stack);
        return { offset: e.offset, message: e.message };
      }
    };
    assert.deepEqual(answer(Buffer.from(h, 'utf8')), answer(h), `${JSON.stringify(h)} ${JSON.stringify(options)}`);
  }
});
