'use strict';
// The package's entry: the public names, each from the file of its topic in lib/ —
// query.cjs (queryPairs, parseQuery, QueryMap), uri.cjs (buildAbsolute, buildRelative,
// splitAbsolute), disposition.cjs (parseContentDisposition, formatContentDisposition), body.cjs
// (parseMultipart, parseForm, decodeChunked), formdata.cjs (parseFormData, readFormData,
// FileUpload: Fetch API Requests, over body.cjs) — over wire.cjs, the boundary with the wasm of
// src/faces/js/ (the instance, its layout, the input and answer buffers, ReqparseError).
//
// Each topic answers the small, common inputs in JS, beside its wasm path, where crossing into
// wasm costs more than the work (js/BENCHMARKS.md, "How small calls are answered"). A JS path
// either returns exactly what the Rust core would answer, or `undefined` when the input holds
// anything it does not take, and the caller then asks wasm. JS paths never throw for bad input
// and never report an error: every rejected input, every limit and every rare form (other
// profiles, RFC 2231 continuations, charsets other than UTF-8, paths with lone surrogates, hosts
// that need IDNA or are IP literals) goes to wasm. Their rules are the core's, restated for these
// shapes only (the file each follows is named at each); test/differential.test.mjs runs the
// vectors and seeded random inputs through them and through wasm and checks that they agree.

const { ReqparseError, MAX_INPUT_LENGTH } = require('./lib/wire.cjs');
const query = require('./lib/query.cjs');
const uri = require('./lib/uri.cjs');
const disposition = require('./lib/disposition.cjs');
const { parseMultipart, parseForm, decodeChunked } = require('./lib/body.cjs');
const { parseFormData, readFormData, FileUpload } = require('./lib/formdata.cjs');

module.exports = {
  ReqparseError,
  QueryMap: query.QueryMap,
  MAX_INPUT_LENGTH,
  queryPairs: query.queryPairs,
  parseQuery: query.parseQuery,
  buildAbsolute: uri.buildAbsolute,
  buildRelative: uri.buildRelative,
  splitAbsolute: uri.splitAbsolute,
  parseContentDisposition: disposition.parseContentDisposition,
  formatContentDisposition: disposition.formatContentDisposition,
  parseMultipart,
  parseForm,
  decodeChunked,
  parseFormData,
  readFormData,
  FileUpload,
};

// Internal, for test/differential.test.mjs only (not documented, not a contract): turns the
// pure-JS paths off and on, so that the same inputs can be answered by wasm alone, and gives
// them (`fast`) to be called directly.
Object.defineProperty(module.exports, Symbol.for('reqparse.internal'), {
  value: Object.freeze({
    setFastPaths(on) {
      for (const topic of [query, uri, disposition]) topic.setFastPaths(on === true);
    },
    fast: {
      disposition: disposition.disposition,
      buildAbsolute: uri.jsBuildAbsolute,
      buildRelative: uri.jsBuildRelative,
      splitAbsolute: uri.jsSplitAbsolute,
      queryPairs: query.scanPairs,
    },
  }),
});
