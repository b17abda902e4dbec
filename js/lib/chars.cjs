'use strict';
// What the JS paths of every topic share (the JS counterparts of src/bytes.rs and
// src/percent.rs): one table of ASCII char classes, the one HEX table, and percent escapes
// decoded as UTF-8 the way the core's decoders take them.

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

/** 1 + the value of an ASCII hex digit; 0 for anything else ASCII. */
const HEX = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (is(c, HEXDIG)) HEX[c] = 1 + parseInt(String.fromCharCode(c), 16);
}

/**
 * Where the sequence escapedChar() read ends. A field, not a `let`: query.cjs and
 * disposition.cjs read it after their call, and a module's `let` is not seen by another module.
 */
const seq = { end: 0 };

/**
 * The char that the escapes at `s[i]` (a `%`) spell in UTF-8, as a code point, with the end
 * of its escapes in `seq.end`; -1 when an escape is not valid or the bytes are not UTF-8 as
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
  seq.end = next;
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

module.exports = {
  TCHAR,
  ATTR,
  REG_NAME,
  SCHEME,
  PCHAR,
  CHARSETC,
  HEXDIG,
  UPPER,
  STAR,
  QDTEXT,
  CLASS,
  is,
  escapeAt,
  HEX,
  seq,
  escapedChar,
  fromCodePoint,
  hexByte,
};
