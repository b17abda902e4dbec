'use strict';
// Web-standard bodies: a Fetch API `Request` (or a body and its Content-Type) read as form data,
// multipart/form-data or application/x-www-form-urlencoded, the two media types
// `Request.formData()` reads, over body.cjs's readers:
//
// - parseFormData: the entries as they arrive, a file's data as a web ReadableStream pulled
//   from the body only as its reader reads (highWaterMark 0: nothing is read ahead);
// - readFormData: the body read to its end into a FormData, as `Request.formData()` answers
//   it but with limits (1 MiB of body by default), or, given an upload handler, each file
//   handed to it as a FileUpload (the shape of @remix-run/form-data-parser's `parseFormData(
//   request, uploadHandler)`) and what it answers kept.

const { ReqparseError, expectOptions, profileOf } = require('./wire.cjs');
const { parseMultipart, parseForm, limitsOf, MULTIPART_LIMITS, MULTIPART_PROFILES } = require('./body.cjs');

const MULTIPART = 'multipart/form-data';
const URLENCODED = 'application/x-www-form-urlencoded';
const OPTIONS = ['profile', 'limits', 'onPart'];
const INPUT_KEYS = ['body', 'contentType'];

// The core's defaults of the two limits a urlencoded body takes from the multipart ones without
// a limit of its own (src/body/multipart/error.rs, MultipartLimits::default; FormLimits's
// max_body_bytes is the same 128 MiB).
const DEFAULT_BODY_BYTES = 128 * 1024 * 1024;
const DEFAULT_TEXT_BYTES = 16 * 1024 * 1024;

/**
 * readFormData's body limit when files are read into memory (no upload handler): 1 MiB, the
 * default of nginx's `client_max_body_size` and of Next.js's `serverActions.bodySizeLimit`
 * (`Request.formData()` has none at all).
 */
const READ_MAX_BODY_BYTES = 1024 * 1024;

// ---- the input --------------------------------------------------------------------------------

/** A refusal of the request itself, before any of its body is read. */
function refused(message, kind, status) {
  const e = new ReqparseError(message, 0);
  e.kind = kind;
  e.status = status;
  return e;
}

/** A Content-Type value's media type, lowercased: before any parameter, trimmed (RFC 9110 §8.3.1). */
function mediaType(value) {
  const s = typeof value === 'string' ? value : Buffer.from(value).toString('latin1');
  const end = s.indexOf(';');
  return (end < 0 ? s : s.slice(0, end)).trim().toLowerCase();
}

/**
 * `{ body, contentType, multipart }` of the input: a Request (anything with `headers.get` and a
 * `body`: Node's global one, undici's, a framework's), or `{ body, contentType }`.
 */
function bodyOf(input, what) {
  if (input === null || typeof input !== 'object') {
    throw new TypeError(`${what}: input must be a Request or { body, contentType }`);
  }
  let body;
  let contentType;
  if (input.headers !== null && typeof input.headers === 'object' && typeof input.headers.get === 'function' && 'body' in input) {
    if (input.bodyUsed === true || (input.body !== null && input.body.locked === true)) {
      throw new TypeError(`${what}: the request's body was read already`);
    }
    // RFC 9110 §8.4.1: a content coding the server does not apply (Node servers hand the body
    // over as sent: gzip bytes would only be refused later, as a malformed body).
    const encoding = input.headers.get('content-encoding');
    if (encoding !== null && encoding.trim().toLowerCase() !== 'identity' && encoding.trim() !== '') {
      throw refused(`Content-Encoding ${encoding} is not read: send the form without a content coding`, 'unsupported-encoding', 415);
    }
    body = input.body;
    contentType = input.headers.get('content-type');
  } else {
    if (typeof input.pipe === 'function' || typeof input.getReader === 'function' || Symbol.asyncIterator in input) {
      throw new TypeError(`${what}: a body alone has no Content-Type: give { body, contentType } (or a Request)`);
    }
    for (const key of Object.keys(input)) {
      if (!INPUT_KEYS.includes(key)) {
        throw new TypeError(`${what}: unknown input key '${key}' (known: ${INPUT_KEYS.join(', ')}; or give a Request)`);
      }
    }
    body = input.body;
    contentType = input.contentType;
    if (contentType !== undefined && contentType !== null && typeof contentType !== 'string' && !(contentType instanceof Uint8Array)) {
      throw new TypeError(`${what}: contentType must be a string or a Uint8Array`);
    }
  }
  const type = contentType === undefined || contentType === null ? null : mediaType(contentType);
  if (type !== MULTIPART && type !== URLENCODED) {
    throw refused(
      type === null
        ? `no Content-Type: expected ${MULTIPART} or ${URLENCODED}`
        : `Content-Type ${type} is not ${MULTIPART} or ${URLENCODED}`,
      'unsupported-media-type',
      415,
    );
  }
  // A Request without a body (`body: null`) has an empty one.
  return { body: body === null || body === undefined ? [] : body, contentType, multipart: type === MULTIPART };
}

// ---- a file's data ----------------------------------------------------------------------------

/**
 * A file part's data (parseMultipart's `stream`) read once, as a web ReadableStream or whole.
 * The stream is a plain one of highWaterMark 0, not a byte stream: it pulls a piece only when
 * its reader asks for one, and a piece, which may be a view of the source's own chunk, is
 * handed over as it is (a byte stream would transfer, and so detach, the chunk's whole buffer).
 */
class FileData {
  constructor(data) {
    this.data = data;
    this.controller = null;
    // Read to its end, failed, cancelled or left: no piece is handed out any more.
    this.over = false;
    this.taken = false;
  }

  /** The data as a web stream (once). */
  stream() {
    this.take();
    return new ReadableStream(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: (controller) =>
          this.data.next().then(
            (r) => {
              if (this.over) return;
              if (r.done) {
                this.over = true;
                controller.close();
              } else {
                controller.enqueue(r.value);
              }
            },
            (e) => {
              if (this.over) return;
              this.over = true;
              throw e;
            },
          ),
        // The rest is read past when the next entry is asked for (it has to be, to get there).
        cancel: () => {
          this.over = true;
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** The data whole: its pieces (views of the source's chunks, mostly) and their length. */
  async pieces() {
    this.take();
    const pieces = [];
    let length = 0;
    for (;;) {
      const r = await this.data.next();
      if (this.over) throw skipped();
      if (r.done) break;
      pieces.push(r.value);
      length += r.value.length;
    }
    this.over = true;
    return { pieces, length };
  }

  /** The data whole, as one Uint8Array of its own (not a view of a larger buffer). */
  async bytes() {
    const { pieces, length } = await this.pieces();
    const out = new Uint8Array(length);
    let at = 0;
    for (const p of pieces) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  take() {
    if (this.taken) throw new TypeError('reqparse: a file upload\'s data can be read once (stream(), bytes(), arrayBuffer() or text())');
    if (this.over) throw skipped();
    this.taken = true;
  }

  /**
   * The reader moves on to the next part, which reads past what is left of this one: a stream
   * not read to its end errors (its reader would otherwise see the file end early, as if whole).
   */
  left() {
    if (this.over) return;
    this.over = true;
    if (this.controller !== null) this.controller.error(skipped());
  }
}

/** FileUpload's constructor is readFormData's alone. */
const MADE_HERE = Symbol('FileUpload');

const skipped = () =>
  new TypeError(
    'reqparse: the file\'s data was skipped: the next entry was asked for before its stream was read to its end',
  );

/**
 * A file part as File-like (the File API's `name`, `type`, `lastModified`, `stream()`,
 * `arrayBuffer()`, `bytes()`, `text()`), with @remix-run/form-data-parser's `fieldName`, and
 * whose data is read from the body as it is asked for, once: an upload handler's argument.
 */
class FileUpload {
  #data;

  constructor(token, file, data) {
    if (token !== MADE_HERE) throw new TypeError('reqparse: FileUploads are made by readFormData, for its upload handler');
    this.#data = data;
    /** The part's `name`: the form field (`<input type="file" name>`). */
    this.fieldName = file.name;
    /** The effective filename (data, not a path). */
    this.name = file.filename;
    this.type = file.type;
    /** As a `File` made without one: the time it was made. */
    this.lastModified = Date.now();
    this.index = file.index;
    this.filenameRaw = file.filenameRaw;
    this.filenameBasename = file.filenameBasename;
    this.filenamePortable = file.filenamePortable;
  }

  /** The file's data as a web stream, read from the body as it is read. */
  stream() {
    return this.#data.stream();
  }

  /** The file's data, read whole (at most the file limit: `maxFileBytes`, or `onPart`'s). */
  bytes() {
    try {
      return this.#data.bytes();
    } catch (e) {
      return Promise.reject(e);
    }
  }

  async arrayBuffer() {
    return (await this.bytes()).buffer;
  }

  /** The data as UTF-8 text, as `Blob.text()` decodes it (a leading BOM dropped, bad bytes U+FFFD). */
  async text() {
    return new TextDecoder().decode(await this.bytes());
  }

  get [Symbol.toStringTag]() {
    return 'FileUpload';
  }
}

// ---- entries ----------------------------------------------------------------------------------

/**
 * A file part's type as the Fetch Standard's multipart/form-data parser gives it (WPT
 * formdata-parsing): the part's MIME type serialized (`mimeType`), empty when its Content-Type
 * is not a MIME type, `text/plain` when it has none (RFC 7578 §4.4's default); then as the File
 * constructor reads a type: lowercased, or empty when it holds a char outside U+0020–U+007E.
 */
function fileType(part) {
  if (part.contentType === null) return 'text/plain';
  const type = part.mimeType ?? '';
  return /^[\x20-\x7e]*$/.test(type) ? type.toLowerCase() : '';
}

/** The option that sets the form reader's limit the core named `kind` (`limit:max_pairs`). */
function formLimitName(kind, bodyLimit) {
  if (kind === 'limit:max_pairs') return 'maxFields';
  if (kind === 'limit:max_body_bytes') return bodyLimit;
  return undefined;
}

/**
 * The checked options and the reader of the input's body: `{ reader, form, bodyLimit }`.
 * `defaultBodyBytes`: maxBodyBytes when the options leave it out.
 */
function open(input, options, what, defaultBodyBytes) {
  const o = expectOptions(options, what, OPTIONS);
  // Checked before the request is, and whatever its body's type, so that a misspelt option
  // fails every request alike (urlencoded ones have no use for a profile or onPart).
  const given = limitsOf(o.limits, MULTIPART_LIMITS, what);
  profileOf(MULTIPART_PROFILES, o.profile, 0, what);
  if (o.onPart !== undefined && typeof o.onPart !== 'function') throw new TypeError(`${what}: onPart must be a function`);
  const { body, contentType, multipart } = bodyOf(input, what);
  const limit = (name) => given[MULTIPART_LIMITS.indexOf(name)];
  const limitOr = (name, fallback) => (Number.isNaN(limit(name)) ? fallback : limit(name));
  let limits = o.limits;
  if (defaultBodyBytes !== undefined && Number.isNaN(limit('maxBodyBytes'))) {
    limits = { ...limits, maxBodyBytes: defaultBodyBytes };
  }
  if (multipart) {
    return { reader: parseMultipart(body, { contentType, profile: o.profile, limits, onPart: o.onPart }), form: false };
  }
  // A urlencoded body is all fields: read with the limits of the same names, its fields
  // counted by maxFields, and the body bounded by maxTextBytes as well (all of it is text).
  const bodyBytes = limitOr('maxBodyBytes', defaultBodyBytes ?? DEFAULT_BODY_BYTES);
  const textBytes = limitOr('maxTextBytes', DEFAULT_TEXT_BYTES);
  const formLimits = {
    maxPairs: limitOr('maxFields', undefined),
    maxNameBytes: limitOr('maxNameBytes', undefined),
    maxValueBytes: limitOr('maxValueBytes', undefined),
    maxBodyBytes: Math.min(bodyBytes, textBytes),
  };
  return {
    reader: parseForm(body, { limits: formLimits }),
    form: true,
    bodyLimit: textBytes < bodyBytes ? 'maxTextBytes' : 'maxBodyBytes',
  };
}

/**
 * The entries of an opened body: fields `{ kind: 'field', name, value, index }`, files as
 * `file(part, data)` makes them from the part and its FileData. A file whose data was not read
 * to its end when the next entry is asked for is `left()`.
 */
async function* entries({ reader, form, bodyLimit }, file) {
  if (form) {
    let index = 0;
    try {
      for await (const [name, value] of reader) yield { kind: 'field', name, value, index: index++ };
    } catch (e) {
      // The limit is named by the option the caller set (maxFields for pairs).
      if (e instanceof ReqparseError && e.limit !== undefined) e.limit = formLimitName(e.kind, bodyLimit) ?? e.limit;
      throw e;
    }
    return;
  }
  let last = null;
  try {
    for await (const part of reader) {
      if (last !== null) {
        last.left();
        last = null;
      }
      if (part.filename === null) {
        yield { kind: 'field', name: part.name, value: part.value, index: part.index };
      } else {
        last = new FileData(part.stream);
        yield file(part, last);
      }
    }
  } finally {
    if (last !== null) last.left();
  }
}

/** A file part as parseFormData yields it. */
function fileEntry(part, data) {
  return {
    kind: 'file',
    name: part.name,
    filename: part.filename,
    filenameRaw: part.filenameRaw,
    filenameBasename: part.filenameBasename,
    filenamePortable: part.filenamePortable,
    type: fileType(part),
    index: part.index,
    stream: data.stream(),
  };
}

/**
 * The entries of a form body, as they arrive.
 * @param {any} input a Request, or `{ body, contentType }`
 * @param {{profile?: string, limits?: object, onPart?: Function}} [options]
 */
function parseFormData(input, options) {
  return entries(open(input, options, 'parseFormData'), fileEntry);
}

/** What readFormData keeps of a file part: the part and its data, read by the caller. */
const rawFile = (part, data) => ({ kind: 'file', part, data });

/**
 * A form body read to its end as a FormData: files as `File`s (the whole body at most 1 MiB
 * unless `limits.maxBodyBytes` says otherwise), or, with `uploadHandler`, each as what it
 * answers for the FileUpload.
 * @param {any} input
 * @param {object|Function} [options] the options, or the upload handler
 * @param {Function} [uploadHandler]
 */
async function readFormData(input, options, uploadHandler) {
  const what = 'readFormData';
  // readFormData(request, uploadHandler), as @remix-run/form-data-parser's parseFormData.
  if (typeof options === 'function' && uploadHandler === undefined) {
    uploadHandler = options;
    options = undefined;
  }
  if (uploadHandler !== undefined && typeof uploadHandler !== 'function') {
    throw new TypeError(`${what}: uploadHandler must be a function`);
  }
  const handler = uploadHandler ?? null;
  const opened = open(input, options, what, handler === null ? READ_MAX_BODY_BYTES : undefined);
  const form = new FormData();
  for await (const entry of entries(opened, rawFile)) {
    if (entry.kind === 'field') {
      form.append(entry.name, entry.value);
      continue;
    }
    const { part, data } = entry;
    const type = fileType(part);
    if (handler === null) {
      // The File copies the pieces (a Blob's parts are copied when it is made).
      form.append(part.name, new File((await data.pieces()).pieces, part.filename, { type }));
      continue;
    }
    const upload = new FileUpload(MADE_HERE, { ...part, type }, data);
    const value = await handler(upload);
    // What the handler did not read is read past (and a stream it still holds errors).
    data.left();
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' || value instanceof Blob) {
      form.append(part.name, value);
    } else {
      throw new TypeError(`${what}: uploadHandler must answer a File, a Blob, a string, null or undefined`);
    }
  }
  return form;
}

module.exports = { parseFormData, readFormData, FileUpload, READ_MAX_BODY_BYTES };
