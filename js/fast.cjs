'use strict';
// Pure-JS answers for the small, common inputs where crossing into wasm costs more than the
// work (js/BENCHMARKS.md): each function here either returns exactly what the Rust core would
// answer, or `undefined` when the input holds anything it does not take, and the caller then
// asks wasm. They never throw for bad input and never report an error: every rejected input,
// every limit and every rare form (other profiles, RFC 2231 continuations, charsets other than
// UTF-8, paths with lone surrogates, hosts that need IDNA or are IP literals) goes to wasm.
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
// The Content-Disposition scanner's bits: ORed into a running set over a token (one operation
// a char), they tell whether it held upper case or a `*`.
const UPPER = 128;
const STAR = 256;
/** qdtext but `"` and `\` (HTAB SP ! #-[ ]-~): what a quoted string holds as it is. */
const QDTEXT = 512;

const CLASS = new Uint16Array(128);
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
addRange('A', 'Z', UPPER);
add('*', STAR);
add('\t !', QDTEXT);
addRange('#', '[', QDTEXT);
addRange(']', '~', QDTEXT);

/** Whether char code `c` is in class `cls`. */
const is = (c, cls) => c < 128 && (CLASS[c] & cls) !== 0;

/** Whether `s[i..i+3]` is a valid `%XX` escape (s[i] is `%`). */
const escapeAt = (s, i) => is(s.charCodeAt(i + 1), HEXDIG) && is(s.charCodeAt(i + 2), HEXDIG);

// ---- Content-Disposition (src/disposition/grammar.rs, filename.rs, ext_value.rs) ------------

/**
 * Longest header taken, in UTF-16 units: past about this length wasm's scan, faster per byte,
 * beats the JS one despite its fixed cost (js/BENCHMARKS.md). At most 3 UTF-8 bytes a unit,
 * so far under the core's MAX_HEADER_LEN (16 KiB) whatever it holds.
 */
const MAX_HEADER_UNITS = 512;
/** Up to this many parameters, duplicates are found by comparing with each earlier name. */
const LINEAR_NAMES = 8;
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
  // The two commonest headers of all, by one compare (of a pointer, for a literal).
  if (h === 'inline' || h === 'attachment') return { type: h, filename: null, parameters: [] };
  if (h.length > MAX_HEADER_UNITS) return undefined;
  return withParameters(h, decode2047);
}

/**
 * disposition() past its literal shortcut: the type, then the parameters, in one function.
 * Until stop 32 disposition() scanned the type in a loop of its own and handed the rest to
 * this: `attachment; filename="foo.html"` took 1.10x the time it takes now (interleaved A/B,
 * js/BENCHMARKS.md "Stop 32"); the other headers were within noise.
 */
function withParameters(h, decode2047) {
  const len = h.length;
  let seen = 0;
  let i = 0;
  // The first char, though the loop reads it again: started at 0 instead, the quoted header
  // took 1.03-1.08x longer (two interleaved A/Bs).
  let c = h.charCodeAt(i);
  let k = 0;
  // OWS, then the type: a token.
  while (i < len && ((c = h.charCodeAt(i)) === 32 || c === 9)) i++;
  const typeStart = i;
  while (i < len && (c = h.charCodeAt(i)) < 128 && ((k = CLASS[c]) & TCHAR) !== 0) {
    seen |= k;
    i++;
  }
  if (i === typeStart) return undefined;
  const type = typeStart === 0 && i === len ? h : h.slice(typeStart, i);
  const typeText = (seen & UPPER) !== 0 ? type.toLowerCase() : type;
  if (i === len) return { type: typeText, filename: null, parameters: [] };
  // `filename=x` where the type should be: an error.
  if (c === 61) return undefined;
  // Filled from an array literal of the first pair: an empty one would grow at its first push.
  let parameters;
  let plain;
  /** The `filename*` token and what extToken() made of it. */
  let star;
  let starText;
  let names;
  for (;;) {
    while (i < len && ((c = h.charCodeAt(i)) === 32 || c === 9)) i++;
    if (i === len) break;
    if (c !== 59 /* ; */) return undefined;
    i++;
    while (i < len && ((c = h.charCodeAt(i)) === 32 || c === 9)) i++;
    // The name: a token, lowercased in the answer.
    const nameStart = i;
    seen = 0;
    while (i < len && (c = h.charCodeAt(i)) < 128 && ((k = CLASS[c]) & TCHAR) !== 0) {
      seen |= k;
      i++;
    }
    if (i === nameStart) return undefined;
    let name = h.slice(nameStart, i);
    if ((seen & UPPER) !== 0) name = name.toLowerCase();
    // A `*` but at the end may make a section (`name*N`, `name*N*`): RFC 2231 continuations
    // and their limit are wasm's. `filename*`, the usual one, by a compare with the literal
    // first: without it the `filename*` + `filename` header took 1.06-1.16x longer and the
    // download header 1.00-1.08x (four interleaved A/Bs, js/BENCHMARKS.md "Stop 36").
    if ((seen & STAR) !== 0 && name !== 'filename*' && name.indexOf('*') !== name.length - 1) return undefined;
    while (i < len && ((c = h.charCodeAt(i)) === 32 || c === 9)) i++;
    if (c !== 61 /* = */ || i === len) return undefined;
    i++;
    while (i < len && ((c = h.charCodeAt(i)) === 32 || c === 9)) i++;
    let value;
    if (i < len && c === 34 /* " */) {
      const start = ++i;
      let escaped = false;
      // The usual quoted string in one loop of simple compares: printable ASCII, HTAB and
      // non-surrogate chars up to the closing `"`; anything else (a `\`, a control, DEL, a
      // surrogate) is read by quotedRest() from there on.
      for (; i < len; i++) {
        c = h.charCodeAt(i);
        if (c === 34) break;
        if (c < 32 ? c !== 9 : c === 92 || (c >= 127 && (c === 127 || (c >= 0xd800 && c <= 0xdfff)))) break;
      }
      if (i >= len) return undefined;
      // Out of line, so that this function's hot loops stay small: `filename*` + `filename`
      // 1.03-1.14x faster over seven interleaved A/Bs (a null A/B: 1.00-1.03x), the others
      // within noise (js/BENCHMARKS.md "Stop 36").
      if (c !== 34) {
        i = quotedRest(h, i, len);
        if (i < 0) return undefined;
        escaped = restEscaped;
      }
      value = h.slice(start, i);
      if (escaped) value = unescapeQuoted(value);
      i++;
    } else {
      const start = i;
      if (name === 'filename*' && star === undefined) {
        // Its token scanned and decoded in one pass.
        starText = extToken(h, i, len);
        i = tokenEnd;
      } else {
        while (i < len && (c = h.charCodeAt(i)) < 128 && (CLASS[c] & TCHAR) !== 0) i++;
      }
      if (i === start) return undefined;
      value = h.slice(start, i);
      if (name === 'filename*' && star === undefined) star = value;
    }
    // Noted before the checks below: a name twice or a parameter too many returns undefined.
    if (name === 'filename') plain = value;
    if (parameters === undefined) {
      parameters = [[name, value]];
      continue;
    }
    const n = parameters.length;
    if (n === MAX_PARAMS) return undefined;
    // Strict: a name twice (in any case) is an error. A scan over the first few names, then
    // a set (names of one length that differ late cost a compare of all their chars each).
    if (n < LINEAR_NAMES) {
      for (let j = 0; j < n; j++) if (parameters[j][0] === name) return undefined;
    } else {
      if (names === undefined) names = new Set(parameters.map((p) => p[0]));
      if (names.has(name)) return undefined;
      names.add(name);
    }
    parameters[n] = [name, value]; // not push(): see queryPairs
  }
  if (parameters === undefined) return { type: typeText, filename: null, parameters: [] };
  if (star !== undefined) {
    if (starText === null) return undefined;
    if (starText !== undefined) return { type: typeText, filename: starText, parameters };
  }
  if (plain !== undefined && decode2047 && plain.includes('=?')) return undefined;
  return { type: typeText, filename: plain === undefined ? null : plain, parameters };
}

/** Whether the quoted string quotedRest() read held a quoted-pair. */
let restEscaped = false;

/**
 * The rest of a quoted string from `h[i]`, where withParameters()' plain loop stopped (a `\`,
 * a control, DEL or a surrogate): the index of its closing `"`, with `restEscaped` set when
 * it held a quoted-pair; -1 when it is not one this file answers (no closing quote, a control
 * or DEL, a lone surrogate).
 */
function quotedRest(h, i, len) {
  restEscaped = false;
  while (i < len) {
    let c = h.charCodeAt(i);
    if (c < 128) {
      if ((CLASS[c] & QDTEXT) !== 0) {
        i++;
        continue;
      }
      if (c === 34) return i;
      // Else a control or DEL, refused, or a quoted-pair: "\" ( HTAB / SP / VCHAR / obs-text ).
      if (c !== 92 || ++i >= len) return -1;
      restEscaped = true;
      c = h.charCodeAt(i);
      if ((c < 32 && c !== 9) || c === 127) return -1;
      if (c < 128) {
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      // A surrogate pair is one char (4 UTF-8 bytes); a lone surrogate is wasm's (its UTF-8
      // encoding made it U+FFFD).
      const next = h.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return -1;
      i++;
    }
    i++;
  }
  return -1;
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

/** Where the token extToken() read ends. */
let tokenEnd = 0;

/** The end of the token at `h[i]`. */
function tokenFrom(h, i, len) {
  while (i < len && is(h.charCodeAt(i), TCHAR)) i++;
  return i;
}

/**
 * The `filename*` token at `h[from]` (its end in `tokenEnd`) as the Strict profile decodes it
 * (RFC 8187, src/disposition/ext_value.rs), in the same pass that finds its end: its text,
 * `undefined` when it is not a valid ext-value (the filename then comes from `filename`),
 * `null` when its charset is one this file leaves to wasm (ISO-8859-1, US-ASCII).
 */
function extToken(h, from, len) {
  // The usual form, `UTF-8''`, by a compare of its seven chars.
  if (h.charCodeAt(from + 5) === 39 && h.charCodeAt(from + 6) === 39 && isUtf8Label(h, from, from + 5)) {
    return extValue(h, from + 7, len);
  }
  const first = h.indexOf("'", from);
  const second = first < 0 ? -1 : h.indexOf("'", first + 1);
  // Both quotes must be inside the token: no char before them that ends it.
  let i = from;
  while (i < second && is(h.charCodeAt(i), TCHAR)) i++;
  if (second < 0 || i < second || first === from) {
    tokenEnd = tokenFrom(h, i, len);
    return undefined;
  }
  for (let j = first + 1; j < second; j++) {
    // RFC 5646 language tags as RFC 8187 takes them: letters, digits and `-`.
    const c = h.charCodeAt(j);
    if (!(c === 45 || isAlnum(c))) {
      tokenEnd = tokenFrom(h, second, len);
      return undefined;
    }
  }
  // Only UTF-8 here (labels are ASCII case-insensitive; `utf-8` is all mime-charsetc).
  if (!isUtf8Label(h, from, first)) {
    tokenEnd = tokenFrom(h, second, len);
    for (let j = from; j < first; j++) if (!is(h.charCodeAt(j), CHARSETC)) return undefined;
    const cs = h.slice(from, first).toLowerCase();
    return cs === 'iso-8859-1' || cs === 'us-ascii' ? null : undefined;
  }
  return extValue(h, second + 1, len);
}

/**
 * A UTF-8 ext-value's value-chars at `h[start]`, up to the token's end (in `tokenEnd`), as
 * extToken() answers them. The escapes are decoded as UTF-8 as they are checked: any failure
 * (a tchar that is not a value-char, a bad escape, bytes that are not UTF-8 by Unicode Table
 * 3-7, as charset.rs `Chars` reads them) makes the ext-value invalid.
 */
function extValue(h, start, len) {
  let out = '';
  let last = start;
  let i = start;
  while (i < len) {
    const c = h.charCodeAt(i);
    if (c !== 37) {
      if (c < 128 && (CLASS[c] & ATTR) !== 0) {
        i++;
        continue;
      }
      if (is(c, TCHAR)) {
        tokenEnd = tokenFrom(h, i, len);
        return undefined;
      }
      break;
    }
    const cp = escapedChar(h, i);
    if (cp < 0) {
      tokenEnd = tokenFrom(h, i, len);
      return undefined;
    }
    out += h.slice(last, i) + fromCodePoint(cp);
    i = seqEnd;
    last = i;
  }
  tokenEnd = i;
  return last === start ? h.slice(start, i) : out + h.slice(last, i);
}

/** Whether `s[from..to]` is `utf-8` in any case. */
function isUtf8Label(s, from, to) {
  return (
    to - from === 5 &&
    (s.charCodeAt(from) | 0x20) === 117 &&
    (s.charCodeAt(from + 1) | 0x20) === 116 &&
    (s.charCodeAt(from + 2) | 0x20) === 102 &&
    s.charCodeAt(from + 3) === 45 &&
    s.charCodeAt(from + 4) === 56
  );
}

/** 1 + the value of an ASCII hex digit; 0 for anything else ASCII. */
const HEX = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (is(c, HEXDIG)) HEX[c] = 1 + parseInt(String.fromCharCode(c), 16);
}

/** Where the sequence escapedChar() read ends. */
let seqEnd = 0;

/**
 * The char that the escapes at `s[i]` (a `%`) spell in UTF-8, as a code point, with the end
 * of its escapes in `seqEnd`; -1 when an escape is not valid or the bytes are not UTF-8 as
 * the core's decoders take it (Unicode Table 3-7: no overlong forms, no surrogates, nothing
 * past U+10FFFF). A continuation byte can only come from an escape (a literal is ASCII).
 */
function escapedChar(s, i) {
  const b0 = hexByte(s, i);
  let next = i + 3;
  let cp = b0;
  if (b0 >= 0x80) {
    let need;
    let lo = 0x80;
    let hi = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      need = 1;
      cp = b0 & 0x1f;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      cp = b0 & 0x0f;
      if (b0 === 0xe0) lo = 0xa0;
      else if (b0 === 0xed) hi = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      cp = b0 & 0x07;
      if (b0 === 0xf0) lo = 0x90;
      else if (b0 === 0xf4) hi = 0x8f;
    } else {
      return -1;
    }
    for (; need > 0; need--) {
      const b = s.charCodeAt(next) === 37 ? hexByte(s, next) : -1;
      if (b < lo || b > hi) return -1;
      cp = (cp << 6) | (b & 0x3f);
      lo = 0x80;
      hi = 0xbf;
      next += 3;
    }
  }
  seqEnd = next;
  return cp;
}

/** String.fromCodePoint for a valid code point, without its argument checks. */
const fromCodePoint = (cp) =>
  cp > 0xffff ? String.fromCharCode(0xd7c0 + (cp >> 10), 0xdc00 | (cp & 0x3ff)) : String.fromCharCode(cp);

/** The byte of the escape `s[i..i+3]` (s[i] is `%`), or -1 when it is not a valid one. */
function hexByte(s, i) {
  const a = s.charCodeAt(i + 1);
  const b = s.charCodeAt(i + 2);
  if (!(a < 128 && b < 128)) return -1;
  const hi = HEX[a];
  const lo = HEX[b];
  return hi > 0 && lo > 0 ? (hi - 1) * 16 + lo - 1 : -1;
}

const isAlnum = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

// ---- URIs (src/uri/mod.rs, host.rs, split.rs) -----------------------------------------------

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
 * returning `s` when nothing was, made realistic parts ~10% slower (88 -> 97 ns, stop 22).
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
  return withTail(`${scheme}://${host}${p}`, query, fragment);
}

/** `buildRelative` (paths escaped here too); undefined for lone surrogates and a `#` in the query. */
function buildRelative(pathBase, path, query, fragment) {
  const p = paths(pathBase, path);
  if (p === undefined) return undefined;
  if (query.length === 0 && fragment.length === 0) return p;
  return withTail(p, query, fragment);
}

/**
 * `splitAbsolute` for a URI that splits (its path decoded as split.rs `decode_path` does);
 * else undefined (an error, `%00` in the path, a lone surrogate: wasm's).
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

// ---- queries (src/query/mod.rs, decode.rs) ---------------------------------------------------

/**
 * The pairs of a query, each `[name, value]`, as `queryPairs` answers them in every profile:
 * one leading `?` skipped, empty segments skipped, `+` a space and `%XX` escapes decoded as
 * UTF-8 (unless `raw`). The profiles differ only on escapes that are not valid and on bytes
 * that are not UTF-8: those go to wasm, as do lone surrogates (the core sees U+FFFD), except
 * that with `lenient` (the Whatwg and DotNet profiles, which agree on it) a `%` that starts no
 * escape stays as written. The scan is the engine's native indexOf: no loop over the chars in
 * JS.
 */
function queryPairs(q, raw, lenient) {
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
      if (cp < 0 || seqEnd > to) {
        // Kept as written: the `%` joins the text up to the next escape or `+`.
        if (lenient && hexByte(s, i) < 0) continue;
        return undefined;
      }
      out += last < i ? s.slice(last, i) + fromCodePoint(cp) : fromCodePoint(cp);
      last = seqEnd;
      i = seqEnd - 1;
    }
  }
  return last === from ? s.slice(from, to) : last < to ? out + s.slice(last, to) : out;
}

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

module.exports = { disposition, buildAbsolute, buildRelative, splitAbsolute, queryPairs };
