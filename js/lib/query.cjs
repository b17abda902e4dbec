'use strict';
// Query strings: queryPairs and parseQuery (QueryMap). Each call is answered by wasm
// (src/faces/js/strings.rs over the core's src/query/) or, for the small and common shapes, by
// the JS paths beside it (shortPairs, scanPairs), with exactly wasm's answers or none (the rules
// every JS path follows: index.cjs): wasm's fixed cost per call is more than their whole work
// (js/BENCHMARKS.md, "How small calls are answered"; test/differential.test.mjs).

const {
  wasm,
  MAX_INPUT_LENGTH,
  MASK,
  write,
  answer,
  answerWords,
  answerStrings,
  str,
  fail,
  wellFormed,
  expectString,
  expectOptions,
  fromLayout,
  profileTable,
  DEFAULT_PROFILE,
  profileOf,
  flag,
} = require('./wire.cjs');
const { HEX, seq, escapedChar, fromCodePoint, hexByte } = require('./chars.cjs');

/**
 * Whether the JS paths may answer. Only the differential test turns them off (setFastPaths,
 * through index.cjs's internal hook), to compare them with wasm.
 */
let fastPaths = true;

function setFastPaths(on) {
  fastPaths = on;
}

/** Below this length a pure-JS scan beats the fixed cost of a wasm call (see queryPairs). */
const SHORT_QUERY = 32;
/**
 * Below this length scanPairs (native indexOf, decoding in JS) beats wasm on queries with
 * escapes as on plain ones (js/BENCHMARKS.md): wasm's fixed cost and the answer's
 * reading outweigh its faster scan until about 1 KB of a realistic query.
 */
const JS_QUERY = 1024;
/**
 * The same for parseQuery, whose wasm answer costs more to read; under 2,000 UTF-16 units, so
 * the map's limits (1,000 pairs: each but the last takes two units; 64 KiB decoded: 3 bytes a
 * unit at most) never apply.
 */
const SHORT_MAP = 1536;

const QUERY_PROFILES = profileTable(fromLayout('queryProfiles'));
/** The query profile that rejects a `%` without two hex digits (the others keep it). */
const QUERY_STRICT = QUERY_PROFILES.strict;

// The keys each function takes (anything else throws: see expectOptions).
const QUERY_PAIRS_OPTIONS = ['profile', 'raw'];
const PARSE_QUERY_OPTIONS = ['profile', 'ignoreCase'];

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
  const u32 = answerWords();
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
  if (q.length < JS_QUERY) return scanPairs(q, raw, lenient);
  if (q.length > MAX_INPUT_LENGTH) return undefined;
  return tinyPairs(q) ? scanPairs(q, raw, lenient) : undefined;
}

/**
 * Whether a long query looks like many tiny pairs (`a=%41&` …), where wasm's cost per pair
 * outweighs its faster scan and scanPairs answers sooner: an `&` every 12 chars or more often
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

// ---- the JS scan (src/query/mod.rs, decode.rs) ----------------------------------------------

/**
 * The pairs of a query, each `[name, value]`, as `queryPairs` answers them in every profile:
 * one leading `?` skipped, empty segments skipped, `+` a space and `%XX` escapes decoded as
 * UTF-8 (unless `raw`). The profiles differ only on escapes that are not valid and on bytes
 * that are not UTF-8: those go to wasm, as do lone surrogates (the core sees U+FFFD), except
 * that with `lenient` (the Whatwg and DotNet profiles, which agree on it) a `%` that starts no
 * escape stays as written. The scan is the engine's native indexOf: no loop over the chars in
 * JS.
 */
function scanPairs(q, raw, lenient) {
  const len = q.length;
  if (!q.isWellFormed()) return undefined;
  let i = q.charCodeAt(0) === 63 /* ? */ ? 1 : 0;
  // Stored by index, not push()ed: a push onto a fresh `[]` stayed a call of V8's builtin in
  // the optimized code (perf: 17% of the API query's time), a store is inlined (the API query
  // 1.13x faster in bench/ab.mjs).
  const pairs = [];
  let n = 0;
  // The next `=`, `%` and `+` at or after `i` (-1: none left); each found once.
  let eq = q.indexOf('=', i);
  let pct = raw ? -1 : q.indexOf('%', i);
  let plus = raw ? -1 : q.indexOf('+', i);
  while (i < len) {
    let amp = q.indexOf('&', i);
    if (amp < 0) amp = len;
    if (amp === i) {
      // Empty segments (a run of `&`): nothing.
      while (q.charCodeAt(++i) === 38);
      continue;
    }
    if (eq !== -1 && eq < i) eq = q.indexOf('=', i);
    const nameEnd = eq !== -1 && eq < amp ? eq : amp;
    const valueStart = nameEnd < amp ? nameEnd + 1 : amp;
    if (pct !== -1 && pct < i) pct = q.indexOf('%', i);
    if (plus !== -1 && plus < i) plus = q.indexOf('+', i);
    if ((pct !== -1 && pct < amp) || (plus !== -1 && plus < amp)) {
      // `pct` and `plus` are the first at or after `i`: below `nameEnd`, they are the
      // name's. A plain name is sliced, not scanned again (tiny pairs, `a=%41&`: 10% faster).
      const nameEscaped = (pct !== -1 && pct < nameEnd) || (plus !== -1 && plus < nameEnd);
      const name = nameEscaped ? decodePart(q, i, nameEnd, lenient) : q.slice(i, nameEnd);
      const value = decodePart(q, valueStart, amp, lenient);
      if (name === undefined || value === undefined) return undefined;
      pairs[n++] = [name, value];
    } else {
      pairs[n++] = [q.slice(i, nameEnd), q.slice(valueStart, amp)];
    }
    i = amp + 1;
  }
  return pairs;
}

/**
 * `s[from..to]` with `+` as a space and the escapes decoded as UTF-8; undefined when the bytes
 * are not UTF-8, or when an escape is not valid unless `lenient` (a `%` without two hex digits
 * after it then stays as written, as WHATWG and .NET keep it).
 */
function decodePart(s, from, to, lenient) {
  let out = '';
  let last = from;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 43) {
      out += last < i ? `${s.slice(last, i)} ` : ' ';
      last = i + 1;
    } else if (c === 37) {
      // An escape's bytes never run past the part: `&` and `=` are no hex digits.
      const cp = escapedChar(s, i);
      if (cp < 0 || seq.end > to) {
        // Kept as written: the `%` joins the text up to the next escape or `+`.
        if (lenient && hexByte(s, i) < 0) continue;
        return undefined;
      }
      out += last < i ? s.slice(last, i) + fromCodePoint(cp) : fromCodePoint(cp);
      last = seq.end;
      i = seq.end - 1;
    }
  }
  return last === from ? s.slice(from, to) : last < to ? out + s.slice(last, to) : out;
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
    const pairs = query.length < SHORT_QUERY ? shortPairs(query, false) : scanPairs(query, false, profile !== QUERY_STRICT);
    if (pairs !== undefined) return QueryMap[FROM_PAIRS](pairs, ignoreCase);
  }
  const written = write(query);
  const n = wasm.rp_query_map(written, profile, ignoreCase, written === query.length);
  const q = wellFormed(query, written);
  const base = answer();
  if (n < 0) fail(q, base);
  const strings = answerStrings();
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

module.exports = { QUERY_PROFILES, QueryMap, queryPairs, parseQuery, scanPairs, setFastPaths };
