// Type-checked by `npm test`: reqparse/busboy and reqparse/fastify-busboy used as multer and
// @fastify/multipart use busboy and @fastify/busboy.
import { createServer } from 'node:http';
import busboy = require('reqparse/busboy');
import Busboy = require('reqparse/fastify-busboy');
// The names @fastify/multipart's own declarations import from '@fastify/busboy', through the
// shim an `overrides` entry swaps in (js/shims/fastify-busboy).
import type { BusboyConfig, BusboyFileStream, BusboyHeaders } from '../shims/fastify-busboy/index.js';

const multipartOptions: Omit<BusboyConfig, 'headers'> = { preservePath: true, limits: { fileSize: 1024 } };
const onFile = (stream: BusboyFileStream): boolean => stream.truncated;
const headers: BusboyHeaders = { 'content-type': 'multipart/form-data; boundary=b' };
void [multipartOptions, onFile, headers];

createServer((req, res) => {
  const bb = busboy({ headers: req.headers, limits: { fileSize: 1 << 20, files: 2 }, defParamCharset: 'utf8' });
  bb.on('file', (name: string, stream, info) => {
    const filename: string | undefined = info.filename;
    stream.on('limit', () => res.statusCode = 413);
    const truncated: boolean = stream.truncated;
    stream.resume();
    void [name, filename, truncated, info.mimeType, info.encoding];
  });
  bb.on('field', (name, value: string, { valueTruncated }) => void [name, value, valueTruncated]);
  bb.on('filesLimit', () => res.statusCode = 413);
  bb.on('close', () => res.end());
  req.pipe(bb);

  const fb = new Busboy({ headers: req.headers, limits: { parts: 10, headerSize: 80 * 1024 }, isPartAFile: (n, ct, f) => f !== undefined });
  fb.on('file', (fieldname, stream, filename: string, encoding, mimeType) => {
    const read: number = stream.bytesRead;
    stream.resume();
    void [fieldname, filename, encoding, mimeType, read];
  });
  fb.on('field', (name, value, nameTruncated: boolean, valueTruncated: boolean) => void [name, value, nameTruncated, valueTruncated]);
  Busboy({ headers: req.headers }).on('finish', () => undefined);
});
