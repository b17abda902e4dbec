// ESM entry: re-exports the CommonJS build so `import` and `require` share one wasm instance
// (and one ReqparseError class).
import cjs from './index.cjs';

export const {
  ReqparseError,
  QueryMap,
  MAX_INPUT_LENGTH,
  queryPairs,
  parseQuery,
  buildAbsolute,
  buildRelative,
  splitAbsolute,
  parseContentDisposition,
  formatContentDisposition,
  parseMultipart,
  parseForm,
  decodeChunked,
  parseFormData,
  readFormData,
  FileUpload,
} = cjs;

// `import rp from 'reqparse'`: the object `require('reqparse')` gives, every export on it.
export default cjs;
