// The Hono app of js/README.md's "Fetch API Requests: Hono, Next.js, Remix", as an app would
// write it, its upload folder given: run by test/formdata-hono.test.mjs on @hono/node-server.
import { createWriteStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Hono } from 'hono';
import { parseFormData, readFormData, ReqparseError } from 'reqparse';

export function createApp(uploads) {
  const app = new Hono();

  // Files streamed to disk as they arrive, each read from the request as it is written.
  app.post('/upload', async (c) => {
    const fields = {};
    const files = [];
    for await (const entry of parseFormData(c.req.raw, { limits: { maxFiles: 10, maxFileBytes: 50 << 20 } })) {
      if (entry.kind === 'field') {
        fields[entry.name] = entry.value;
      } else {
        const path = join(uploads, `${randomUUID()}-${entry.filenamePortable}`);
        await pipeline(Readable.fromWeb(entry.stream), createWriteStream(path));
        files.push({ field: entry.name, filename: entry.filename, type: entry.type, path });
      }
    }
    return c.json({ fields, files });
  });

  // A small form read whole, as request.formData() would, but at most 1 MiB of it.
  app.post('/profile', async (c) => {
    const form = await readFormData(c.req.raw);
    const avatar = form.get('avatar');
    return c.json({ name: form.get('name'), avatar: avatar instanceof File ? [avatar.name, avatar.type, avatar.size] : null });
  });

  // 400 (malformed), 413 (a limit) or 415 (not a form), with the part a limit was met in.
  app.onError((e, c) => {
    if (e instanceof ReqparseError) return c.json({ error: e.message, kind: e.kind, part: e.part }, e.status);
    return c.text('Internal Server Error', 500);
  });

  return app;
}
