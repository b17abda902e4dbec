'use strict';
// The idiomatic JS layer over the wasm exports of src/faces/js/. Parsing happens in wasm; this
// file moves strings across the boundary (see src/faces/js/mod.rs for the span protocol, which
// it defines) and shapes answers. Small inputs of the common shapes are answered in JS instead
// (fast.cjs, and shortPairs below), with exactly wasm's answers: wasm's fixed cost per call is
// more than their whole work (js/BENCHMARKS.md, test/differential.test.mjs).

const wasm = require('./pkg/reqparse.js');
const fast = require('./fast.cjs');

/**
 * Whether the pure-JS paths (fast.cjs, shortPairs) may answer. Only the differential test turns
 * them off, through the internal hook at the end of this file, to compare them with wasm.
 */
let fastPaths = true;

/** The wire protocol version this file is written for (`ABI_VERSION` in src/faces/js/mod.rs). */
const ABI_VERSION = 2;

/** A load error: this file and the wasm in js/pkg do not speak the same protocol. */
function mismatch(what) {
  return new Error(`reqparse: js/pkg/reqparse_bg.wasm ${what}: rebuild the wasm with \`npm run build\``);
}

/**
 * Refuses a wasm build speaking another protocol version than this file: the two are built
 * together, and a stale js/pkg would misread every answer. A build older than the version
 * check has no `rp_abi_version` and counts as version 0.
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

/** Below this length a pure-JS scan beats the fixed cost of a wasm call (see queryPairs). */
const SHORT_QUERY = 32;
/**
 * Below this length fast.cjs's scan (native indexOf, decoding in JS) beats wasm on queries
 * with escapes as on plain ones (js/BENCHMARKS.md): wasm's fixed cost and the answer's
 * reading outweigh its faster scan until about 1 KB of a realistic query.
 */
const JS_QUERY = 1024;
/**
 * The same for parseQuery, whose wasm answer costs more to read; under 2,000 UTF-16 units, so
 * the map's limits (1,000 pairs: each but the last takes two units; 64 KiB decoded: 3 bytes a
 * unit at most) never apply.
 */
const SHORT_MAP = 1536;

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
 * call in `npm run bench`, 72-74 without, with part() below testing for a string first).
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
const QUERY_PROFILES = profileTable(fromLayout('queryProfiles'));
/** The core lists each module's default profile first. */
const DEFAULT_PROFILE = 0;
/** The query profile that rejects a `%` without two hex digits (the others keep it). */
const QUERY_STRICT = QUERY_PROFILES.strict;
const DISPOSITION_PROFILES = profileTable(fromLayout('dispositionProfiles'));
/** The profile fast.cjs's disposition() follows. */
const STRICT = DISPOSITION_PROFILES.strict;
// Without options the profile is the default, which fast.cjs's disposition() must then be.
if (STRICT !== DEFAULT_PROFILE) throw mismatch('lists another default Content-Disposition profile than strict');

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

// parseMultipart, parseForm, decodeChunked: body.cjs, over the same wasm instance.
const { parseMultipart, parseForm, decodeChunked } = require('./body.cjs')({
  wasm,
  fromLayout,
  ReqparseError,
  QUERY_PROFILES,
  profileOf,
  expectOptions,
});

function flag(value, name) {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`option ${name} must be a boolean`);
  return value;
}

// The keys each function takes (anything else throws: see expectOptions).
const QUERY_PAIRS_OPTIONS = ['profile', 'raw'];
const PARSE_QUERY_OPTIONS = ['profile', 'ignoreCase'];
const DISPOSITION_OPTIONS = ['profile', 'decode2047'];
const DISPOSITION_INIT = ['type', 'filename', 'parameters'];

// ---- query strings --------------------------------------------------------------------------

/**
 * A query function's options (checked in this order: keys, profile, flag): its profile and its
 * boolean option `name` (`raw`, `ignoreCase`). Without options neither function calls this.
 */
function queryOptions(options, what, known, name) {
  const o = expectOptions(options, what, known);
  return [profileOf(QUERY_PROFILES, o.profile, DEFAULT_PROFILE, what), flag(o[name], name)];
}

/**
 * The pairs of a query string, in order, as `[name, value]` arrays.
 * @param {string} query
 * @param {{profile?: 'whatwg'|'dotnet'|'strict', raw?: boolean}} [options]
 */
function queryPairs(query, options) {
  expectString(query, 'queryPairs: query');
  let profile = DEFAULT_PROFILE;
  let raw = false;
  if (options !== undefined) [profile, raw] = queryOptions(options, 'queryPairs', QUERY_PAIRS_OPTIONS, 'raw');
  if (fastPaths) {
    const pairs = jsPairs(query, profile, raw);
    if (pairs !== undefined) return pairs;
  }
  return wasmPairs(query, profile, raw);
}

/**
 * queryPairs' answer from wasm. A function of its own, so that queryPairs stays small enough
 * to inline into its callers and this loop is compiled on its own inlining budget.
 */
function wasmPairs(query, profile, raw) {
  const written = write(query);
  const n = wasm.rp_query_pairs(written, profile, raw, written === query.length);
  const q = wellFormed(query, written);
  const base = answer();
  if (n < 0) fail(q, base);
  const pairs = new Array(n);
  // str() inlined for the common case, a slice of the caller's string (tag 00).
  for (let i = 0, j = base; i < n; i++, j += 4) {
    const ns = u32[j];
    const vs = u32[j + 2];
    pairs[i] = [
      ns <= MASK ? q.slice(ns, u32[j + 1]) : str(q, j, 0),
      vs <= MASK ? q.slice(vs, u32[j + 3]) : str(q, j + 2, 0),
    ];
  }
  return pairs;
}

/**
 * queryPairs' answer from a JS path, or undefined when none takes the query (wasm answers).
 * Short queries: a JS scan beats wasm's fixed cost. Long ones of many tiny pairs (`a=%41&`):
 * wasm's cost per pair and the answer's reading outweigh its faster scan.
 */
function jsPairs(q, profile, raw) {
  const lenient = profile !== QUERY_STRICT;
  if (q.length < SHORT_QUERY) return shortPairs(q, raw);
  if (q.length < JS_QUERY) return fast.queryPairs(q, raw, lenient);
  if (q.length > MAX_INPUT_LENGTH) return undefined;
  return tinyPairs(q) ? fast.queryPairs(q, raw, lenient) : undefined;
}

/**
 * Whether a long query looks like many tiny pairs (`a=%41&` …), where wasm's cost per pair
 * outweighs its faster scan and fast.cjs answers sooner: an `&` every 12 chars or more often
 * over its first 512, none of them doubled (runs of `&`, which wasm skips far faster).
 */
function tinyPairs(q) {
  let n = 0;
  for (let at = q.indexOf('&'); at >= 0 && at < 512; at = q.indexOf('&', at + 1)) {
    if (q.charCodeAt(at + 1) === 38) return false;
    n++;
  }
  return n >= 512 / 12;
}

// 1 + the digit's value for ASCII hex digits, 0 for anything else.
const HEX = new Uint8Array(128);
for (const [i, c] of [...'0123456789abcdef'].entries()) {
  HEX[c.charCodeAt(0)] = i + 1;
  HEX[c.toUpperCase().charCodeAt(0)] = i + 1;
}

/**
 * The answer for a short query, computed in JS, or undefined when the query holds anything this
 * path does not take: non-ASCII or control characters, or a `%` not followed by an ASCII escape
 * (`%00`–`%7F`). On what it takes every profile agrees (they differ only on malformed escapes
 * and invalid UTF-8), and decodeURIComponent decodes exactly as the WHATWG percent-decode +
 * UTF-8 decode does, and cannot throw.
 */
function shortPairs(q, raw) {
  const len = q.length;
  const pairs = [];
  let i = q.charCodeAt(0) === 63 /* ? */ ? 1 : 0;
  let start = i;
  let eq = -1;
  let escaped = false;
  for (; i <= len; i++) {
    const c = i < len ? q.charCodeAt(i) : 38;
    if (c === 38 /* & */) {
      if (i > start) {
        if (eq < 0) eq = i;
        if (escaped && !raw) {
          const value = eq < i ? q.slice(eq + 1, i) : '';
          pairs[pairs.length] = [unescape(q.slice(start, eq)), unescape(value)];
        } else {
          // A one-char part as `q[start]`: inlined, where a slice calls V8's builtin (`a=1&b=2`:
          // 1.07-1.18x faster). Not for parts unescape() reads: its strings' maps would mix.
          const name = eq - start === 1 ? q[start] : q.slice(start, eq);
          const value = i - eq === 2 ? q[eq + 1] : eq < i ? q.slice(eq + 1, i) : '';
          pairs[pairs.length] = [name, value];
        }
      }
      start = i + 1;
      eq = -1;
      escaped = false;
    } else if (c === 61 /* = */) {
      if (eq < 0) eq = i;
    } else if (c === 43 /* + */) {
      escaped = true;
    } else if (c === 37 /* % */) {
      const hi = q.charCodeAt(i + 1);
      if (!(hi >= 48 && hi <= 55) || !(HEX[q.charCodeAt(i + 2)] > 0)) return undefined;
      escaped = true;
      i += 2;
    } else if (c < 0x20 || c > 0x7e) {
      return undefined;
    }
  }
  return pairs;
}

/** `+` → space and `%XX` → its byte, for text shortPairs vetted (ASCII escapes only). */
function unescape(s) {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 43 /* + */) {
      out += `${s.slice(last, i)} `;
      last = i + 1;
    } else if (c === 37 /* % */) {
      const byte = (HEX[s.charCodeAt(i + 1)] - 1) * 16 + HEX[s.charCodeAt(i + 2)] - 1;
      out += s.slice(last, i) + String.fromCharCode(byte);
      i += 2;
      last = i + 1;
    }
  }
  return last === 0 ? s : out + s.slice(last);
}

/** QueryMap's non-public constructor from pairs. */
const FROM_PAIRS = Symbol('fromPairs');
/** Up to this many pairs, `get` on a map made from pairs scans them instead of indexing. */
const LINEAR_MAX = 16;
/** Past LINEAR_MAX pairs, the first this many `get`s scan too; the next builds the map. */
const LINEAR_SCANS = 4;

// ASCII-only, as the core's ignore_case: the Kelvin sign is not a K.
const fold = (name) => name.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/**
 * A parsed query for repeated lookups: names in first-appearance order, each with its values
 * in input order. Build one with parseQuery().
 */
class QueryMap {
  /** `key → [name, values]` (built on first need when the map was made from pairs). */
  #built;
  /** The `[name, value]` pairs it was made from (parseQuery's JS path), else null. */
  #pairs = null;
  /** Lookups answered by scanning the pairs, before the map is built. */
  #scans = 0;
  #ignoreCase;

  /** @param {Iterable<[string, string[]]>} entries @param {boolean} ignoreCase */
  constructor(entries = [], ignoreCase = false) {
    this.#ignoreCase = ignoreCase;
    if (entries === FROM_PAIRS) {
      // [FROM_PAIRS]: no entries to read, no map to make yet.
      this.#built = null;
      return;
    }
    this.#built = new Map();
    for (const [name, values] of entries) {
      const key = ignoreCase ? fold(name) : name;
      const e = this.#built.get(key);
      if (e) e[1].push(...values);
      else this.#built.set(key, [name, [...values]]);
    }
  }

  /** The map, built from the pairs if it was not yet. */
  get #map() {
    let m = this.#built;
    if (m === null) {
      m = new Map();
      const ignoreCase = this.#ignoreCase;
      const pairs = this.#pairs;
      for (let i = 0; i < pairs.length; i++) {
        const [name, value] = pairs[i];
        const key = ignoreCase ? fold(name) : name;
        const e = m.get(key);
        if (e === undefined) m.set(key, [name, [value]]);
        else e[1].push(value);
      }
      this.#built = m;
      this.#pairs = null;
    }
    return m;
  }

  #entry(name) {
    return this.#map.get(this.#ignoreCase ? fold(String(name)) : String(name));
  }

  /** The first value of `name`, or null. */
  get(name) {
    const pairs = this.#pairs;
    if (pairs !== null && !this.#ignoreCase && (pairs.length <= LINEAR_MAX || this.#scans++ < LINEAR_SCANS)) {
      // A few pairs, or the first few lookups (the usual parseQuery + get): a scan costs
      // less than building the map, as in the core's QueryMap.
      const key = String(name);
      for (let i = 0; i < pairs.length; i++) if (pairs[i][0] === key) return pairs[i][1];
      return null;
    }
    const e = this.#entry(name);
    return e === undefined ? null : e[1][0];
  }

  /** Every value of `name`, in input order (a new array). */
  getAll(name) {
    const e = this.#entry(name);
    return e === undefined ? [] : e[1].slice();
  }

  has(name) {
    return this.#entry(name) !== undefined;
  }

  /** The number of distinct names. */
  get size() {
    return this.#map.size;
  }

  *keys() {
    for (const e of this.#map.values()) yield e[0];
  }

  *values() {
    for (const e of this.#map.values()) yield e[1].slice();
  }

  *entries() {
    for (const e of this.#map.values()) yield [e[0], e[1].slice()];
  }

  [Symbol.iterator]() {
    return this.entries();
  }

  /** A map of `[name, value]` pairs, in order (parseQuery's JS path; not public). */
  static [FROM_PAIRS](pairs, ignoreCase) {
    const m = new QueryMap(FROM_PAIRS, ignoreCase);
    m.#pairs = pairs;
    return m;
  }

  forEach(callback, thisArg) {
    for (const [name, values] of this.entries()) callback.call(thisArg, values, name, this);
  }

  /** `{name: [values...]}`, the shape every reqparse face reports. */
  toJSON() {
    return Object.fromEntries(this.entries());
  }
}

/**
 * @param {string} query
 * @param {{profile?: 'whatwg'|'dotnet'|'strict', ignoreCase?: boolean}} [options]
 */
function parseQuery(query, options) {
  expectString(query, 'parseQuery: query');
  let profile = DEFAULT_PROFILE;
  let ignoreCase = false;
  if (options !== undefined) {
    [profile, ignoreCase] = queryOptions(options, 'parseQuery', PARSE_QUERY_OPTIONS, 'ignoreCase');
  }
  if (query.length < SHORT_MAP && fastPaths) {
    const pairs = query.length < SHORT_QUERY ? shortPairs(query, false) : fast.queryPairs(query, false, profile !== QUERY_STRICT);
    if (pairs !== undefined) return QueryMap[FROM_PAIRS](pairs, ignoreCase);
  }
  const written = write(query);
  const n = wasm.rp_query_map(written, profile, ignoreCase, written === query.length);
  const q = wellFormed(query, written);
  const base = answer();
  if (n < 0) fail(q, base);
  const strings = u32[header + H_SPANS_LEN] >>> 1;
  const entries = new Array(n);
  let j = 0;
  for (let i = 0; i < n; i++) {
    const name = str(q, base, j++);
    const values = [];
    for (let v = str(q, base, j++); v !== null && j <= strings; v = str(q, base, j++)) values.push(v);
    entries[i] = [name, values];
  }
  return new QueryMap(entries, ignoreCase);
}

// ---- URIs -----------------------------------------------------------------------------------

const RELATIVE_PARTS = ['pathBase', 'path', 'query', 'fragment'];
const ABSOLUTE_PARTS = ['scheme', 'host', ...RELATIVE_PARTS];

// The same lists as switches: half the cost of includes() in the per-call key check, where
// buildAbsolute spends most of its time when nothing needs escaping.
function isRelativePart(key) {
  switch (key) {
    case 'pathBase':
    case 'path':
    case 'query':
    case 'fragment':
      return true;
    default:
      return false;
  }
}
const isAbsolutePart = (key) => key === 'scheme' || key === 'host' || isRelativePart(key);

/** expectOptions for a builder's parts, its key check a switch (`isKnown`). */
function expectParts(parts, what, known, isKnown) {
  if (parts === undefined || parts === null) return EMPTY;
  if (typeof parts !== 'object') throw new TypeError(`${what} options must be an object`);
  for (const key in parts) {
    if (!isKnown(key) && Object.hasOwn(parts, key)) return expectOptions(parts, what, known);
  }
  return parts;
}

/** A part's value: absent is empty, anything else must be a string. */
function part(v, key) {
  return typeof v === 'string' ? v : v == null ? '' : expectString(v, key);
}

/**
 * `scheme://host/pathBase/path?query#fragment`, each part escaped as needed (query and
 * fragment are passed with their leading `?`/`#`).
 */
function buildAbsolute(parts) {
  const p = expectParts(parts, 'buildAbsolute', ABSOLUTE_PARTS, isAbsolutePart);
  // Every part's type checked in order, then every length, then the JS path, then wasm. (The
  // two builders do not share this body: a call site each keeps V8's feedback monomorphic,
  // ~10 ns of a 100 ns call.)
  const scheme = part(p.scheme, 'scheme');
  const host = part(p.host, 'host');
  const pathBase = part(p.pathBase, 'pathBase');
  const path = part(p.path, 'path');
  const query = part(p.query, 'query');
  const fragment = part(p.fragment, 'fragment');
  checkLengths(scheme, host, pathBase, path, query, fragment);
  const s = fastPaths ? fast.buildAbsolute(scheme, host, pathBase, path, query, fragment) : undefined;
  if (s !== undefined) return s;
  const built = wasm.rp_build_absolute(scheme, host, pathBase, path, query, fragment);
  if (built === undefined) fail('', answer());
  return built;
}

/** `pathBase/path?query#fragment`, escaped as needed (checked as buildAbsolute's). */
function buildRelative(parts) {
  const p = expectParts(parts, 'buildRelative', RELATIVE_PARTS, isRelativePart);
  const pathBase = part(p.pathBase, 'pathBase');
  const path = part(p.path, 'path');
  const query = part(p.query, 'query');
  const fragment = part(p.fragment, 'fragment');
  checkLengths('', '', pathBase, path, query, fragment);
  const s = fastPaths ? fast.buildRelative(pathBase, path, query, fragment) : undefined;
  return s ?? wasm.rp_build_relative(pathBase, path, query, fragment);
}

/** checkLength() of each part, in order; their sum under the limit puts each under it. */
function checkLengths(scheme, host, pathBase, path, query, fragment) {
  const total = scheme.length + host.length + pathBase.length + path.length + query.length + fragment.length;
  if (total > MAX_INPUT_LENGTH) eachLength(scheme, host, pathBase, path, query, fragment);
}

/** checkLengths' error: the first part over the limit, in order (out of line, see notString). */
function eachLength(...parts) {
  for (const s of parts) checkLength(s);
}

/** Splits an absolute URI into `{scheme, host, path, query, fragment}` (path unescaped). */
function splitAbsolute(uri) {
  expectString(uri, 'splitAbsolute: uri');
  if (fastPaths && uri.length <= MAX_INPUT_LENGTH) {
    const parts = fast.splitAbsolute(uri);
    if (parts !== undefined) return parts;
  }
  const written = write(uri);
  const n = wasm.rp_split_absolute(written, written === uri.length);
  const s = wellFormed(uri, written);
  const base = answer();
  if (n < 0) fail(s, base);
  return {
    scheme: str(s, base, 0),
    host: str(s, base, 1),
    path: str(s, base, 2),
    query: str(s, base, 3),
    fragment: str(s, base, 4),
  };
}

// ---- Content-Disposition --------------------------------------------------------------------

/**
 * A header value as text (a string: any char reads as itself) or as the raw header bytes (a
 * Uint8Array: valid UTF-8 reads as UTF-8, anything else as ISO-8859-1, as the Rust core reads
 * bytes). Node's `req.headers` holds each header byte as one char: `Buffer.from(value,
 * 'latin1')` gives its bytes back.
 * @param {string|Uint8Array} header
 * @param {{profile?: 'strict'|'browser'|'dotnet', decode2047?: boolean}} [options]
 */
function parseContentDisposition(header, options) {
  const isText = typeof header === 'string';
  if (isText && options === undefined && fastPaths) {
    const cd = fast.disposition(header, false);
    if (cd !== undefined) return cd;
  }
  return dispositionOf(header, isText, options);
}

/** parseContentDisposition past its JS path for a string without options. */
function dispositionOf(header, isText, options) {
  const what = 'parseContentDisposition';
  if (!isText && !(header instanceof Uint8Array)) {
    throw new TypeError(`${what}: header must be a string or a Uint8Array, got ${header === null ? 'null' : typeof header}`);
  }
  const o = expectOptions(options, what, DISPOSITION_OPTIONS);
  const profile = profileOf(DISPOSITION_PROFILES, o.profile, DEFAULT_PROFILE, what);
  const decode2047 = flag(o.decode2047, 'decode2047');
  if (isText && profile === STRICT && fastPaths && options !== undefined) {
    const cd = fast.disposition(header, decode2047);
    if (cd !== undefined) return cd;
  }
  // Bytes have no JS string whose slices could answer: every answer string comes from wasm.
  const written = isText ? write(header) : writeBytes(header);
  const n = wasm.rp_disposition(written, profile, decode2047, isText && written === header.length);
  const s = isText ? wellFormed(header, written) : '';
  const base = answer();
  if (n < 0) fail(s, base, !isText);
  const parameters = new Array(n);
  for (let i = 0; i < n; i++) {
    parameters[i] = [str(s, base, 2 + 2 * i), str(s, base, 3 + 2 * i)];
  }
  return { type: str(s, base, 0), filename: str(s, base, 1), parameters };
}

/**
 * A Content-Disposition header value, with `filename*` added when the name needs it. Throws a
 * plain `Error` with the crate's message when the header would not parse back to the same
 * type, filename and parameters (type or name not a token, a parameter twice, too many items,
 * too long).
 */
function formatContentDisposition(value) {
  const v = expectOptions(value, 'formatContentDisposition', DISPOSITION_INIT);
  const type = expectString(v.type, 'formatContentDisposition: type');
  const filename = v.filename === undefined || v.filename === null ? undefined : expectString(v.filename, 'filename');
  const flat = [];
  for (const p of v.parameters ?? []) {
    if (!Array.isArray(p) || p.length !== 2) {
      throw new TypeError('formatContentDisposition: parameters must be [name, value] pairs');
    }
    flat.push(expectString(p[0], 'parameter name'), expectString(p[1], 'parameter value'));
  }
  for (const s of [type, filename ?? '', ...flat]) checkLength(s);
  return wasm.rp_format_disposition(type, filename, flat);
}

module.exports = {
  ReqparseError,
  QueryMap,
  MAX_INPUT_LENGTH,
  queryPairs,
  parseQuery,
  buildAbsolute,
  buildRelative,
  splitAbsolute,
  parseContentDisposition,
  formatContentDisposition,
  parseMultipart,
  parseForm,
  decodeChunked,
};

// Internal, for test/differential.test.mjs only (not documented, not a contract): turns the
// pure-JS paths off and on, so that the same inputs can be answered by wasm alone.
Object.defineProperty(module.exports, Symbol.for('reqparse.internal'), {
  value: Object.freeze({
    setFastPaths(on) {
      fastPaths = on === true;
    },
    fast,
  }),
});
