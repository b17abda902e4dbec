'use strict';
// An Express 5 app with multer's memory storage, as an app would write it. It is run twice by
// test/busboy-multer.test.mjs: from a temporary app whose package.json overrides busboy with
// reqparse-busboy (shims/busboy), and from here, where multer finds the real busboy in js/'s
// dev dependencies; both must answer the same. Prints the port it listens on.
const path = require('node:path');
const { createHash } = require('node:crypto');
const express = require('express');
const multer = require('multer');

const app = express();
const storage = multer.memoryStorage();
const summary = (f) => ({
  fieldname: f.fieldname,
  originalname: f.originalname,
  encoding: f.encoding,
  mimetype: f.mimetype,
  size: f.size,
  sha256: createHash('sha256').update(f.buffer).digest('hex'),
});
const files = (req) => {
  if (req.file) return summary(req.file);
  if (Array.isArray(req.files)) return req.files.map(summary);
  if (req.files) return Object.fromEntries(Object.entries(req.files).map(([k, v]) => [k, v.map(summary)]));
  return null;
};
const answer = (req, res) => res.json({ files: files(req), body: { ...req.body } });

app.get('/which', (req, res) => {
  // The busboy multer itself requires.
  const fromMulter = require.resolve('busboy', { paths: [path.dirname(require.resolve('multer'))] });
  res.json({ reqparse: require(fromMulter) === require('reqparse/busboy'), busboy: fromMulter });
});
app.post('/single', multer({ storage }).single('avatar'), answer);
app.post('/array', multer({ storage }).array('photos', 3), answer);
app.post('/fields', multer({ storage }).fields([{ name: 'cover', maxCount: 1 }, { name: 'pages', maxCount: 2 }]), answer);
app.post('/utf8', multer({ storage, defParamCharset: 'utf8' }).any(), answer);
app.post('/limits', (req, res, next) => {
  const limits = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, Number(v)]));
  multer({ storage, limits }).any()(req, res, next);
}, answer);
// For bench/e2e.mjs: `/e2e` answers fields and file sizes (SHA-256 too with `?check`) of an
// upload in memory; `/drain` reads the same body and drops it (the app's cost without a
// parser); `/cpu` the process's CPU time so far.
app.post('/e2e', multer({ storage, limits: { fieldSize: Infinity } }).any(), (req, res) =>
  res.json({
    fields: Object.entries(req.body),
    files: req.files.map((f) => [f.fieldname, f.size, req.query.check === undefined ? null : createHash('sha256').update(f.buffer).digest('hex')]),
  }),
);
app.post('/drain', (req, res) => {
  let size = 0;
  req.on('data', (d) => (size += d.length));
  req.on('end', () => res.json({ size }));
});
app.get('/cpu', (req, res) => res.json(process.cpuUsage()));
app.use((err, req, res, next) => {
  res.status(err.code ? 413 : 400).json({ code: err.code ?? null, field: err.field ?? null, message: err.message });
});

const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
