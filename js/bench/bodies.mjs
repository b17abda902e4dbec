// The multipart/form-data bodies bench/body.mjs and bench/busboy.mjs time, built alike: parts
// of the same boundary, pseudo-random file data, cuts into chunks, repeated patterns.

/** A boundary as a browser makes one (WebKit's). */
export const BOUNDARY = '----WebKitFormBoundary7MA4YWxkTrZu0gW';
export const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** `size` pseudo-random bytes from `seed`. */
export function pseudoRandom(size, seed = 1) {
  const out = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

export const fieldPart = (name, value) =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
export const filePart = (name, filename, data) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    data,
    Buffer.from('\r\n'),
  ]);
const closing = Buffer.from(`--${BOUNDARY}--\r\n`);
/** The parts, then the close delimiter. */
export const body = (...parts) => Buffer.concat([...parts, closing]);

/** `bytes` cut into chunks of `size`. */
export function chunked(bytes, size) {
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** `pattern` repeated over `size` bytes. */
export function repeat(pattern, size) {
  const p = Buffer.from(pattern);
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i += p.length) p.copy(out, i, 0, Math.min(p.length, size - i));
  return out;
}
