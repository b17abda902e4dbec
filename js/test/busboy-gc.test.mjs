// The busboy facades' per-body objects die young: a body that has ended, and what its consumer's
// listeners hold, does not survive a scavenge. V8's parser marks a function literal assigned to
// a property (`driver.onPart = (p) => …`) for old-space allocation; such a handler, allocated
// old per body, kept the body alive through every scavenge until the next mark-compact, and
// with it the consumer's values (1.3 MB promoted a scavenge on 100 fields).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const lib = fileURLToPath(new URL('../lib/', import.meta.url));

// Run unoptimized (the interpreter honours the parser's old-space mark on every closure; an
// optimizing tier ignores it), 20 bodies a facade, each consumer's listener holding 64 KB;
// then two scavenges and the old space's growth.
const CHILD = `
const v8 = require('node:v8');
const busboy = require(${JSON.stringify(lib + 'busboy.cjs')});
const FastifyBusboy = require(${JSON.stringify(lib + 'fastify-busboy.cjs')});
const headers = { 'content-type': 'multipart/form-data; boundary=xyz' };
const body = Buffer.from('--xyz\\r\\nContent-Disposition: form-data; name="a"\\r\\n\\r\\nb\\r\\n--xyz--\\r\\n');
const old = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
(async () => {
  const out = {};
  for (const [name, make] of [['busboy', () => busboy({ headers })], ['fastify-busboy', () => new FastifyBusboy({ headers })]]) {
    gc();
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve, reject) => {
        const b = make();
        const kept = new Array(8000).fill(i);
        b.on('field', () => kept.length);
        b.on('error', reject);
        b.on(name === 'busboy' ? 'close' : 'finish', resolve);
        b.end(body);
      });
    }
    await new Promise((r) => setImmediate(r));
    const before = old();
    gc({ type: 'minor' });
    gc({ type: 'minor' });
    out[name] = old() - before;
  }
  console.log(JSON.stringify(out));
})();
`;

test('busboy facades: an ended body and what its listeners hold are not promoted by a scavenge', () => {
  const flags = ['--expose-gc', '--no-opt', '--no-maglev', '--no-sparkplug', '-e', CHILD];
  const promoted = JSON.parse(execFileSync(process.execPath, flags, { encoding: 'utf8' }));
  // 20 bodies' 64 KB each would be 1.25 MB; a few KB of the module's own objects may go old.
  for (const [name, bytes] of Object.entries(promoted)) {
    assert.ok(bytes < 256 * 1024, `${name}: ${bytes} bytes promoted by two scavenges after 20 ended bodies`);
  }
});
