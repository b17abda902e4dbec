'use strict';
// `reqparse/fastify-busboy`: @fastify/busboy's interface (busboy 0.3's, which @fastify/busboy
// keeps) over the same reader as reqparse/busboy (lib/busboy.cjs), so that @fastify/multipart
// runs on reqparse. What differs from busboy 1.x is @fastify/busboy's own (3.2.6,
// lib/types/*.js), kept here:
// - `new Busboy(opts)` (or without `new`); events `file(fieldname, stream, filename,
//   transferEncoding, mimeType)`, `field(fieldname, value, fieldnameTruncated, valueTruncated,
//   transferEncoding, mimeType)`, the limit events, `error`, then `finish` once every part
//   was read; `autoDestroy` off, so no `close` unless asked for;
// - names and filenames read as UTF-8 (invalid bytes replaced), the Content-Type kept whole
//   (lowercased) when it has no parameters, `isPartAFile(fieldname, contentType, filename)`;
// - limits truncate past the limit (a file of exactly `fileSize` bytes is whole), a limit that
//   is not a number throws; `partsLimit` when a part past `parts` begins; `file.bytesRead`;
//   a file's byte at `fileSize` is pushed with the next event, so that `truncated` is always
//   set with a piece still to read (@fastify/multipart's toBuffer looks at it piece by piece);
// - a body cut short: 'Unexpected end of multipart data' on the Busboy, 'Part terminated early
//   due to unexpected end of multipart data' on the file being read (as Dicer says them;
//   @fastify/multipart reads both messages), then `finish`.

const { Writable } = require('node:stream');
const { inherits } = require('node:util');
const { parseForm } = require('./body.cjs');
const internal = require('./busboy.cjs')[Symbol.for('reqparse.busboy.internal')];

const { MultipartDriver, Inbox, decode, basename, bytesOf, latin1Of, quoted, partLimits } = internal;

/** @fastify/busboy's getLimit: the default when unset, a TypeError when not a number. */
function getLimit(limits, name, fallback) {
  if (!limits || limits[name] === undefined || limits[name] === null) return fallback;
  if (typeof limits[name] !== 'number' || Number.isNaN(limits[name])) throw new TypeError(`Limit ${name} is not a valid number`);
  return limits[name];
}

/** @fastify/busboy's reading of a parameter: as UTF-8 when it has non-ASCII bytes. */
const utf8Text = (bytes) => bytes.utf8Slice(0, bytes.length);

/**
 * @fastify/busboy's parseParams, as far as a header value needs it here: the first item
 * (type) and `charset`; `[type, charset]`.
 */
function typeAndCharset(value) {
  if (value.length !== 0 && !/[; \t]/.test(value)) return [value.toLowerCase(), undefined];
  const items = value.split(';');
  const type = items[0].replace(/[ \t]/g, '');
  let charset;
  for (const item of items.slice(1)) {
    const eq = item.indexOf('=');
    if (eq < 0) continue;
    if (item.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charset = item
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    break;
  }
  return [type === '' ? undefined : type.toLowerCase(), charset];
}

/** Splits `;`-separated Content-Type parameters: a boundary, as @fastify/busboy finds it. */
function boundaryOf(contentType) {
  for (const item of contentType.split(';').slice(1)) {
    const eq = item.indexOf('=');
    if (eq < 0) continue;
    if (item.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    let v = item.slice(eq + 1).trim();
    if (v.startsWith('"')) {
      const q = quoted(v, 1);
      v = q === undefined ? v.slice(1) : q[0];
    }
    return v;
  }
  return undefined;
}

const END_OF_DATA = 'Unexpected end of multipart data';

/** A core error as @fastify/busboy (Dicer) words an early end; others keep the core's words. */
function errorOf(e) {
  if (e === null || typeof e !== 'object' || e.kind !== 'unexpected-end') return e;
  const err = new Error(END_OF_DATA, { cause: e });
  err.kind = e.kind;
  err.offset = e.offset;
  return err;
}

/** @fastify/busboy's Multipart parser over the driver. */
function multipart(boy, cfg) {
  const boundary = boundaryOf(cfg.headers['content-type']);
  if (typeof boundary !== 'string') throw new Error('Multipart: Boundary not found');
  const limits = cfg.limits;
  const isPartAFile =
    cfg.isPartAFile || ((fieldName, contentType, fileName) => contentType === 'application/octet-stream' || fileName !== undefined);
  const defCharset = cfg.defCharset || 'utf8';
  const preservePath = cfg.preservePath;
  const max = partLimits(limits, getLimit);
  getLimit(limits, 'headerPairs', 2000);
  getLimit(limits, 'headerSize', 80 * 1024);

  const driver = new MultipartDriver(boy, boundary, { highWaterMark: cfg.fileHwm });
  driver.mapError = errorOf;
  let nparts = 0;
  let nfiles = 0;
  let nfields = 0;
  let skip = true;
  let field = null;
  let size = 0;
  // The last byte of a file that reached exactly fileSize, until the next event (see onData).
  let held = null;

  // A field is emitted when its part's stream ends: Dicer pushes its end when the delimiter
  // after it is read, and the stream's `end` follows on the next tick, so a next part whose
  // header came in the same write is counted against `parts` first (flushed then, by onPart),
  // and a last field is emitted before the body's epilogue and end are read (the facade's
  // events of one write are taken within one tick, as Dicer's are), at the end, or on an early
  // end.
  let ended = null;
  const flush = () => {
    const f = ended;
    if (f === null) return;
    ended = null;
    // A value whole in one piece (the usual case) is decoded where it lies.
    const bytes = f.pieces.length === 1 ? f.pieces[0] : Buffer.concat(f.pieces);
    boy.emit('field', f.name, bytes.length ? decode(bytes, f.charset) : '', false, f.truncated, f.encoding, f.contype);
  };

  const onPart = (p) => {
    skip = true;
    field = null;
    if (++nparts > max.parts) {
      if (nparts === max.parts + 1) {
        boy.hitPartsLimit = true;
        boy.emit('partsLimit');
      }
      flush();
      return;
    }
    flush();
    let [contype, charset] = p.contentType === null ? [] : typeAndCharset(latin1Of(p.contentType, true));
    contype ??= 'text/plain';
    charset ??= defCharset;
    const name = utf8Text(bytesOf(p.name, p.nameAsWritten));
    let filename;
    if (p.filename !== null) {
      const raw = Buffer.from(p.filenameRaw.buffer, p.filenameRaw.byteOffset, p.filenameRaw.length);
      const latin1 = raw.latin1Slice();
      const q = quoted(`${latin1}"`, 0);
      filename = utf8Text(Buffer.from(q === undefined ? latin1 : q[0], 'latin1'));
      if (!preservePath) filename = basename(filename);
    }
    const encoding = '7bit';
    size = 0;
    if (isPartAFile(name, contype, filename)) {
      if (nfiles === max.files) {
        if (!boy.hitFilesLimit) {
          boy.hitFilesLimit = true;
          boy.emit('filesLimit');
        }
        return;
      }
      ++nfiles;
      if (boy.listenerCount('file') === 0) return;
      skip = false;
      const file = driver.openFile();
      file.bytesRead = 0;
      boy.emit('file', name, file, filename, encoding, contype);
    } else {
      if (nfields === max.fields) {
        if (!boy.hitFieldsLimit) {
          boy.hitFieldsLimit = true;
          boy.emit('fieldsLimit');
        }
        return;
      }
      ++nfields;
      skip = false;
      field = { name, charset, encoding, contype, pieces: [], truncated: false };
    }
  };

  const onData = (data) => {
    if (skip) return true;
    const file = driver.file;
    if (file !== null) {
      size += data.length;
      if (size > max.fileSize) {
        const keep = max.fileSize - size + data.length;
        const last = keep > 0 ? data.subarray(0, keep) : null;
        // The held byte and what fits: one piece, pushed with `truncated` set, as Dicer pushes
        // the piece that goes over (@fastify/multipart's toBuffer checks `truncated` at each
        // piece it reads, so a truncation without one would go unseen).
        const piece = held === null ? last : last === null ? held : Buffer.concat([held, last]);
        held = null;
        if (piece !== null) driver.push(piece);
        file.truncated = true;
        file.bytesRead = max.fileSize;
        skip = true;
        file.emit('limit');
        return true;
      }
      file.bytesRead = size;
      if (size === max.fileSize && data.length > 0) {
        // The file is exactly at its limit: whether it is whole is known only at the next
        // event (its end, or a byte over). Its last byte waits for it, so that a truncation
        // always comes with a piece, however the body was cut into writes.
        held = Buffer.from(data.subarray(data.length - 1));
        return data.length > 1 ? driver.push(data.subarray(0, data.length - 1)) : true;
      }
      return driver.push(data);
    }
    if (field !== null) {
      size += data.length;
      if (size > max.fieldSize) {
        field.pieces.push(data.subarray(0, max.fieldSize - (size - data.length)));
        field.truncated = true;
        skip = true;
      } else {
        field.pieces.push(data);
      }
    }
    return true;
  };

  const onPartEnd = () => {
    if (driver.file !== null) {
      if (held !== null) driver.push(held);
      held = null;
      driver.endFile();
    } else if (field !== null) {
      ended = field;
      field = null;
      process.nextTick(flush);
    }
    skip = true;
  };

  const onEnd = () => {
    flush();
    driver.maybeFinish();
  };

  // Dicer's end of a body cut short: the error, the file being read errs and ends, `finish`.
  // A field whose part had ended comes first; a field cut short is emitted with what came of
  // it, after the error.
  const onError = (err) => {
    flush();
    boy.emit('error', err);
    const file = driver.file;
    driver.file = null;
    if (file !== null && !file.destroyed && held !== null) driver.pushTo(file, held);
    held = null;
    // Emitted on the file even when the Busboy's error made its consumer destroy it
    // (@fastify/multipart destroys the file being read with the error it is given): Dicer's
    // part error comes synchronously after the Busboy's, so it is the one the file's reader
    // sees, before the destroy's own. Not on a destroyed file nobody listens to any more.
    if (file !== null && err.message === END_OF_DATA && (!file.destroyed || file.listenerCount('error') > 0)) {
      file.emit('error', new Error('Part terminated early due to unexpected end of multipart data'));
    }
    if (file !== null && !file.destroyed) file.push(null);
    if (field !== null && err.message === END_OF_DATA) {
      ended = field;
      field = null;
      flush();
    }
    driver.complete = true;
    driver.maybeFinish();
  };

  // Handed over by name, not as `driver.onPart = (p) => …`: V8 allocates a function literal
  // assigned to a property in old space (see lib/busboy.cjs, Multipart), where it would keep
  // the body and what its listeners hold alive through every scavenge.
  driver.onPart = onPart;
  driver.onData = onData;
  driver.onPartEnd = onPartEnd;
  driver.onEnd = onEnd;
  driver.onError = onError;

  return {
    write: (chunk, cb) => driver.write(chunk, cb),
    final: (cb) => driver.final(cb),
    destroy: (err) => driver.destroy(err),
  };
}

/**
 * @fastify/busboy's urlencoded parser over the core's form reader (profile `whatwg`): names
 * and values cut at `fieldNameSize` (100) and `fieldSize` bytes of their decoded bytes;
 * `field(name, value, nameTruncated, valueTruncated)`.
 */
function urlencoded(boy, cfg) {
  const limits = cfg.limits;
  const fieldSizeLimit = getLimit(limits, 'fieldSize', 1024 * 1024);
  const fieldNameSizeLimit = getLimit(limits, 'fieldNameSize', 100);
  const fieldsLimit = getLimit(limits, 'fields', Infinity);
  const [, charset = cfg.defCharset || 'utf8'] = typeAndCharset(cfg.headers['content-type']);
  const inbox = new Inbox();
  const pairs = parseForm(inbox, { limits: { maxPairs: Infinity, maxNameBytes: Infinity, maxValueBytes: Infinity, maxBodyBytes: Infinity } });
  const cut = (text, limit) => {
    const bytes = Buffer.from(text, 'utf8');
    const truncated = bytes.length > limit;
    const kept = truncated ? bytes.subarray(0, limit) : bytes;
    return [kept.length === 0 ? '' : decode(kept, charset), truncated];
  };
  let finalCb = null;
  let complete = false;
  let stopped = false;
  (async () => {
    let fields = 0;
    try {
      for (;;) {
        const r = await pairs.next();
        if (stopped) return;
        if (r.done) break;
        if (fields === fieldsLimit) {
          if (!boy.hitFieldsLimit) {
            boy.hitFieldsLimit = true;
            boy.emit('fieldsLimit');
          }
          continue;
        }
        fields++;
        const [name, nameTruncated] = cut(r.value[0], fieldNameSizeLimit);
        const [value, valueTruncated] = cut(r.value[1], fieldSizeLimit);
        boy.emit('field', name, value, nameTruncated, valueTruncated);
      }
    } catch (e) {
      if (stopped) return;
      boy.emit('error', e);
    }
    complete = true;
    if (finalCb !== null) finalCb();
  })();
  return {
    write: (chunk, cb) => (complete ? cb() : inbox.put(chunk, cb)),
    final(cb) {
      if (complete) return cb();
      finalCb = cb;
      inbox.end();
    },
    destroy() {
      stopped = true;
      inbox.end();
      pairs.return();
    },
  };
}

/**
 * `new Busboy({ headers, limits, preservePath, isPartAFile, defCharset, highWaterMark,
 * fileHwm, ...streamOptions })`: @fastify/busboy's Writable (its README, "Busboy methods").
 */
function Busboy(opts) {
  if (!(this instanceof Busboy)) return new Busboy(opts);
  if (typeof opts !== 'object') throw new TypeError('Busboy expected an options-Object.');
  if (typeof opts.headers !== 'object') throw new TypeError('Busboy expected an options-Object with headers-attribute.');
  if (typeof opts.headers['content-type'] !== 'string') throw new TypeError('Missing Content-Type-header.');
  const { headers, ...streamOptions } = opts;
  this.opts = { autoDestroy: false, ...streamOptions };
  Writable.call(this, this.opts);
  const cfg = {
    defCharset: this.opts.defCharset,
    fileHwm: this.opts.fileHwm,
    headers,
    highWaterMark: this.opts.highWaterMark,
    isPartAFile: this.opts.isPartAFile,
    limits: this.opts.limits,
    preservePath: this.opts.preservePath,
  };
  const type = headers['content-type'];
  if (/^multipart\/form-data/i.test(type)) this._parser = multipart(this, cfg);
  else if (/^application\/x-www-form-urlencoded/i.test(type)) this._parser = urlencoded(this, cfg);
  else throw new Error('Unsupported Content-Type.');
}
inherits(Busboy, Writable);

Busboy.prototype._write = function (chunk, encoding, cb) {
  this._parser.write(chunk, cb);
};

Busboy.prototype._final = function (cb) {
  this._parser.final(cb);
};

Busboy.prototype._destroy = function (err, cb) {
  this._parser?.destroy(err);
  cb(err);
};

module.exports = Busboy;
module.exports.default = Busboy;
module.exports.Busboy = Busboy;
