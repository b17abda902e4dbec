'use strict';
// Content-Disposition: parseContentDisposition and formatContentDisposition. A header is parsed
// by wasm (src/faces/js/strings.rs over the core's src/disposition/) or, for a plain header in
// the default profile, by the JS path beside it (disposition()), with exactly wasm's answers or
// none (the rules every JS path follows: index.cjs; js/BENCHMARKS.md, "How small calls are
// answered"; test/differential.test.mjs).

const {
  wasm,
  mismatch,
  fromLayout,
  checkLength,
  write,
  writeBytes,
  answer,
  str,
  fail,
  wellFormed,
  expectString,
  expectOptions,
  profileTable,
  DEFAULT_PROFILE,
  profileOf,
  flag,
} = require('./wire.cjs');
const {
  TCHAR,
  ATTR,
  CHARSETC,
  UPPER,
  STAR,
  QDTEXT,
  CLASS,
  is,
  seq,
  escapedChar,
  fromCodePoint,
} = require('./chars.cjs');

/**
 * Whether the JS path may answer. Only the differential test turns it off (setFastPaths,
 * through index.cjs's internal hook), to compare it with wasm.
 */
let fastPaths = true;

function setFastPaths(on) {
  fastPaths = on;
}

// The keys each function takes (anything else throws: see expectOptions).

const DISPOSITION_OPTIONS = ['profile', 'decode2047'];
const DISPOSITION_INIT = ['type', 'filename', 'parameters'];

const DISPOSITION_PROFILES = profileTable(fromLayout('dispositionProfiles'));
/** The profile disposition() below follows. */
const STRICT = DISPOSITION_PROFILES.strict;
// Without options the profile is the default, which disposition() must then be.
if (STRICT !== DEFAULT_PROFILE) throw mismatch('lists another default Content-Disposition profile than strict');

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
    const cd = disposition(header, false);
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
    const cd = disposition(header, decode2047);
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

// ---- the JS path (src/disposition/grammar.rs, filename.rs, ext_value.rs) ----------------------

/**
 * Longest header taken, in UTF-16 units: past about this length wasm's scan, faster per byte,
 * beats the JS one despite its fixed cost (js/BENCHMARKS.md, "How small calls are answered").
 * At most 3 UTF-8 bytes a unit, so far under the core's MAX_HEADER_LEN (16 KiB) whatever it
 * holds.
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
 * When disposition() scanned the type in a loop of its own and handed the rest to this,
 * `attachment; filename="foo.html"` took 1.10x the time it takes now (interleaved A/B,
 * js/BENCHMARKS.md, "Measured decisions"); the other headers were within noise.
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
    // download header 1.00-1.08x (four interleaved A/Bs, js/BENCHMARKS.md, "Measured
    // decisions").
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
      // within noise (js/BENCHMARKS.md, "Measured decisions").
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
    parameters[n] = [name, value]; // not push(): see query.cjs's scanPairs
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
    i = seq.end;
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

const isAlnum = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

module.exports = { parseContentDisposition, formatContentDisposition, disposition, setFastPaths };
