// parseFormData and readFormData in a Hono app (test/apps/hono/app.mjs, js/README.md's example)
// served by @hono/node-server over real HTTP: uploads from Node's fetch with a FormData stream to
// disk byte for byte, a small form is read whole, and limits, malformed bodies and other media
// types answer 413, 400 and 415 to the client (the request's body is let go, the socket is not).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from '@hono/node-server';
import { createApp } from './apps/hono/app.mjs';
import { bytes } from './apps/harness.mjs';

const uploads = mkdtempSync(join(tmpdir(), 'reqparse-hono-'));
let server;
let base;

before(async () => {
  await new Promise((resolve) => {
    server = serve({ fetch: createApp(uploads).fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      base = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});

after(() => {
  server.close();
  rmSync(uploads, { recursive: true, force: true });
});


async function send(path, body, headers) {
  const res = await fetch(base + path, { method: 'POST', body, headers });
  return { status: res.status, body: await res.json() };
}

test('Hono: files streamed to disk as they arrive, fields as strings', async () => {
  const fd = new FormData();
  fd.append('title', 'Été à Zürich');
  fd.append('photos', new File([bytes(3 << 20, 1)], 'plage à Nice.jpg', { type: 'image/jpeg' }));
  fd.append('photos', new File([bytes(1000, 2)], '../../etc/passwd'));
  fd.append('note', 'deux photos');
  const r = await send('/upload', fd);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepStrictEqual(r.body.fields, { title: 'Été à Zürich', note: 'deux photos' });
  assert.deepStrictEqual(
    r.body.files.map((f) => [f.field, f.filename, f.type]),
    [['photos', 'plage à Nice.jpg', 'image/jpeg'], ['photos', '../../etc/passwd', 'application/octet-stream']],
  );
  assert.deepStrictEqual(readFileSync(r.body.files[0].path), bytes(3 << 20, 1));
  assert.deepStrictEqual(readFileSync(r.body.files[1].path), bytes(1000, 2));
  // Saved under the portable name, inside the folder.
  assert.ok(r.body.files[1].path.startsWith(uploads) && !r.body.files[1].path.includes('/../'));
  assert.equal(readdirSync(uploads).length, 2);
});

test('Hono: urlencoded forms through the same handler; a small form read whole', async () => {
  const r = await send('/upload', new URLSearchParams({ q: 'café crème', n: '2' }));
  assert.deepStrictEqual(r, { status: 200, body: { fields: { q: 'café crème', n: '2' }, files: [] } });
  const fd = new FormData();
  fd.append('name', 'Zoë');
  fd.append('avatar', new File([bytes(50_000, 3)], 'zoë.png', { type: 'image/png' }));
  assert.deepStrictEqual(await send('/profile', fd), { status: 200, body: { name: 'Zoë', avatar: ['zoë.png', 'image/png', 50_000] } });
});

test('Hono: 413 for a limit (the part named), 400 for a malformed body, 415 for another media type', async () => {
  const many = new FormData();
  for (let i = 0; i < 11; i++) many.append('f', new File([`${i}`], `${i}.txt`));
  const files = await send('/upload', many);
  assert.equal(files.status, 413);
  assert.deepStrictEqual([files.body.kind, files.body.part], ['limit:max_files', 10]);
  const big = new FormData();
  big.append('name', 'x');
  big.append('avatar', new File([bytes(8 << 20, 4)], 'huge.png'));
  const body = await send('/profile', big);
  assert.equal(body.status, 413);
  assert.deepStrictEqual([body.body.kind, body.body.part], ['limit:max_body_bytes', 1]);
  const cut = await send('/upload', '--XyZ\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\nhalf', {
    'content-type': 'multipart/form-data; boundary=XyZ',
  });
  assert.deepStrictEqual([cut.status, cut.body.kind], [400, 'unexpected-end']);
  const json = await send('/upload', '{"a":1}', { 'content-type': 'application/json' });
  assert.deepStrictEqual([json.status, json.body.kind], [415, 'unsupported-media-type']);
  // The server still answers after those.
  assert.equal((await send('/upload', new URLSearchParams('a=1'))).status, 200);
});
