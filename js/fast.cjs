'use strict';
// Pure-JS answers for the small, common inputs where crossing into wasm costs more than the
// work (js/BENCHMARKS.md): each function here either returns exactly what the Rust core would
// answer, or `undefined` when the input holds anything it does not take, and the caller then
// asks wasm. They never throw for bad input and never report an error: every rejected input,
// every limit and every rare form (other profiles, RFC 2231 continuations, charsets other than
// UTF-8, escapes to decode in a path, hosts that need IDNA or are IP literals) goes to wasm.
//
// The rules are the core's, restated for these shapes only (the file each follows is named at
// each function); test/differential.test.mjs runs the vectors and seeded random inputs through
// these and through wasm and checks that they agree.

// ---- byte classes (ASCII; every non-ASCII char is in no class) ------------------------------

/** RFC 9110 tchar: ALPHA DIGIT ! # $ % & ' * + - . ^ _ ` | ~ */
const TCHAR = 1;
/** RFC 8187 attr-char: ALPHA DIGIT ! # $ & + - . ^ _ ` | ~ (tchar minus * ' %) */
const ATTR = 2;
/** RFC 3986 reg-name: unreserved and sub-delims (no %: escapes go to wasm) */
const REG_NAME = 4;
/** RFC 3986 scheme: ALPHA DIGIT + - . */
const SCHEME = 8;
/** RFC 3986 pchar and /, what a path keeps as written (a % only in a valid escape) */
const PCHAR = 16;
/** RFC 8187 mime-charsetc (ALPHA DIGIT ! # $ % & + - ^ _ ` { } ~) */
const CHARSETC = 32;
/** ASCII hex digit */
const HEXDIG = 64;

const CLASS = new Uint8Array(128);
function add(chars, cls) {
  for (let i = 0; i < chars.length; i++) CLASS[chars.charCodeAt(i)] |= cls;
}
function addRange(from, to, cls) {
  for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++) CLASS[c] |= cls;
}
for (const [from, to] of [['A', 'Z'], ['a', 'z'], ['0', '9']]) {
  addRange(from, to, TCHAR | ATTR | REG_NAME | SCHEME | PCHAR | CHARSETC);
}
add("!#$%&'*+-.^_`|~", TCHAR);
add('!#$&+-.^_`|~', ATTR);
add("-._~!$&'()*+,;=", REG_NAME);
add('+-.', SCHEME);
add("-._~!$&'()*+,;=:@/", PCHAR);
add('!#$%&+-^_`{}~', CHARSETC);
addRange('0', '9', HEXDIG);
addRange('a', 'f', HEXDIG);
addRange('A', 'F', HEXDIG);

/** Whether char code `c` is in class `cls`. */
const is = (c, cls) => c < 128 && (CLASS[c] & cls) !== 0;

/** Whether `s[i..i+3]` is a valid `%XX` escape (s[i] is `%`). */
const escapeAt = (s, i) => is(s.charCodeAt(i + 1), HEXDIG) && is(s.charCodeAt(i + 2), HEXDIG);

// ---- Content-Disposition (src/disposition/grammar.rs, filename.rs, ext_value.rs) ------------

/**
 * Longest header taken, in UTF-16 units: at most 3 UTF-8 bytes each, so never over the core's
 * MAX_HEADER_LEN (16 KiB) whatever it holds.
 */
const MAX_HEADER_UNITS = Math.floor((16 * 1024) / 3);
/** The core's MAX_PARAMS. */
const MAX_PARAMS = 64;

/**
 * `parseContentDisposition(header)` in the Strict profile for a header that parses: a token
 * type and `; name=value` parameters, values tokens or quoted strings (any char but controls,
 * DEL and lone surrogates; quoted-pairs unescaped), no duplicate names, no RFC 2231 section
 * (`name*N`), the filename from a `filename*` in UTF-8 (when it decodes) or else `filename`.
 * `decode2047`: an RFC 2047 decode is only asked for when `filename` holds `=?`: that goes to
 * wasm. Anything else: undefined.
 */
function disposition(h, decode2047) {
  const len = h.length;
  if (len > MAX_HEADER_UNITS) return undefined;
  let i = 0;
  let c = 0;
  // OWS, then the type: a token.
  while (i < len && ((c = h.charCodeAt(i)) === 32 || c === 9)) i++;
  const typeStart = i;
  let upper = false;
  while (i < len && (c = h.charCodeAt(i)) < 128 && (CLASS[c] & TCHAR) !== 0) {
    if (c <= 90 && c >= 65) upper = true;
    i++;
  }
  if (i === typeStart) return undefined;
  const type = typeStart === 0 && i === len ? h : h.slice(typeStart, i);
  const result = { type: upper ? type.toLowerCase() : type, filename: null, parameters: [] };
  if (i === len) return result;
  // `filename=x` where the type should be: an error.
  if (c === 61) return undefined;
  const parameters = result.parameters;
  let plain;
  let star;
  for (;;) {
    while (i < len && ((c = h.charCodeAt(i)) === 32 || c === 9)) i++;
    if (i === len) break;
    if (c !== 59 /* ; */) return undefined;
    i++;
    while (i < len && ((c = h.charCodeAt(i)) === 32 || c === 9)) i++;
    // The name: a token, lowercased in the answer.
    const nameStart = i;
    upper = false;
    let stars = 0;
    while (i < len && (c = h.charCodeAt(i)) < 128 && (CLASS[c] & TCHAR) !== 0) {
      if (c <= 90 && c >= 65) upper = true;
      else if (c === 42) stars++;
      i++;
    }
    if (i === nameStart) return undefined;
    let name = h.slice(nameStart, i);
    if (upper) name = name.toLowerCase();
    // A `*` anywhere but at the end may make a section (`name*N`, `name*N*`): RFC 2231
    // continuations and their limit are wasm's.
    if (stars > 1 || (stars === 1 && name.charCodeAt(name.length - 1) !== 42)) return undefined;
    while (i < len && ((c = h.charCodeAt(i)) === 32 || c === 9)) i++;
    if (c !== 61 /* = */ || i === len) return undefined;
    i++;
    while (i < len && ((c = h.charCodeAt(i)) === 32 || c === 9)) i++;
    let value;
    let quoted = false;
    if (i < len && c === 34 /* " */) {
      quoted = true;
      const start = ++i;
      let escaped = false;
      for (;;) {
        if (i >= len) return undefined;
        c = h.charCodeAt(i);
        if (c === 34) break;
        if (c === 92 /* \ */) {
          // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
          escaped = true;
          c = h.charCodeAt(++i);
          if (i >= len || (c < 32 && c !== 9) || c === 127) return undefined;
        } else if ((c < 32 && c !== 9) || c === 127) {
          return undefined;
        }
        if (c >= 0xd800 && c <= 0xdfff) {
          // A surrogate pair is one char (4 UTF-8 bytes); a lone surrogate is wasm's (its
          // UTF-8 encoding made it U+FFFD).
          const next = h.charCodeAt(i + 1);
          if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return undefined;
          i++;
        }
        i++;
      }
      value = h.slice(start, i);
      if (escaped) value = unescapeQuoted(value);
      i++;
    } else {
      const start = i;
      while (i < len && (c = h.charCodeAt(i)) < 128 && (CLASS[c] & TCHAR) !== 0) i++;
      if (i === start) return undefined;
      value = h.slice(start, i);
    }
    const n = parameters.length;
    if (n === MAX_PARAMS) return undefined;
    // Strict: a name twice (in any case) is an error.
    for (let k = 0; k < n; k++) if (parameters[k][0] === name) return undefined;
    if (name === 'filename') plain = value;
    else if (name === 'filename*' && !quoted) star = value;
    parameters.push([name, value]);
  }
  if (star !== undefined) {
    const v = extValue(star);
    if (v === null) return undefined;
    if (v !== undefined) {
      result.filename = v;
      return result;
    }
  }
  if (plain !== undefined) {
    if (decode2047 && plain.includes('=?')) return undefined;
    result.filename = plain;
  }
  return result;
}

/** A quoted string's inside without the `\` of each quoted-pair. */
function unescapeQuoted(s) {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) === 92) {
      out += s.slice(last, i);
      last = ++i;
    }
  }
  return out + s.slice(last);
}

/**
 * A `filename*` token as the Strict profile decodes it (RFC 8187): its text, `undefined` when
 * it is not a valid ext-value (the filename then comes from `filename`), `null` when its
 * charset is one this file leaves to wasm (ISO-8859-1, US-ASCII).
 */
function extValue(raw) {
  const first = raw.indexOf("'");
  if (first <= 0) return undefined;
  const second = raw.indexOf("'", first + 1);
  if (second < 0) return undefined;
  for (let i = 0; i < first; i++) if (!is(raw.charCodeAt(i), CHARSETC)) return undefined;
  for (let i = first + 1; i < second; i++) {
    const c = raw.charCodeAt(i);
    // RFC 5646 language tags as RFC 8187 takes them: letters, digits and `-`.
    if (!(c === 45 || isAlnum(c))) return undefined;
  }
  // Only UTF-8 here: the core's labels are ASCII case-insensitive.
  const cs = raw.slice(0, first).toLowerCase();
  if (cs !== 'utf-8') return cs === 'iso-8859-1' || cs === 'us-ascii' ? null : undefined;
  let escapes = false;
  const len = raw.length;
  for (let i = second + 1; i < len; i++) {
    const c = raw.charCodeAt(i);
    if (c === 37) {
      if (!escapeAt(raw, i)) return undefined;
      escapes = true;
      i += 2;
    } else if (!is(c, ATTR)) {
      return undefined;
    }
  }
  const value = raw.slice(second + 1);
  if (!escapes) return value;
  // What is left is attr-chars and valid escapes: decodeURIComponent decodes them and throws
  // exactly when the bytes are not UTF-8 (overlong forms and surrogates included), when the
  // core finds the ext-value invalid.
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

const isAlnum = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

// ---- URIs (src/uri/mod.rs, host.rs, split.rs) -----------------------------------------------

/**
 * Whether every char of `s` from `from` is in `cls`. A `%` counts when `escapes` and it starts
 * a valid escape (kept as written by the path encoder).
 */
function all(s, from, cls, escapes) {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && (CLASS[c] & cls) !== 0) continue;
    if (escapes && c === 37 && escapeAt(s, i)) {
      i += 2;
      continue;
    }
    return false;
  }
  return true;
}

/** Whether `s` is a scheme (RFC 3986 §3.1): ALPHA *( ALPHA / DIGIT / + / - / . ). */
function isScheme(s) {
  const c = s.charCodeAt(0);
  return ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) && all(s, 1, SCHEME, false);
}

/** Whether `p` is a port the core takes: 1*DIGIT, 1 to 65535. */
function isPort(p) {
  if (p.length === 0 || p.length > 5) return false;
  let v = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p.charCodeAt(i);
    if (c < 48 || c > 57) return false;
    v = v * 10 + c - 48;
  }
  return v > 0 && v <= 65535;
}

/**
 * Whether the core writes `host` as it is: a reg-name of unreserved and sub-delims (no escape,
 * no IDNA), with an optional `:port`. IP literals and everything else go to wasm.
 */
function isPlainHost(host) {
  const colon = host.indexOf(':');
  if (colon < 0) return host.length > 0 && all(host, 0, REG_NAME, false);
  if (colon === 0 || host.indexOf(':', colon + 1) >= 0) return false;
  return all(host.slice(0, colon), 0, REG_NAME, false) && isPort(host.slice(colon + 1));
}

/** Whether the query and fragment go out as written but for the `?`/`#` added. */
function plainTail(query, fragment) {
  return !query.includes('#') && wellFormed(query) && wellFormed(fragment);
}

/** Lone surrogates: the core sees U+FFFD there (UTF-8 encoding): wasm's. */
const wellFormed = (s) => s.isWellFormed();

/**
 * `pathBase` + `path` as the core writes them (Paths in src/uri/mod.rs), when every char is
 * one a path keeps; else undefined.
 */
function paths(pathBase, path) {
  if (pathBase.length === 0 && path.length === 0) return '/';
  if (!all(pathBase, 0, PCHAR, true) || !all(path, 0, PCHAR, true)) return undefined;
  let base = pathBase;
  // Every non-empty path is written with a leading `/`, so the base gives up a trailing one.
  if (path.length !== 0 && base.charCodeAt(base.length - 1) === 47) base = base.slice(0, -1);
  let out = base.length !== 0 && pathBase.charCodeAt(0) !== 47 ? `/${base}` : base;
  if (path.length !== 0) out += path.charCodeAt(0) !== 47 ? `/${path}` : path;
  return out;
}

/** Query and fragment with their marks, as the core writes them (no `#` in the query). */
function tail(query, fragment) {
  let out = '';
  if (query.length !== 0) out = query.charCodeAt(0) === 63 ? query : `?${query}`;
  if (fragment.length !== 0) out += fragment.charCodeAt(0) === 35 ? fragment : `#${fragment}`;
  return out;
}

// The last scheme and host found plain: most callers build many URIs on one origin, and a
// string compare (a pointer compare for the same string) is cheaper than a scan.
// (Both start as a valid one: an empty host is an error.)
let plainScheme = 'https';
let plainHost = 'localhost';

/** `buildAbsolute` for parts that need no escape and no IDNA; else undefined. */
function buildAbsolute(scheme, host, pathBase, path, query, fragment) {
  if (scheme !== plainScheme) {
    if (!isScheme(scheme)) return undefined;
    plainScheme = scheme;
  }
  if (host !== plainHost) {
    if (!isPlainHost(host)) return undefined;
    plainHost = host;
  }
  const p = paths(pathBase, path);
  if (p === undefined) return undefined;
  if (query.length === 0 && fragment.length === 0) return `${scheme}://${host}${p}`;
  if (!plainTail(query, fragment)) return undefined;
  return `${scheme}://${host}${p}${tail(query, fragment)}`;
}

/** `buildRelative` for parts that need no escape; else undefined. */
function buildRelative(pathBase, path, query, fragment) {
  const p = paths(pathBase, path);
  if (p === undefined) return undefined;
  if (query.length === 0 && fragment.length === 0) return p;
  if (!plainTail(query, fragment)) return undefined;
  return p + tail(query, fragment);
}

/**
 * `splitAbsolute` for a URI that splits and whose path has no `%` (decoding is wasm's); else
 * undefined.
 */
function splitAbsolute(uri) {
  const c0 = uri.charCodeAt(0);
  if (!((c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 122))) return undefined;
  let i = 1;
  const len = uri.length;
  while (i < len && is(uri.charCodeAt(i), SCHEME)) i++;
  if (i + 2 >= len || uri.charCodeAt(i) !== 58 || uri.charCodeAt(i + 1) !== 47 || uri.charCodeAt(i + 2) !== 47) {
    return undefined;
  }
  const start = i + 3;
  let fragmentAt = uri.indexOf('#', start);
  if (fragmentAt < 0) fragmentAt = len;
  let queryAt = uri.indexOf('?', start);
  if (queryAt < 0 || queryAt > fragmentAt) queryAt = fragmentAt;
  let pathAt = uri.indexOf('/', start);
  if (pathAt < 0 || pathAt > queryAt) pathAt = queryAt;
  // The host follows any userinfo; empty or a bare `:port` is an error.
  const at = uri.lastIndexOf('@', pathAt - 1);
  const hostAt = at >= start ? at + 1 : start;
  if (hostAt === pathAt || uri.charCodeAt(hostAt) === 58) return undefined;
  const path = uri.slice(pathAt, queryAt);
  if (path.includes('%') || !uri.isWellFormed()) return undefined;
  return {
    scheme: uri.slice(0, i),
    host: uri.slice(start, pathAt),
    path,
    query: uri.slice(queryAt, fragmentAt),
    fragment: uri.slice(fragmentAt),
  };
}

module.exports = { disposition, buildAbsolute, buildRelative, splitAbsolute };
