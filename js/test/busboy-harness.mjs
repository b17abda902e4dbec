// What the busboy differential tests (busboy.differential.test.mjs against busboy 1.6,
// busboy-fastify.differential.test.mjs against @fastify/busboy 3.2.6) share: running one body
// through a busboy-shaped Writable (the real one, or reqparse's facade) and recording what it
// emits, in order; the shared multipart vectors through both, and the vectors on which both
// facades differ on purpose; the bodies both tests write.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setImmediate as tick } from 'node:timers/promises';

/** A file's data as recorded: short data as latin1 text, long data by size and hash. */
const dataOf = (b) => (b.length <= 64 ? b.toString('latin1') : `${b.length} bytes, sha256 ${createHash('sha256').update(b).digest('hex').slice(0, 16)}`);

/** Cuts of a body into chunks: whole, at `at`, every `n` bytes. */
export function chunked(body, how) {
  if (how === 'whole') return [body];
  if (how.startsWith('at ')) {
    const at = Math.min(Number(how.slice(3)), body.length);
    return [body.subarray(0, at), body.subarray(at)];
  }
  const n = Number(how.slice(6)); // 'every N'
  const out = [];
  for (let i = 0; i < body.length; i += n) out.push(body.subarray(i, i + n));
  return out;
}

/**
 * The events `make(config)` emits for `body` written as `chunks` (each write awaited as a
 * piped request would be, through write()'s callback): `field` and `file` with their
 * arguments, the limit events, the file stream's `limit`, `error` (its message) and the end
 * (`finish`, `close`); a file's data (latin1) and `truncated` are recorded in its `file`
 * entry when the stream ends. A throw from `make` is `['throw', message]`.
 */
export async function record(make, config, chunks, { fileEvents = 'file', args = 'busboy1', wait = 0 } = {}) {
  const events = [];
  let bb;
  try {
    bb = make(config);
  } catch (e) {
    return [['throw', e.message]];
  }
  const ended = new Promise((resolve) => {
    bb.on('close', resolve);
    bb.on('error', (e) => {
      events.push(['error', e.message]);
      // busboy 1.x closes after an error; @fastify/busboy emits `finish` after it.
      if (args === 'busboy1') resolve();
    });
    bb.on('finish', () => {
      events.push(['finish']);
      // @fastify/busboy does not close by itself (autoDestroy off).
      if (args !== 'busboy1') resolve();
    });
  });
  bb.on('field', (...a) => events.push(['field', ...a]));
  bb.on(fileEvents, (...a) => {
    const [name, stream] = a;
    const entry = ['file', name, ...a.slice(2)];
    events.push(entry);
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('limit', () => events.push(['limit', name]));
    stream.on('end', () => entry.push({ data: dataOf(Buffer.concat(chunks)), truncated: stream.truncated }));
    stream.on('error', (e) => entry.push({ error: e.message }));
  });
  for (const e of ['partsLimit', 'filesLimit', 'fieldsLimit']) bb.on(e, () => events.push([e]));
  // After an error, @fastify/busboy takes the rest of the writes (and drops them).
  const stopped = args === 'busboy1' ? ended : new Promise((resolve) => bb.once('error', resolve));
  // `wait`: how long to wait for a write's callback or the end, then record ['no end'] and
  // stop (@fastify/busboy never ends some bodies).
  let stuck = false;
  const late = (p) => {
    if (wait === 0) return p;
    let timer;
    const t = new Promise((resolve) => {
      timer = setTimeout(() => resolve((stuck = true)), wait);
    });
    return Promise.race([p, t]).finally(() => clearTimeout(timer));
  };
  for (const c of chunks) {
    if (bb.destroyed) break;
    // An error ends the stream without calling back every write.
    await late(Promise.race([new Promise((resolve) => bb.write(c, () => resolve())), stopped]));
    if (stuck) break;
  }
  if (!stuck) {
    if (!bb.destroyed) bb.end();
    await late(ended);
  }
  if (stuck) events.push(['no end']);
  // Let the last file's 'end' (and @fastify/busboy's late part errors) land.
  await tick();
  await tick();
  if (args !== 'busboy1') await new Promise((resolve) => setTimeout(resolve, 5));
  return events;
}

/**
 * Vectors on which both facades answer otherwise than busboy 1.6 and @fastify/busboy 3.2.6, by
 * the vector's source, and why (js/README.md lists the same): each differential test adds
 * those where only its peer differs, or differs in its own way.
 */
export const KNOWN_BOTH = {
  // Both busboys drop what follows a malformed delimiter line silently (they wait for the next
  // delimiter); the core refuses it: an `error` instead of lost data.
  'RFC 2046 §5.1.1: transport padding after a boundary is ignored': 'padding',
  'transport padding counts against the header limit': 'padding',
  'a boundary followed by other bytes': 'delimiter',
  'the delimiter must not occur in the data': 'delimiter',
  'LF line endings are refused': 'delimiter',
  '--boundary at the start of data is the delimiter': 'delimiter',
  'an error between parts (after a delimiter) is in no part': 'delimiter',
  // A part with no data and no empty line (RFC 2046 §5.1.1, Go and werkzeug write them): the
  // busboys read the next part's headers as this part's value.
  'two parts with neither the empty line': 'empty part',
  'a part without data right before the close delimiter': 'empty part',
  'an empty part as werkzeug writes it': 'empty part',
  'an empty file part without the empty line': 'empty part',
  // The busboys skip a part without a usable Content-Disposition silently (or report a part
  // without a name with name undefined); the core refuses it.
  'a name ending in a backslash ends at the quote': 'disposition',
  'the same header reads \\" as a quoted-pair': 'disposition',
  'a part without Content-Disposition': 'disposition',
  'a Content-Disposition without name': 'disposition',
  'the disposition type is form-data': 'disposition',
  'a malformed header block names the part whose block it is': 'disposition',
  'an unterminated quoted name': 'disposition',
  // Whitespace before a header's colon: the busboys refuse the block, the core trims it.
  'whitespace around a header name is removed': 'header whitespace',
  'no whitespace before the colon': 'header whitespace',
  // A repeated header: the busboys take the first, the core the last.
  'a repeated Content-Disposition': 'repeated header',
  'one Content-Disposition per part': 'repeated header',
  'a repeated Content-Type': 'repeated header',
  'one Content-Type per part': 'repeated header',
  // The core does not hand Content-Transfer-Encoding over: `encoding` is always '7bit'.
  'Content-Transfer-Encoding is ignored': 'transfer encoding',
  'senders must not use Content-Transfer-Encoding': 'transfer encoding',
  '8bit and binary are identity encodings': 'transfer encoding',
  // The Fetch profile's WPT cases (formdata-parsing.any.js) and the Lenient LF and obs-fold
  // readings: where the busboys drop or misread a part, or accept what the core refuses.
  'Parse transport padding after a delimiter': 'padding',
  'Parse whitespace before a header name': 'header whitespace',
  'Parse whitespace between a header name and the colon': 'header whitespace',
  'Parse duplicate Content-Type, last one wins': 'repeated header',
  'Parse failure: no Content-Disposition': 'disposition',
  // The WPT parse failures: each facade reports the core's error where its busboy answers
  // otherwise (busboy 1.6 reports the malformed block, then goes on and emits `finish`).
  'Parse failure: part without headers': 'error then finish',
  'Parse failure: header without a colon': 'error then finish',
  'Parse failure: header name that is not a token': 'error then finish',
  'Parse failure: bare LF in a name': 'error then finish',
  'Parse failure: bare CR in a name': 'error then finish',
  'Parse failure: bare LF in a filename': 'error then finish',
  'Parse failure: bare LF in a header value': 'error then finish',
  'Parse failure: empty boundary parameter': 'boundary',
  'a body whose lines end in LF (the first delimiter line decides)': 'LF body',
  'an LF body': 'LF body',
  'LF line endings throughout, consistently': 'LF body',
  'CRLF line endings throughout': 'LF body',
  'a body whose lines end in LF, with a preamble': 'LF body',
  'a continuation that is no parameter is a Content-Disposition error': 'obs-fold',
  'a fold inside a quoted name is one space': 'obs-fold',
};

/** A Content-Type for `boundary`, quoted unless it is a token of boundary chars. */
export const contentTypeOf = (boundary) =>
  `multipart/form-data; boundary=${/^[A-Za-z0-9'()+_,./:=?-]+$/.test(boundary) ? boundary : JSON.stringify(boundary)}`;

/**
 * The shared multipart vectors (../../tests/vectors/multipart.json), each written into `real`
 * and into `facade` (makers, as record() takes them) as `hows` cut it: the same events, or,
 * for a vector whose source `known` lists (by a part of it), other events, and why. Every
 * `known` entry must name a vector that differs (the list stays true). Answers how many
 * vectors there are and how many comparisons were made.
 */
export async function vectorsAgree(real, facade, known, hows, opts) {
  const cases = JSON.parse(readFileSync(new URL('../../tests/vectors/multipart.json', import.meta.url), 'utf8'));
  const knownOf = (source) => Object.entries(known).find(([k]) => source.includes(k))?.[1];
  let compared = 0;
  const differing = new Set();
  for (const c of cases) {
    const body = Buffer.from(c.input, c.input_encoding === 'latin1' ? 'latin1' : 'utf8');
    const config = { headers: { 'content-type': contentTypeOf(c.boundary) } };
    const why = knownOf(c.source);
    for (const how of hows) {
      const want = await record(real, config, chunked(body, how), opts);
      const got = await record(facade, config, chunked(body, how), opts);
      compared++;
      if (why === undefined) {
        assert.deepStrictEqual(got, want, `${c.source} (${how})`);
      } else {
        assert.notDeepStrictEqual(got, want, `${c.source} (${how}) is listed as differing (${why}): it does not any more`);
        differing.add(c.source);
      }
    }
  }
  for (const k of Object.keys(known)) assert.ok([...differing].some((s) => s.includes(k)), `KNOWN entry '${k}' names no vector`);
  return { cases: cases.length, compared };
}

/**
 * `same(config, body, hows, what, normalize)`: `body` written into `real` and into `facade`
 * as each of `hows` cuts it gives the same events (after `normalize`, when given).
 */
export const sameOf =
  (real, facade, opts) =>
  async (config, body, hows, what, normalize = (x) => x) => {
    for (const how of hows) {
      const want = await record(real, config, chunked(body, how), opts);
      const got = await record(facade, config, chunked(body, how), opts);
      assert.deepStrictEqual(normalize(got), normalize(want), `${what} (${how})`);
    }
  };

/** A form as Node's FormData serializes it (the Fetch Standard's encoding, as browsers send). */
export async function formBody(entries) {
  const fd = new FormData();
  for (const [name, value] of entries) fd.append(name, value);
  const req = new Request('http://localhost/', { method: 'POST', body: fd });
  return { body: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type') };
}

/**
 * A body past every default upload limit of the core (js/README.md, parseMultipart's `limits`),
 * none of which the busboys have: 101 files, 1,025 fields, a 3,000-byte name, a 2,000-byte
 * filename, 17 fields over busboy's 1 MiB `fieldSize` (17 MiB of field data) and a 17 MiB
 * `application/octet-stream` part without a filename (a file to the busboys, a field to the
 * core).
 */
export function pastCoreLimits() {
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
