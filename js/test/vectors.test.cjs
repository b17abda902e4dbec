'use strict';
// Every shared vector through the CommonJS entry (`require('reqparse')`).
const { defineVectorTests } = require('./vectors.cjs');

defineVectorTests(require('reqparse'), 'cjs');
