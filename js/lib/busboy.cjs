'use strict';
// `reqparse/busboy`: busboy 1.x's interface over the wasm body readers, so that what runs on
// busboy (multer, and code written against busboy's README) runs on reqparse unchanged.
//
// The bytes are read by the core in its `lenient` multipart profile (a preamble, transport
// padding and an epilogue accepted, as busboy accepts them) and by its form reader (profile
// `whatwg`) for urlencoded bodies; what busboy decides on top of the bytes is decided here,
// as busboy 1.6 decides it (its README, "Busboy (special) events" and "busboy(config)", and
// its lib/types/*.js where the README is silent):
// - which part is a file: a `filename` parameter, or the Content-Type
//   `application/octet-stream`;
// - how names and filenames are read: as ISO-8859-1 (one char per byte) unless
//   `defParamCharset` names another charset; `filename*` (RFC 5987/8187) by its own charset;
//   the basename unless `preservePath`;
// - how a field's value is decoded: by its part's Content-Type charset, else `defCharset`;
// - limits: busboy's limits truncate and report (`limit` on the file stream, `truncated`,
//   `valueTruncated`, `partsLimit`, `filesLimit`, `fieldsLimit`) instead of failing. This is
//   the one place where reqparse follows another library's limit semantics; the core's own
//   limits are lifted here, except the 16 KiB of a part's header block, which busboy has too.
//   busboy's fence posts are kept: a file of exactly `fileSize` bytes is reported truncated,
//   `partsLimit` is emitted when the count of parts reaches `parts` (multer passes busboy
//   each limit plus one for that reason).
// Malformed input is an `error` event (then `close`), never a hang nor a `close` alone.
//
// Back-pressure as in busboy: a file stream that is not read stops the reader, which stops
// taking chunks, so the Writable's callbacks wait and `write()` returns false (a piped
// request pauses).

const { Writable, Readable } = require('node:stream');
const { isUtf8 } = require('node:buffer');
const { multipartEvents, parseForm, PART_END, WAIT, DONE, MULTIPART_LIMITS } = require('./body.cjs');

// Buffer's UTF-8 decoder, on any Uint8Array (lib/body.cjs reads wasm memory with it too).
const { utf8Slice } = Buffer.prototype;
const EMPTY = Buffer.alloc(0);

// ---- header values, as busboy 1.6 reads them (lib/utils.js) ----------------------------------

// RFC 9110 §5.6.2 tchar.
const TOKEN = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~") TOKEN[c.charCodeAt(0)] = 1;
for (let c = 0x30; c <= 0x39; c++) TOKEN[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) TOKEN[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) TOKEN[c] = 1;
const isToken = (code) => code < 256 && TOKEN[code] === 1;
// qdtext and obs-text (RFC 9110 §5.6.4): HTAB, SP and visible bytes but `"` and `\`.
const isQdtext = (code) => code === 9 || (code >= 0x20 && code <= 0xff && code !== 0x22 && code !== 0x5c && code !== 0x7f);
const isWs = (code) => code === 32 || code === 9;

/**
 * A quoted-string's content from `i` (after its opening quote) to its closing quote, as busboy
 * unescapes it (only `\\` and `\"` lose their backslash): `[value, index after the quote]`, or
 * undefined when malformed.
 */
function quoted(str, i) {
  let value = '';
  let start = i;
  let escaping = false;
  for (; i < str.length; ++i) {
    const code = str.charCodeAt(i);
    if (code === 0x5c) {
      if (escaping) {
        start = i;
        escaping = false;
      } else {
        value += str.slice(start, i);
        escaping = true;
      }
      continue;
    }
    if (code === 0x22) {
      if (escaping) {
        start = i;
        escaping = false;
        continue;
      }
      return [value + str.slice(start, i), i + 1];
    }
    if (escaping) {
      start = i - 1;
      escaping = false;
    }
    if (!isQdtext(code)) return undefined;
  }
  return undefined;
}

/**
 * busboy's `parseContentType`: `{ type, subtype, params }` (`params` a Map; type, subtype and
 * parameter names lowercased, the first of a repeated parameter kept), or undefined when
 * malformed.
 */
function parseContentType(str) {
  let i = 0;
  while (i < str.length && isToken(str.charCodeAt(i))) i++;
  if (i === 0 || i === str.length || str.charCodeAt(i) !== 0x2f) return undefined;
  const type = str.slice(0, i).toLowerCase();
  const subStart = ++i;
  while (i < str.length && isToken(str.charCodeAt(i))) i++;
  if (i === subStart) return undefined;
  const subtype = str.slice(subStart, i).toLowerCase();
  // A Map: an Object.create(null) is a dictionary-mode object, whose stores cost most of
  // this function's time on a request's Content-Type.
  const params = new Map();
  while (i < str.length) {
    while (i < str.length && isWs(str.charCodeAt(i))) i++;
    if (i === str.length) break;
    if (str.charCodeAt(i++) !== 0x3b) return undefined;
    while (i < str.length && isWs(str.charCodeAt(i))) i++;
    const nameStart = i;
    while (i < str.length && isToken(str.charCodeAt(i))) i++;
    if (i === str.length || str.charCodeAt(i) !== 0x3d) return undefined;
    const name = str.slice(nameStart, i).toLowerCase();
    if (++i === str.length) return undefined;
    let value;
    if (str.charCodeAt(i) === 0x22) {
      const q = quoted(str, i + 1);
      if (q === undefined) return undefined;
      [value, i] = q;
    } else {
      const valueStart = i;
      while (i < str.length && isToken(str.charCodeAt(i))) i++;
      if (i === valueStart) return undefined;
      value = str.slice(valueStart, i);
    }
    if (!params.has(name)) params.set(name, value);
  }
  return { type, subtype, params };
}

/**
 * busboy's `getDecoder`: bytes (or a string of chars up to U+00FF, one per byte) to text in
 * `charset`; undefined when the charset is not one TextDecoder knows.
 */
function decode(data, charset) {
  if (data.length === 0) return '';
  // The default charset of values, by one compare, without a Buffer made over the bytes.
  if (charset === 'utf8' && typeof data !== 'string') return utf8Slice.call(data, 0, data.length);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data.buffer, data.byteOffset, data.length);
  switch (charsetKind(charset)) {
    case 'utf8':
      return bytes.utf8Slice(0, bytes.length);
    case 'latin1':
      return bytes.latin1Slice(0, bytes.length);
    case 'utf16le':
      return bytes.ucs2Slice(0, bytes.length);
    case 'base64':
      return bytes.base64Slice(0, bytes.length);
    default:
      try {
        return new TextDecoder(charset).decode(bytes);
      } catch {
        return undefined;
      }
  }
}

/** busboy's charset table: the labels it decodes with Buffer (any case). */
function charsetKind(charset) {
  switch (String(charset).toLowerCase()) {
    case 'utf-8':
    case 'utf8':
      return 'utf8';
    case 'latin1':
    case 'ascii':
    case 'us-ascii':
    case 'iso-8859-1':
    case 'iso8859-1':
    case 'iso88591':
    case 'iso_8859-1':
    case 'windows-1252':
    case 'iso_8859-1:1987':
    case 'cp1252':
    case 'x-cp1252':
      return 'latin1';
    case 'utf16le':
    case 'utf-16le':
    case 'ucs2':
    case 'ucs-2':
      return 'utf16le';
    case 'base64':
      return 'base64';
    default:
      return 'other';
  }
}

/** busboy's `basename`: what follows the last `/` or `\`; `.` and `..` are ''. */
function basename(path) {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const base = i < 0 ? path : path.slice(i + 1);
  return base === '.' || base === '..' ? '' : base;
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\u0000-\u007f]/;
// eslint-disable-next-line no-control-regex
const NON_LATIN1 = /[^\u0000-\u00ff]/;

/**
 * The bytes a part's header string was read from. The core reads a value's bytes as UTF-8
 * when they are, else as ISO-8859-1, and hands a string over where it lies in the input when it
 * is the bytes as written (src/faces/js/body.rs: spans in the input, or in the text buffer
 * when something was decoded): as written, its bytes are its UTF-8; else a string of chars up
 * to U+00FF is taken as the ISO-8859-1 reading (browsers never backslash-escape a name).
 */
function bytesOf(text, asWritten) {
  if (!NON_ASCII.test(text)) return Buffer.from(text, 'latin1');
  if (asWritten || NON_LATIN1.test(text)) return Buffer.from(text, 'utf8');
  return Buffer.from(text, 'latin1');
}

/**
 * A part's header string as busboy reads it: its bytes (see bytesOf) one char per byte. An
 * ASCII string reads as itself in every reading (no bytes made and read back).
 */
function latin1Of(text, asWritten) {
  return NON_ASCII.test(text) ? bytesOf(text, asWritten).latin1Slice() : text;
}

/**
 * The filename busboy reads from a part's `Content-Disposition`: `filename*` decoded by its
 * charset when the core took it (the core's effective filename is then not its reading of the
 * `filename` bytes), else the `filename` bytes (`filenameRaw`) as busboy reads a quoted
 * parameter: backslash-unescaped, then `paramText`.
 */
function filenameOf(part, paramText) {
  if (part.filename === null) return undefined;
  const raw = part.filenameRaw === null ? EMPTY : Buffer.from(part.filenameRaw.buffer, part.filenameRaw.byteOffset, part.filenameRaw.length);
  const latin1 = raw.latin1Slice(0, raw.length);
  // ASCII bytes read the same as UTF-8 and as ISO-8859-1.
  const plain = !NON_ASCII.test(latin1) ? latin1 : isUtf8(raw) ? raw.utf8Slice(0, raw.length) : latin1;
  if (part.filename !== plain) return part.filename;
  // Without a backslash or a quote, the quoted-string reading is the bytes themselves (a byte
  // that is not qdtext makes `quoted` answer undefined: the bytes again).
  if (raw.indexOf(0x5c) < 0 && raw.indexOf(0x22) < 0) return paramText(latin1);
  const q = quoted(latin1 + '"', 0);
  return paramText(q === undefined ? latin1 : q[0]);
}

// ---- the Writable's source: chunks handed to the reader as it asks ---------------------------

/**
 * The async iterator the reader pulls chunks from: each chunk written, its write callback
 * called when the reader takes it (so the Writable buffers no more than its highWaterMark
 * while the reader is held back). `sync`: `next()` answers WAIT instead of a Promise when no
 * chunk is at hand (the multipart driver reads within `write()`: MultipartEvents.nextSync).
 */
class Inbox {
  constructor(sync = false) {
    this.chunk = null;
    this.cb = null;
    this.want = null;
    this.ended = false;
    this.sync = sync;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  put(chunk, cb) {
    if (this.want !== null) {
      const want = this.want;
      this.want = null;
      want({ done: false, value: chunk });
      cb();
    } else {
      this.chunk = chunk;
      this.cb = cb;
    }
  }

  end() {
    this.ended = true;
    if (this.want !== null) {
      const want = this.want;
      this.want = null;
      want(DONE);
    }
  }

  next() {
    if (this.chunk !== null) {
      const { chunk, cb } = this;
      this.chunk = this.cb = null;
      cb();
      return { done: false, value: chunk };
    }
    if (this.ended) return DONE;
    if (this.sync) return WAIT;
    return new Promise((resolve) => {
      this.want = resolve;
    });
  }

  return() {
    this.end();
    return DONE;
  }
}

// ---- multipart/form-data ---------------------------------------------------------------------

/** A file part's data (busboy's FileStream): `truncated`, and a `limit` event. */
class FileStream extends Readable {
  constructor(opts, owner) {
    super(opts);
    this.truncated = false;
    this.owner = owner;
    this.counted = false;
  }

  /**
   * The stream's end (autoDestroy destroys it right after its `end` listeners ran) or its
   * destruction before the end: counted once, without an `end` and a `close` listener made per
   * file. A stream destroyed before its end takes no more data: the reader goes on, and the
   * body ends without waiting for its `end` (busboy 1.6 would wait for ever).
   */
  _destroy(err, cb) {
    const owner = this.owner;
    if (owner.file === this) owner.resume();
    owner.fileEnded(this);
    cb(err);
  }

  _read() {
    if (this.owner.file === this) this.owner.resume();
  }
}

/**
 * Core limits a busboy facade reads with: busboy has none but the header block's size. Every
 * other limit of the core is lifted, those it has now and any it gains (its names come from
 * the wasm's layout): busboy's own `parts`, `files`, `fields`, `fileSize` and `fieldSize`
 * truncate and report (done here, above the core), where the core's `maxParts`, `maxFiles`
 * (100), `maxFields`, `maxFileBytes`, `maxValueBytes` and `maxTextBytes` (16 MiB of all fields,
 * which a part busboy reads as a file by its `application/octet-stream` type but the core as a
 * field would count against) would fail the body; busboy 1.6 bounds no name or filename in a
 * multipart body (`fieldNameSize` is its urlencoded reader's), where the core's `maxNameBytes`
 * and `maxFilenameBytes` would.
 */
const FACADE_LIMITS = Object.freeze({
  ...Object.fromEntries(MULTIPART_LIMITS.map((name) => [name, Infinity])),
  // busboy's MAX_HEADER_SIZE (Node's default header size).
  maxHeaderBytes: 16 * 1024,
});

/** What a core error is called in busboy's words, where busboy has words for it. */
function errorOf(e) {
  if (e === null || typeof e !== 'object' || typeof e.kind !== 'string') return e;
  let message = null;
  if (e.kind === 'unexpected-end') message = 'Unexpected end of form';
  else if (/^(bare-|invalid-header|duplicate-header|missing-|not-form-data|invalid-disposition|limit:max_header)/.test(e.kind)) {
    message = 'Malformed part header';
  }
  if (message === null) return e;
  const err = new Error(message, { cause: e });
  err.kind = e.kind;
  err.offset = e.offset;
  return err;
}

/**
 * Limits as busboy reads them (`typeof limit === 'number'`, else the default), with the
 * comparison that decides truncation: busboy 1.x truncates when a count reaches its limit.
 */
function limitOf(limits, name, fallback) {
  return limits && typeof limits[name] === 'number' ? limits[name] : fallback;
}

/**
 * A multipart body's limits with busboy's defaults (the same in @fastify/busboy), each read by
 * `read(limits, name, fallback)`: limitOf, or @fastify/busboy's stricter getLimit.
 */
function partLimits(limits, read = limitOf) {
  return {
    fieldSize: read(limits, 'fieldSize', 1024 * 1024),
    fileSize: read(limits, 'fileSize', Infinity),
    files: read(limits, 'files', Infinity),
    fields: read(limits, 'fields', Infinity),
    parts: read(limits, 'parts', Infinity),
  };
}

/**
 * The multipart reader shared by the busboy 1.x and @fastify/busboy facades: reads the events
 * of the core and hands them to `this.on*` (each facade's own rules); back-pressure and the
 * end as busboy.
 */
class MultipartDriver {
  constructor(stream, boundary, fileOpts) {
    this.stream = stream;
    this.fileOpts = fileOpts;
    this.inbox = new Inbox(true);
    // Thrown now for a boundary the core refuses (the caller's try around busboy() sees it).
    this.events = multipartEvents(this.inbox, { boundary: Buffer.from(boundary, 'latin1'), profile: 'lenient', limits: FACADE_LIMITS });
    /** The file stream data goes to, while it takes it. */
    this.file = null;
    /** The file stream wants no more data for now: reading waits for its `_read`. */
    this.paused = false;
    /** resume() was called while read() was handing data out (a `_read` from within push()). */
    this.resumed = false;
    /** read() is on the stack: a nested call only notes that there is more to read. */
    this.reading = false;
    this.again = false;
    this.fileEndsLeft = 0;
    this.complete = false;
    this.failed = null;
    this.stopped = false;
    this.finalCb = null;
    /** A core error in the facade's words; `onError`, when set, ends the stream instead. */
    this.mapError = errorOf;
    this.onError = undefined;
  }

  /**
   * Feeds the written chunk and reads its events at once, as busboy parses within `write()`;
   * `cb` when the reader takes the chunk (at once once the body failed; later when a file
   * stream holds the reader back).
   */
  write(chunk, cb) {
    if (this.failed !== null || this.stopped) return cb();
    // A small piece of a file's data (MultipartEvents.fileChunk): taken and handed out at
    // once, as read() would (the chunk taken first, then its data), without the events loop.
    if (this.file !== null && !this.reading && !this.paused && this.inbox.chunk === null) {
      const data = this.events.fileChunk(chunk);
      if (data !== undefined) {
        cb();
        this.resumed = false;
        if (!this.onData(data) && !this.resumed) this.paused = true;
        return;
      }
    }
    this.inbox.chunk = chunk;
    this.inbox.cb = cb;
    this.read();
  }

  /**
   * Reads events until the reader needs the next chunk, a file stream wants no more data, or
   * the body ends: synchronously, without a Promise per event (each `await` of the reader's
   * next() cost a Promise and a microtask turn; three per field).
   */
  read() {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.again = false;
        while (!this.paused && !this.stopped && !this.complete && this.failed === null) {
          const v = this.events.nextSync();
          if (v === WAIT) break;
          if (this.stopped) return;
          if (v === DONE) {
            this.complete = true;
            this.onEnd();
            break;
          }
          if (v instanceof Uint8Array) {
            if (v.length === 0) continue;
            this.resumed = false;
            if (!this.onData(v) && !this.resumed) this.paused = true;
          } else if (v === PART_END) {
            this.onPartEnd();
          } else {
            this.onPart(v);
          }
        }
      } while (this.again && !this.paused);
    } catch (e) {
      if (!this.stopped) this.fail(this.mapError(e));
    } finally {
      this.reading = false;
    }
  }

  /** The file stream took data again (or went away): the reader goes on. */
  resume() {
    this.resumed = true;
    if (!this.paused) return;
    this.paused = false;
    this.read();
  }

  /** Pushes data to the current file: false when it wants no more for now. */
  push(data) {
    return this.pushTo(this.file, data);
  }

  /** Pushes data to `file` (the current one, or one just let go): false when it wants no more for now. */
  pushTo(file, data) {
    if (file === null || file.destroyed) return true;
    // A piece that is the writer's Buffer (a chunk that is all data) is pushed as it is.
    return file.push(data instanceof Buffer ? data : Buffer.from(data.buffer, data.byteOffset, data.length));
  }

  /** Opens a file stream (counted until its `end`). */
  openFile() {
    this.events.fileData();
    const file = new FileStream(this.fileOpts, this);
    this.file = file;
    this.fileEndsLeft++;
    return file;
  }

  endFile() {
    const file = this.file;
    this.file = null;
    if (file !== null && !file.destroyed) file.push(null);
  }

  /** `file` ended or closed: counted once. */
  fileEnded(file) {
    if (file.counted) return;
    file.counted = true;
    this.fileEndsLeft--;
    this.maybeFinish();
  }

  /** The Writable's `_final`: the input is over; `cb` once the body and its files are read. */
  final(cb) {
    this.finalCb = cb;
    this.inbox.end();
    this.read();
    this.maybeFinish();
  }

  maybeFinish() {
    if (this.finalCb === null || !this.complete || this.fileEndsLeft > 0) return;
    const cb = this.finalCb;
    this.finalCb = null;
    // Other `end` handlers of the last file run first (busboy: process.nextTick).
    process.nextTick(cb);
  }

  fail(err) {
    if (this.failed !== null) return;
    this.failed = err;
    // A held write goes on (its chunk is dropped): the facade decides how the stream ends.
    this.inbox.end();
    if (this.inbox.cb !== null) {
      const cb = this.inbox.cb;
      this.inbox.chunk = this.inbox.cb = null;
      cb();
    }
    if (this.onError !== undefined) {
      this.onError(err);
      return;
    }
    if (this.finalCb !== null) {
      const cb = this.finalCb;
      this.finalCb = null;
      cb(err);
    } else {
      this.stream.destroy(err);
    }
  }

  /** The Writable's `_destroy`: stops reading; the file being read fails with `err`. */
  destroy(err) {
    this.stopped = true;
    this.inbox.end();
    this.events.return();
    const file = this.file;
    this.file = null;
    if (file !== null && !file.destroyed) file.destroy(err ?? undefined);
  }
}

/** busboy 1.x's multipart/form-data Writable (lib/types/multipart.js). */
class Multipart extends Writable {
  constructor(cfg) {
    super({ autoDestroy: true, emitClose: true, highWaterMark: typeof cfg.highWaterMark === 'number' ? cfg.highWaterMark : undefined });
    const boundary = cfg.conType.params.get('boundary');
    if (typeof boundary !== 'string') throw new Error('Multipart: Boundary not found');
    const fileOpts = { autoDestroy: true, emitClose: true, highWaterMark: typeof cfg.fileHwm === 'number' ? cfg.fileHwm : undefined };
    const driver = new MultipartDriver(this, boundary, fileOpts);
    this._driver = driver;

    const paramText =
      typeof cfg.defParamCharset === 'string' && cfg.defParamCharset ? (s) => decode(s, cfg.defParamCharset) : (s) => s;
    const defCharset = cfg.defCharset || 'utf8';
    const preservePath = cfg.preservePath;
    // busboy's limits, by name (fieldSize, fileSize, files, fields, parts).
    const max = partLimits(cfg.limits);

    // busboy counts delimiters: the first makes `parts` 0, each part's end adds one.
    let parts = -1;
    let files = 0;
    let fields = 0;
    let hitFiles = false;
    let hitFields = false;
    // The current part: skipped, a file (driver.file), or a field being gathered.
    let skip = false;
    let field = null;
    let fieldSize = 0;
    let fileSize = 0;
    let part = null;

    const delimiter = () => {
      if (++parts === max.parts) this.emit('partsLimit');
    };

    const onPart = (p) => {
      if (parts < 0) delimiter();
      skip = true;
      field = null;
      if (parts >= max.parts) return;
      // busboy takes a parameter only when its value is not empty (`if (disp.params.name)`).
      const name = paramText(latin1Of(p.name, p.nameAsWritten)) || undefined;
      let filename = filenameOf(p, paramText) || undefined;
      if (filename !== undefined && !preservePath) filename = basename(filename);
      let mimeType = 'text/plain';
      let charset = defCharset;
      if (p.contentType !== null) {
        const ct = parseContentType(latin1Of(p.contentType, true));
        if (ct !== undefined) {
          mimeType = `${ct.type}/${ct.subtype}`;
          const cs = ct.params.get('charset');
          if (typeof cs === 'string') charset = cs.toLowerCase();
        }
      }
      // The core does not hand Content-Transfer-Encoding over: busboy's default.
      const encoding = '7bit';
      if (mimeType === 'application/octet-stream' || filename !== undefined) {
        if (files === max.files) {
          if (!hitFiles) {
            hitFiles = true;
            this.emit('filesLimit');
          }
          return;
        }
        ++files;
        if (this.listenerCount('file') === 0) return;
        skip = false;
        fileSize = 0;
        const file = driver.openFile();
        this.emit('file', name, file, { filename, encoding, mimeType });
      } else {
        if (fields === max.fields) {
          if (!hitFields) {
            hitFields = true;
            this.emit('fieldsLimit');
          }
          return;
        }
        ++fields;
        if (this.listenerCount('field') === 0) return;
        skip = false;
        field = [];
        fieldSize = 0;
        part = { name, charset, encoding, mimeType, truncated: false };
      }
    };

    const onData = (data) => {
      if (skip) return true;
      if (driver.file !== null) {
        const n = Math.min(data.length, max.fileSize - fileSize);
        fileSize += n;
        if (fileSize === max.fileSize) {
          const file = driver.file;
          if (n > 0) driver.push(data.subarray(0, n));
          file.emit('limit');
          file.truncated = true;
          skip = true;
          return true;
        }
        return driver.push(data);
      }
      if (field !== null) {
        const n = Math.min(data.length, max.fieldSize - fieldSize);
        // A view of the source's chunk: the writer hands it over (busboy keeps slices too).
        field.push(n === data.length ? data : data.subarray(0, n));
        fieldSize += n;
        if (fieldSize === max.fieldSize) {
          skip = true;
          part.truncated = true;
        }
      }
      return true;
    };

    const onPartEnd = () => {
      if (driver.file !== null) {
        driver.endFile();
      } else if (field !== null) {
        const value = field.length === 0 ? '' : decode(field.length === 1 ? field[0] : Buffer.concat(field, fieldSize), part.charset);
        field = null;
        this.emit('field', part.name, value, {
          nameTruncated: false,
          valueTruncated: part.truncated,
          encoding: part.encoding,
          mimeType: part.mimeType,
        });
      }
      skip = true;
      delimiter();
    };

    const onEnd = () => {
      // A body of the close delimiter alone: its delimiter is the first.
      if (parts < 0) delimiter();
      driver.maybeFinish();
    };

    // Handed over by name, not written `driver.onPart = (p) => …`: V8's parser marks a function
    // literal assigned to a property for old-space allocation (a constructor's method, it
    // guesses), so each body's handlers were allocated old while the constructor ran
    // unoptimized, and as roots of every scavenge until the next mark-compact they kept the
    // body (its Writable, listeners and what the consumer's listeners hold) alive: promoted at
    // each scavenge, and the sites of the objects they held then pretenured.
    driver.onPart = onPart;
    driver.onData = onData;
    driver.onPartEnd = onPartEnd;
    driver.onEnd = onEnd;
  }

  static detect(conType) {
    return conType.type === 'multipart' && conType.subtype === 'form-data';
  }

  _write(chunk, enc, cb) {
    this._driver.write(chunk, cb);
  }

  _final(cb) {
    this._driver.final(cb);
  }

  _destroy(err, cb) {
    const driver = this._driver;
    // Destroyed before the end: busboy's 'Unexpected end of form' (checkEndState).
    if (!err && !driver.complete) err = new Error('Unexpected end of form');
    driver.destroy(err);
    cb(err);
  }
}

// ---- application/x-www-form-urlencoded -------------------------------------------------------

// The bytes the urlencoded serializer writes as themselves.
const PLAIN = new Uint8Array(256);
for (const c of '*-._') PLAIN[c.charCodeAt(0)] = 1;
for (let c = 0; c < 256; c++) if (isToken(c) && /[A-Za-z0-9]/.test(String.fromCharCode(c))) PLAIN[c] = 1;

/**
 * busboy 1.x's urlencoded Writable (lib/types/urlencoded.js) over the core's form reader
 * (profile `whatwg`: `+` is a space, `%XX` decoded, the bytes read as UTF-8). Names and values
 * are cut at `fieldNameSize` (default 100) and `fieldSize` bytes of their decoded bytes, as
 * busboy counts them.
 */
class URLEncoded extends Writable {
  constructor(cfg) {
    super({ autoDestroy: true, emitClose: true, highWaterMark: typeof cfg.highWaterMark === 'number' ? cfg.highWaterMark : undefined });
    let charset = cfg.defCharset || 'utf8';
    const cs = cfg.conType.params.get('charset');
    if (typeof cs === 'string') charset = cs;
    this.charset = charset;
    const limits = cfg.limits;
    this.fieldSizeLimit = limitOf(limits, 'fieldSize', 1024 * 1024);
    this.fieldsLimit = limitOf(limits, 'fields', Infinity);
    this.fieldNameSizeLimit = limitOf(limits, 'fieldNameSize', 100);
    this._inbox = new Inbox();
    this._fields = 0;
    this._complete = false;
    this._finalCb = null;
    this._stopped = false;
    this._failed = null;
    const maxBytes = Infinity;
    this._pairs = parseForm(this._inbox, { limits: { maxPairs: maxBytes, maxNameBytes: maxBytes, maxValueBytes: maxBytes, maxBodyBytes: maxBytes } });
    this._run();
  }

  static detect(conType) {
    return conType.type === 'application' && conType.subtype === 'x-www-form-urlencoded';
  }

  /**
   * `text` cut to `limit` bytes of its UTF-8, as busboy cuts: it counts decoded bytes, and
   * keeps the byte past the limit too when that byte was written as `%XX` or `+` (its check
   * runs after a plain byte only). The reader hands decoded text over, so a byte counts as
   * escaped when the urlencoded serializer (URL Standard, `application/x-www-form-urlencoded`)
   * escapes it: any byte but ASCII alphanumerics and `*-._`. [text, truncated].
   */
  _cut(text, limit) {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length <= limit) return [this._text(bytes), false];
    const keep = PLAIN[bytes[limit]] === 1 ? limit : limit + 1;
    return [this._text(bytes.subarray(0, keep)), true];
  }

  /** Decoded bytes as text in the form's charset (busboy decodes the bytes it gathered). */
  _text(bytes) {
    return charsetKind(this.charset) === 'utf8' && bytes.length === 0 ? '' : decode(bytes, this.charset);
  }

  async _run() {
    try {
      for (;;) {
        const r = await this._pairs.next();
        if (this._stopped) return;
        if (r.done) break;
        // busboy stops reading at the limit: it emits `fieldsLimit` when the limit's count of
        // pairs is followed by more, and nothing at all with a limit of 0.
        if (this._fields >= this.fieldsLimit) {
          if (this.fieldsLimit > 0 && this._fields === this.fieldsLimit) this.emit('fieldsLimit');
          this._fields++;
          continue;
        }
        this._fields++;
        const [name, nameTruncated] = this._cut(r.value[0], this.fieldNameSizeLimit);
        const [value, valueTruncated] = this._cut(r.value[1], this.fieldSizeLimit);
        this.emit('field', name, value, { nameTruncated, valueTruncated, encoding: this.charset, mimeType: 'text/plain' });
      }
      this._complete = true;
      if (this._finalCb !== null) {
        const cb = this._finalCb;
        this._finalCb = null;
        cb();
      }
    } catch (e) {
      if (this._stopped) return;
      const err = new Error('Malformed urlencoded form', { cause: e });
      if (this._finalCb !== null) {
        const cb = this._finalCb;
        this._finalCb = null;
        cb(err);
      } else {
        this.destroy(err);
      }
    }
  }

  _write(chunk, enc, cb) {
    this._inbox.put(chunk, cb);
  }

  _final(cb) {
    if (this._complete) return cb();
    this._finalCb = cb;
    this._inbox.end();
  }

  _destroy(err, cb) {
    this._stopped = true;
    this._inbox.end();
    this._pairs.return();
    cb(err);
  }
}

// ---- busboy(config) ---------------------------------------------------------------------------

const TYPES = [Multipart, URLEncoded];

/**
 * busboy 1.x's factory: a Writable for the request's body, chosen by its Content-Type
 * (README, "busboy(config)"). Throws as busboy throws: 'Missing Content-Type', 'Malformed
 * content type', 'Unsupported content type: …', 'Multipart: Boundary not found'.
 */
function busboy(cfg) {
  if (typeof cfg !== 'object' || cfg === null) cfg = {};
  const headers = cfg.headers;
  if (typeof headers !== 'object' || headers === null || typeof headers['content-type'] !== 'string') {
    throw new Error('Missing Content-Type');
  }
  const conType = parseContentType(headers['content-type']);
  if (!conType) throw new Error('Malformed content type');
  for (const Type of TYPES) {
    if (!Type.detect(conType)) continue;
    return new Type({
      limits: cfg.limits,
      headers,
      conType,
      highWaterMark: cfg.highWaterMark || undefined,
      fileHwm: cfg.fileHwm || undefined,
      defCharset: cfg.defCharset,
      defParamCharset: cfg.defParamCharset,
      preservePath: cfg.preservePath,
    });
  }
  throw new Error(`Unsupported content type: ${headers['content-type']}`);
}

module.exports = busboy;
// For lib/fastify-busboy.cjs (not a contract).
Object.defineProperty(module.exports, Symbol.for('reqparse.busboy.internal'), {
  value: Object.freeze({ MultipartDriver, Inbox, decode, charsetKind, basename, bytesOf, latin1Of, quoted, limitOf, partLimits }),
});
