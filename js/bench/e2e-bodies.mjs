// What bench/e2e.mjs and bench/e2e-counts.mjs send: the multipart bodies of the end-to-end
// servers (test/apps/) and the one POST both clients make.
import http from 'node:http';
import { bytes } from '../test/apps/harness.mjs';

export const BOUNDARY = '----e2eBoundary7MA4YWxkTrZu0gW';
export const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
/** A field part. */
export const field = (name, value) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
/** A file part of `data`. */
export const file = (name, filename, data) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from('\r\n'),
  ]);
/** The close delimiter. */
export const close = Buffer.from(`--${BOUNDARY}--\r\n`);
/** A 1 KB form: a few fields of a sign-up page and a 512-byte avatar. */
export const SMALL = Buffer.concat([
  Buffer.from(field('name', 'Zoë Example') + field('email', 'zoe@example.com') + field('plan', 'team') + field('note', 'x'.repeat(120))),
  file('avatar', 'avatar.png', bytes(512, 1)),
  close,
]);

/** POSTs the multipart `body` to `url` on `agent`: the status and the answer's text. */
export function post(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': CONTENT_TYPE, 'content-length': body.length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
