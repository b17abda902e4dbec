'use strict';
// Stands in for @fastify/busboy where an app's package.json says
// `"overrides": { "@fastify/busboy": "npm:reqparse-fastify-busboy@^0.1.0" }`.
module.exports = require('reqparse/fastify-busboy');
