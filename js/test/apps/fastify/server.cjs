'use strict';
// A Fastify 5 app reading uploads with @fastify/multipart, as an app would write it. It is run
// twice by test/busboy-fastify-app.test.mjs: from a temporary app whose package.json overrides
// @fastify/busboy with reqparse-fastify-busboy (shims/fastify-busboy), and from here, where
// @fastify/multipart finds the real @fastify/busboy 3.2.6 in js/'s dev dependencies; both must
// answer the same. Prints the port it listens on.
//
// Three scopes, as @fastify/multipart's options are the plugin's: streams (`req.file()`,
// `req.files()`, `req.parts()`, `req.saveRequestFiles()`), `attachFieldsToBody: true` (under
// /attach) and `attachFieldsToBody: 'keyValues'` (under /kv). Limits come in the query string
// (`?fileSize=1000&files=2`), passed per request as @fastify/multipart takes them.
const path = require('node:path');
const { createHash } = require('node:crypto');
const { readFile } = require('node:fs/promises');
const fastify = require('fastify');
const multipart = require('@fastify/multipart');

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');
const limitsOf = (query) => Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Number(v)]));
/** What a part says about itself (no streams, no buffers). */
const describe = (part) =>
  part.type === 'file'
    ? { type: 'file', fieldname: part.fieldname, filename: part.filename, encoding: part.encoding, mimetype: part.mimetype }
    : {
        type: 'field',
        fieldname: part.fieldname,
        value: part.value,
        fieldnameTruncated: part.fieldnameTruncated,
        valueTruncated: part.valueTruncated,
        encoding: part.encoding,
        mimetype: part.mimetype,
      };
/** The fields @fastify/multipart gathered (`part.fields`, `req.body`): name → what each part was. */
const fieldsOf = (fields) =>
  Object.fromEntries(
    Object.entries(fields ?? {}).map(([name, v]) => [name, (Array.isArray(v) ? v : [v]).map((p) => (p.type === 'file' ? { file: p.filename } : p.value))]),
  );

const app = fastify();

app.get('/which', async () => {
  // The @fastify/busboy @fastify/multipart itself requires.
  const fromMultipart = require.resolve('@fastify/busboy', { paths: [path.dirname(require.resolve('@fastify/multipart'))] });
  let facade = null;
  try {
    facade = require('reqparse/fastify-busboy');
  } catch {}
  return { reqparse: require(fromMultipart) === facade, busboy: fromMultipart };
});

app.register(async (scope) => {
  await scope.register(multipart);

  scope.post('/file', async (req) => {
    const data = await req.file({ limits: limitsOf(req.query) });
    if (data === undefined) return { file: null };
    const buf = await data.toBuffer();
    return { file: { ...describe(data), size: buf.length, sha256: sha256(buf), truncated: data.file.truncated }, fields: fieldsOf(data.fields) };
  });

  scope.post('/files', async (req) => {
    const out = [];
    for await (const file of req.files({ limits: limitsOf(req.query) })) {
      const buf = await file.toBuffer();
      out.push({ ...describe(file), size: buf.length, sha256: sha256(buf) });
    }
    return out;
  });

  scope.post('/parts', async (req) => {
    const out = [];
    for await (const part of req.parts({ limits: limitsOf(req.query) })) {
      if (part.type === 'file') {
        const buf = await part.toBuffer();
        out.push({ ...describe(part), size: buf.length, sha256: sha256(buf) });
      } else {
        out.push(describe(part));
      }
    }
    return out;
  });

  scope.post('/save', async (req) => {
    const { files, values } = await req.saveRequestFiles({ limits: limitsOf(req.query) });
    const saved = [];
    for (const f of files) {
      const buf = await readFile(f.filepath);
      saved.push({ ...describe(f), size: buf.length, sha256: sha256(buf), tmp: path.dirname(f.filepath) === require('node:os').tmpdir() });
    }
    return { files: saved, values: fieldsOf(values) };
  });
});

app.register(
  async (scope) => {
    await scope.register(multipart, { attachFieldsToBody: true });
    const body = async (req) => {
      const out = {};
      for (const [name, v] of Object.entries(req.body ?? {})) {
        const all = [];
        for (const p of Array.isArray(v) ? v : [v]) {
          if (p.type === 'file') {
            const buf = await p.toBuffer();
            all.push({ ...describe(p), size: buf.length, sha256: sha256(buf) });
          } else {
            all.push(describe(p));
          }
        }
        out[name] = all;
      }
      return out;
    };
    scope.post('/', body);
    scope.post('/limited', { config: { multipartOptions: { limits: { fileSize: 1000, files: 2 } } } }, body);
  },
  { prefix: '/attach' },
);

app.register(
  async (scope) => {
    await scope.register(multipart, { attachFieldsToBody: 'keyValues' });
    scope.post('/', async (req) =>
      Object.fromEntries(
        Object.entries(req.body ?? {}).map(([k, v]) => [k, (Array.isArray(v) ? v : [v]).map((x) => (Buffer.isBuffer(x) ? { sha256: sha256(x), size: x.length } : x))]),
      ),
    );
  },
  { prefix: '/kv' },
);

// For bench/e2e.mjs. `/e2e`: every part read, the files into memory (as multer's memory
// storage), answered as fields and file sizes (SHA-256 too with `?check`); the same body read
// and dropped by `/drain`, in a scope without the multipart plugin (the app's cost without a
// parser); the process's CPU time so far at `/cpu`.
app.register(async (scope) => {
  await scope.register(multipart);
  scope.post('/e2e', async (req) => {
    const fields = [];
    const files = [];
    for await (const part of req.parts({ limits: { fileSize: Infinity, fieldSize: Infinity } })) {
      if (part.type === 'file') {
        const buf = await part.toBuffer();
        files.push([part.fieldname, buf.length, req.query.check === undefined ? null : sha256(buf)]);
      } else {
        fields.push([part.fieldname, part.value]);
      }
    }
    return { fields, files };
  });
});
app.register(async (scope) => {
  scope.addContentTypeParser('*', (req, payload, done) => {
    let size = 0;
    payload.on('data', (d) => (size += d.length));
    payload.on('end', () => done(null, size));
    payload.on('error', done);
  });
  scope.post('/drain', async (req) => ({ size: req.body }));
});
app.get('/cpu', async () => process.cpuUsage());

app.setErrorHandler((err, req, reply) => {
  reply.code(err.statusCode ?? 500).send({ code: err.code ?? null, message: err.message });
});

app.listen({ port: 0, host: '127.0.0.1' }).then(() => process.stdout.write(`${app.server.address().port}\n`));
