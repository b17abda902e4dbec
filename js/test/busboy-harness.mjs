// What the busboy differential tests share: running one body through a busboy-shaped Writable
// (busboy 1.6 itself, or reqparse/busboy) and recording what it emits, in order.
import { createHash } from 'node:crypto';
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
