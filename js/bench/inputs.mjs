// The inputs of `npm run bench` (bench.mjs) and of bench/ab.mjs: the Rust benches' inputs
// where they exist (benches/query.rs, benches/disposition.rs), described in js/BENCHMARKS.md.

// ---- queries and headers ----------------------------------------------------------------------

/**
 * A query of about `size` bytes shaped like what shops and search pages send: campaign tags,
 * ids, search text with `+` and UTF-8 escapes, an encoded redirect URL, a token: ~28 pairs per
 * KB (36 bytes a pair), 1 in 3 values needing decoding.
 */
function query(size) {
  const words = ['red', 'leather', 'caf%C3%A9', 'cr%C3%A8me', 'size+42', 'new%20arrivals'];
  const kinds = [
    (i) => `utm_campaign=spring_sale_${2020 + (i % 5)}_newsletter`,
    (i) => `q=${words[i % 6]}+${words[(i + 1) % 6]}+${words[(i + 4) % 6]}`,
    (i) => `product_id=${(i * 7919) % 1000003}-${(i * 31) % 97}`,
    (i) => `redirect=https%3A%2F%2Fshop.example.com%2Fcart%3Fstep%3D${i}`,
    (i) => `session=${(i * 104729 + 1e9).toString(36)}${(i * 8191 + 1e12).toString(36)}`,
    (i) => `filter%5Bcolor%5D=${i % 2 ? 'blue' : 'green'}`,
  ];
  const parts = [];
  let len = 0;
  for (let i = 0; len < size; i++) {
    const p = kinds[i % kinds.length](i);
    parts.push(p);
    len += p.length + 1;
  }
  return parts.join('&');
}

/**
 * About `size` bytes of pairs whose values are escaped CJK, Hangul, Cyrillic and emoji, as a
 * search box or a chat app sends them (benches/query.rs `utf8_heavy`).
 */
function utf8Query(size) {
  const escape = (v) =>
    [...Buffer.from(v)].map((b) => (b === 0x20 ? '+' : /[A-Za-z0-9]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
  const pieces = [
    ['q', '中文 搜索 引擎'],
    ['title', '日本語のタイトル'],
    ['emoji', '😀🎉👍🏽'],
    ['name', '张伟'],
    ['city', '東京都 渋谷区'],
    ['ko', '한국어 테스트'],
    ['ru', 'Привет мир'],
    ['msg', '好的 👌 明天见'],
  ].map(([k, v]) => `${k}=${escape(v)}`);
  let s = '';
  for (let i = 0; s.length < size; i++) s += (i ? '&' : '') + pieces[i % pieces.length];
  return s;
}

/** The plain API query of benches/query.rs (`api140`: 141 B, nothing to decode). */
export const API = 'limit=50&offset=100&sort=created_at&order=desc&fields=id,name,email,created_at,updated_at&include=profile,settings&status=active&expand=owner';

export const QUERIES = [
  ['short', 'a=1&b=2&c=hello'],
  ['short escaped', 'q=hello%20world&lang=en'],
  ['API 140 B', API],
  ['1 KB', query(1024)],
  ['8 KB', query(8192)],
  ['UTF-8 1 KB', utf8Query(1024)],
  ['UTF-8 15 KB', utf8Query(15 * 1024)],
  ['tiny pairs 8 KB (a=%41&)', 'a=%41&'.repeat(Math.floor(8192 / 6))],
  ['hostile &&& 8 KB', '&'.repeat(8192)],
  ['hostile %%% 8 KB', `a=${'%'.repeat(8190)}`],
  ['hostile %41%41 8 KB', `a=${'%41'.repeat(Math.floor(8190 / 3))}`],
  ['hostile mixed 8 KB (&&&%%%=)', '&&&%%%=%%%&a=%%&'.repeat(512)],
];

/** parseQuery + one get, against URLSearchParams + get: [label, query, name]. */
export const LOOKUPS = [
  ['API 140 B, get(status)', API, 'status'],
  ['1 KB, get(session)', query(1024), 'session'],
];

function longFilename(bytes) {
  let s = '';
  for (let i = 0; s.length < bytes; i++) s += i % 3 ? `part${i}%20` : '%E2%82%AC';
  return s;
}

/** benches/disposition.rs `two_kb`: a 2 KB header of ~50 quoted parameters (under the 64 limit). */
function twoKbHeader() {
  let h = "attachment; filename*=UTF-8''%e2%82%ac%20quarterly%20report%202024.pdf";
  for (let i = 0; h.length < 2000; i++) h += `; x-meta-${i}="value number ${i} with some text"`;
  return `${h}; filename="EUR quarterly report 2024.pdf"`;
}

/**
 * A 2 KB header of 40 quoted parameters that each hold quoted-pairs (`\"` and `\\`), as a
 * client that escapes quotes in metadata sends them: every value must be unescaped.
 */
function escapedParamsHeader() {
  let h = 'attachment; filename="report.pdf"';
  for (let i = 0; i < 40; i++) h += `; x-meta-${i}="note ${i}: the \\"q\\" part, in C:\\\\dir"`;
  return h;
}

export const DISPOSITIONS = [
  ['inline', 'inline'],
  ['quoted', 'attachment; filename="foo.html"'],
  ['form-data', 'form-data; name="file"; filename="photo 2024.jpg"'],
  ['filename* + filename', `attachment; filename*=UTF-8''%e2%82%ac%20rates.pdf; filename="EUR rates.pdf"`],
  ['download (both + size)', `attachment; filename*=UTF-8''Q3%20Report%20%E2%80%93%20EU.pdf; filename="Q3 Report - EU.pdf"; size=482133`],
  ['raw UTF-8 form-data', 'form-data; name="upload"; filename="résumé 2024 – final.pdf"'],
  ['2 KB, 50 params', twoKbHeader()],
  ['2 KB, 40 params with quoted-pairs', escapedParamsHeader()],
  ['typical', 'attachment; filename="quarterly-report-2024.pdf"'],
  ['filename*', `attachment; filename="EURO rates.txt"; filename*=UTF-8''%E2%82%AC%20rates%20%C3%A9t%C3%A9.txt`],
  ['2 KB', `attachment; filename="fallback.bin"; filename*=UTF-8''${longFilename(2000)}.bin`],
];

// ---- URIs -----------------------------------------------------------------------------------

/** URI parts: [label, parts]; the peers build the same string from them. */
export const URI_PARTS = [
  ['localhost', { scheme: 'https', host: 'localhost' }],
  [
    'realistic ASCII parts',
    { scheme: 'https', host: 'api.example.com:8443', pathBase: '/v1', path: '/users/42/orders', query: '?status=open&page=2', fragment: '#top' },
  ],
  ['path needing escapes', { scheme: 'https', host: 'files.example.com', path: '/reports/Q3 report (final).pdf', query: '?dl=1' }],
];

export const RELATIVE_PARTS = [
  ['path + query', { pathBase: '/app', path: '/items/7', query: '?q=1' }],
  ['realistic', { pathBase: '/v1', path: '/users/42/orders', query: '?status=open&page=2', fragment: '#top' }],
];

export const URIS = [
  ['realistic', 'https://api.example.com:8443/v1/users/42/orders?status=open&page=2#top'],
  ['escaped path', 'https://files.example.com/docs/caf%C3%A9%20menu.pdf?v=3'],
];
