// @fastify/busboy's declarations, from reqparse's facade: `import { BusboyConfig,
// BusboyFileStream } from '@fastify/busboy'` (as @fastify/multipart's types write it) and
// `import Busboy from '@fastify/busboy'` compile as they do against @fastify/busboy.
import Busboy = require('reqparse/fastify-busboy');
export = Busboy;
