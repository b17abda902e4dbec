// `import rp from 'reqparse'`: the ESM default export is the object `require('reqparse')` gives,
// with every named export on it.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import rp, * as named from 'reqparse';

const require = createRequire(import.meta.url);

test('ESM default export: every named export, the same objects as require gives', () => {
  const cjs = require('reqparse');
  assert.equal(rp, cjs);
  const names = Object.keys(named).filter((k) => k !== 'default').sort();
  assert.deepEqual(Object.keys(rp).sort(), names);
  for (const name of names) assert.equal(rp[name], named[name], name);
  assert.deepEqual(rp.queryPairs('a=1'), [['a', '1']]);
  assert.ok(new rp.ReqparseError('x', 0) instanceof named.ReqparseError);
});
