'use strict';
// Runs every case of the shared vector files (../../tests/vectors/*.json, the same ones the Rust
// tests read) through one face of the package: test/vectors.test.cjs passes the CommonJS
// exports, test/vectors.test.mjs the ES module ones. A case's `expect` is the native answer.

const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { test } = require('node:test');

const dir = join(__dirname, '..', '..', 'tests', 'vectors');

function load(file) {
  const cases = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  assert.ok(Array.isArray(cases) && cases.length > 0, `${file} holds no cases`);
  return cases;
}

/** `run()` must throw a ReqparseError, at `expected.offset` when the vector pins one. */
function throwsAt(api, run, expected) {
  assert.throws(run, (e) => {
    assert.ok(e instanceof api.ReqparseError, `expected ReqparseError, got ${e && e.stack}`);
    assert.ok(e instanceof TypeError);
    assert.equal(typeof e.message, 'string');
    assert.ok(e.message.length > 0);
    if (expected.offset !== undefined) assert.equal(e.offset, expected.offset, e.message);
    return true;
  });
}

const QUERY = {
  file: 'query.json',
  name: (c) => `${c.source} ${JSON.stringify(c.input)}`,
  run(api, c) {
    const profile = c.profile;
    if (c.map) {
      return api.parseQuery(c.input, { profile, ignoreCase: c.ignore_case ?? false }).toJSON();
    }
    return api.queryPairs(c.input, { profile, raw: c.raw ?? false });
  },
};

const URI = {
  file: 'uri.json',
  name: (c) => `${c.source} ${c.op} ${JSON.stringify(c.op === 'split' ? c.uri : c.path)}`,
  run(api, c) {
    switch (c.op) {
      case 'build':
        return api.buildAbsolute({
          scheme: c.scheme ?? '',
          host: c.host ?? '',
          pathBase: c.path_base,
          path: c.path,
          query: c.query,
          fragment: c.fragment,
        });
      case 'relative':
        return api.buildRelative({ pathBase: c.path_base, path: c.path, query: c.query, fragment: c.fragment });
      case 'split':
        return api.splitAbsolute(c.uri);
      default:
        throw new Error(`unknown op ${c.op}`);
    }
  },
};

const dispositionOptions = (c) => ({ profile: c.profile, decode2047: c.decode_2047 ?? false });

/**
 * A disposition case's header bytes, as the Rust tests build them (tests/support/vectors.rs):
 * `input` as UTF-8, or one byte per char with `"input_encoding": "latin1"`.
 */
function headerBytes(c) {
  const encoding = c.input_encoding ?? 'utf-8';
  assert.ok(encoding === 'utf-8' || encoding === 'latin1', `input_encoding ${encoding}`);
  return Buffer.from(c.input, encoding === 'latin1' ? 'latin1' : 'utf8');
}

/** Each case's input as text: what the bytes mean (a latin1 case's chars are its bytes). */
const DISPOSITION = {
  file: 'disposition.json',
  name: (c) => `${c.source} ${JSON.stringify(c.input)}`,
  run(api, c) {
    return api.parseContentDisposition(c.input, dispositionOptions(c));
  },
};

/** The same cases as the header's raw bytes (a Buffer): the Rust core's own input. */
const DISPOSITION_BYTES = {
  ...DISPOSITION,
  via: 'as a Buffer of the header bytes',
  run(api, c) {
    return api.parseContentDisposition(headerBytes(c), dispositionOptions(c));
  },
};

/**
 * The same bytes as node:http's `req.headers` hands them over (one char per byte, latin1), back
 * to bytes with `Buffer.from(value, 'latin1')` as the README shows.
 */
const DISPOSITION_REQ_HEADERS = {
  ...DISPOSITION,
  via: "as req.headers gives it, through Buffer.from(value, 'latin1')",
  run(api, c) {
    const value = headerBytes(c).toString('latin1');
    return api.parseContentDisposition(Buffer.from(value, 'latin1'), dispositionOptions(c));
  },
};

/** A builder error: a plain Error (no input offset) with the crate's message. */
function throwsBuildError(api, run, expected) {
  assert.throws(run, (e) => {
    assert.ok(e instanceof Error && !(e instanceof api.ReqparseError), `expected a plain Error, got ${e && e.stack}`);
    assert.equal(e.message, expected.message);
    return true;
  });
}

const FORMAT = {
  file: 'disposition_format.json',
  name: (c) => `${c.source} ${JSON.stringify(c.filename)}`,
  throws: throwsBuildError,
  run(api, c) {
    const header = api.formatContentDisposition({
      type: c.type,
      filename: c.filename,
      parameters: c.parameters ?? [],
    });
    if (c.expect !== undefined && c.filename !== undefined) {
      // The header must parse back to the same filename.
      assert.equal(api.parseContentDisposition(header).filename, c.filename ?? null);
    }
    return header;
  },
};

const KINDS = [QUERY, URI, DISPOSITION, DISPOSITION_BYTES, DISPOSITION_REQ_HEADERS, FORMAT];

/** Defines one test per vector file; each case is a subtest named after its source. */
function defineVectorTests(api, face) {
  for (const kind of KINDS) {
    test(`${face}: ${kind.file}${kind.via ? ` ${kind.via}` : ''}`, async (t) => {
      const cases = load(kind.file);
      for (const c of cases) {
        await t.test(kind.name(c), () => {
          if (c.expect_error !== undefined) {
            (kind.throws ?? throwsAt)(api, () => kind.run(api, c), c.expect_error);
          } else {
            assert.ok('expect' in c, 'case has neither expect nor expect_error');
            assert.deepStrictEqual(kind.run(api, c), c.expect);
          }
        });
      }
    });
  }
}

module.exports = { defineVectorTests, load };
