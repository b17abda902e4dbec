// reqparse/busboy and reqparse/fastify-busboy as streams: back-pressure as busboy's (a file
// stream that is not read holds the writer back), no hang and no `close` alone on any input,
// a file stream destroyed by its consumer, bodies read at once, both module systems.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { test } from 'node:test';
import busboyEsm from 'reqparse/busboy';
import FastifyBusboyEsm from 'reqparse/fastify-busboy';

const require = createRequire(import.meta.url);
const facade = require('reqparse/busboy');
const FastifyFacade = require('reqparse/fastify-busboy');
const busboy = require('busboy');

const CT = 'multipart/form-data; boundary=XyZ';
const part = (headers, data) => Buffer.concat([Buffer.from(`--XyZ\r\n${headers}\r\n\r\n`), Buffer.from(data), Buffer.from('\r\n')]);
const body = (...parts) => Buffer.concat([...parts, Buffer.from('--XyZ--\r\n')]);
const fileHeaders = (name) => `Content-Disposition: form-data; name="${name}"; filename="${name}.bin"`;

test('one module for require and import; the ESM default is the CommonJS export', () => {
  assert.equal(busboyEsm, facade);
  assert.equal(FastifyBusboyEsm, FastifyFacade);
  assert.equal(typeof facade, 'function');
  assert.equal(FastifyFacade.Busboy, FastifyFacade);
});

/** How many of `chunks`' write callbacks come while nobody reads the file's stream. */
async function writtenUnread(impl, chunks) {
  const bb = impl({ headers: { 'content-type': CT } });
  let stream;
  bb.on('file', (name, s) => {
    stream = s;
  });
  let called = 0;
  for (const c of chunks) bb.write(c, () => called++);
  bb.end();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = called;
  // Now read it: everything goes through, and the body closes.
  const closed = new Promise((resolve) => bb.on('close', resolve));
  let size = 0;
  for await (const c of stream) size += c.length;
  await closed;
  return { before, after: called, size };
}

test('back-pressure: a file stream that is not read holds the writer back, as busboy does', async () => {
  const data = Buffer.alloc(1 << 20, 0x61);
  const whole = body(part(fileHeaders('f'), data));
  const chunks = [];
  for (let i = 0; i < whole.length; i += 65536) chunks.push(whole.subarray(i, i + 65536));
  const real = await writtenUnread(busboy, chunks);
  const ours = await writtenUnread(facade, chunks);
  // busboy takes the file stream's highWaterMark (16 KiB) and the chunk it is in; the
  // facade the same, and the one chunk its reader holds: a few chunks of the 17, not all.
  assert.ok(real.before < 4, `busboy: ${real.before}`);
  assert.ok(ours.before < 5, `reqparse/busboy: ${ours.before}`);
  assert.deepStrictEqual([ours.after, ours.size], [chunks.length, data.length]);
  assert.deepStrictEqual([real.after, real.size], [chunks.length, data.length]);
});

test('a file stream destroyed by its consumer: the rest of the body is read, and it ends', async () => {
  for (const impl of [facade, (c) => new FastifyFacade(c)]) {
    const bb = impl({ headers: { 'content-type': CT } });
    const seen = [];
    bb.on('file', (name, s) => {
      seen.push(name);
      if (name === 'a') s.destroy();
      else s.resume();
    });
    bb.on('field', (name) => seen.push(name));
    const done = new Promise((resolve, reject) => {
      bb.on('finish', resolve);
      bb.on('error', reject);
    });
    bb.end(body(part(fileHeaders('a'), Buffer.alloc(200_000)), part('Content-Disposition: form-data; name="x"', 'v'), part(fileHeaders('b'), 'b')));
    await done;
    assert.deepStrictEqual(seen, ['a', 'x', 'b']);
  }
});

/** What a Writable ends with for `chunks`, within 2 s: 'finish' (then 'close'), or the error. */
function ending(impl, chunks) {
  return new Promise((resolve) => {
    const events = [];
    let bb;
    try {
      bb = impl({ headers: { 'content-type': CT } });
    } catch (e) {
      return resolve(['throw']);
    }
    const timer = setTimeout(() => resolve([...events, 'hang']), 2000);
    // A file cut short errs on its stream too (busboy destroys it with the body's error).
    bb.on('file', (n, s) => s.on('error', () => {}).resume());
    bb.on('error', () => events.push('error'));
    bb.on('finish', () => events.push('finish'));
    bb.on('close', () => {
      clearTimeout(timer);
      resolve([...events, 'close']);
    });
    Readable.from(chunks).pipe(bb);
  });
}

test('any input ends: finish then close, or error then close; never a hang or a close alone', async () => {
  const good = body(part('Content-Disposition: form-data; name="a"', '1'), part(fileHeaders('f'), Buffer.alloc(5000, 0x2d)));
  let x = 12345;
  const rand = () => (x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const bodies = [];
  for (let i = 0; i < 150; i++) {
    const b = Buffer.from(good);
    // Flip a few bytes, often in the delimiters and headers.
    for (let k = 0; k < 1 + rand() * 3; k++) {
      const at = rand() < 0.6 ? Math.floor(rand() * 120) : Math.floor(rand() * b.length);
      b[at] = [0x0d, 0x0a, 0x2d, 0x22, 0x3b, 0x20, Math.floor(rand() * 256)][Math.floor(rand() * 7)];
    }
    bodies.push(rand() < 0.3 ? b.subarray(0, Math.floor(rand() * b.length)) : b);
  }
  for (const b of bodies) {
    const chunks = [];
    for (let i = 0; i < b.length; i += 97) chunks.push(b.subarray(i, i + 97));
    const end = await ending(facade, chunks);
    assert.ok(
      JSON.stringify(end) === '["finish","close"]' || JSON.stringify(end) === '["error","close"]',
      `${JSON.stringify(end)} for ${JSON.stringify(b.toString('latin1').slice(0, 160))}`,
    );
  }
});

test('many bodies at once, through pipeline()', async () => {
  const one = async (i) => {
    const data = Buffer.alloc(30_000 + i, i);
    const bb = facade({ headers: { 'content-type': CT } });
    let got;
    bb.on('file', (name, s) => {
      got = (async () => {
        const parts = [];
        for await (const c of s) parts.push(c);
        return Buffer.concat(parts);
      })();
    });
    const src = body(part(fileHeaders(`f${i}`), data));
    const chunks = [];
    for (let k = 0; k < src.length; k += 1000 + i) chunks.push(src.subarray(k, k + 1000 + i));
    await pipeline(Readable.from(chunks), bb);
    assert.ok((await got).equals(data));
  };
  await Promise.all(Array.from({ length: 20 }, (_, i) => one(i)));
});
