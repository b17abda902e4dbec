// The reqparse WebAssembly component from JavaScript, through jco.
//
//   npm ci && npm run transpile   # jco transpile -> generated/reqparse.js (an ES module)
//   node reqparse-host.mjs
//
// The component imports nothing: the transpiled module needs no WASI shim. It is ESM: import
// it from a module (this package has "type": "module", and `npm run transpile` writes one into
// generated/ too), never require() it. docs/host-authors.md tells how each WIT type looks here.

import { pathToFileURL } from 'node:url';
import { query, disposition, body } from './generated/reqparse.js';

const utf8 = new TextEncoder();
const text = new TextDecoder('utf-8', { ignoreBOM: true }); // keeps a leading U+FEFF
// Resources free their guest object with [Symbol.dispose]() (`using` where the engine has it);
// before Node 24, jco names the method Symbol.for('dispose').
export const dispose = Symbol.dispose ?? Symbol.for('dispose');

// A `result` is the value, or a thrown ComponentError whose `payload` is the error record
// (its message alone prints "[object Object] (see error.payload)").
export function attempt(call) {
  try {
    return { ok: call() };
  } catch (e) {
    if (e.payload === undefined) throw e; // a trap, not a WIT error
    return { err: e.payload };
  }
}

// A multipart/form-data body fed read by read. `feed` returns the read's events:
// { tag: 'part', name, filename, contentType, mimeType, index }, { tag: 'data', bytes },
// { tag: 'part-end' }, { tag: 'end' }; a multipart-error throws (`error` and the `events` found
// before it). With `decide`, it decides about each part before its data is read. `contentType`
// is the header as sent; `mimeType` the MIME type Fetch reads in it, serialized
// ('text/plain;charset=utf-8': the essence up to the first `;`, then the parameters), undefined
// when there is no Content-Type or it is not a MIME type (both Uint8Arrays).
export class MultipartStream {
  constructor(boundary, profile = 'fetch', limits = {}) {
    // limits: { maxParts: 10, ... }; an absent field is the crate's default.
    this.reader = body.MultipartReader.create(utf8.encode(boundary), profile, limits);
    this.held = new Uint8Array(0); // what the guest kept from the last feed: the next window's head
  }

  // The events `read` completes. `decide(stream, partEvent)`, when given, is called at each part
  // before any of its data is read, and may call limitPart or skipPart: the reads go through
  // `feed-to-part`, which stops right after a part event, and on (with no new bytes) once it
  // is decided.
  feed(read, eof = false, decide = undefined) {
    if (!decide) return this.#feed(read, eof, false);
    const events = [];
    for (;;) {
      let fed;
      try {
        fed = this.#feed(read, eof, true);
      } catch (e) {
        if (e.events) e.events = [...events, ...e.events];
        throw e;
      }
      events.push(...fed);
      if (fed.at(-1)?.tag !== 'part') return events; // stopped where `feed` stops
      decide(this, fed.at(-1));
      read = new Uint8Array(0); // on with what the guest holds
    }
  }

  // One call: `feed`, or with `toPart` `feed-to-part`.
  #feed(read, eof, toPart) {
    const window = new Uint8Array(this.held.length + read.length); // every span indexes it
    window.set(this.held);
    window.set(read, this.held.length);
    const fed = toPart ? this.reader.feedToPart(read, eof) : this.reader.feed(read, eof);
    const over = fed.error || fed.events.at(-1)?.tag === 'end'; // then nothing is held
    this.held = over ? new Uint8Array(0) : window.slice(window.length - fed.held);
    const raw = (span) => window.subarray(span.start, span.start + span.len);
    // A `text` or `bytes` variant: a span of the window, or of this feed's `decoded`.
    const bytes = (t) => (t.tag === 'window' ? raw(t.val)
      : fed.decoded.subarray(t.val.start, t.val.start + t.val.len));
    const str = (t) => text.decode(bytes(t));
    const events = fed.events.map(({ tag, val }) => {
      if (tag === 'part') {
        const { name, filename, contentType, mimeType, index } = val;
        return { tag, name: str(name), filename: filename && str(filename.effective),
          contentType: contentType && raw(contentType), mimeType: mimeType && bytes(mimeType),
          index };
      }
      return tag === 'data' ? { tag, bytes: raw(val) } : { tag };
    });
    if (fed.error) { // final: every later feed answers it again
      throw Object.assign(new Error(fed.error.message), { error: fed.error, events });
    }
    return events;
  }

  // The current part's data limit, in place of maxFileBytes or maxValueBytes (`limit-part`):
  // false, and no change, outside a part.
  limitPart(maxBytes) {
    return this.reader.limitPart(BigInt(maxBytes)); // u64: a BigInt, or a number
  }

  // Reads past the current part's data without data events (`skip-part`): false, and no
  // change, outside a part.
  skipPart() {
    return this.reader.skipPart();
  }

  close() {
    this.reader[dispose](); // frees the reader in the guest
  }
}

function main() {
  console.log(query.pairs('?name=J%C3%BCrgen+M&tag=a&tag=b', 'whatwg'));
  const bad = attempt(() => query.pairs('a=%zz', 'strict'));
  console.log('strict:', bad.err.offset, bad.err.message);

  // Header values are bytes (they may hold obs-text): Uint8Array.
  const cd = disposition.parse(utf8.encode("attachment; filename*=UTF-8''%E2%82%AC%20rates.txt"),
    'strict', false);
  console.log(cd.type, cd.filename, cd.parameters);

  const data = utf8.encode('--XyZ\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n'
    + '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n'
    + 'Content-Type: Text/Plain; Charset="UTF-8"\r\n\r\nfile body\r\n--XyZ--\r\n');
  const stream = new MultipartStream('XyZ');
  for (let at = 0; at < data.length; at += 7) { // reads cut anywhere
    for (const event of stream.feed(data.subarray(at, at + 7), at + 7 >= data.length)) {
      const { bytes, contentType, mimeType } = event; // Uint8Arrays, printed as text here
      console.log({ ...event, ...(bytes && { bytes: text.decode(bytes) }),
        ...(contentType && { contentType: text.decode(contentType) }),
        ...(mimeType && { mimeType: text.decode(mimeType) }) });
    }
  }
  stream.close();

  // A decision per part, made before its data is read: files of at most 4 bytes, and fields
  // named "note" dropped unread.
  const decide = (s, part) => {
    if (part.filename !== undefined) s.limitPart(4);
    else if (part.name === 'note') s.skipPart();
  };
  const deciding = new MultipartStream('XyZ');
  try {
    deciding.feed(data, true, decide);
  } catch (e) { // "file body" is 9 bytes
    if (!e.error) throw e;
    console.log(e.events.filter((ev) => ev.tag !== 'part-end').map((ev) => ev.name ?? ev.tag),
      e.error.kind.val, e.error.part);
  }
  deciding.close();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) main();
