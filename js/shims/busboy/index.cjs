'use strict';
// Stands in for busboy 1.x where an app's package.json says
// `"overrides": { "busboy": "npm:reqparse-busboy@^0.1.0" }`: multer's require('busboy') gets
// reqparse's facade. reqparse is a peer: the app's own copy.
module.exports = require('reqparse/busboy');
