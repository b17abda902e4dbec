// The same tour as an ES module (index.d.mts): the named exports, and the default export.
import * as reqparse from 'reqparse';
import rp from 'reqparse';
import { tour } from './tour.js';

tour(reqparse);
tour(rp);

// The default export: every named export as one object.
const viaDefault: [string, string][] = rp.queryPairs('a=1');
const fromBytes: string | null = rp.parseContentDisposition(new Uint8Array([105, 110, 108, 105, 110, 101])).filename;
console.log(viaDefault, fromBytes, rp.MAX_INPUT_LENGTH, new rp.ReqparseError('x', 0) instanceof reqparse.ReqparseError);
