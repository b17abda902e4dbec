// The one-line switch, proved with npm's own resolution: a temporary Express + multer app
// (test/apps/multer/server.cjs) whose package.json carries
//   "overrides": { "busboy": "<reqparse-busboy>" }
// is installed with `npm install` by test/apps/harness.mjs (reqparse and the shim packed as
// tarballs, as the registry would hand them over; express and multer from npm's cache or the
// registry), and must answer every upload as the same app answers on the real busboy 1.6 (the
// same server.cjs run from test/apps/multer/, where multer finds busboy in js/'s dev
// dependencies): multer's `single`, `array`, `fields`, its limit errors (LIMIT_FILE_SIZE,
// LIMIT_FILE_COUNT, LIMIT_PART_COUNT, LIMIT_FIELD_VALUE, LIMIT_FIELD_COUNT), a 4 MiB upload and
// a body cut short.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bytes, form, openApps, both as bothOf, which } from './apps/harness.mjs';

let apps;
before(async () => {
  apps = await openApps('multer');
});
after(() => apps.close());

/** POSTs a form (a FormData, or [contentType, raw bytes]) to both apps: both answers. */
const both = (path, body) => bothOf(apps, path, body);

test('npm resolved multer\'s busboy to reqparse-busboy in the app, to busboy 1.6 in js/', async () => {
  const [a, b] = await which(apps);
  assert.equal(a.reqparse, true, a.busboy);
  assert.equal(b.reqparse, false, b.busboy);
});

test('single, array and fields: the same files and fields', async () => {
  const r = await both(
    '/single',
    form([
      ['title', 'Holiday'],
      ['tags[]', 'a'],
      ['tags[]', 'b'],
      ['avatar', new File([bytes(50_000, 1)], 'résumé "v2".pdf', { type: 'application/pdf' })],
    ]),
  );
  assert.equal(r.status, 200);
  assert.equal(r.body.files.size, 50_000);
  assert.deepStrictEqual(r.body.body, { title: 'Holiday', tags: ['a', 'b'] });
  // multer leaves busboy's default: the filename's UTF-8 bytes read as Latin-1.
  assert.equal(r.body.files.originalname, 'rÃ©sumÃ© "v2".pdf');
  const arr = await both('/array', form([['photos', new File(['1'], 'a.jpg', { type: 'image/jpeg' })], ['photos', new File(['22'], 'b.jpg')], ['note', 'x']]));
  assert.equal(arr.body.files.length, 2);
  const f = await both('/fields', form([['cover', new File(['c'], 'c.png')], ['pages', new File(['p1'], 'p1.png')], ['pages', new File(['p2'], 'p2.png')]]));
  assert.deepStrictEqual(Object.keys(f.body.files), ['cover', 'pages']);
  const u = await both('/utf8', form([['naïve', 'ok'], ['doc', new File(['d'], 'über.txt')]]));
  assert.equal(u.body.files[0].originalname, 'über.txt');
  assert.deepStrictEqual(u.body.body, { naïve: 'ok' });
});

test('limits: the same multer errors', async () => {
  const file = (n, name = 'f.bin') => new File([bytes(n, n)], name);
  const cases = [
    ['/limits?fileSize=1000', form([['f', file(1001)]]), 'LIMIT_FILE_SIZE'],
    ['/limits?fileSize=1000', form([['f', file(1000)]]), null],
    ['/limits?files=1', form([['f', file(10)], ['g', file(10)]]), 'LIMIT_FILE_COUNT'],
    ['/limits?parts=2', form([['a', '1'], ['b', '2'], ['f', file(10)]]), 'LIMIT_PART_COUNT'],
    ['/limits?parts=3', form([['a', '1'], ['b', '2'], ['f', file(10)]]), null],
    ['/limits?fieldSize=3', form([['a', 'abcd']]), 'LIMIT_FIELD_VALUE'],
    ['/limits?fields=1', form([['a', '1'], ['b', '2']]), 'LIMIT_FIELD_COUNT'],
    ['/limits?fieldNameSize=3', form([['long', '1']]), 'LIMIT_FIELD_KEY'],
  ];
  for (const [path, fd, code] of cases) {
    const r = await both(path, fd);
    assert.equal(r.body.code ?? null, code, path);
    assert.equal(r.status, code === null ? 200 : 413, path);
  }
});

test('a 4 MiB upload, and a body cut short', async () => {
  const big = await both('/single', form([['avatar', new File([bytes(4 << 20, 7)], 'big.bin')]]));
  assert.equal(big.body.files.size, 4 << 20);
  const cut = ['multipart/form-data; boundary=XyZ', Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="avatar"; filename="a.txt"\r\n\r\nhalf a fi')];
  const r = await both('/single', cut);
  assert.equal(r.status, 400);
  assert.equal(r.body.message, 'Unexpected end of form');
});
