'use strict';
// The boundary with wasm, shared by every topic (query.cjs, uri.cjs, disposition.cjs, body.cjs):
// the wasm instance of src/faces/js/ and its protocol version, the layout it defines (read once
// at load: see src/faces/js/mod.rs for the span protocol), the input buffer strings are written
// into, the answer's buffers strings are read out of, the error class and the argument checks
// every public function makes.

const wasm = require('../pkg/reqparse.js');

/** The wire protocol version this package is written for (`ABI_VERSION` in src/faces/js/mod.rs). */
const ABI_VERSION = 3;

/** A load error: the package's JS and the wasm in js/pkg do not speak the same protocol. */
function mismatch(what) {
  return new Error(`reqparse: js/pkg/reqparse_bg.wasm ${what}: rebuild the wasm with \`npm run build\``);
}

/**
 * Refuses a wasm build speaking another protocol version than the package's JS: the two are
 * built together, and a stale js/pkg would misread every answer. A build older than the version
 * check has no `rp_abi_version` and counts as version 0. (The message names index.cjs, the
 * package's entry, as it always has.)
 */
function checkAbiVersion(found) {
  if (found !== ABI_VERSION) {
    throw mismatch(`speaks wire protocol version ${found}, index.cjs speaks version ${ABI_VERSION}`);
  }
}
checkAbiVersion(typeof wasm.rp_abi_version === 'function' ? wasm.rp_abi_version() : 0);

// The protocol's numbers, from the wasm that defines them (read once: they are constants).
const layout = JSON.parse(wasm.rp_layout());

/** `layout[path[0]][path[1]]…`; a missing entry is a load error, not a silent `undefined`. */
function fromLayout(...path) {
  let v = layout;
  for (const key of path) v = v !== null && typeof v === 'object' ? v[key] : undefined;
  if (v === undefined) throw mismatch(`has no ${path.join('.')} in its layout`);
  return v;
}

/** Longest input accepted, in UTF-16 code units (wasm memory never shrinks: this bounds it). */
const MAX_INPUT_LENGTH = fromLayout('maxInputLength');

// A span's top bits are its tag; below them, its offset. The input's tag is 0, so a span is
// the input's exactly when its start is at most MASK (asserted in src/faces/js/mod.rs).
const TAG_SHIFT = fromLayout('tagShift');
const MASK = 2 ** TAG_SHIFT - 1;
const TAG_INPUT = fromLayout('tags', 'input');
const TAG_TEXT = fromLayout('tags', 'text');
const TAG_UTF16 = fromLayout('tags', 'utf16');
// Slots of the header, in u32 words.
const H_SPANS = fromLayout('header', 'spans');
const H_SPANS_LEN = fromLayout('header', 'spansLen');
const H_TEXT = fromLayout('header', 'text');
const H_TEXT_LEN = fromLayout('header', 'textLen');
const H_UTF16 = fromLayout('header', 'utf16');
const H_UTF16_LEN = fromLayout('header', 'utf16Len');
const H_ERR_OFFSET = fromLayout('header', 'errOffset');
const H_ERR_INDEX = fromLayout('header', 'errIndex');

/**
 * Thrown for input reqparse rejects. `offset` is the byte offset in the input's UTF-8 encoding
 * (what every reqparse face reports); `index` is the same position as a UTF-16 index into the
 * JS string.
 */
class ReqparseError extends TypeError {
  constructor(message, offset, index = offset) {
    super(message);
    this.name = 'ReqparseError';
    this.offset = offset;
    this.index = index;
  }
}

const memory = wasm.rp_memory();
const header = wasm.rp_header() >>> 2;
let u32;
let bytes;
let inputPtr = 0;
let inputCap = 0;
let inputView;

// Views detach whenever wasm memory grows; a detached view has length 0.
function views() {
  u32 = new Uint32Array(memory.buffer);
  bytes = Buffer.from(memory.buffer);
  inputView = bytes.subarray(inputPtr, inputPtr + inputCap);
}
views();

// Decoded buffers of the last answer, sliced by str().
let text = '';
let utf16 = '';

function checkLength(s) {
  if (s.length > MAX_INPUT_LENGTH) tooLong(s);
}

/** checkLength's throw, out of line (see notString). */
function tooLong(s) {
  throw new ReqparseError(
    `input of ${s.length} UTF-16 code units is over the limit of ${MAX_INPUT_LENGTH}`,
    MAX_INPUT_LENGTH,
  );
}

// Buffer's per-encoding methods skip the argument checks of write()/toString(); they are not
// documented, so fall back to the documented calls should a Node version drop them.
const proto = Buffer.prototype;
const utf8Write =
  typeof proto.utf8Write === 'function' ? (b, s, n) => b.utf8Write(s, 0, n) : (b, s, n) => b.write(s, 0, n, 'utf8');
const latin1Slice =
  typeof proto.latin1Slice === 'function' ? (b, s, e) => b.latin1Slice(s, e) : (b, s, e) => b.toString('latin1', s, e);
const ucs2Slice =
  typeof proto.ucs2Slice === 'function' ? (b, s, e) => b.ucs2Slice(s, e) : (b, s, e) => b.toString('utf16le', s, e);

/** Makes the wasm input buffer hold at least `need` bytes, with live views on it. */
function reserve(need) {
  if (need > inputCap) {
    const ptr = wasm.rp_input(need);
    if (ptr === 0) throw new Error('reqparse: wasm input buffer unavailable');
    inputPtr = ptr;
    inputCap = need;
    views();
  } else if (u32.length === 0) {
    views();
  }
}

/** Writes `s` as UTF-8 into the wasm input buffer; returns the byte length. */
function write(s) {
  checkLength(s);
  // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2 units).
  const need = s.length * 3;
  reserve(need);
  return utf8Write(inputView, s, need);
}

/**
 * Copies raw bytes into the wasm input buffer as they are; returns their length. The cap is
 * MAX_INPUT_LENGTH bytes (a string's cap in code units: never more memory than a string's).
 */
function writeBytes(b) {
  if (b.length > MAX_INPUT_LENGTH) {
    throw new ReqparseError(`input of ${b.length} bytes is over the limit of ${MAX_INPUT_LENGTH}`, MAX_INPUT_LENGTH);
  }
  reserve(b.length);
  inputView.set(b);
  return b.length;
}

function answer() {
  if (u32.length === 0) views();
  const textLen = u32[header + H_TEXT_LEN];
  if (textLen !== 0) {
    const p = u32[header + H_TEXT];
    text = latin1Slice(bytes, p, p + textLen);
  }
  const utf16Len = u32[header + H_UTF16_LEN];
  if (utf16Len !== 0) {
    const p = u32[header + H_UTF16];
    utf16 = ucs2Slice(bytes, p, p + 2 * utf16Len);
  }
  return u32[header + H_SPANS] >>> 2;
}

/**
 * The u32 view answer() read the header through, for a topic that reads the spans itself. Asked
 * for after answer(), not kept: a view is replaced when wasm memory grows.
 */
function answerWords() {
  return u32;
}

/** How many strings the last answer holds. */
function answerStrings() {
  return u32[header + H_SPANS_LEN] >>> 1;
}

/** String `i` of the answer whose spans start at word `base`; `s` is the caller's input. */
function str(s, base, i) {
  const start = u32[base + 2 * i];
  const end = u32[base + 2 * i + 1] & MASK;
  switch (start >>> TAG_SHIFT) {
    case TAG_INPUT:
      return s.slice(start, end);
    case TAG_TEXT:
      return text.slice(start & MASK, end);
    case TAG_UTF16:
      return utf16.slice(start & MASK, end);
    default:
      return null;
  }
}

/** Throws the error of the answer at `base`; input given as bytes has no JS string to index. */
function fail(s, base, bytesInput = false) {
  const offset = u32[header + H_ERR_OFFSET];
  throw new ReqparseError(str(s, base, 0), offset, bytesInput ? offset : u32[header + H_ERR_INDEX]);
}

/** The input as wasm saw it: UTF-8 encoding turns lone surrogates into U+FFFD, so must we. */
function wellFormed(s, written) {
  return written === s.length || s.isWellFormed() ? s : s.toWellFormed();
}

function expectString(value, what) {
  if (typeof value !== 'string') notString(value, what);
  return value;
}

/**
 * expectString's throw, out of line. TurboFan inlines a callee's whole bytecode, the message's
 * template literal included, into one budget per optimized function: with it inline,
 * buildAbsolute's six checks left too little budget for its helpers (realistic parts 77-96 ns a
 * call in `npm run bench`, 72-74 without, with uri.cjs's part() testing for a string first).
 */
function notString(value, what) {
  throw new TypeError(`${what} must be a string, got ${value === null ? 'null' : typeof value}`);
}

/**
 * `options` as an object (EMPTY for none). With `known`, a key outside it is a TypeError naming
 * it: a misspelt option (`decode_2047`, `Profile`) would otherwise be silently ignored.
 */
function expectOptions(options, what, known) {
  if (options === undefined || options === null) return EMPTY;
  if (typeof options !== 'object') throw new TypeError(`${what} options must be an object`);
  if (known !== undefined) {
    // for-in, not Object.keys: no array made per call. Own keys come first, in the same order.
    for (const key in options) {
      if (!known.includes(key) && Object.hasOwn(options, key)) {
        throw new TypeError(`${what}: unknown option '${key}' (known: ${known.join(', ')})`);
      }
    }
  }
  return options;
}
const EMPTY = Object.freeze({});

/** `{name: wire number}`: a profile's number is its index in the list the wasm gives. */
const profileTable = (names) => Object.fromEntries(names.map((name, i) => [name, i]));
/** The core lists each module's default profile first. */
const DEFAULT_PROFILE = 0;

function profileOf(table, profile, fallback, what) {
  if (profile === undefined) return fallback;
  const p = typeof profile === 'string' && Object.hasOwn(table, profile) ? table[profile] : -1;
  if (p < 0) {
    throw new TypeError(
      `${what}: profile must be one of ${Object.keys(table).map((k) => `'${k}'`).join(', ')}`,
    );
  }
  return p;
}

function flag(value, name) {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`option ${name} must be a boolean`);
  return value;
}

module.exports = {
  wasm,
  mismatch,
  fromLayout,
  MAX_INPUT_LENGTH,
  MASK,
  ReqparseError,
  checkLength,
  write,
  writeBytes,
  answer,
  answerWords,
  answerStrings,
  str,
  fail,
  wellFormed,
  expectString,
  expectOptions,
  EMPTY,
  profileTable,
  DEFAULT_PROFILE,
  profileOf,
  flag,
};
