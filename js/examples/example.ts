// Type-checked by `npm test` (tsc --noEmit) against index.d.cts: the usage tour (tour.ts) given
// what `require('reqparse')` gives.
import * as reqparse from 'reqparse';
import { tour } from './tour.js';

tour(reqparse);
