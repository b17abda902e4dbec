// Every shared vector through the ES module entry (`import 'reqparse'`), and proof that both
// entries are one instance, so their answers cannot differ.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import * as esm from 'reqparse';

const require = createRequire(import.meta.url);
const { defineVectorTests } = require('./vectors.cjs');

defineVectorTests(esm, 'esm');

test('esm and cjs entries export the same functions', () => {
  const cjs = require('reqparse');
  const names = Object.keys(cjs).sort();
  // Plus `default`: the CommonJS exports object itself (test/default.test.mjs).
  assert.deepEqual(Object.keys(esm).filter((k) => k !== 'default').sort(), names);
  for (const name of names) assert.equal(esm[name], cjs[name], name);
  assert.equal(esm.default, cjs);
});
