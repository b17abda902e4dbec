'use strict';
// URIs: buildAbsolute, buildRelative and splitAbsolute. Each call is answered by wasm
// (src/faces/js/strings.rs over the core's src/uri/) or, when the scheme and host need no escape
// and no IDNA, by the JS paths beside it (jsBuildAbsolute, jsBuildRelative, jsSplitAbsolute),
// with exactly wasm's answers or none (the rules every JS path follows: index.cjs;
// js/BENCHMARKS.md, "How small calls are answered"; test/differential.test.mjs).

const {
  wasm,
  MAX_INPUT_LENGTH,
  checkLength,
  write,
  answer,
  str,
  fail,
  wellFormed,
  expectString,
  expectOptions,
  EMPTY,
} = require('./wire.cjs');
const { CLASS, REG_NAME, SCHEME, PCHAR, is, escapeAt, hexByte, fromCodePoint } = require('./chars.cjs');

/**
 * Whether the JS paths may answer. Only the differential test turns them off (setFastPaths,
 * through index.cjs's internal hook), to compare them with wasm.
 */
let fastPaths = true;

function setFastPaths(on) {
  fastPaths = on;
}

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
  const s = fastPaths ? jsBuildAbsolute(scheme, host, pathBase, path, query, fragment) : undefined;
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
  const s = fastPaths ? jsBuildRelative(pathBase, path, query, fragment) : undefined;
  return s ?? wasm.rp_build_relative(pathBase, path, query, fragment);
}

/** checkLength() of each part, in order; their sum under the limit puts each under it. */
function checkLengths(scheme, host, pathBase, path, query, fragment) {
  const total = scheme.length + host.length + pathBase.length + path.length + query.length + fragment.length;
  if (total > MAX_INPUT_LENGTH) eachLength(scheme, host, pathBase, path, query, fragment);
}

/**
 * checkLengths' error: the first part over the limit, in order (out of line: see wire.cjs's
 * notString).
 */
function eachLength(...parts) {
  for (const s of parts) checkLength(s);
}

/** Splits an absolute URI into `{scheme, host, path, query, fragment}` (path unescaped). */
function splitAbsolute(uri) {
  expectString(uri, 'splitAbsolute: uri');
  if (fastPaths && uri.length <= MAX_INPUT_LENGTH) {
    const parts = jsSplitAbsolute(uri);
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

// ---- the JS paths (src/uri/mod.rs, host.rs, split.rs) ----------------------------------------

/** Whether every char of `s` from `from` is in `cls`. */
function all(s, from, cls) {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!(c < 128 && (CLASS[c] & cls) !== 0)) return false;
  }
  return true;
}

/** Whether `s` is a scheme (RFC 3986 §3.1): ALPHA *( ALPHA / DIGIT / + / - / . ). */
function isScheme(s) {
  const c = s.charCodeAt(0);
  return ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) && all(s, 1, SCHEME);
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
  if (colon < 0) return host.length > 0 && all(host, 0, REG_NAME);
  if (colon === 0 || host.indexOf(':', colon + 1) >= 0) return false;
  return all(host.slice(0, colon), 0, REG_NAME) && isPort(host.slice(colon + 1));
}

/**
 * `head` (ASCII: what this file checked or escaped) and the query and fragment as the core
 * writes them, or undefined for a `#` in the query or a lone surrogate in either (the core
 * sees U+FFFD there: wasm's). One well-formedness check of the whole string costs less than
 * one of each part.
 */
function withTail(head, query, fragment) {
  if (query.includes('#')) return undefined;
  const out = head + tail(query, fragment);
  return out.isWellFormed() ? out : undefined;
}

/** `%XX` (upper-case hex, as percent.rs `escape`) for each ASCII char code. */
const PCT = Array.from({ length: 128 }, (_, c) => `%${c < 16 ? '0' : ''}${c.toString(16).toUpperCase()}`);

/**
 * Where the first char of `s` a path does not keep as written is (percent.rs `PATH`: pchar,
 * `/` and valid escapes), or -1 when it keeps all of them. escapePath() runs the same test
 * from there on; the plain path (most paths) scans here alone: one loop that also escapes,
 * returning `s` when nothing was, made realistic parts ~10% slower (88 -> 97 ns; js/BENCHMARKS.md,
 * "Measured decisions").
 */
function firstEscaped(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && (CLASS[c] & PCHAR) !== 0) continue;
    if (c === 37 && escapeAt(s, i)) {
      i += 2;
      continue;
    }
    return i;
  }
  return -1;
}

/**
 * `s` escaped from `from` on as percent.rs `encode_into` does with `PATH`: every UTF-8 byte of
 * a char not kept as `%XX`. Undefined for a lone surrogate (the core sees U+FFFD there: wasm's).
 */
function escapePath(s, from) {
  let out = '';
  let run = 0;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if ((CLASS[c] & PCHAR) !== 0) continue;
      if (c === 37 && escapeAt(s, i)) {
        i += 2;
        continue;
      }
      out += s.slice(run, i) + PCT[c];
      run = i + 1;
      continue;
    }
    // A run of non-ASCII chars: encodeURIComponent escapes each UTF-8 byte of them, in
    // upper-case hex, and throws on a lone surrogate (checked first instead).
    let end = i + 1;
    while (end < s.length && s.charCodeAt(end) >= 128) end++;
    const chars = s.slice(i, end);
    if (!chars.isWellFormed()) return undefined;
    out += s.slice(run, i) + encodeURIComponent(chars);
    run = end;
    i = end - 1;
  }
  return out + s.slice(run);
}

/** A path argument as the core writes it: as it is, or escaped (undefined: wasm's). */
function pathText(s) {
  const at = firstEscaped(s);
  return at < 0 ? s : escapePath(s, at);
}

/**
 * `pathBase` + `path` as the core writes them (Paths in src/uri/mod.rs), escaped as needed;
 * undefined for a lone surrogate.
 */
function paths(pathBase, path) {
  if (pathBase.length === 0 && path.length === 0) return '/';
  let base = pathBase;
  // Every non-empty path is written with a leading `/`, so the base gives up a trailing one
  // (before escaping, as the core judges it on the argument).
  if (path.length !== 0 && base.charCodeAt(base.length - 1) === 47) base = base.slice(0, -1);
  if (pathBase !== plainBase) {
    const at = firstEscaped(base);
    if (at >= 0) base = escapePath(base, at);
    // `base` is `pathBase` or all of it but a `/`, which a path keeps.
    else plainBase = pathBase;
    if (base === undefined) return undefined;
  }
  let out = base.length !== 0 && pathBase.charCodeAt(0) !== 47 ? `/${base}` : base;
  if (path.length !== 0) {
    const p = pathText(path);
    if (p === undefined) return undefined;
    out += path.charCodeAt(0) !== 47 ? `/${p}` : p;
  }
  return out;
}

/** Query and fragment with their marks, as the core writes them (no `#` in the query). */
function tail(query, fragment) {
  const q = query.length === 0 || query.charCodeAt(0) === 63 ? query : `?${query}`;
  return fragment.length === 0 || fragment.charCodeAt(0) === 35 ? q + fragment : `${q}#${fragment}`;
}

// The last scheme and host found plain: most callers build many URIs on one origin, and a
// string compare (a pointer compare for the same string) is cheaper than a scan.
// (Each starts as a valid one: an empty host is an error.) The same for the path base.
let plainScheme = 'https';
let plainHost = 'localhost';
let plainBase = '';

/** `buildAbsolute` for hosts that need no escape and no IDNA; else undefined. */
function jsBuildAbsolute(scheme, host, pathBase, path, query, fragment) {
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
  return withTail(`${scheme}://${host}${p}`, query, fragment);
}

/** `buildRelative` (paths escaped here too); undefined for lone surrogates and a `#` in the query. */
function jsBuildRelative(pathBase, path, query, fragment) {
  const p = paths(pathBase, path);
  if (p === undefined) return undefined;
  if (query.length === 0 && fragment.length === 0) return p;
  return withTail(p, query, fragment);
}

/**
 * `splitAbsolute` for a URI that splits (its path decoded as split.rs `decode_path` does);
 * else undefined (an error, `%00` in the path, a lone surrogate: wasm's).
 */
function jsSplitAbsolute(uri) {
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
  if (!uri.isWellFormed()) return undefined;
  let path = uri.slice(pathAt, queryAt);
  const pct = path.indexOf('%');
  if (pct >= 0) {
    path = decodePath(path, pct);
    if (path === undefined) return undefined;
  }
  return {
    scheme: uri.slice(0, i),
    host: uri.slice(start, pathAt),
    path,
    query: uri.slice(queryAt, fragmentAt),
    fragment: uri.slice(fragmentAt),
  };
}

/** Where the sequence pathChar() read ends. */
let seqEnd = 0;

/**
 * A path with its escapes decoded as ASP.NET Core's `PathString.FromUriComponent` does
 * (split.rs `decode_path`, `decode_char`): each escape run that spells one UTF-8 char
 * (shortest form, no surrogate, at most U+10FFFF) becomes that char, `%2F` stays as written,
 * and so does every escape of a run that fails, up to where it failed; `%00` is an error
 * (undefined). `first` is the first `%`.
 */
function decodePath(p, first) {
  let out = '';
  let last = 0;
  for (let i = first; i >= 0; i = p.indexOf('%', seqEnd)) {
    const cp = pathChar(p, i);
    if (cp === 0) return undefined;
    if (cp > 0) {
      out += p.slice(last, i) + fromCodePoint(cp);
      last = seqEnd;
    }
  }
  return last === 0 ? p : out + p.slice(last);
}

/** The byte of the escape at `s[i]`, or -1 when there is none or it is `%2F`. */
function pathByte(s, i) {
  const b = s.charCodeAt(i) === 37 ? hexByte(s, i) : -1;
  return b === 0x2f ? -1 : b;
}

/**
 * split.rs `decode_char` at the `%` at `s[i]`: the code point, `seqEnd` past its escapes;
 * or -1, `seqEnd` past what stays as written.
 */
function pathChar(s, i) {
  const lead = pathByte(s, i);
  if (lead < 0) {
    seqEnd = i + 1;
    return -1;
  }
  if (lead < 0x80) {
    seqEnd = i + 3;
    return lead;
  }
  let n;
  let min;
  let cp;
  if (lead >= 0xc0 && lead <= 0xdf) {
    n = 2;
    min = 0x80;
    cp = lead & 0x1f;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    n = 3;
    min = 0x800;
    cp = lead & 0x0f;
  } else if (lead >= 0xf0 && lead <= 0xf7) {
    n = 4;
    min = 0x10000;
    cp = lead & 0x07;
  } else {
    seqEnd = i + 3;
    return -1;
  }
  let taken = 3;
  for (let k = 1; k < n; k++) {
    const b = pathByte(s, i + taken);
    if (b < 0 || (b & 0xc0) !== 0x80) {
      seqEnd = i + taken;
      return -1;
    }
    cp = (cp << 6) | (b & 0x3f);
    taken += 3;
  }
  seqEnd = i + taken;
  return cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? -1 : cp;
}

module.exports = {
  buildAbsolute,
  buildRelative,
  splitAbsolute,
  jsBuildAbsolute,
  jsBuildRelative,
  jsSplitAbsolute,
  setFastPaths,
};
