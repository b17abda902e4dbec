'use strict';
// Request bodies read as they arrive: parseMultipart, parseForm and decodeChunked over a Node
// Readable, a web ReadableStream or any (async) iterable of Uint8Array chunks. The wasm handle
// (`RpBody`, src/faces/js/body.rs) is fed each chunk, copied once into its input buffer, and
// answers the events it found as offsets into what was fed: part data is a view of the caller's
// chunk (no copy), except the few bytes the reader had held back from the chunk before (what may
// begin a delimiter), which are copied out of wasm memory. The next chunk is pulled
// only when every event of the current one has been taken, so a slow consumer of a file's
// stream holds the source back: at most one chunk is read ahead.

const { wasm, fromLayout, ReqparseError, profileOf, expectOptions } = require('./wire.cjs');
// Form bodies take the query profiles: they are decoded as queries are.
const { QUERY_PROFILES } = require('./query.cjs');

const memory = wasm.rp_memory();
const SPAN_TEXT = fromLayout('body', 'spanText');
const NULL = fromLayout('body', 'null');
const MAX_FEED = fromLayout('body', 'maxFeed');
const FEED_MORE = fromLayout('body', 'more');
const FEED_ERROR = fromLayout('body', 'error');
// A multipart handle made to wait at each part stopped after a part's header (see resume()).
const FEED_PART = fromLayout('body', 'part');
const EV_DATA = fromLayout('body', 'events', 'data');
const EV_PART = fromLayout('body', 'events', 'part');
const EV_PART_END = fromLayout('body', 'events', 'partEnd');
const EV_END = fromLayout('body', 'events', 'end');
const EV_PAIR = fromLayout('body', 'events', 'pair');
const EV_TRAILER = fromLayout('body', 'events', 'trailer');
const EV_ERROR = fromLayout('body', 'events', 'error');
const B_EVENTS = fromLayout('body', 'header', 'events');
const B_EVENTS_LEN = fromLayout('body', 'header', 'eventsLen');
const B_TEXT = fromLayout('body', 'header', 'text');
const B_BUF = fromLayout('body', 'header', 'buf');
const B_SKIP = fromLayout('body', 'header', 'skip');
const B_LEN = fromLayout('body', 'header', 'len');
const B_CAP = fromLayout('body', 'header', 'cap');
const MULTIPART_PROFILES = Object.fromEntries(fromLayout('body', 'multipartProfiles').map((n, i) => [n, i]));
/** How many words follow the tag of an event (by its layout name). */
const words = (event) => fromLayout('body', 'words', event);
// Words after each event's tag.
const WORDS = {
  [EV_DATA]: words('data'),
  [EV_PART]: words('part'),
  [EV_PART_END]: words('partEnd'),
  [EV_END]: words('end'),
  [EV_PAIR]: words('pair'),
  [EV_TRAILER]: words('trailer'),
  [EV_ERROR]: words('error'),
};
/**
 * Where a field of an event starts, in words from the event's tag. A span takes two words
 * (start, end) and so does a 64-bit count (low, high); a data event's start and end one each.
 */
const field = (event, name) => fromLayout('body', 'fields', event, name);
const DATA_START = field('data', 'start');
const DATA_END = field('data', 'end');
const PART_NAME = field('part', 'name');
const PART_FILENAME = field('part', 'filename');
const PART_FILENAME_RAW = field('part', 'filenameRaw');
const PART_CONTENT_TYPE = field('part', 'contentType');
const PART_MIME_TYPE = field('part', 'mimeType');
const PART_BASENAME = field('part', 'filenameBasename');
const PART_PORTABLE = field('part', 'filenamePortable');
const END_CONSUMED = field('end', 'consumed');
const PAIR_NAME = field('pair', 'name');
const PAIR_VALUE = field('pair', 'value');
const TRAILER_NAME = field('trailer', 'name');
const TRAILER_VALUE = field('trailer', 'value');
const ERROR_MESSAGE = field('error', 'message');
const ERROR_KIND = field('error', 'kind');
const ERROR_OFFSET = field('error', 'offset');
const ERROR_PART = field('error', 'part');
const ERROR_STATUS = field('error', 'status');

/** `max_parts` → `maxParts`: JS spells the core's limit names in camelCase. */
const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
/** The limits of one reader: JS names in wire order. */
const limitNames = (key) => fromLayout('body', key).map(camel);
const CHUNKED_LIMITS = limitNames('chunkedLimits');
const FORM_LIMITS = limitNames('formLimits');
const MULTIPART_LIMITS = limitNames('multipartLimits');
/**
 * Where the limits that bound a part's data (MultipartReader::data_budget: the body's, the
 * part's, the fields' text) are in MULTIPART_LIMITS: with all of them lifted, the reader takes
 * any data it is in (Feed.h).
 */
const DATA_LIMITS = ['maxBodyBytes', 'maxValueBytes', 'maxFileBytes', 'maxTextBytes'].map((name) => {
  const i = MULTIPART_LIMITS.indexOf(name);
  if (i < 0) throw new Error(`reqparse: the wasm's multipart limits have no ${name}`);
  return i;
});

let mem8;
let mem32;
let memBuf;
function views() {
  mem8 = new Uint8Array(memory.buffer);
  mem32 = new Uint32Array(memory.buffer);
  memBuf = Buffer.from(memory.buffer);
}
views();
// Views detach when wasm memory grows (a detached view has length 0).
const fresh = () => {
  if (mem8.length === 0) views();
};

// ---- options --------------------------------------------------------------------------------

function checkKeys(o, allowed, what) {
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${what}: unknown option '${key}' (known: ${allowed.join(', ')})`);
    }
  }
}

/**
 * limitsOf()'s answers for frozen limits objects (they cannot change): the busboy facades read
 * every body with the same FACADE_LIMITS, whose entries were looked up per body.
 */
const frozenLimits = new WeakMap();

/** The limits object as the wire's Float64Array: NaN for a limit left at its default. */
function limitsOf(limits, names, what) {
  if (limits !== null && typeof limits === 'object' && Object.isFrozen(limits)) {
    let out = frozenLimits.get(limits);
    if (out === undefined || out.names !== names) {
      out = { names, array: limitsOf({ ...limits }, names, what) };
      frozenLimits.set(limits, out);
    }
    return out.array;
  }
  const out = new Float64Array(names.length).fill(NaN);
  if (limits === undefined) return out;
  if (limits === null || typeof limits !== 'object') throw new TypeError(`${what}: limits must be an object`);
  for (const [key, value] of Object.entries(limits)) {
    const i = names.indexOf(key);
    if (i < 0) throw new TypeError(`${what}: unknown limit '${key}' (known: ${names.join(', ')})`);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value >= 0) || !(Number.isInteger(value) || value === Infinity)) {
      throw new TypeError(`${what}: limit ${key} must be a non-negative integer or Infinity`);
    }
    out[i] = value;
  }
  return out;
}

/**
 * A boundary or Content-Type value as bytes: a Uint8Array as it is; a string of chars up to
 * U+00FF one byte per char (Node's `req.headers` hands header bytes over that way), any other
 * string as UTF-8.
 */
function headerBytes(value, what) {
  if (value instanceof Uint8Array) return value;
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string or a Uint8Array`);
  // eslint-disable-next-line no-control-regex
  return Buffer.from(value, /^[\u0000-\u00ff]*$/.test(value) ? 'latin1' : 'utf8');
}

/** A boundary as bytes: a Uint8Array as it is, a string as UTF-8. */
function textBytes(value, what) {
  if (value instanceof Uint8Array) return value;
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string or a Uint8Array`);
  return Buffer.from(value, 'utf8');
}

// ---- sources --------------------------------------------------------------------------------

/**
 * How to get an iterator over the chunks of `source`, checked now; the iterator itself is
 * made only when the body is read (a Readable's starts reading).
 */
function chunksOf(source, what) {
  if (source !== null && typeof source === 'object') {
    // A Node Readable is left alive when the body is left early or fails: destroying an
    // http.IncomingMessage would take its socket, and with it the 400 or 413 the server is
    // about to send. What to do with the unread rest (drain it, destroy it) is the caller's.
    if (typeof source.iterator === 'function' && typeof source.pipe === 'function') {
      return () => source.iterator({ destroyOnReturn: false });
    }
    if (typeof source[Symbol.asyncIterator] === 'function') return () => source[Symbol.asyncIterator]();
    if (typeof source.getReader === 'function') return () => readerIterator(source.getReader());
    if (typeof source[Symbol.iterator] === 'function') {
      const iterate = () => source[Symbol.iterator]();
      iterate.sync = true;
      return iterate;
    }
  }
  throw new TypeError(`${what}: source must be a Node Readable, a web ReadableStream or an (async) iterable of Uint8Array`);
}

/** A web ReadableStream without async iteration, through its reader. */
function readerIterator(reader) {
  return {
    next: () => reader.read(),
    async return() {
      await reader.cancel();
      return { done: true, value: undefined };
    },
  };
}

const EMPTY = new Uint8Array(0);
// Buffer's native searches, on any Uint8Array.
const indexOf = Buffer.prototype.indexOf;
const lastIndexOf = Buffer.prototype.lastIndexOf;

/**
 * How many bytes at the end of `chunk` may begin delimiter `d` (which starts with its only
 * CR, so only the last CR can begin such a suffix): the core's partial_delimiter.
 */
function heldBack(chunk, d) {
  const from = chunk.length - (d.length - 1);
  const cr = lastIndexOf.call(chunk, 13);
  if (cr < 0 || cr < from) return 0;
  for (let i = cr + 1; i < chunk.length; i++) if (chunk[i] !== d[i - cr]) return 0;
  return chunk.length - cr;
}
/** Chunks of a sync source under SMALL bytes are fed GATHER bytes at a time. */
const SMALL = 4096;
/**
 * A chunk of a file's data from SKIP_MIN bytes on is searched by the native indexOf (see
 * skipped()) rather than copied into wasm: on a file written in 1 KiB chunks into
 * reqparse/busboy, 18,300 → 13,500 instructions a chunk under callgrind (with SMALL here: busboy
 * 1.6 takes 10,200).
 */
const SKIP_MIN = 256;
/**
 * In a part the busboy facades read as a file (MultipartEvents.fileData()), a chunk of any size
 * takes that path: a file's small chunks are seldom near a delimiter, and each is then one wasm
 * call, no copy, and the chunk handed out as it is. 20 fields + a 64 KiB file in 16 B chunks
 * into reqparse/busboy: 30.3M → 28.2M instructions a body under callgrind (busboy 1.6: 21.7M).
 * Fields keep SKIP_MIN: half of a short value's small chunks hold its delimiter, and then cost
 * two calls (100 fields in 16 B chunks: 4.3M → 4.5M with 1).
 */
const FILE_SKIP_MIN = 1;
/** Pieces up to SCAN_MAX bytes are scanned for a CR in JS before any native search (skipped()). */
const SCAN_MAX = 64;

/**
 * Whether a piece of at most SCAN_MAX bytes holds no CR: then it holds neither a delimiter nor
 * a prefix of one the reader would hold back (each begins with its CR), so all of it is data.
 * A short loop costs less than the native searches' calls on pieces this small.
 */
function crFree(piece) {
  if (piece.length > SCAN_MAX) return false;
  for (let i = 0; i < piece.length; i++) if (piece[i] === 13) return false;
  return true;
}
const GATHER = 64 * 1024;
const DONE = Object.freeze({ done: true, value: undefined });

function checkChunk(chunk) {
  if (chunk instanceof Uint8Array) return chunk;
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  throw new TypeError(
    `reqparse: the source gave a ${chunk === null ? 'null' : typeof chunk} chunk, not a Uint8Array (a Readable with an encoding set?)`,
  );
}

// ---- the feed: one wasm handle, one source, the events of the chunk being read -----------

class Feed {
  /** `iterate`: makes the source's iterator (see chunksOf), at the first read. */
  constructor(handle, iterate) {
    // Reached through `h` (below), which tells the handle of skips owed first.
    this.handle = handle;
    this.header = handle.header() >>> 2;
    this.iterate = iterate;
    this.it = null;
    // A sync iterable: its small chunks are gathered into one feed (see gather()).
    this.sync = iterate.sync === true;
    // In a file part's data (set by the parts iterator), the reader holding nothing back
    // (from the handle's header), the delimiter: see skipped().
    this.fast = false;
    // The smallest chunk skipped() takes (FILE_SKIP_MIN in a facade's file part).
    this.skipMin = SKIP_MIN;
    this.skippable = false;
    this.delimiter = null;
    // A data piece that did not go through wasm (skipped()): the next event, when set.
    this.direct = null;
    // The current part is skipped (onPart): what skipped() takes is dropped, not handed out.
    this.discard = false;
    // Data bytes taken by MultipartEvents.fileChunk and not yet told to the handle (settle()):
    // only when no limit can refuse them (`deferSkips`, set by multipartReader).
    this.owed = 0;
    this.deferSkips = false;
    // A multipart body: parts whose header was read, the last one's name (for errors).
    this.multipart = false;
    this.parts = 0;
    this.partName = undefined;
    this.chunk = EMPTY;
    // Bytes of a chunk over MAX_FEED not fed yet.
    this.pending = null;
    this.chunkAt = 0;
    // The chunk's ArrayBuffer and where its byte 0 is there, less chunkAt: read once a feed
    // (each `.buffer` is a call into V8's runtime).
    this.chunkBuf = null;
    this.chunkOff = 0;
    this.buf = 0;
    this.text = 0;
    this.ev = 0;
    this.evEnd = 0;
    this.status = FEED_MORE;
    this.eof = false;
    this.error = null;
    this.closed = false;
  }

  /**
   * The wasm handle, for any call: data bytes MultipartEvents.fileChunk took and did not yet
   * tell it of (`owed`) are told first (settle()), so that no call reads its position before
   * them. Only settle() and close() use `handle` itself.
   */
  get h() {
    if (this.owed !== 0) this.settle();
    return this.handle;
  }

  /** Whether an event is ready; else the next chunk must be fed (`fill`). */
  has() {
    return this.direct !== null || this.ev < this.evEnd;
  }

  /**
   * Feeds chunks until an event is ready: true then, false when none will come, or a
   * Promise of either when the source has to be awaited (a sync iterable never is); WAIT
   * when the source's `next()` answered WAIT (nothing is at hand: ask again once it is).
   */
  fill() {
    while (!this.has()) {
      if (this.status === FEED_PART && !this.closed) {
        this.resume();
        continue;
      }
      if (this.status !== FEED_MORE || this.closed) return false;
      let chunk = this.pending;
      this.pending = null;
      if (chunk === null) {
        this.it ??= this.iterate();
        const r = this.it.next();
        // A source driven by its writer (the busboy facades' Inbox) has no chunk at hand.
        if (r === WAIT) return WAIT;
        if (r !== null && typeof r === 'object' && typeof r.then === 'function') {
          // The awaited chunk goes round this loop as the rest of a chunk does: through
          // skipped() too, when the reader is in a part's data.
          return r.then((r) => (this.closed ? false : ((this.pending = this.chunkOf(r)), this.fill())));
        }
        chunk = this.chunkOf(r);
      }
      if (this.fast && this.skippable && chunk.length >= this.skipMin && this.skipped(chunk)) continue;
      if (this.sync && chunk.length < SMALL && !this.eof) this.gather(chunk);
      else this.take(chunk);
    }
    return true;
  }

  /**
   * A file's data without copying it into wasm: when the reader is in the data and holds
   * nothing back, the native (Boyer-Moore-Horspool) `indexOf` looks for the delimiter in
   * `chunk`; the bytes before it, or before a prefix of it at the end, are handed to the
   * reader uncopied (RpBody.skip) and out as one piece (dropped, for a part skipped:
   * `discard`); the rest is fed as usual. The reader refuses bytes over a limit (the body's,
   * the part's): those are fed, and it fails at the byte the limit says.
   */
  skipped(chunk) {
    const d = (this.delimiter ??= Buffer.from(this.h.delimiter()));
    let safe = chunk.length;
    // Most small pieces of a file hold no CR (1 in 16 pieces of 16 random bytes has one).
    if (!crFree(chunk)) {
      const at = indexOf.call(chunk, d);
      safe = at >= 0 ? at : chunk.length - heldBack(chunk, d);
    }
    if (safe === 0 || !this.h.skip(safe)) return false;
    // A chunk that is all data is handed out as it is (no view made).
    if (!this.discard) this.direct = safe === chunk.length ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, safe);
    if (safe < chunk.length) this.pending = chunk.subarray(safe);
    return true;
  }

  /**
   * Reads on after FEED_PART (the reader stopped after a part's header, for `onPart` to decide
   * about the part): over the bytes already fed, whose chunk the events still point into.
   */
  resume() {
    this.status = this.h.resume();
    fresh();
    this.events();
  }

  /**
   * A part's header event at word `w` was read: counted, its name kept for an error in that
   * part (`partName`). Answers the name.
   */
  partRead(w) {
    const name = this.str(w + PART_NAME);
    this.parts++;
    this.partName = name;
    return name;
  }

  /**
   * Applies `onPart`'s answer about the part whose header was just read (the handle stopped
   * there: FEED_PART): undefined reads it as the limits say, `'skip'` skips its data (true
   * answered), `{ maxBytes }` sets its limit.
   */
  decide(decision) {
    if (decision === undefined) return false;
    if (decision === 'skip') {
      this.h.skip_part();
      this.discard = true;
      return true;
    }
    if (decision !== null && typeof decision === 'object' && typeof decision.then !== 'function') {
      checkKeys(decision, ['maxBytes'], 'parseMultipart: onPart');
      const n = decision.maxBytes;
      if (typeof n !== 'number' || !(n >= 0) || !(Number.isInteger(n) || n === Infinity)) {
        throw new TypeError('parseMultipart: onPart: maxBytes must be a non-negative integer or Infinity');
      }
      this.h.limit_part(n);
      return false;
    }
    throw new TypeError(
      "parseMultipart: onPart must answer undefined, 'skip' or { maxBytes }, synchronously (not a Promise)",
    );
  }

  /**
   * Feeds `first` and the small chunks a sync source gives after it together, up to GATHER
   * bytes: one wasm call, not one per chunk (an array of tiny Buffers costs no more than
   * one Buffer). The source is in memory already, so nothing is read ahead of a consumer
   * that was not there; their data is copied out (no single JS chunk holds it).
   */
  gather(first) {
    const h = this.h;
    const at = h.reserve(GATHER);
    if (at === 0) throw new Error('reqparse: wasm input buffer unavailable');
    fresh();
    mem8.set(first, at);
    let n = first.length;
    while (!this.eof) {
      const c = this.chunkOf(this.it.next());
      if (n + c.length > GATHER) {
        this.pending = c;
        break;
      }
      mem8.set(c, at + n);
      n += c.length;
    }
    this.status = h.feed(n, this.eof && this.pending === null);
    fresh();
    this.read(null, at);
  }

  /** An iterator result as the chunk to feed (empty at the end of the source). */
  chunkOf(r) {
    if (r.done) {
      this.eof = true;
      return EMPTY;
    }
    return checkChunk(r.value);
  }

  /** Feeds `chunk` (an iterator result when it comes from a promise), MAX_FEED at most. */
  take(chunk) {
    if (!(chunk instanceof Uint8Array)) chunk = this.chunkOf(chunk);
    if (chunk.length > MAX_FEED) {
      this.pending = chunk.subarray(MAX_FEED);
      chunk = chunk.subarray(0, MAX_FEED);
    }
    this.feed(chunk, this.eof && this.pending === null);
  }

  feed(chunk, eof) {
    const h = this.h;
    const header = this.header;
    fresh();
    // A chunk that fits after what was fed is written there: one wasm call (feed), not two
    // (reserve, which moves the tail to the front, only when it does not fit).
    const len = mem32[header + B_LEN];
    let at;
    if (chunk.length <= mem32[header + B_CAP] - len) {
      at = mem32[header + B_BUF] + len;
    } else {
      at = h.reserve(chunk.length);
      if (at === 0) throw new Error('reqparse: wasm input buffer unavailable');
      fresh();
    }
    mem8.set(chunk, at);
    this.status = h.feed(chunk.length, eof);
    fresh();
    this.read(chunk, at);
  }

  /**
   * Tells the handle the data bytes MultipartEvents.fileChunk took (RpBody.skip), before any
   * other call (`h`): one call for a run of small pieces, not one a piece. No limit bounds
   * them (`deferSkips`), so the handle takes them as it would have one by one.
   */
  settle() {
    const n = this.owed;
    this.owed = 0;
    if (!this.handle.skip(n)) throw new Error('reqparse: the body reader refused data no limit bounds');
  }

  /** Takes the events of the last feed (or of `error()`) of `chunk`, written at `at`. */
  read(chunk, at) {
    this.events();
    this.chunk = chunk;
    this.chunkAt = at - this.buf;
    if (chunk !== null) {
      this.chunkBuf = chunk.buffer;
      this.chunkOff = chunk.byteOffset - this.chunkAt;
    }
  }

  /** Takes the events of the last call from the handle's header. */
  events() {
    const header = this.header;
    this.buf = mem32[header + B_BUF];
    this.text = mem32[header + B_TEXT];
    this.ev = mem32[header + B_EVENTS] >>> 2;
    this.evEnd = this.ev + mem32[header + B_EVENTS_LEN];
    this.skippable = mem32[header + B_SKIP] === 1;
  }

  tag() {
    return this.direct !== null ? EV_DATA : mem32[this.ev];
  }

  /** The current event's tag; an error event is thrown instead. */
  checked() {
    const tag = this.tag();
    if (tag === EV_ERROR) throw this.fail();
    return tag;
  }

  /** The current data event as an iterator result, and past it. */
  dataResult() {
    const value = this.data();
    this.skip();
    return { done: false, value };
  }

  /** Moves past the current event. */
  skip() {
    if (this.direct !== null) this.direct = null;
    else this.ev += 1 + WORDS[mem32[this.ev]];
  }

  /** The string whose span is at word `w` (null for a null span). */
  str(w) {
    return this.span(w, (s, e) => memBuf.utf8Slice(s, e));
  }

  /** The bytes whose span is at word `w` (a copy), or null. */
  bytes(w) {
    return this.span(w, (s, e) => mem8.slice(s, e));
  }

  /** `read(start, end)` of the memory the span at word `w` covers, or null. */
  span(w, read) {
    const start = mem32[w];
    if (start === NULL) return null;
    // Only a start carries the tag.
    const end = mem32[w + 1];
    if (start < SPAN_TEXT) return read(this.buf + start, this.buf + end);
    return read(this.text + start - SPAN_TEXT, this.text + end);
  }

  /** The current data event's bytes: the caller's chunk, sliced, or a copy of the tail. */
  data() {
    if (this.direct !== null) return this.direct;
    const s = mem32[this.ev + DATA_START];
    const e = mem32[this.ev + DATA_END];
    const at = this.chunkAt;
    const c = this.chunk;
    if (s < at || c === null) return mem8.slice(this.buf + s, this.buf + e);
    // A plain view (a Buffer's subarray would build a Buffer, at several times the cost).
    return new Uint8Array(this.chunkBuf, this.chunkOff + s, e - s);
  }

  /**
   * The current error event as a ReqparseError (kept: every later read throws it too): `kind`,
   * `offset`, `status`, `limit` for a limit; for a multipart body, `part` (the index of the
   * part it is in, or undefined) and `partName` (that part's name, when its header was read).
   */
  fail() {
    const w = this.ev;
    const kind = this.str(w + ERROR_KIND);
    const offset = mem32[w + ERROR_OFFSET] + mem32[w + ERROR_OFFSET + 1] * 2 ** 32;
    // The index plus one, 0 for none.
    const n = mem32[w + ERROR_PART] + mem32[w + ERROR_PART + 1] * 2 ** 32;
    const part = n === 0 ? undefined : n - 1;
    let message = this.str(w + ERROR_MESSAGE);
    // As the crate's reqparse::stream::Error says it.
    if (part !== undefined) message += ` (part ${part})`;
    const e = new ReqparseError(message, offset);
    e.kind = kind;
    e.status = mem32[w + ERROR_STATUS];
    if (kind.startsWith('limit:')) e.limit = camel(kind.slice(6));
    if (this.multipart) {
      e.part = part;
      e.partName = part !== undefined && part === this.parts - 1 ? this.partName : undefined;
    }
    this.error = e;
    this.close();
    return e;
  }

  /** The bytes fed after the end (chunked) and those of the chunk not fed yet. */
  rest() {
    const fed = this.h.rest();
    return this.pending === null ? fed : Buffer.concat([fed, this.pending]);
  }

  /** Frees the handle; `release`: lets the source go too (an early exit or an error). */
  close(release = true) {
    if (this.closed) return;
    this.closed = true;
    // Skips still owed are dropped with the handle.
    this.owed = 0;
    this.ev = this.evEnd = 0;
    this.direct = null;
    this.handle.free();
    if (release && this.it !== null && typeof this.it.return === 'function') {
      // A source that fails to close must not hide the reason the body was left.
      Promise.resolve()
        .then(() => this.it.return())
        .catch(() => {});
    }
  }
}

/** Serialises the async steps of one body (a part stream and the parts iterator). */
class Serial {
  constructor() {
    this.tail = null;
  }

  run(step) {
    const p = this.tail === null ? step() : this.tail.then(step, step);
    this.tail = p;
    const clear = () => {
      if (this.tail === p) this.tail = null;
    };
    p.then(clear, clear);
    return p;
  }
}

// Every body iterator has a sync `step()`: it takes the events of the current feed up to
// its next result, or answers undefined when it needs the next chunk. `next()` answers at
// once when the events at hand make a result (most calls), and pulls the source otherwise.

/**
 * `it.next()`: answered at once from the events at hand and what a sync source gives;
 * through `pump` when the source has to be awaited.
 */
function nextOf(it) {
  const feed = it.feed;
  if (feed.error !== null) return Promise.reject(feed.error);
  if (it.serial.tail !== null) return it.serial.run(() => pump(it));
  try {
    for (;;) {
      // Any wasm call since the events were written (another body's feed, a queryPairs)
      // may have grown memory.
      fresh();
      const r = it.step();
      if (r !== undefined) return Promise.resolve(r);
      const more = feed.fill();
      if (more === false) return feed.error !== null ? Promise.reject(feed.error) : Promise.resolve(DONE);
      if (more !== true) {
        const fail = (e) => {
          feed.close();
          throw e;
        };
        return it.serial.run(() => more.then(() => pump(it), fail));
      }
    }
  } catch (e) {
    feed.close();
    return Promise.reject(e);
  }
}

async function pump(it) {
  const feed = it.feed;
  try {
    for (;;) {
      if (feed.error !== null) throw feed.error;
      fresh();
      const r = it.step();
      if (r !== undefined) return r;
      if (!(await feed.fill())) {
        if (feed.error !== null) throw feed.error;
        // Left early (return()), or the end was taken already: nothing more comes.
        return DONE;
      }
    }
  } catch (e) {
    feed.close();
    throw e;
  }
}

/** What every body iterator shares: its feed, `next()` through nextOf, `return()`. */
class BodyIterator {
  constructor(feed) {
    this.feed = feed;
    this.serial = new Serial();
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  next() {
    return nextOf(this);
  }

  /** Stops reading the body (a `break` out of `for await`): lets the source go. */
  async return() {
    this.feed.close();
    return DONE;
  }
}

// ---- multipart/form-data --------------------------------------------------------------------

/** A file part's data: an async iterable of Uint8Array, read once. */
class PartStream {
  constructor(parts) {
    this.feed = parts.feed;
    this.serial = parts.serial;
    this.done = false;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /** The next piece of the file's data. */
  next() {
    return this.done ? Promise.resolve(DONE) : nextOf(this);
  }

  step() {
    const feed = this.feed;
    if (this.done) return DONE;
    while (feed.has()) {
      const tag = feed.checked();
      if (tag === EV_DATA) return feed.dataResult();
      feed.skip();
      if (tag === EV_PART_END) {
        feed.fast = false;
        this.done = true;
        return DONE;
      }
    }
    return undefined;
  }

  /** Stops reading: the rest of the file's data is skipped (read and dropped). */
  async return() {
    await this.skip();
    return DONE;
  }

  /** Reads and drops the rest of the data (what asking for the next part does). */
  async skip() {
    while (!(await this.next()).done);
  }
}

/** The parts of a multipart/form-data body (see parseMultipart). */
class MultipartParts extends BodyIterator {
  constructor(feed, onPart) {
    super(feed);
    /** The file part whose stream is being read. */
    this.current = null;
    /** The field whose data is being read: `{index, name, contentType, mimeType, pieces, text}`. */
    this.field = null;
    /** The caller's decision about each part once its header is read (the option), or null. */
    this.onPart = onPart;
    /** The part being read is skipped: no data comes, and it is not yielded. */
    this.skipping = false;
  }

  next() {
    const current = this.current;
    if (current !== null) {
      this.current = null;
      if (!current.done) return current.skip().then(() => this.next());
    }
    return nextOf(this);
  }

  step() {
    const feed = this.feed;
    while (feed.has()) {
      const tag = feed.checked();
      const w = feed.ev;
      const f = this.field;
      feed.skip();
      if (f !== null) {
        if (tag === EV_DATA) {
          const s = feed.buf + mem32[w + DATA_START];
          const e = feed.buf + mem32[w + DATA_END];
          // The common case, a value whole in one feed: decoded straight from wasm memory;
          // else its pieces are copied out before the next feed overwrites them.
          if (f.pieces === null && f.text === null && feed.has() && feed.tag() === EV_PART_END) {
            f.text = memBuf.utf8Slice(s, e);
          } else {
            (f.pieces ??= []).push(mem8.slice(s, e));
          }
        } else if (tag === EV_PART_END) {
          this.field = null;
          const value = f.pieces !== null ? Buffer.concat(f.pieces).utf8Slice() : (f.text ?? '');
          return { done: false, value: { index: f.index, name: f.name, filename: null, contentType: f.contentType, mimeType: f.mimeType, value } };
        }
      } else if (this.skipping) {
        // A skipped part: its end, or an error (thrown by checked()); no data comes.
        if (tag === EV_PART_END) {
          this.skipping = false;
          feed.fast = false;
          feed.discard = false;
        }
      } else if (tag === EV_PART) {
        const index = feed.parts;
        const name = feed.partRead(w);
        const filename = feed.str(w + PART_FILENAME);
        const contentType = feed.str(w + PART_CONTENT_TYPE);
        const mimeType = feed.str(w + PART_MIME_TYPE);
        if (this.onPart !== null) {
          // What onPart decides by: the file's filename readings too (read now, before the
          // handle reads on and its text buffer is reused); a file is then yielded as this
          // object, its stream added.
          const info = {
            index,
            name,
            filename,
            filenameRaw: filename === null ? null : feed.bytes(w + PART_FILENAME_RAW),
            filenameBasename: filename === null ? null : feed.str(w + PART_BASENAME),
            filenamePortable: filename === null ? null : feed.str(w + PART_PORTABLE),
            contentType,
            mimeType,
          };
          if (feed.decide(this.onPart(info))) {
            // Its data is consumed, not copied (the indexOf path drops what it finds).
            this.skipping = true;
            feed.fast = true;
            continue;
          }
          if (filename !== null) {
            feed.fast = true;
            info.stream = this.current = new PartStream(this);
            return { done: false, value: info };
          }
        }
        if (filename === null) {
          this.field = { index, name, contentType, mimeType, pieces: null, text: null };
        } else {
          feed.fast = true;
          const stream = new PartStream(this);
          this.current = stream;
          const value = {
            index,
            name,
            filename,
            filenameRaw: feed.bytes(w + PART_FILENAME_RAW),
            filenameBasename: feed.str(w + PART_BASENAME),
            filenamePortable: feed.str(w + PART_PORTABLE),
            contentType,
            mimeType,
            stream,
          };
          return { done: false, value };
        }
      } else if (tag === EV_END) {
        feed.close(false);
        return DONE;
      }
    }
    return undefined;
  }

  async return() {
    this.current = null;
    return super.return();
  }
}

/** The end of a part's data, as `MultipartEvents` yields it. */
const PART_END = Object.freeze({ partEnd: true });

/**
 * What a source driven by its writer answers from `next()` when it has no chunk at hand, in
 * place of a Promise: MultipartEvents.nextSync() then answers WAIT too, and is asked again
 * once a chunk is written.
 */
const WAIT = Object.freeze({ wait: true });

/**
 * The reader's events as they come, for the busboy facades (lib/busboy*.cjs), which decide
 * themselves what a part is (file or field), how its value is decoded and where limits cut
 * it: a part's header `{ name, filename, filenameRaw, contentType }` (as parseMultipart reads
 * them; `filenameRaw` a copy), each piece of its data as a `Uint8Array` (a view of the
 * source's chunk, or a copy of held-back bytes, as a file's stream gives), then `PART_END`.
 * Internal: not exported by index.cjs.
 */
class MultipartEvents extends BodyIterator {
  /**
   * The next event without a Promise, for the facades, which read the events within the
   * Writable's `write()` as busboy parses within it: the event itself (a part's header, a
   * `Uint8Array`, PART_END; not wrapped in an iterator result, which would be one more object
   * per event), DONE at the end, or WAIT when the source (an Inbox) has no chunk at hand; an
   * error is thrown. Each `await` of next() cost a Promise and a turn of the microtask queue
   * per event: three per field.
   */
  nextSync() {
    const feed = this.feed;
    if (feed.error !== null) throw feed.error;
    try {
      for (;;) {
        // Any wasm call since the events were written may have grown memory.
        fresh();
        const v = this.event();
        if (v !== undefined) return v;
        const more = feed.fill();
        if (more === WAIT) return WAIT;
        if (more === false) {
          if (feed.error !== null) throw feed.error;
          return DONE;
        }
        if (more !== true) throw new Error('reqparse: nextSync() over a source that must be awaited');
      }
    } catch (e) {
      feed.close();
      throw e;
    }
  }

  /** The current part is read as a file: its data skips wasm in chunks of any size (FILE_SKIP_MIN). */
  fileData() {
    this.feed.skipMin = FILE_SKIP_MIN;
  }

  /**
   * A small chunk written in a file's data, taken whole without going through the source and
   * the events: when the reader has no event at hand nor bytes pending, is in a file part's
   * data (fileData()) holding nothing back, and the chunk holds no CR (so neither a delimiter
   * nor the start of one: each begins with its CR), the reader takes it uncopied
   * (RpBody.skip) and it is answered, the data to hand out as it is. Else undefined, and
   * nothing changed: the chunk is read as any other. With `deferSkips` the handle is told of a
   * run of such pieces at once (Feed.h, settle()). A file written in 16-byte pieces then costs a short
   * loop a piece, not an iterator result, two native searches, a wasm call and the event loop
   * of nextSync(): 20 fields + a 64 KiB file in 16 B writes, 19.4M → 14.9M instructions a
   * body under callgrind (busboy 1.6: 14.8M).
   */
  fileChunk(chunk) {
    const feed = this.feed;
    const n = chunk.length;
    if (n === 0 || feed.skipMin !== FILE_SKIP_MIN || !feed.fast || !feed.skippable) return undefined;
    if (feed.closed || feed.discard || feed.status !== FEED_MORE || feed.pending !== null || feed.has()) return undefined;
    if (!crFree(chunk)) return undefined;
    if (feed.deferSkips) {
      feed.owed += n;
      return chunk;
    }
    return feed.h.skip(n) ? chunk : undefined;
  }

  /** next()'s step (BodyIterator): the next event as an iterator result. */
  step() {
    const v = this.event();
    return v === undefined || v === DONE ? v : { done: false, value: v };
  }

  /** The next event of the feed at hand (DONE at the end), or undefined when it has none. */
  event() {
    const feed = this.feed;
    while (feed.has()) {
      const tag = feed.checked();
      if (tag === EV_DATA) {
        const data = feed.data();
        feed.skip();
        return data;
      }
      const w = feed.ev;
      feed.skip();
      if (tag === EV_PART) {
        // Any part's data may skip the copy into wasm (Feed.skipped): the facades take every
        // part's data as bytes.
        feed.fast = true;
        feed.skipMin = SKIP_MIN;
        return {
          name: feed.partRead(w),
          // The name as written (its span in the input, not in the text buffer of what the
          // core decoded: src/faces/js/body.rs): its bytes are its UTF-8.
          nameAsWritten: mem32[w + PART_NAME] < SPAN_TEXT,
          filename: feed.str(w + PART_FILENAME),
          filenameRaw: feed.bytes(w + PART_FILENAME_RAW),
          contentType: feed.str(w + PART_CONTENT_TYPE),
        };
      }
      if (tag === EV_PART_END) {
        feed.fast = false;
        return PART_END;
      }
      if (tag === EV_END) {
        feed.close(false);
        return DONE;
      }
    }
    return undefined;
  }
}

const MULTIPART_OPTIONS = ['boundary', 'contentType', 'profile', 'limits', 'onPart'];

/**
 * The parts of a multipart/form-data body, as they arrive.
 * @param {any} source a Node Readable, a web ReadableStream or an (async) iterable of Uint8Array
 * @param {{boundary?: string|Uint8Array, contentType?: string|Uint8Array, profile?: string, limits?: object, onPart?: Function}} options
 */
function parseMultipart(source, options) {
  return multipartReader(source, options, 'parseMultipart', MultipartParts);
}

/** parseMultipart's checks and handle, read by `Reader` (MultipartParts, MultipartEvents). */
function multipartReader(source, options, what, Reader) {
  const o = expectOptions(options, what);
  checkKeys(o, Reader === MultipartParts ? MULTIPART_OPTIONS : MULTIPART_OPTIONS.slice(0, -1), what);
  const onPart = o.onPart ?? null;
  if (onPart !== null && typeof onPart !== 'function') throw new TypeError(`${what}: onPart must be a function`);
  const hasBoundary = o.boundary !== undefined;
  // `contentType: req.headers['content-type']` of a request without one is the client's
  // error, not the caller's: read as an empty header value, which the core refuses.
  const hasContentType = Object.hasOwn(o, 'contentType');
  if (hasBoundary === hasContentType) {
    throw new TypeError(`${what}: give exactly one of boundary and contentType`);
  }
  // A boundary given as text is looked for UTF-8 encoded, as the body (and a `<form>`) writes
  // it (WPT formdata-parsing, "Parse a non-ASCII boundary parameter"); a Content-Type string is
  // header bytes as Node hands them over (one char per byte).
  const header = hasBoundary
    ? textBytes(o.boundary, `${what}: boundary`)
    : headerBytes(o.contentType ?? '', `${what}: contentType`);
  const profile = profileOf(MULTIPART_PROFILES, o.profile, 0, what);
  const limits = limitsOf(o.limits, MULTIPART_LIMITS, what);
  const iterate = chunksOf(source, what);
  // With onPart, each feed stops after a part's header (FEED_PART), for it to decide first.
  const h = wasm.RpBody.multipart(header, !hasBoundary, profile, limits, onPart !== null);
  const feed = new Feed(h, iterate);
  feed.multipart = true;
  feed.deferSkips = DATA_LIMITS.every((i) => limits[i] === Infinity);
  // A bad boundary is known before any byte is read: thrown now, the source left untouched.
  if (h.error() === FEED_ERROR) {
    fresh();
    feed.read(EMPTY, 0);
    feed.status = FEED_ERROR;
    throw feed.fail();
  }
  return new Reader(feed, onPart);
}

// ---- application/x-www-form-urlencoded ------------------------------------------------------

/** The `[name, value]` pairs of a form body (see parseForm). */
class FormPairs extends BodyIterator {
  step() {
    const feed = this.feed;
    while (feed.has()) {
      const tag = feed.checked();
      const w = feed.ev;
      feed.skip();
      if (tag === EV_PAIR) return { done: false, value: [feed.str(w + PAIR_NAME), feed.str(w + PAIR_VALUE)] };
      if (tag === EV_END) {
        feed.close(false);
        return DONE;
      }
    }
    return undefined;
  }
}

const FORM_OPTIONS = ['profile', 'limits'];

/**
 * The pairs of an application/x-www-form-urlencoded body, decoded as queries are.
 * @param {any} source
 * @param {{profile?: 'whatwg'|'dotnet'|'strict', limits?: object}} [options]
 */
function parseForm(source, options) {
  const what = 'parseForm';
  const o = expectOptions(options, what);
  checkKeys(o, FORM_OPTIONS, what);
  const profile = profileOf(QUERY_PROFILES, o.profile, 0, what);
  const limits = limitsOf(o.limits, FORM_LIMITS, what);
  const iterate = chunksOf(source, what);
  return new FormPairs(new Feed(wasm.RpBody.form(profile, limits), iterate));
}

// ---- chunked transfer coding ----------------------------------------------------------------

/** The data of a chunked body (see decodeChunked). */
class ChunkedBody extends BodyIterator {
  constructor(feed) {
    super(feed);
    /** The trailer fields, `[name, value]`, once the body has been read to its end. */
    this.trailers = [];
    /** Bytes of the source that were the chunked body, once it has been read to its end. */
    this.consumed = null;
    /** What the source gave after the body's end (the next message's bytes), once known. */
    this.rest = null;
  }

  step() {
    const feed = this.feed;
    while (feed.has()) {
      const tag = feed.checked();
      if (tag === EV_DATA) return feed.dataResult();
      const w = feed.ev;
      feed.skip();
      if (tag === EV_TRAILER) {
        this.trailers.push([feed.str(w + TRAILER_NAME), feed.str(w + TRAILER_VALUE)]);
      } else if (tag === EV_END) {
        this.consumed = mem32[w + END_CONSUMED] + mem32[w + END_CONSUMED + 1] * 2 ** 32;
        this.rest = feed.rest();
        // The source may go on with another message: it is left open, not released.
        feed.close(false);
        return DONE;
      }
    }
    return undefined;
  }
}

/**
 * The data of a body in the chunked transfer coding (RFC 9112 §7.1), decoded strictly.
 * @param {any} source
 * @param {{limits?: object}} [options]
 */
function decodeChunked(source, options) {
  const what = 'decodeChunked';
  const o = expectOptions(options, what);
  checkKeys(o, ['limits'], what);
  const limits = limitsOf(o.limits, CHUNKED_LIMITS, what);
  const iterate = chunksOf(source, what);
  return new ChunkedBody(new Feed(wasm.RpBody.chunked(limits), iterate));
}

/** The events of a multipart body, for the busboy facades (see MultipartEvents). */
function multipartEvents(source, options) {
  return multipartReader(source, options, 'busboy', MultipartEvents);
}

module.exports = {
  parseMultipart,
  parseForm,
  decodeChunked,
  multipartEvents,
  PART_END,
  WAIT,
  DONE,
  MULTIPART_LIMITS,
  MULTIPART_PROFILES,
  limitsOf,
};
