// The body readers (parseMultipart, parseForm, decodeChunked) against the shared vectors
// (../../tests/vectors/{multipart,form,chunked}.json, the ones the Rust tests read): the whole
// body as one chunk, split in two at every point, and one byte per chunk, each giving the same
// parts and the same error at the same offset. Then what only this face has: Node Readables and
// web ReadableStreams as sources, back-pressure from a slow consumer of a file's stream, early
// exits, bodies read at once, and option checks.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { createRequire } from 'node:module';
import { ReqparseError, decodeChunked, parseForm, parseMultipart } from 'reqparse';

const require = createRequire(import.meta.url);
const { load } = require('./vectors.cjs');

const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const limitsOf = (c) => (c.limits ? Object.fromEntries(Object.entries(c.limits).map(([k, v]) => [camel(k), v])) : undefined);
const bytesOf = (c) => Buffer.from(c.input, c.input_encoding === 'latin1' ? 'latin1' : 'utf8');
/** Every value of an async iterable (Array.fromAsync is Node 22+). */
async function all(iterable) {
  const out = [];
  for await (const x of iterable) out.push(x);
  return out;
}
const text = (chunks) => Buffer.concat(chunks).toString('utf8');

/** The chunks from an async source: each fed on its own (a sync array's small ones are gathered). */
async function* slowly(chunks) {
  for (const c of chunks) yield c;
}

/**
 * Every way the tests cut a body into chunks: whole, two pieces at every point, bytes; each
 * from an async source (one feed per chunk) and, for the whole and bytes, a sync array too.
 */
function* cuts(input) {
  yield ['whole', slowly([input])];
  yield ['whole (array)', [input]];
  for (let at = 0; at <= input.length; at++) yield [`split at ${at}`, slowly([input.subarray(0, at), input.subarray(at)])];
  const bytes = [...input].map((b) => Uint8Array.of(b));
  yield ['one byte at a time', slowly(bytes)];
  yield ['one byte at a time (array)', bytes];
}

/**
 * Runs `read` over every cut; each must give what the whole body gave, and that must match.
 * Answers what the whole body gave.
 */
async function everyCut(input, read, want, name) {
  let whole;
  for (const [how, chunks] of cuts(input)) {
    const got = await read(chunks);
    if (whole === undefined) {
      whole = got;
      assert.deepStrictEqual(got.error ?? { ok: got.ok }, want, `${name}: ${how}`);
    } else {
      assert.deepStrictEqual(got, whole, `${name}: ${how}`);
    }
  }
  return whole;
}

/**
 * `{ok: value}` or `{error: {kind, offset}}` plus the part it is in and that part's name (a
 * multipart body), its status and what came before the error. `check(e)`: more checks of the
 * error.
 */
async function outcome(run, check) {
  const seen = [];
  try {
    return { ok: await run(seen) };
  } catch (e) {
    assert.ok(e instanceof ReqparseError, e && e.stack);
    assert.ok(e.message.length > 0);
    if (e.kind.startsWith('limit:')) assert.equal(e.limit, camel(e.kind.slice(6)));
    // RFC 9110 §15.5: 413 (Content Too Large) for a limit, 400 (Bad Request) otherwise.
    assert.equal(e.status, e.kind.startsWith('limit:') ? 413 : 400, e.kind);
    check?.(e);
    return { error: { kind: e.kind, offset: e.offset }, part: e.part, partName: e.partName, status: e.status, seen };
  }
}

/**
 * The parts as the vectors write them, and with `withMimeTypes` (`mimeTypes`, when the body is
 * read to its end) each one's `mimeType`, as a vector's `mime_types` lists them. With `decisions` (a vector's: `{"<part index>": "skip" |
 * {"limit": n}}`, `{}` for none), an `onPart` applies them and notes every part, a skipped one
 * with no data (as the other faces give it: its header, then its end); an error then names
 * the part it is in by the name its header gave.
 */
async function readMultipart(chunks, options, decisions, withMimeTypes = false) {
  const names = [];
  const check = (e) => {
    if (decisions === undefined) return;
    assert.equal(e.partName, e.part === undefined ? undefined : names[e.part], `the name of part ${e.part}`);
  };
  const mimeTypes = [];
  const got = await outcome(async (seen) => {
    const onPart = (info) => {
      // Every part, in order, before its data (and after the part before it was yielded).
      assert.equal(info.index, names.length);
      assert.equal(seen.length, info.index);
      names.push(info.name);
      const d = decisions[info.index];
      if (d === 'skip') {
        seen.push({ name: info.name, filename: info.filename, content_type: info.contentType, data: '' });
        mimeTypes.push(info.mimeType);
        return 'skip';
      }
      return d === undefined ? undefined : { maxBytes: d.limit };
    };
    const parts = parseMultipart(chunks, decisions === undefined ? options : { ...options, onPart });
    for await (const part of parts) {
      assert.equal(part.index, seen.length);
      const out = { name: part.name, filename: part.filename, content_type: part.contentType };
      seen.push(out);
      mimeTypes.push(part.mimeType);
      if (part.filename === null) {
        assert.equal(typeof part.value, 'string');
        out.data = part.value;
      } else {
        assert.ok(part.filenameRaw instanceof Uint8Array);
        const data = [];
        out.data = '';
        for await (const piece of part.stream) {
          assert.ok(piece instanceof Uint8Array && piece.length > 0);
          data.push(piece);
          out.data = text(data);
        }
      }
    }
    return seen;
  }, check);
  return got.ok === undefined || !withMimeTypes ? got : { ...got, mimeTypes };
}

test('parseMultipart: tests/vectors/multipart.json, whole, split at every point and byte by byte', async (t) => {
  for (const c of load('multipart.json')) {
    for (const profile of c.profiles ?? ['fetch']) {
      const name = `${c.source} [${profile}]`;
      await t.test(name, async () => {
        const options = { boundary: c.boundary, profile, limits: limitsOf(c) };
        const want = c.expect_error ?? { ok: c.expect };
        const input = bytesOf(c);
        let sync;
        try {
          parseMultipart([], options);
        } catch (e) {
          // A bad boundary is refused at once, before any byte is read: in no part.
          sync = { kind: e.kind, offset: e.offset };
          assert.equal(e.part, undefined);
        }
        if (sync !== undefined) return assert.deepStrictEqual(sync, want);
        // Read as they come, and with an onPart that decides about each part as the vector
        // says (or reads it as the limits say): both must give the vector's answer, and the
        // same answer (an onPart makes each feed stop at a part's header).
        const runs = c.decisions === undefined ? [undefined, {}] : [c.decisions];
        let first;
        for (const decisions of runs) {
          const how = decisions === undefined ? name : `${name} (onPart)`;
          const whole = await everyCut(input, (chunks) => readMultipart(chunks, options, decisions, true), want, how);
          if (c.expect_error_part !== undefined) assert.equal(whole.part, c.expect_error_part ?? undefined, `${how}: the part`);
          if (c.mime_types !== undefined) assert.deepStrictEqual(whole.mimeTypes, c.mime_types, `${how}: the MIME types`);
          if (first === undefined) first = whole;
          else assert.deepStrictEqual(whole, first, `${how}: as without onPart`);
        }
      });
    }
  }
});

test('parseForm: tests/vectors/form.json, whole, split at every point and byte by byte', async (t) => {
  for (const c of load('form.json')) {
    await t.test(c.source, async () => {
      const options = { profile: c.profile, limits: limitsOf(c) };
      const want = c.expect_error ?? { ok: c.expect };
      const read = (chunks) =>
        outcome(async (seen) => {
          for await (const pair of parseForm(chunks, options)) seen.push(pair);
          return seen;
        });
      await everyCut(bytesOf(c), read, want, c.source);
    });
  }
});

test('decodeChunked: tests/vectors/chunked.json, whole, split at every point and byte by byte', async (t) => {
  for (const c of load('chunked.json')) {
    await t.test(c.source, async () => {
      const input = bytesOf(c);
      const options = { limits: limitsOf(c) };
      let want = c.expect_error;
      if (want === undefined) want = { ok: { consumed: input.length, ...c.expect } };
      const read = (chunks) =>
        outcome(async (seen) => {
          const body = decodeChunked(chunks, options);
          // Data may come in other pieces: what counts is the bytes, before an error too.
          const data = [];
          for await (const piece of body) {
            data.push(piece);
            seen[0] = text(data);
          }
          // What followed the body in the chunks read is handed back, to the byte (a chunk
          // after the one that ended the body is not read).
          const after = input.subarray(body.consumed);
          assert.deepStrictEqual(after.subarray(0, body.rest.length), Buffer.from(body.rest));
          return {
            data: text(data),
            trailers: body.trailers,
            consumed: body.consumed,
          };
        });
      await everyCut(input, read, want, c.source);
    });
  }
});

const BOUNDARY = 'XyZ';
const field = (name, value) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (name, filename, type = 'application/octet-stream') =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
const close = `--${BOUNDARY}--\r\n`;

/** A body with a field, a file of `size` pseudo-random bytes, and another field. */
function uploadBody(size) {
  const data = Buffer.alloc(size);
  let x = 12345;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    data[i] = x >>> 24;
  }
  const body = Buffer.concat([
    Buffer.from(field('title', 'Holiday') + fileHead('photo', 'C:\\photos\\a.jpg', 'image/jpeg')),
    data,
    Buffer.from(`\r\n${field('note', 'résumé')}${close}`),
  ]);
  return { body, data };
}

async function collect(stream) {
  const pieces = [];
  for await (const piece of stream) pieces.push(piece);
  return Buffer.concat(pieces);
}

test('parseMultipart: a Node Readable from fs.createReadStream, and Readable.from', async () => {
  const { body, data } = uploadBody(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'reqparse-'));
  try {
    const file = join(dir, 'body.bin');
    writeFileSync(file, body);
    for (const source of [
      () => createReadStream(file, { highWaterMark: 7919 }),
      () => Readable.from([body.subarray(0, 1000), body.subarray(1000)]),
    ]) {
      const parts = [];
      for await (const part of parseMultipart(source(), { contentType: `multipart/form-data; boundary=${BOUNDARY}` })) {
        parts.push(part.filename === null ? [part.name, part.value] : [part.name, part.filename, part.contentType, await collect(part.stream)]);
      }
      assert.deepStrictEqual(parts, [
        ['title', 'Holiday'],
        ['photo', 'C:\\photos\\a.jpg', 'image/jpeg', data],
        ['note', 'résumé'],
      ]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('parseMultipart, parseForm, decodeChunked: a web ReadableStream', async () => {
  const { body, data } = uploadBody(70_000);
  const stream = (bytes, size) =>
    new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.subarray(i, i + size));
        controller.close();
      },
    });
  const parts = [];
  for await (const part of parseMultipart(stream(body, 4096), { boundary: BOUNDARY })) {
    parts.push(part.filename === null ? part.value : await collect(part.stream));
  }
  assert.deepStrictEqual(parts, ['Holiday', data, 'résumé']);
  // A stream without async iteration is read through its reader.
  const readerOnly = stream(Buffer.from('a=1&b=%C3%A9'), 3);
  const plain = { getReader: () => readerOnly.getReader() };
  const pairs = [];
  for await (const pair of parseForm(plain)) pairs.push(pair);
  assert.deepStrictEqual(pairs, [['a', '1'], ['b', 'é']]);
  const chunked = decodeChunked(stream(Buffer.from('5\r\nhello\r\n0\r\nX-A: b\r\n\r\n'), 2));
  assert.equal(text(await all(chunked)), 'hello');
  assert.deepStrictEqual(chunked.trailers, [['X-A', 'b']]);
});

test('parseMultipart: a slow consumer of a file stream holds the source back', async () => {
  const chunk = 64 * 1024;
  const { body, data } = uploadBody(40 * chunk);
  let pulled = 0;
  // A source that counts what was asked of it.
  const source = {
    [Symbol.asyncIterator]() {
      let at = 0;
      return {
        async next() {
          if (at >= body.length) return { done: true, value: undefined };
          pulled += 1;
          const value = body.subarray(at, at + chunk);
          at += chunk;
          return { done: false, value };
        },
      };
    },
  };
  const parts = parseMultipart(source, { boundary: BOUNDARY });
  const title = (await parts.next()).value;
  assert.equal(title.value, 'Holiday');
  const photo = (await parts.next()).value;
  assert.equal(photo.filename, 'C:\\photos\\a.jpg');
  assert.equal(photo.filenameBasename, 'a.jpg');
  assert.equal(photo.filenamePortable, 'a.jpg');
  assert.deepStrictEqual(Buffer.from(photo.filenameRaw).toString(), 'C:\\photos\\a.jpg');
  let got = 0;
  const pieces = [];
  for await (const piece of photo.stream) {
    pieces.push(piece);
    got += piece.length;
    // The reader is at most one chunk (and the bytes it may hold back) ahead of the consumer.
    assert.ok(pulled * chunk <= got + 2 * chunk, `pulled ${pulled} chunks with ${got} bytes consumed`);
    await new Promise((r) => setImmediate(r));
  }
  assert.ok(Buffer.concat(pieces).equals(data));
  // Most pieces are views of the source's own chunks, not copies.
  assert.ok(pieces.filter((p) => p.buffer === body.buffer).length >= pieces.length - 2);
  assert.equal((await parts.next()).value.value, 'résumé');
  assert.equal((await parts.next()).done, true);
});

test('parseMultipart: asking for the next part skips the rest of an unread file', async () => {
  const { body } = uploadBody(200_000);
  const chunks = [];
  for (let i = 0; i < body.length; i += 10_000) chunks.push(body.subarray(i, i + 10_000));
  const names = [];
  for await (const part of parseMultipart(chunks, { boundary: BOUNDARY })) names.push(part.name);
  assert.deepStrictEqual(names, ['title', 'photo', 'note']);
});

test('parseMultipart: a break out of the loop lets the source go; a Node Readable stays alive', async () => {
  const { body } = uploadBody(1000);
  let released = false;
  async function* generator() {
    try {
      yield body.subarray(0, 300);
      yield body.subarray(300);
    } finally {
      released = true;
    }
  }
  for await (const part of parseMultipart(generator(), { boundary: BOUNDARY })) {
    assert.equal(part.name, 'title');
    break;
  }
  await new Promise((r) => setImmediate(r));
  assert.ok(released, "the source iterator's return() was called");
  // An http.IncomingMessage must survive, so that the server can still answer.
  const readable = Readable.from([body.subarray(0, 300), body.subarray(300)]);
  await assert.rejects(async () => {
    for await (const part of parseMultipart(readable, { boundary: BOUNDARY, limits: { maxParts: 1 } })) assert.ok(part);
  }, { kind: 'limit:max_parts' });
  await new Promise((r) => setImmediate(r));
  assert.equal(readable.destroyed, false);
});

test('parseMultipart: errors carry kind, offset, status, the limit and the part', async () => {
  const body = Buffer.from(field('a', '1') + field('b', '2') + close);
  // At the CRLF that would begin the second part.
  const second = body.indexOf(`\r\n--${BOUNDARY}\r\n`) + 4 + BOUNDARY.length;
  await assert.rejects(
    all(parseMultipart([body], { boundary: BOUNDARY, limits: { maxParts: 1 } })),
    (e) => {
      assert.ok(e instanceof ReqparseError);
      assert.equal(e.kind, 'limit:max_parts');
      assert.equal(e.limit, 'maxParts');
      assert.equal(e.status, 413);
      assert.equal(e.offset, second);
      // The part that would be one too many: its header was not read, so its name is unknown.
      assert.equal(e.part, 1);
      assert.equal(e.partName, undefined);
      assert.equal(e.message, `multipart body over max_parts at byte ${second} (part 1)`);
      return true;
    },
  );
  // In a field's data: the part and its name.
  await assert.rejects(all(parseMultipart([Buffer.from(field('a', '1') + field('note', 'too long') + close)], { boundary: BOUNDARY, limits: { maxValueBytes: 4 } })), {
    kind: 'limit:max_value_bytes',
    limit: 'maxValueBytes',
    status: 413,
    part: 1,
    partName: 'note',
  });
  // The new limits by their options: files, fields, their bytes, names and filenames.
  const upload = Buffer.from(field('title', 'Holiday') + fileHead('photo', 'a.jpg') + 'JPEG\r\n' + fileHead('scan', 'b.pdf') + 'PDF\r\n' + close);
  const limited = async (limits) => {
    try {
      await all(parseMultipart([upload], { boundary: BOUNDARY, limits }));
      return 'ok';
    } catch (e) {
      return [e.limit, e.part, e.partName, e.status];
    }
  };
  assert.deepStrictEqual(await limited({ maxFiles: 1 }), ['maxFiles', 2, undefined, 413]);
  assert.deepStrictEqual(await limited({ maxFields: 0 }), ['maxFields', 0, undefined, 413]);
  assert.deepStrictEqual(await limited({ maxFileBytes: 3 }), ['maxFileBytes', 1, 'photo', 413]);
  assert.deepStrictEqual(await limited({ maxTextBytes: 6 }), ['maxTextBytes', 0, 'title', 413]);
  assert.deepStrictEqual(await limited({ maxNameBytes: 4 }), ['maxNameBytes', 0, undefined, 413]);
  assert.deepStrictEqual(await limited({ maxFilenameBytes: 4 }), ['maxFilenameBytes', 1, undefined, 413]);
  assert.equal(await limited({ maxFiles: 2, maxFields: 1, maxFileBytes: 4, maxTextBytes: 7, maxNameBytes: 5, maxFilenameBytes: 5 }), 'ok');
  // A malformed body is a 400, in the part whose header block it is.
  await assert.rejects(all(parseMultipart([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n${close}`)], { boundary: BOUNDARY })), {
    kind: 'missing-name',
    status: 400,
    part: 0,
    partName: undefined,
  });
  // An error inside a file's data reaches the file's stream first.
  const cut = Buffer.from(fileHead('f', 'a.bin') + 'x'.repeat(100));
  const parts = parseMultipart([cut], { boundary: BOUNDARY });
  const f = (await parts.next()).value;
  await assert.rejects(collect(f.stream), { kind: 'unexpected-end', offset: cut.length, status: 400, part: 0, partName: 'f' });
  await assert.rejects(parts.next(), { kind: 'unexpected-end' });
  // Refused at once: a Content-Type that is not multipart/form-data, a bad boundary; in no part.
  assert.throws(() => parseMultipart([], { contentType: 'text/plain' }), { kind: 'not-multipart', offset: 0, status: 400, part: undefined });
  assert.throws(() => parseMultipart([], { boundary: '' }), { kind: 'invalid-boundary' });
  assert.throws(() => parseMultipart([], { boundary: 'b'.repeat(71) }), { kind: 'limit:max_boundary_bytes', status: 413 });
  // The other body readers say the status too (and have no parts).
  await assert.rejects(all(parseForm([Buffer.from('a=1&b=2')], { limits: { maxPairs: 1 } })), (e) => e.status === 413 && !('part' in e));
  await assert.rejects(all(decodeChunked([Buffer.from('5\r\nhel')])), (e) => e.status === 400 && e.kind === 'unexpected-end');
  // A request without a Content-Type: `req.headers['content-type']` is undefined.
  assert.throws(() => parseMultipart([], { contentType: undefined }), (e) => e instanceof ReqparseError && e.offset === 0);
});

test('parseMultipart: onPart decides about each part before its data: skip it, or set its limit', async () => {
  const big = pseudo(300_000);
  const body = Buffer.concat([
    Buffer.from(field('title', 'Holiday') + fileHead('junk', 'x.exe')),
    big,
    Buffer.from(`\r\n${fileHead('avatar', 'a.png', 'image/png')}`),
    big.subarray(0, 5000),
    Buffer.from(`\r\n${field('bio', 'x'.repeat(100))}${close}`),
  ]);
  const seen = [];
  const read = async (source, avatarBytes) => {
    const out = [];
    const onPart = (part) => {
      seen.push([part.index, part.name, part.filename, part.filenameBasename, part.contentType]);
      if (part.filename?.endsWith('.exe')) return 'skip';
      if (part.name === 'avatar') return { maxBytes: avatarBytes };
      // Lifts this one field's limit (maxValueBytes is 10 here).
      if (part.name === 'bio') return { maxBytes: 1000 };
      return undefined;
    };
    try {
      for await (const part of parseMultipart(source, { boundary: BOUNDARY, onPart, limits: { maxValueBytes: 10, maxFileBytes: 100_000 } })) {
        out.push([part.index, part.name, part.filename === null ? part.value : (await collect(part.stream)).length]);
      }
    } catch (e) {
      out.push([e.kind, e.offset, e.part, e.partName, e.status]);
    }
    return out;
  };
  // Whole (all through wasm), and in 64 KiB chunks (file data searched with indexOf and handed
  // to the reader uncopied: a skipped part's data is dropped there, and is no Data either).
  for (const [how, source] of [
    ['whole', () => [body]],
    ['async', () => slowly(chunked(body, 64 * 1024))],
    ['array', () => chunked(body, 64 * 1024)],
  ]) {
    seen.length = 0;
    const [parts, taken] = await uncopied(() => read(source(), 5000));
    // Most of junk's 300,000 bytes were found by indexOf, and dropped.
    if (how !== 'whole') assert.ok(taken > 200_000, `${how}: ${taken} bytes taken uncopied`);
    assert.deepStrictEqual(parts, [
      [0, 'title', 'Holiday'],
      // junk (part 1, 300,000 bytes over maxFileBytes) skipped: not yielded, not refused.
      [2, 'avatar', 5000],
      [3, 'bio', 'x'.repeat(100)],
    ]);
    assert.deepStrictEqual(seen, [
      [0, 'title', null, null, null],
      [1, 'junk', 'x.exe', 'x.exe', 'application/octet-stream'],
      [2, 'avatar', 'a.png', 'a.png', 'image/png'],
      [3, 'bio', null, null, null],
    ]);
    // One byte less for the avatar: refused at the byte past its limit, in that part.
    const at = body.indexOf('image/png\r\n\r\n') + 'image/png\r\n\r\n'.length + 4999;
    assert.deepStrictEqual(await read(source(), 4999), [[0, 'title', 'Holiday'], ['limit:max_part_bytes', at, 2, 'avatar', 413]]);
  }
  // The limit holds on the indexOf path too: a file in big chunks gets its bytes up to the
  // limit, then the error at the byte past it.
  const file = Buffer.concat([Buffer.from(fileHead('f', 'a.bin')), big, Buffer.from(`\r\n${close}`)]);
  const start = fileHead('f', 'a.bin').length;
  for (const source of [[file], slowly(chunked(file, 64 * 1024)), slowly(chunked(file, 1 << 20))]) {
    const parts = parseMultipart(source, { boundary: BOUNDARY, onPart: () => ({ maxBytes: 200_000 }) });
    const f = (await parts.next()).value;
    let got = 0;
    await assert.rejects(
      (async () => {
        for await (const piece of f.stream) got += piece.length;
      })(),
      { kind: 'limit:max_part_bytes', limit: 'maxPartBytes', offset: start + 200_000, part: 0, partName: 'f' },
    );
    assert.equal(got, 200_000);
  }
  // A limit above maxFileBytes lets a file through; Infinity lifts it.
  for (const maxBytes of [300_000, Infinity]) {
    const [f] = await all(parseMultipart(chunked(file, 64 * 1024), { boundary: BOUNDARY, limits: { maxFileBytes: 10 }, onPart: () => ({ maxBytes }) }));
    assert.equal(f.name, 'f');
  }
  // A skipped part still counts against the body's limit (its bytes were read).
  await assert.rejects(all(parseMultipart(slowly(chunked(file, 64 * 1024)), { boundary: BOUNDARY, limits: { maxBodyBytes: 100_000 }, onPart: () => 'skip' })), {
    kind: 'limit:max_body_bytes',
    offset: 100_000,
    part: 0,
    partName: 'f',
  });
});

test('parseMultipart: onPart is checked: a function, answering synchronously what it may', async () => {
  const body = Buffer.from(field('a', '1') + close);
  assert.throws(() => parseMultipart([], { boundary: 'b', onPart: 'skip' }), { name: 'TypeError', message: 'parseMultipart: onPart must be a function' });
  for (const [answer, message] of [
    ['drop', /onPart must answer undefined, 'skip' or \{ maxBytes \}/],
    [false, /onPart must answer undefined, 'skip' or \{ maxBytes \}/],
    [Promise.resolve('skip'), /synchronously/],
    [{ maxBytes: -1 }, /maxBytes must be a non-negative integer or Infinity/],
    [{ maxBytes: 1.5 }, /maxBytes must be a non-negative integer or Infinity/],
    [{ max_bytes: 1 }, /onPart: unknown option 'max_bytes'/],
  ]) {
    await assert.rejects(all(parseMultipart([body], { boundary: BOUNDARY, onPart: () => answer })), { name: 'TypeError', message }, String(answer));
  }
  // What onPart throws rejects the read, and the source is let go: a way to refuse a request
  // by what a part's header says.
  let released = false;
  async function* source() {
    try {
      yield body;
    } finally {
      released = true;
    }
  }
  const refused = new Error('no such field');
  await assert.rejects(
    all(
      parseMultipart(source(), {
        boundary: BOUNDARY,
        onPart: () => {
          throw refused;
        },
      }),
    ),
    (e) => e === refused,
  );
  await new Promise((r) => setImmediate(r));
  assert.ok(released);
  // The facades' options do not take it (they decide with busboy's own limits).
  const busboy = (await import('reqparse/busboy')).default;
  assert.ok(busboy({ headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } }));
});

test('parseMultipart: several bodies read at once do not mix', async () => {
  const bodies = [1, 2, 3].map((n) => uploadBody(n * 50_000));
  const read = async ({ body }) => {
    const chunks = [];
    for (let i = 0; i < body.length; i += 4093) chunks.push(body.subarray(i, i + 4093));
    async function* slow() {
      for (const c of chunks) {
        await new Promise((r) => setImmediate(r));
        yield c;
      }
    }
    const out = [];
    for await (const part of parseMultipart(slow(), { boundary: BOUNDARY })) {
      out.push(part.filename === null ? part.value : await collect(part.stream));
    }
    return out;
  };
  const results = await Promise.all(bodies.map(read));
  results.forEach((r, i) => assert.deepStrictEqual(r, ['Holiday', bodies[i].data, 'résumé']));
});

test('decodeChunked: the bytes after the body are handed back, the source left open', async () => {
  const readable = Readable.from([Buffer.from('3\r\nabc\r\n0\r\n\r\nGET / HTTP/1.1\r\n')]);
  const body = decodeChunked(readable);
  assert.equal(text(await all(body)), 'abc');
  assert.equal(body.consumed, 13);
  assert.equal(Buffer.from(body.rest).toString(), 'GET / HTTP/1.1\r\n');
});

test('body readers: options and sources are checked, unknown ones named', () => {
  assert.throws(() => parseMultipart([], { boundary: 'b', Profile: 'strict' }), {
    name: 'TypeError',
    message: /unknown option 'Profile'/,
  });
  assert.throws(() => parseMultipart([], { boundary: 'b', limits: { max_parts: 1 } }), {
    name: 'TypeError',
    message: /unknown limit 'max_parts'/,
  });
  assert.throws(() => parseMultipart([], { boundary: 'b', limits: { maxParts: -1 } }), /non-negative integer/);
  assert.throws(() => parseMultipart([], {}), /exactly one of boundary and contentType/);
  assert.throws(() => parseMultipart([], { boundary: 'b', contentType: 'x' }), /exactly one/);
  assert.throws(() => parseMultipart([], { boundary: 'b', profile: 'rfc' }), {
    message: "parseMultipart: profile must be one of 'fetch', 'strict', 'lenient'",
  });
  assert.throws(() => parseForm([], { decode: true }), /parseForm: unknown option 'decode'/);
  assert.throws(() => parseForm([], { profile: 'fetch' }), /profile must be one of 'whatwg'/);
  assert.throws(() => decodeChunked([], { profile: 'strict' }), /decodeChunked: unknown option 'profile'/);
  assert.throws(() => decodeChunked('5\r\nhello'), /source must be/);
  assert.throws(() => parseForm(null), /source must be/);
});

test('body readers: a chunk that is not bytes is a TypeError', async () => {
  await assert.rejects(all(parseForm(['a=1'])), { name: 'TypeError', message: /not a Uint8Array/ });
  await assert.rejects(all(parseForm(Readable.from(['a=1'], { objectMode: true }))), TypeError);
});

test('parseForm: a body larger than one feed, in one chunk', async () => {
  const n = 200_000;
  const body = Buffer.from(Array.from({ length: n }, (_, i) => `k${i}=v%20${i}`).join('&'));
  const pairs = await all(parseForm([body], { limits: { maxPairs: n } }));
  assert.equal(pairs.length, n);
  assert.deepStrictEqual(pairs[n - 1], [`k${n - 1}`, `v ${n - 1}`]);
});

/** A seeded PRNG (mulberry32): the same inputs on every run. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('parseMultipart: seeded random bodies read back what was written, whatever the chunks and profile', async () => {
  const rand = rng(20261201);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const int = (n) => Math.floor(rand() * n);
  const word = () => Array.from({ length: int(8) }, () => pick(['a', 'b', 'Z', '0', ' ', '.', 'é', '€', '😀', '-', '_'])).join('');
  for (let round = 0; round < 150; round++) {
    const boundary = `b${word().replace(/[^A-Za-z0-9]/g, 'x')}${int(1000)}`;
    const parts = Array.from({ length: int(5) }, () => {
      const kind = int(3);
      const size = pick([0, 1, 2, 5, 40, 300, 3000]);
      const data = Buffer.alloc(size);
      for (let i = 0; i < size; i++) {
        data[i] = kind === 0 ? int(256) : pick([13, 10, 45, 120, 97, 48, ...Buffer.from(boundary)]);
      }
      return { name: word(), filename: rand() < 0.5 ? `${word()}.bin` : null, data };
    });
    const body = Buffer.concat([
      ...parts.flatMap((p) => [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename === null ? '' : `; filename="${p.filename}"`}\r\n\r\n`,
        ),
        p.data,
        Buffer.from('\r\n'),
      ]),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    if (parts.some((p) => p.data.includes(`\r\n--${boundary}`) || p.data.includes(`--${boundary}`))) continue;
    const want = parts.map((p) => ({
      name: p.name,
      filename: p.filename,
      content_type: null,
      data: p.data.toString('utf8'),
    }));
    for (const profile of ['fetch', 'strict', 'lenient']) {
      // Random cuts: many small chunks, a few big ones, and the whole body.
      const sizes = [body.length, 1 + int(8), 1 + int(100), 1 + int(5000)];
      for (const size of sizes) {
        const chunks = [];
        for (let i = 0; i < body.length; ) {
          const n = Math.max(1, Math.min(size, 1 + int(size * 2)));
          chunks.push(body.subarray(i, i + n));
          i += n;
        }
        const got = await readMultipart(round % 2 ? slowly(chunks) : chunks, { boundary, profile });
        assert.deepStrictEqual(got, { ok: want }, `round ${round} [${profile}] chunks of ~${size}`);
      }
    }
  }
});

test('parseForm and decodeChunked: seeded random bodies, any chunks, the same answer as one chunk', async () => {
  const rand = rng(7);
  const int = (n) => Math.floor(rand() * n);
  const alphabet = ['a', '=', '&', '%', '4', '1', 'F', '+', 'é', '%C3', '%A9', '%zz'];
  for (let round = 0; round < 200; round++) {
    const form = Buffer.from(Array.from({ length: int(30) }, () => alphabet[int(alphabet.length)]).join(''));
    const whole = await outcome(async (seen) => {
      for await (const pair of parseForm([form])) seen.push(pair);
      return seen;
    });
    const chunks = [];
    for (let i = 0; i < form.length; ) {
      const n = 1 + int(5);
      chunks.push(form.subarray(i, i + n));
      i += n;
    }
    const split = await outcome(async (seen) => {
      for await (const pair of parseForm(round % 2 ? slowly(chunks) : chunks)) seen.push(pair);
      return seen;
    });
    assert.deepStrictEqual(split, whole, JSON.stringify(form.toString()));
    // The form body as a query: the same pairs queryPairs gives (no leading `?` rule here).
    if (!form.toString().startsWith('?')) {
      const { queryPairs } = await import('reqparse');
      assert.deepStrictEqual(whole, { ok: queryPairs(form.toString()) });
    }
    // A chunked body of random chunk sizes around the same bytes.
    const parts = [];
    for (let i = 0; i < form.length; ) {
      const n = 1 + int(7);
      const data = form.subarray(i, i + n);
      parts.push(Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n'));
      i += n;
    }
    const coded = Buffer.concat([...parts, Buffer.from('0\r\n\r\n')]);
    const pieces = [];
    for (let i = 0; i < coded.length; ) {
      const n = 1 + int(9);
      pieces.push(coded.subarray(i, i + n));
      i += n;
    }
    const decoded = [];
    for await (const d of decodeChunked(round % 2 ? slowly(pieces) : pieces)) decoded.push(d);
    assert.ok(Buffer.concat(decoded).equals(form));
  }
});

test('body readers: a source that fails rejects the read with its own error', async () => {
  const boom = new Error('socket reset');
  async function* failing() {
    yield Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nxyz');
    throw boom;
  }
  await assert.rejects(all(parseMultipart(failing(), { boundary: 'b' })), (e) => e === boom);
  function* failingSync() {
    yield Buffer.from('a=1&b');
    throw boom;
  }
  await assert.rejects(all(parseForm(failingSync())), (e) => e === boom);
});

test('parseMultipart: the four readings of a filename, as the crate gives them', async () => {
  const cases = [
    ['C:\\Users\\x\\CON.txt', 'CON.txt', '_CON.txt'],
    ['../../etc/passwd', 'passwd', 'passwd'],
    ['..', '..', '_'],
    ['résumé 2024.pdf', 'résumé 2024.pdf', 'résumé 2024.pdf'],
    ['a%22b.txt', 'a%22b.txt', 'a%22b.txt'],
  ];
  for (const [sent, basename, portable] of cases) {
    const body = Buffer.from(fileHead('f', sent) + 'x\r\n' + close);
    const [part] = await all(parseMultipart([body], { boundary: BOUNDARY }));
    assert.equal(part.filename, sent);
    assert.equal(Buffer.from(part.filenameRaw).toString(), sent);
    assert.equal(part.filenameBasename, basename, sent);
    assert.equal(part.filenamePortable, portable, sent);
    // all() went on to the end of the body: the file's data was skipped, not buffered.
    assert.equal(text(await all(part.stream)), '');
  }
});

test('parseMultipart: wasm memory growing between two reads (another call) does not disturb a body', async () => {
  const { queryPairs } = await import('reqparse');
  const { body, data } = uploadBody(100_000);
  const parts = parseMultipart(chunked(body, 8192), { boundary: BOUNDARY });
  assert.equal((await parts.next()).value.value, 'Holiday');
  const photo = (await parts.next()).value;
  const pieces = [];
  let grown = false;
  for await (const piece of photo.stream) {
    pieces.push(Buffer.from(piece));
    if (!grown) {
      // A long query makes the shared wasm memory grow, detaching every view on it.
      grown = true;
      assert.equal(queryPairs(`a=${'%41'.repeat(300_000)}`)[0][1].length, 300_000);
      const other = await all(parseForm([Buffer.from(`b=${'x'.repeat(900_000)}`)], { limits: { maxValueBytes: 1 << 20 } }));
      assert.equal(other[0][1].length, 900_000);
    }
  }
  assert.ok(Buffer.concat(pieces).equals(data));
  assert.equal((await parts.next()).value.value, 'résumé');
});

function chunked(bytes, size) {
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

test('parseMultipart: a node:http server reading what fetch() sends for a FormData, and answering 413 on a limit', async () => {
  const { createServer } = await import('node:http');
  const server = createServer(async (req, res) => {
    const limits = { maxParts: Number(req.headers['x-max-parts'] ?? 100) };
    try {
      const parts = [];
      for await (const part of parseMultipart(req, { contentType: req.headers['content-type'], limits })) {
        if (part.filename === null) parts.push([part.name, part.value]);
        else parts.push([part.name, part.filename, part.contentType, (await collect(part.stream)).toString('hex')]);
      }
      res.end(JSON.stringify(parts));
    } catch (e) {
      res.statusCode = e instanceof ReqparseError ? (e.limit ? 413 : 400) : 500;
      res.end(e.kind);
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  try {
    const file = pseudo(200_000);
    const form = () => {
      const fd = new FormData();
      fd.append('title', 'Holiday in Zürich');
      fd.append('photo', new Blob([file], { type: 'image/jpeg' }), 'résumé "2024".jpg');
      return fd;
    };
    const ok = await fetch(url, { method: 'POST', body: form() });
    assert.equal(ok.status, 200);
    assert.deepStrictEqual(await ok.json(), [
      ['title', 'Holiday in Zürich'],
      // undici writes `"` as %22, as browsers do; the Fetch profile keeps it as written.
      ['photo', 'résumé %222024%22.jpg', 'image/jpeg', Buffer.from(file).toString('hex')],
    ]);
    const limited = await fetch(url, { method: 'POST', body: form(), headers: { 'x-max-parts': '1' } });
    assert.equal(limited.status, 413);
    assert.equal(await limited.text(), 'limit:max_parts');
    const bad = await fetch(url, { method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(bad.status, 400);
  } finally {
    server.close();
  }
});

function pseudo(size) {
  const out = new Uint8Array(size);
  let x = 99;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

test('body readers compose: a multipart body inside the chunked transfer coding', async () => {
  const { body, data } = uploadBody(50_000);
  const framed = [];
  for (let i = 0; i < body.length; i += 777) {
    const piece = body.subarray(i, i + 777);
    framed.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  const wire = Buffer.concat([...framed, Buffer.from('0\r\n\r\n')]);
  const out = [];
  for await (const part of parseMultipart(decodeChunked(chunked(wire, 1000)), { boundary: BOUNDARY })) {
    out.push(part.filename === null ? part.value : await collect(part.stream));
  }
  assert.deepStrictEqual(out, ['Holiday', data, 'résumé']);
});

/**
 * Counts the bytes the reader took uncopied (RpBody.skip: the indexOf path) while `run` runs.
 * The handle's class is the one lib/body.cjs loaded (the same js/pkg module).
 */
async function uncopied(run) {
  const { RpBody } = require('../pkg/reqparse.js');
  const skip = RpBody.prototype.skip;
  let n = 0;
  RpBody.prototype.skip = function (bytes) {
    const took = skip.call(this, bytes);
    if (took) n += bytes;
    return took;
  };
  try {
    return [await run(), n];
  } finally {
    RpBody.prototype.skip = skip;
  }
}

test('parseMultipart: file data searched with native indexOf (no copy) reads the same as through wasm', async () => {
  const rand = rng(424242);
  const int = (n) => Math.floor(rand() * n);
  const boundary = '----WebKitFormBoundary7MA4YWxkTrZu0gW';
  const d = `\r\n--${boundary}`;
  // Bytes taken uncopied from the async sources and from the arrays (not the same bytes: from
  // an array, the few bytes held back at a chunk's end are gathered with the next chunks and
  // read through wasm).
  const uncopiedBytes = [0, 0];
  for (let round = 0; round < 60; round++) {
    // Data dense in delimiter prefixes and near misses, some cut just before the last byte.
    const pieces = [];
    let size = 0;
    const want = 10_000 + int(90_000);
    while (size < want) {
      const k = int(4);
      const p = k === 0 ? d.slice(0, 1 + int(d.length - 1)) : k === 1 ? `${d.slice(0, -1)}x` : k === 2 ? '-\r\n' : 'abc'.repeat(1 + int(300));
      pieces.push(p);
      size += p.length;
    }
    const data = Buffer.from(pieces.join(''));
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(field('x', 'y').replaceAll(BOUNDARY, boundary) + head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const limits = round % 3 === 0 ? { maxBodyBytes: 2000 + int(body.length) } : undefined;
    const cuts = [];
    for (let i = 0; i < body.length; ) {
      const n = 4096 + int(20_000);
      cuts.push(body.subarray(i, i + n));
      i += n;
    }
    // From an async source (each chunk awaited) and from an array: both take the indexOf path.
    const [fast, taken] = await uncopied(() => readMultipart(slowly(cuts), { boundary, limits }));
    const [fromArray, takenFromArray] = await uncopied(() => readMultipart(cuts, { boundary, limits }));
    const whole = await readMultipart([body], { boundary, limits });
    assert.deepStrictEqual(fast, whole, `round ${round}`);
    assert.deepStrictEqual(fromArray, whole, `round ${round} (array)`);
    uncopiedBytes[0] += taken;
    uncopiedBytes[1] += takenFromArray;
    if (limits === undefined) assert.equal(fast.ok[1].data, data.toString());
  }
  assert.ok(uncopiedBytes[0] > 100_000 && uncopiedBytes[1] > 100_000, `taken uncopied: ${uncopiedBytes}`);
});

test('parseMultipart: seeded malformed bodies give the same parts and error on every path (views, gathered, skipped, byte by byte)', async () => {
  const rand = rng(1312);
  const int = (n) => Math.floor(rand() * n);
  const boundary = 'q1w2e3';
  for (let round = 0; round < 120; round++) {
    const parts = [];
    for (let i = int(4); i >= 0; i--) {
      const file = rand() < 0.5;
      const data = Buffer.from(Array.from({ length: int(file ? 9000 : 60) }, () => '\r\n-q1w2e3xé'[int(11)]).join(''));
      parts.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="n${i}"${file ? `; filename="f${i}.bin"` : ''}\r\n\r\n`),
        data,
        Buffer.from('\r\n'),
      );
    }
    const body = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
    // A few bytes changed to what matters to the grammar.
    for (let k = int(3); k > 0; k--) body[int(body.length)] = Buffer.from('\r\n-" :\\;')[int(8)];
    const profile = ['fetch', 'strict', 'lenient'][round % 3];
    const limits = round % 4 === 0 ? { maxBodyBytes: int(body.length + 10), maxValueBytes: 30 } : undefined;
    const options = { boundary, profile, limits };
    const cut = (size) => {
      const out = [];
      for (let i = 0; i < body.length; i += size) out.push(body.subarray(i, i + size));
      return out;
    };
    const whole = await readMultipart([body], options);
    for (const [how, source] of [
      ['async 4096+', slowly(cut(4096 + int(3000)))],
      ['async small', slowly(cut(1 + int(40)))],
      ['gathered', cut(1 + int(40))],
      ['bytes', slowly(cut(1))],
    ]) {
      assert.deepStrictEqual(await readMultipart(source, options), whole, `round ${round} [${profile}] ${how}`);
    }
  }
});
