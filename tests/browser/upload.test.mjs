// The upload page of `reqparse serve` (GET /) submitted by a real browser: headless Chromium,
// driven by playwright-core over the DevTools protocol (issue 12, "A page to try it from a
// browser"). The browser picks files whose names hold raw UTF-8, a double quote, a backslash and
// a semicolon, types a textarea with line breaks, and submits the form; the JSON answer it then
// shows must give every name back as the Fetch Standard's multipart/form-data parser reads what
// the browser sent, every file's size and SHA-256, and every value as typed.
//
// What the browser sent is recorded by a byte-for-byte TCP relay between it and the server, and
// read here by a parser of its own (not the crate's), so the test checks the server against the
// wire, and the wire against the HTML Standard's encoding rule (`"` → %22, CR → %0D, LF → %0A,
// everything else raw), instead of assuming either.
//
// Environment:
//   REQPARSE_BIN              the reqparse binary (default: target/debug/reqparse)
//   CHROMIUM                  the browser (default: /usr/bin/chromium)
//   REQPARSE_BROWSER_REQUIRED=1  a missing browser fails the test instead of skipping it
//   REQPARSE_COMPONENT        with a binary built with engine-wasm: the component for the
//                             `--engine wasm` run (default: component/reqparse.component.wasm;
//                             that run is skipped, saying so, when the file is missing)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const BIN = process.env.REQPARSE_BIN || path.join(root, 'target', 'debug', 'reqparse');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const COMPONENT =
  process.env.REQPARSE_COMPONENT || path.join(root, 'component', 'reqparse.component.wasm');
const REQUIRED = process.env.REQPARSE_BROWSER_REQUIRED === '1';

// The files the browser uploads: each name with one of the characters the multipart encoding
// has to get through, contents of different sizes (one empty, one larger than a socket read).
function makeFiles(dir) {
  const big = Buffer.alloc(300 * 1024);
  for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24; // every byte value
  const files = [
    ['résumé 2024.pdf', big],
    ['日本語.txt', Buffer.from('こんにちは、世界\n', 'utf8')],
    ['a"b.txt', Buffer.from('a double quote\n')],
    ['back\\slash.txt', Buffer.from('a backslash\n')],
    ['semi;colon.txt', Buffer.from('')],
  ];
  return files.map(([name, data]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, data);
    return { name, file, size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
  });
}

// `reqparse serve` on an ephemeral port; resolves to its address once it says where it listens.
async function startServer(args) {
  const child = spawn(BIN, ['serve', '--addr', '127.0.0.1:0', '--threads', '1', ...args], {
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const lines = readline.createInterface({ input: child.stderr });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => line),
    once(child, 'exit').then(([code]) => `exited with ${code} before listening`),
  ]);
  const m = /^listening on http:\/\/(\S+)$/.exec(first);
  if (!m) {
    child.kill();
    throw new Error(`reqparse serve ${args.join(' ')}: ${first}`);
  }
  lines.on('line', (line) => process.stderr.write(`[serve] ${line}\n`));
  return { child, addr: m[1] };
}

// A TCP relay that forwards both ways and keeps every byte the client sent, per connection.
async function startRelay(target) {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const sent = [];
  const server = net.createServer((client) => {
    const chunks = [];
    sent.push(chunks);
    const upstream = net.connect(port, host);
    client.on('data', (d) => chunks.push(Buffer.from(d)));
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => { client.destroy(); upstream.destroy(); };
    client.on('error', end);
    upstream.on('error', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    addr: `127.0.0.1:${server.address().port}`,
    requests: () => sent.map((c) => Buffer.concat(c)),
    close: () => new Promise((r) => { server.close(r); server.unref(); }),
  };
}

// The POST /upload request among what the browser sent: its head and body, read by Content-Length.
function findUpload(streams) {
  for (const bytes of streams) {
    let at = bytes.indexOf('POST /upload ');
    while (at >= 0) {
      const headEnd = bytes.indexOf('\r\n\r\n', at);
      const head = bytes.subarray(at, headEnd).toString('latin1');
      const field = (n) => (new RegExp(`^${n}:[ \\t]*(.*?)[ \\t]*$`, 'im').exec(head) || [])[1];
      const length = Number(field('content-length'));
      const body = bytes.subarray(headEnd + 4, headEnd + 4 + length);
      return { head, contentType: field('content-type'), contentLength: length, body };
    }
  }
  throw new Error('the browser sent no POST /upload through the relay');
}

// The parts of a multipart/form-data body as raw bytes: the Content-Disposition's name and
// filename exactly as written between the quotes, the Content-Type, and the data. Written for
// the shape browsers send (one Content-Disposition with quoted parameters), not as a general
// reader: this is the test's independent view of the wire.
function splitMultipart(body, contentType) {
  const boundary = /boundary=(\S+)/.exec(contentType)[1];
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const start = Buffer.from(`--${boundary}\r\n`);
  assert.ok(body.subarray(0, start.length).equals(start), 'the body starts with the first delimiter');
  const parts = [];
  let at = start.length;
  for (;;) {
    const headEnd = body.indexOf('\r\n\r\n', at);
    const headers = body.subarray(at, headEnd);
    const next = body.indexOf(delimiter, headEnd + 4);
    assert.ok(next >= 0, 'every part ends with a delimiter');
    parts.push({ headers, data: body.subarray(headEnd + 4, next) });
    at = next + delimiter.length;
    const after = body.subarray(at, at + 2).toString('latin1');
    if (after === '--') break;
    assert.equal(after, '\r\n');
    at += 2;
  }
  return parts.map(({ headers, data }) => {
    const lines = headers.toString('latin1').split('\r\n');
    const cd = lines.find((l) => /^content-disposition:/i.test(l));
    const ct = lines.find((l) => /^content-type:/i.test(l));
    // Quoted parameters as browsers write them: no `"` inside (it is sent as %22), so the value
    // runs to the next `"`, whatever `;` or `\` it holds.
    const param = (n) => {
      const m = new RegExp(`; ${n}="([^"]*)"`).exec(cd);
      return m ? Buffer.from(m[1], 'latin1') : null;
    };
    return {
      disposition: Buffer.from(cd, 'latin1').toString('utf8'),
      name: param('name'),
      filename: param('filename'),
      contentType: ct ? ct.replace(/^content-type:\s*/i, '') : null,
      data,
    };
  });
}

// The Fetch Standard's multipart/form-data parser reads a quoted name or filename as the bytes
// between the quotes, UTF-8 decoded, escapes left as written (WPT formdata-parsing: no
// implementation decodes %22, %0D or %0A).
const fetchName = (raw) => new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(raw);

// The HTML Standard's encoding of a name in a multipart/form-data submission (§4.10.21.8):
// LF → %0A, CR → %0D, `"` → %22, everything else as is, in UTF-8.
const htmlEncodes = (name) => name.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');

function browserMissing() {
  if (!fs.existsSync(CHROMIUM)) return `no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`;
  try {
    execFileSync(CHROMIUM, ['--version'], { stdio: 'pipe', timeout: 30000 });
  } catch (e) {
    return `${CHROMIUM} --version failed: ${String(e.stderr || e.message).trim().split('\n')[0]}`;
  }
  return null;
}

function wasmMissing() {
  if (!fs.existsSync(COMPONENT)) return `no component at ${COMPONENT} (bash .ci/build-component.sh)`;
  const help = execFileSync(BIN, ['serve', '--help'], { encoding: 'utf8' });
  if (!/--component/.test(help)) return `${BIN} was built without the engine-wasm feature`;
  return null;
}

const missing = browserMissing();
if (missing) {
  const line = `browser test NOT RUN: ${missing}`;
  console.log(line);
  if (REQUIRED) throw new Error(line);
} else {
  console.log(`browser: ${execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).trim()}`);
}
assert.ok(fs.existsSync(BIN), `no reqparse binary at ${BIN} (cargo build --features cli)`);

for (const engine of ['native', 'wasm']) {
  let skip = missing ? `browser test NOT RUN: ${missing}` : false;
  if (!skip && engine === 'wasm' && (skip = wasmMissing() || false)) {
    console.log(`upload page, --engine wasm: NOT RUN: ${skip}`);
  }
  test(`Chromium submits the upload page (--engine ${engine})`, { skip, timeout: 120000 }, async (t) => {
    const { chromium } = await import('playwright-core');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reqparse-browser-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const files = makeFiles(dir);
    const args = engine === 'wasm' ? ['--engine', 'wasm', '--component', COMPONENT] : [];
    const server = await startServer(args);
    t.after(() => server.child.kill('SIGTERM'));
    const relay = await startRelay(server.addr);
    t.after(() => relay.close());
    // As root (CI, containers) Chromium's sandbox cannot start; the page is our own.
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    t.after(() => browser.close());
    const page = await browser.newPage();

    await page.goto(`http://${relay.addr}/`);
    assert.equal(await page.title(), 'reqparse serve');
    const title = 'Grüße, "quoted" & <b>; 日本';
    const tags = 'a;b,c  d\\e';
    const note = 'first line\nsecond line\n\n\tfourth, after an empty one\n';
    await page.fill('#title', title);
    await page.fill('#tags', tags);
    await page.fill('#note', '');
    // Typed key by key: "\n" is the Enter key, so the line breaks are the browser's own.
    await page.locator('#note').pressSequentially(note);
    assert.equal(await page.inputValue('#note'), note);
    await page.setInputFiles('#files', files.map((f) => f.file));

    const answered = page.waitForResponse((r) => r.url().endsWith('/upload'));
    await Promise.all([page.waitForURL('**/upload'), page.click('#send')]);
    const response = await answered;
    assert.equal(response.status(), 200);
    // A browser asks for HTML (Accept: text/html,…): the answer is a page that shows it.
    assert.match(response.headers()['content-type'], /^text\/html/);
    assert.equal(await page.title(), 'reqparse serve: the answer');
    const answer = JSON.parse(await page.evaluate(() => document.getElementById('answer').textContent));
    // The page's JSON section is the same answer, and its table shows every part: name,
    // filename, content type, size, SHA-256 and text, as the answer has them.
    const json = await page.evaluate(() => document.getElementById('json').textContent);
    assert.deepEqual(JSON.parse(json), answer);
    const rows = await page.evaluate(() =>
      [...document.querySelectorAll('table')].at(-1).querySelectorAll('tr').length);
    assert.equal(rows, 1 + answer.body.parts.length);
    const cells = await page.evaluate(() =>
      [...[...document.querySelectorAll('table')].at(-1).querySelectorAll('tr')].slice(1)
        .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    for (const [i, part] of answer.body.parts.entries()) {
      const show = (v) => (v === null ? '—' : String(v));
      assert.deepEqual(cells[i], [String(i), part.name, show(part.filename), show(part.content_type),
        String(part.size), part.sha256, show(part.value)], `part ${i} as shown`);
    }
    // A client that does not ask for HTML gets the JSON itself, the same answer.
    const again = await fetch(`http://${relay.addr}/upload`, {
      method: 'POST', body: findUpload(relay.requests()).body,
      headers: { 'content-type': findUpload(relay.requests()).contentType },
    });
    assert.match(again.headers.get('content-type'), /^application\/json/);
    const plain = await again.json();
    assert.deepEqual(plain.body, answer.body);

    const sent = findUpload(relay.requests());
    const wire = splitMultipart(sent.body, sent.contentType);
    const body = answer.body;
    assert.equal(body.framing, 'length');
    assert.equal(body.size, sent.contentLength);
    assert.equal(body.kind, 'multipart');
    assert.deepEqual(body.pairs, []);
    assert.equal(body.error, null);
    assert.equal(body.omitted, 0);
    assert.deepEqual(body.trailers, []);
    assert.equal(body.parts.length, 3 + files.length);
    assert.equal(wire.length, body.parts.length);

    // Every part: name and filename as the Fetch parser reads the wire, content type, size and
    // hash of the bytes on the wire.
    for (const [i, part] of body.parts.entries()) {
      const w = wire[i];
      assert.equal(part.name, fetchName(w.name), `part ${i} name`);
      assert.equal(part.filename, w.filename && fetchName(w.filename), `part ${i} filename`);
      assert.equal(part.content_type, w.contentType, `part ${i} content type`);
      assert.equal(part.size, w.data.length, `part ${i} size`);
      assert.equal(part.sha256, createHash('sha256').update(w.data).digest('hex'), `part ${i} sha256`);
    }
    // The fields, as typed: the textarea's line breaks become CRLF in the submission.
    const typed = [['title', title], ['tags', tags], ['note', note.replace(/\n/g, '\r\n')]];
    for (const [i, [name, value]] of typed.entries()) {
      assert.equal(body.parts[i].name, name);
      assert.equal(body.parts[i].filename, null);
      assert.equal(body.parts[i].value, value, `${name} as typed`);
    }
    // The files, against the files on disk, and the wire against the HTML Standard's encoding.
    const report = [];
    for (const [j, f] of files.entries()) {
      const part = body.parts[3 + j];
      const raw = wire[3 + j].filename;
      report.push(`  file ⟨${f.name}⟩ sent as ⟨${raw.toString('utf8')}⟩, answered ⟨${part.filename}⟩`);
      report.push(`    ${wire[3 + j].disposition} | Content-Type: ${wire[3 + j].contentType}`);
      assert.equal(part.name, 'files');
      assert.equal(raw.toString('utf8'), htmlEncodes(f.name), `${f.name}: what Chromium sent`);
      assert.equal(part.filename, htmlEncodes(f.name), `${f.name}: the answer`);
      assert.equal(part.size, f.size, `${f.name}: size`);
      assert.equal(part.sha256, f.sha256, `${f.name}: sha256`);
      assert.equal(part.value, null, `${f.name}: a file's value is not shown`);
    }
    // (The TAP reporter writes a backslash in these lines as two.)
    console.log(`--engine ${engine}: filenames Chromium sent, and the answer:\n${report.join('\n')}`);
  });
}
