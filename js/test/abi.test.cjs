'use strict';
// The package's JS (lib/wire.cjs, and each topic in lib/) takes the wire protocol's numbers from
// the wasm (src/faces/js/mod.rs defines them) and refuses a wasm that speaks another protocol
// version. The mismatch is simulated by loading a fresh index.cjs, with fresh lib/ files, over a
// copy of the real wasm module whose version export lies.
const assert = require('node:assert/strict');
const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const { test } = require('node:test');

const indexPath = require.resolve('../index.cjs');
const pkgPath = require.resolve('../pkg/reqparse.js');
const lib = join(__dirname, '..', 'lib');
/** Every file of the package that reads the wasm at load: loaded afresh by loadWith. */
const freshPaths = [indexPath, ...readdirSync(lib).map((f) => join(lib, f))];

/** Loads a fresh index.cjs over the real wasm module with `patch` applied to its exports. */
function loadWith(patch) {
  const real = require(pkgPath);
  const savedPkg = require.cache[pkgPath];
  const saved = freshPaths.map((p) => require.cache[p]);
  for (const p of freshPaths) delete require.cache[p];
  require.cache[pkgPath] = { ...savedPkg, loaded: true, exports: patch({ ...real }) };
  try {
    return require(indexPath);
  } finally {
    require.cache[pkgPath] = savedPkg;
    freshPaths.forEach((p, i) => {
      if (saved[i] === undefined) delete require.cache[p];
      else require.cache[p] = saved[i];
    });
  }
}

test('the real wasm speaks the protocol index.cjs expects', () => {
  const api = loadWith((exports) => exports);
  assert.deepEqual(api.queryPairs('a=%41&b', { profile: 'strict' }), [['a', 'A'], ['b', '']]);
  assert.equal(api.MAX_INPUT_LENGTH, 1 << 20);
});

test('a wasm of another protocol version is refused at load, with how to fix it', () => {
  for (const version of [0, 1, 999]) {
    assert.throws(
      () => loadWith((exports) => ({ ...exports, rp_abi_version: () => version })),
      {
        name: 'Error',
        message: new RegExp(
          `^reqparse: js/pkg/reqparse_bg\\.wasm speaks wire protocol version ${version}, ` +
            'index\\.cjs speaks version 3: rebuild the wasm with `npm run build`$',
        ),
      },
    );
  }
});

test('a wasm from before the version check (no rp_abi_version) is refused', () => {
  assert.throws(
    () =>
      loadWith((exports) => {
        delete exports.rp_abi_version;
        return exports;
      }),
    /speaks wire protocol version 0, index\.cjs speaks version 3/,
  );
});

test('a layout missing a number index.cjs reads is refused at load, naming it', () => {
  const withoutErrIndex = (exports) => {
    const layout = JSON.parse(exports.rp_layout());
    delete layout.header.errIndex;
    return { ...exports, rp_layout: () => JSON.stringify(layout) };
  };
  assert.throws(() => loadWith(withoutErrIndex), {
    message:
      'reqparse: js/pkg/reqparse_bg.wasm has no header.errIndex in its layout: ' +
      'rebuild the wasm with `npm run build`',
  });
});

test('profile names and their wire numbers come from the core, in its order', () => {
  const layout = JSON.parse(require(pkgPath).rp_layout());
  assert.deepEqual(layout.queryProfiles, ['whatwg', 'dotnet', 'strict']);
  assert.deepEqual(layout.dispositionProfiles, ['strict', 'browser', 'dotnet']);
  // An unknown name is refused with the core's names, in the same order.
  const api = require('../index.cjs');
  assert.throws(() => api.queryPairs('a', { profile: 'WHATWG' }), {
    message: "queryPairs: profile must be one of 'whatwg', 'dotnet', 'strict'",
  });
  assert.throws(() => api.parseContentDisposition('inline', { profile: 'rfc' }), {
    message: "parseContentDisposition: profile must be one of 'strict', 'browser', 'dotnet'",
  });
});

test('the body readers take their numbers from the layout too: profiles and limits in core order', () => {
  const { body } = JSON.parse(require(pkgPath).rp_layout());
  assert.deepEqual(body.multipartProfiles, ['fetch', 'strict', 'lenient']);
  assert.deepEqual(body.formLimits, ['max_pairs', 'max_name_bytes', 'max_value_bytes', 'max_body_bytes']);
  assert.equal(body.chunkedLimits.length, 7);
  assert.deepEqual(body.multipartLimits.slice(8), [
    'max_files',
    'max_fields',
    'max_file_bytes',
    'max_text_bytes',
    'max_name_bytes',
    'max_filename_bytes',
  ]);
  assert.equal(body.multipartLimits.length, 14);
  // A multipart handle made to wait at each part answers this after a part's header.
  assert.equal(body.part, 2);
  const withoutEvent = (exports) => {
    const layout = JSON.parse(exports.rp_layout());
    delete layout.body.events.partEnd;
    return { ...exports, rp_layout: () => JSON.stringify(layout) };
  };
  assert.throws(() => loadWith(withoutEvent), /has no body\.events\.partEnd in its layout/);
});

test('the body events: the words after each tag and where each field lies come from the layout', () => {
  const { body } = JSON.parse(require(pkgPath).rp_layout());
  assert.deepEqual(Object.keys(body.words), Object.keys(body.events));
  assert.deepEqual(Object.keys(body.fields), Object.keys(body.events));
  assert.deepEqual(body.words, { data: 2, part: 14, partEnd: 0, end: 2, pair: 4, trailer: 4, error: 9 });
  // The part's fields in the order the handle writes them, each a span of two words.
  assert.deepEqual(body.fields.part, {
    name: 1,
    filename: 3,
    filenameRaw: 5,
    contentType: 7,
    mimeType: 9,
    filenameBasename: 11,
    filenamePortable: 13,
  });
  assert.deepEqual(body.fields.data, { start: 1, end: 2 });
  assert.deepEqual(body.fields.error, { message: 1, kind: 3, offset: 5, part: 7, status: 9 });
  const without = (event, field) => (exports) => {
    const layout = JSON.parse(exports.rp_layout());
    if (field === undefined) delete layout.body.words[event];
    else delete layout.body.fields[event][field];
    return { ...exports, rp_layout: () => JSON.stringify(layout) };
  };
  assert.throws(() => loadWith(without('part')), /has no body\.words\.part in its layout/);
  assert.throws(() => loadWith(without('part', 'filenamePortable')), /has no body\.fields\.part\.filenamePortable in its layout/);
});
