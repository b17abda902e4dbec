// Behaviour only the JS face has: argument and option checks, errors and their offsets, the
// QueryMap API, the input cap, big inputs, non-ASCII and lone surrogates across the boundary,
// and the pure-JS path for short queries agreeing with the wasm path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_INPUT_LENGTH,
  QueryMap,
  ReqparseError,
  buildAbsolute,
  buildRelative,
  formatContentDisposition,
  parseContentDisposition,
  parseQuery,
  queryPairs,
  splitAbsolute,
} from 'reqparse';

/** A query long enough to go through wasm whatever its content. */
const LONG = `&padding=${'p'.repeat(40)}`;
const viaWasm = (q, options) => queryPairs(q + LONG, options).slice(0, -1);
const usp = (q) => [...new URLSearchParams(q)];

test('queryPairs: WHATWG answers, through JS and wasm alike (URLSearchParams, WPT urlencoded-parser)', () => {
  const cases = [
    // input → expected
    ['', []],
    ['?', []],
    ['a=1&b=2', [['a', '1'], ['b', '2']]],
    ['?a=b', [['a', 'b']]],
    ['??a=b', [['?a', 'b']]],
    ['a', [['a', '']]],
    ['=x', [['', 'x']]],
    ['a==b', [['a', '=b']]],
    ['&&a&&', [['a', '']]],
    ['a+b=c+d', [['a b', 'c d']]],
    ['%41%7e=%2B%26', [['A~', '+&']]],
    ['a=%zz&b=%4&c=%', [['a', '%zz'], ['b', '%4'], ['c', '%']]],
    ['a=%C3%A9t%C3%A9', [['a', 'été']]],
    ['a=%FF', [['a', '\uFFFD']]],
    ['a=%F0%9F%98%80', [['a', '😀']]],
    ['é=ü&😀=%F0%9F%98%80', [['é', 'ü'], ['😀', '😀']]],
    ['a=b c#d', [['a', 'b c#d']]],
  ];
  for (const [input, expected] of cases) {
    assert.deepEqual(queryPairs(input), expected, input);
    assert.deepEqual(viaWasm(input), expected, `${input} (wasm)`);
    assert.deepEqual(usp(input), expected, `${input} (URLSearchParams agrees)`);
  }
});

test('queryPairs: raw keeps the text as written', () => {
  const cases = [
    ['a+b=%41', [['a+b', '%41']]],
    ['?x=%C3%A9&y', [['x', '%C3%A9'], ['y', '']]],
    ['é=%zz', [['é', '%zz']]],
  ];
  for (const [input, expected] of cases) {
    assert.deepEqual(queryPairs(input, { raw: true }), expected, input);
    assert.deepEqual(viaWasm(input, { raw: true }), expected, `${input} (wasm)`);
  }
});

/** A deterministic pseudo-random generator (mulberry32), so failures reproduce. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomQuery(next, alphabet, maxLen) {
  const n = Math.floor(next() * maxLen);
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
  return s;
}

test('queryPairs: the short JS path and the wasm path agree on random short queries', () => {
  const next = rng(1);
  const alphabet = ['a', 'b', '=', '&', '?', '+', '%', '2', '0', '7', 'e', 'F', 'C3', '%A9', ' ', 'é', '😀', '\uD800', '#'];
  for (let i = 0; i < 5000; i++) {
    const q = randomQuery(next, alphabet, 16);
    for (const options of [{}, { raw: true }, { profile: 'dotnet' }, { profile: 'strict' }]) {
      // Padding after a trailing "&" or a bare "?" changes nothing else.
      let wasm;
      try {
        wasm = viaWasm(q, options);
      } catch (e) {
        assert.throws(() => queryPairs(q, options), { offset: e.offset, message: e.message }, JSON.stringify(q));
        continue;
      }
      assert.deepEqual(queryPairs(q, options), wasm, `${JSON.stringify(q)} ${JSON.stringify(options)}`);
    }
  }
});

test('queryPairs: matches URLSearchParams on random ASCII queries and on valid escapes of any text', () => {
  const next = rng(2);
  // ASCII with invalid and partial escapes.
  const ascii = ['a', 'Z', '=', '&', '+', '%', '%2', '%41', '%zz', '%C3', '%A9', '%FF', '%00', ' ', '~', '?'];
  for (let i = 0; i < 3000; i++) {
    const q = randomQuery(next, ascii, 60);
    assert.deepEqual(queryPairs(q), usp(q), JSON.stringify(q));
  }
  // Raw non-ASCII with valid escapes only: Node 20's URLSearchParams is not spec-exact when raw
  // non-ASCII meets an invalid escape, so that mix is left to the vectors.
  const mixed = ['x', '=', '&', '+', 'é', 'ж', '😀', '%C3%A9', '%E2%82%AC', '%F0%9F%98%80', '%41', '\uD800', '\uDC00'];
  for (let i = 0; i < 3000; i++) {
    const q = randomQuery(next, mixed, 60);
    assert.deepEqual(queryPairs(q), usp(q), JSON.stringify(q));
  }
});

test('queryPairs: long values (the core decodes 64 bytes and up 16 a step) match URLSearchParams', () => {
  const next = rng(3);
  // Values of 64 bytes and more, so that the vector decoder (simd128 in this build) takes them,
  // with escapes, `+` and malformed `%` at every offset of a step.
  const ascii = ['a', 'Z', '+', '%', '%2', '%41', '%2b', '%zz', '%C3', '%A9', '%FF', ' ', '~', '=', '0123456789'];
  const text = ['x', '+', 'é', 'ж', '😀', '%C3%A9', '%E2%82%AC', '%F0%9F%98%80', '%41', '%25', '%2B', 'abcdefgh'];
  for (const [alphabet, rounds] of [[ascii, 2000], [text, 2000]]) {
    for (let i = 0; i < rounds; i++) {
      const q = `k=${randomQuery(next, alphabet, 160)}${'&b=' + randomQuery(next, alphabet, 80)}`;
      assert.deepEqual(queryPairs(q), usp(q), JSON.stringify(q));
    }
  }
});

test('queryPairs: lone surrogates read as U+FFFD, as USVString conversion does', () => {
  const cases = [
    ['a=\uD800', [['a', '\uFFFD']]],
    ['\uDC00=b&c=d', [['\uFFFD', 'b'], ['c', 'd']]],
    ['a=x\uD83D', [['a', 'x\uFFFD']]],
    ['a=\uD83D\uDE00', [['a', '😀']]],
  ];
  for (const [input, expected] of cases) {
    assert.deepEqual(queryPairs(input), expected);
    assert.deepEqual(viaWasm(input), expected);
    assert.deepEqual(queryPairs(input, { raw: true }), expected);
  }
});

test('queryPairs: big inputs', () => {
  const many = 'k=v&'.repeat(200_000);
  const pairs = queryPairs(many);
  assert.equal(pairs.length, 200_000);
  assert.deepEqual(pairs[199_999], ['k', 'v']);

  const escaped = `a=${'%C3%A9'.repeat(100_000)}`;
  assert.equal(queryPairs(escaped)[0][1], 'é'.repeat(100_000));

  const atCap = `a=${'x'.repeat(MAX_INPUT_LENGTH - 2)}`;
  assert.equal(queryPairs(atCap)[0][1].length, MAX_INPUT_LENGTH - 2);
  // Non-ASCII at the cap: 3 UTF-8 bytes per code unit must still fit.
  const wide = `€=${'€'.repeat(MAX_INPUT_LENGTH - 2)}`;
  assert.equal(queryPairs(wide)[0][1].length, MAX_INPUT_LENGTH - 2);

  // Small inputs still work after memory grew (views are re-created).
  assert.deepEqual(queryPairs(`x=%41${LONG}`)[0], ['x', 'A']);
});

test('every entry point rejects an input over the cap with a ReqparseError', () => {
  const big = 'a'.repeat(MAX_INPUT_LENGTH + 1);
  const calls = [
    () => queryPairs(big),
    () => parseQuery(big),
    () => splitAbsolute(big),
    () => parseContentDisposition(big),
    () => buildAbsolute({ scheme: 'http', host: 'h', path: big }),
    () => buildRelative({ path: big }),
    () => formatContentDisposition({ type: 'attachment', filename: big }),
  ];
  for (const call of calls) {
    assert.throws(call, (e) => e instanceof ReqparseError && e.offset === MAX_INPUT_LENGTH && /limit/.test(e.message));
  }
});

test('argument and option checks throw TypeError, not ReqparseError', () => {
  const bad = [
    () => queryPairs(42),
    () => queryPairs(null),
    () => queryPairs('a', 'whatwg'),
    () => queryPairs('a', { profile: 'rails' }),
    () => queryPairs('a', { profile: 'browser' }),
    () => queryPairs('a', { raw: 'yes' }),
    () => parseQuery('a', { ignoreCase: 1 }),
    () => parseQuery('a', { profile: 'toString' }),
    () => parseContentDisposition('inline', { profile: 'whatwg' }),
    () => parseContentDisposition('inline', { decode2047: 'no' }),
    () => parseContentDisposition(undefined),
    () => splitAbsolute(new URL('http://a/')),
    () => buildAbsolute({ scheme: 'http', host: 1 }),
    () => formatContentDisposition({ type: 'attachment', parameters: [['a']] }),
    () => formatContentDisposition({ filename: 'x' }),
  ];
  for (const call of bad) {
    assert.throws(call, (e) => e instanceof TypeError && !(e instanceof ReqparseError), String(call));
  }
  // Unknown options and parts throw a TypeError naming the key, on every function taking them.
  const unknown = [
    ['decode_2047', () => parseContentDisposition('inline', { decode_2047: true })],
    ['Profile', () => parseContentDisposition('inline', { Profile: 'strict' })],
    ['Profile', () => queryPairs('a=1', { Profile: 'strict' })],
    ['ignore_case', () => queryPairs('a=1', { ignore_case: true })],
    ['ignore_case', () => parseQuery('a=1', { ignore_case: true })],
    ['raw', () => parseQuery('a=1', { raw: true })],
    ['path_base', () => buildAbsolute({ scheme: 'http', host: 'h', path_base: '/b' })],
    ['scheme', () => buildRelative({ scheme: 'http', path: '/x' })],
    ['fileName', () => formatContentDisposition({ type: 'attachment', fileName: 'a.txt' })],
  ];
  for (const [key, call] of unknown) {
    assert.throws(
      call,
      (e) => e instanceof TypeError && !(e instanceof ReqparseError) && e.message.includes(`unknown option '${key}'`),
      String(call),
    );
  }
  // Known keys set to undefined are absent options; a parsed answer feeds the builders back.
  parseContentDisposition('inline', { profile: undefined, decode2047: undefined });
  assert.equal(buildAbsolute(splitAbsolute('http://h/a%20b?q#f')), 'http://h/a%20b?q#f');
  assert.equal(formatContentDisposition(parseContentDisposition('attachment; size=3')), 'attachment; size=3');
  // Absent options and each valid profile are fine.
  for (const profile of [undefined, 'whatwg', 'dotnet', 'strict']) queryPairs('a=1', { profile });
  for (const profile of [undefined, 'strict', 'browser', 'dotnet']) parseContentDisposition('inline', { profile });
  queryPairs('a=1', null);
});

test('ReqparseError: a TypeError with the byte offset and the UTF-16 index', () => {
  const e = new ReqparseError('bad', 3, 2);
  assert.ok(e instanceof TypeError);
  assert.equal(e.name, 'ReqparseError');
  assert.equal(e.message, 'bad');
  assert.deepEqual([e.offset, e.index], [3, 2]);
  assert.equal(new ReqparseError('x', 5).index, 5);
});

test('errors carry the UTF-8 byte offset and the UTF-16 index (query.rs Profile::Strict)', () => {
  const cases = [
    // input → offset, index, message
    ['a=%zz', 2, 2, 'invalid percent escape at byte 2'],
    ['é=%zz', 3, 2, 'invalid percent escape at byte 3'],
    ['😀=%C3', 5, 3, 'invalid UTF-8 at byte 5'],
    [`${'ж'.repeat(40)}=%`, 81, 41, 'invalid percent escape at byte 81'],
  ];
  for (const [input, offset, index, message] of cases) {
    assert.throws(() => queryPairs(input, { profile: 'strict' }), (e) => {
      assert.ok(e instanceof ReqparseError);
      assert.deepEqual([e.offset, e.index, e.message], [offset, index, message], input);
      return true;
    });
    assert.throws(() => parseQuery(input, { profile: 'strict' }), { offset, index, message });
  }
  // Disposition: non-ASCII in a quoted string is obs-text, read as UTF-8 (a lone surrogate is
  // U+FFFD, as everywhere in this package); outside quotes the strict profile refuses it.
  assert.equal(parseContentDisposition('attachment; filename="a\uD800.txt"').filename, 'a\uFFFD.txt');
  assert.throws(() => parseContentDisposition('attachment; fïlename=x'), { offset: 13, index: 13 });
  // Over the crate's own limits: still an error, never a crash.
  assert.throws(() => parseContentDisposition(`attachment; ${'a=b; '.repeat(5000)}`), ReqparseError);
  const many = Array.from({ length: 20 }, (_, i) => [`p${i}`, 'v']);
  // The builder has no input offset: its errors are plain Errors with the crate's message.
  assert.throws(
    () => formatContentDisposition({ type: 'attachment', parameters: many }),
    (e) => e instanceof Error && !(e instanceof ReqparseError) && e.message === 'more than 16 items',
  );
  assert.throws(() => parseQuery('a=1&'.repeat(1001)), ReqparseError);
  assert.throws(() => buildAbsolute({ scheme: 'http', host: 'a b' }), ReqparseError);
});

test('parseQuery: map API', () => {
  const m = parseQuery('?a=1&b=2&a=3&c&a=%41');
  assert.ok(m instanceof QueryMap);
  assert.equal(m.get('a'), '1');
  assert.deepEqual(m.getAll('a'), ['1', '3', 'A']);
  assert.equal(m.get('c'), '');
  assert.equal(m.get('zz'), null);
  assert.deepEqual(m.getAll('zz'), []);
  assert.ok(m.has('b') && !m.has('B'));
  assert.equal(m.size, 3);
  assert.deepEqual([...m.keys()], ['a', 'b', 'c']);
  assert.deepEqual([...m], [['a', ['1', '3', 'A']], ['b', ['2']], ['c', ['']]]);
  assert.deepEqual([...m.values()], [['1', '3', 'A'], ['2'], ['']]);
  assert.deepEqual(m.toJSON(), { a: ['1', '3', 'A'], b: ['2'], c: [''] });
  assert.equal(JSON.stringify(m), '{"a":["1","3","A"],"b":["2"],"c":[""]}');
  const seen = [];
  m.forEach((values, name, map) => seen.push([name, values.length, map === m]));
  assert.deepEqual(seen, [['a', 3, true], ['b', 1, true], ['c', 1, true]]);
  // Answers are copies: changing them does not change the map.
  m.getAll('a').push('x');
  assert.equal(m.getAll('a').length, 3);
  // A name that is an Object.prototype key is just a name.
  const proto = parseQuery('__proto__=1&constructor=2');
  assert.equal(proto.get('__proto__'), '1');
  assert.equal(proto.get('toString'), null);
  assert.deepEqual(Object.keys(proto.toJSON()), ['__proto__', 'constructor']);
});

test('parseQuery: ignoreCase', () => {
  const m = parseQuery('Tag=a&tag=b&TAG=c&x=1', { ignoreCase: true });
  assert.deepEqual(m.getAll('tag'), ['a', 'b', 'c']);
  assert.equal(m.get('TaG'), 'a');
  assert.ok(m.has('X'));
  const exact = parseQuery('Tag=a&tag=b');
  assert.deepEqual(exact.getAll('tag'), ['b']);
  assert.equal(exact.size, 2);
});

test('parseQuery: non-ASCII names and values, lone surrogates', () => {
  const m = parseQuery('é=1&%C3%A9=2&\uD800=3&x=%E2%82%AC');
  assert.deepEqual(m.getAll('é'), ['1', '2']);
  assert.equal(m.get('\uFFFD'), '3');
  assert.equal(m.get('x'), '€');
});

test('parseContentDisposition: shape', () => {
  const cd = parseContentDisposition('Attachment; FileName="a b.txt"; size=42');
  assert.deepEqual(cd, { type: 'attachment', filename: 'a b.txt', parameters: [['filename', 'a b.txt'], ['size', '42']] });
  const inline = parseContentDisposition('inline');
  assert.deepEqual(inline, { type: 'inline', filename: null, parameters: [] });
  const ext = parseContentDisposition(`attachment; filename="EURO.txt"; filename*=UTF-8''%E2%82%AC.txt`);
  assert.equal(ext.filename, '€.txt');
  assert.deepEqual(ext.parameters[1], ['filename*', "UTF-8''%E2%82%AC.txt"]);
  // Non-ASCII input through the boundary; a lone surrogate reads as U+FFFD.
  const raw = parseContentDisposition('attachment; filename="résumé ☃.pdf"', { profile: 'browser' });
  assert.equal(raw.filename, 'résumé ☃.pdf');
  const lone = parseContentDisposition('attachment; filename="a\uD800é.txt"', { profile: 'dotnet' });
  assert.deepEqual(lone.parameters, [['filename', 'a\uFFFDé.txt']]);
});

test('formatContentDisposition: round trip of awkward filenames', () => {
  const names = ['plain.txt', 'a b.txt', 'quote".txt', 'back\\slash', 'résumé.pdf', '€ rates.txt', '😀.png', '%41.txt', "it's"];
  for (const filename of names) {
    const header = formatContentDisposition({ type: 'attachment', filename });
    assert.equal(parseContentDisposition(header).filename, filename, header);
  }
  assert.equal(formatContentDisposition({ type: 'inline' }), 'inline');
});

test('formatContentDisposition: what it cannot write faithfully throws, nothing is rewritten', () => {
  const cases = [
    [{ type: 'bad type' }, 'disposition type is not a token'],
    [{ type: '' }, 'disposition type is not a token'],
    [{ type: 'inline', parameters: [['', 'v']] }, 'parameter name of item 0 is not a token'],
    [{ type: 'inline', filename: 'b.txt', parameters: [['filename', 'a.txt']] }, 'item 1 writes a parameter an earlier item already wrote'],
    [{ type: 'attachment', filename: 'é'.repeat(3000) }, 'header would be 21042 bytes, longer than the limit of 16384'],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => formatContentDisposition(value), { message }, JSON.stringify(value).slice(0, 80));
  }
});

test('splitAbsolute and the builders agree', () => {
  const url = buildAbsolute({ scheme: 'https', host: 'example.com', pathBase: '/base', path: '/a b/ü', query: '?q=1', fragment: '#top' });
  const parts = splitAbsolute(url);
  assert.deepEqual(parts, { scheme: 'https', host: 'example.com', path: '/base/a b/ü', query: '?q=1', fragment: '#top' });
  assert.equal(buildRelative({ pathBase: '/base', path: '/a b' }), '/base/a%20b');
  assert.throws(() => splitAbsolute('not a uri'), ReqparseError);
});
