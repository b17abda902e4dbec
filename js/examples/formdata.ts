// Type-checked by `npm test`: the web-standard readers (parseFormData, readFormData, FileUpload)
// in the shapes js/README.md shows: a Hono handler, a Next.js route handler, a Remix action.
import { createWriteStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { Hono } from 'hono';
import { parseFormData, readFormData, FileUpload, ReqparseError } from 'reqparse';
import type { FormDataEntry, FormDataFile, FormDataOptions, FileUploadHandler, FormDataInput } from 'reqparse';

// Hono: the entries as they arrive, each file streamed to disk.
const app = new Hono();
app.post('/upload', async (c) => {
  const saved: { field: string; path: string }[] = [];
  const fields: Record<string, string> = {};
  for await (const entry of parseFormData(c.req.raw, { limits: { maxFiles: 4, maxFileBytes: 10 << 20 } })) {
    if (entry.kind === 'field') {
      fields[entry.name] = entry.value;
    } else {
      const path = `/tmp/uploads/${randomUUID()}-${entry.filenamePortable}`;
      // Readable.fromWeb takes node:stream/web's ReadableStream type; the global one is the same object.
      await pipeline(Readable.fromWeb(entry.stream as NodeReadableStream<Uint8Array>), createWriteStream(path));
      saved.push({ field: entry.name, path });
    }
  }
  return c.json({ fields, saved });
});
app.onError((e, c) => {
  if (e instanceof ReqparseError) return c.text(e.message, e.status ?? 400);
  throw e;
});

// Next.js (app/upload/route.ts): a small form read whole, `request.formData()` with a limit.
export async function POST(request: Request): Promise<Response> {
  const form: FormData = await readFormData(request, { limits: { maxBodyBytes: 4 << 20 } });
  const avatar = form.get('avatar');
  return Response.json({ name: form.get('name'), size: avatar instanceof File ? avatar.size : 0 });
}

// Remix (an action): each file through an upload handler, stored on disk, its path kept in the
// form (README's, as written there).
async function uploadHandler(upload: FileUpload) {
  if (upload.fieldName !== 'avatar') return;
  const path = `/tmp/uploads/${randomUUID()}-${upload.filenamePortable}`;
  await pipeline(Readable.fromWeb(upload.stream() as NodeReadableStream<Uint8Array>), createWriteStream(path));
  return path;
}
export async function action({ request }: { request: Request }) {
  const form = await readFormData(request, { limits: { maxFileBytes: 20 << 20 } }, uploadHandler);
  const typed: FileUploadHandler = uploadHandler;
  const form2 = await readFormData(request, typed);
  return { avatar: form.get('avatar'), same: form2.get('avatar') };
}

async function more(body: AsyncIterable<Uint8Array>, stream: ReadableStream<Uint8Array>): Promise<void> {
  const input: FormDataInput = { body, contentType: 'multipart/form-data; boundary=b' };
  const options: FormDataOptions = { profile: 'lenient', onPart: (part) => (part.name === 'skip' ? 'skip' : undefined) };
  for await (const entry of parseFormData(input, options)) {
    const e: FormDataEntry = entry;
    if (e.kind === 'file') {
      const f: FormDataFile = e;
      const type: string = f.type;
      const s: ReadableStream<Uint8Array> = f.stream;
      console.log(f.index, f.filename, f.filenameRaw.length, f.filenameBasename, type, s.locked);
    } else {
      const value: string = e.value;
      console.log(e.index, e.name, value);
    }
  }
  await readFormData({ body: stream, contentType: null });
  // Answers an upload handler may give.
  await readFormData(input, async (u) => new File([await u.bytes()], u.name, { type: u.type }));
  await readFormData(input, (u) => new Blob([u.name]));
  await readFormData(input, async (u) => (await u.text()).length > 0 ? null : undefined);
  await readFormData(input, async (u) => { const b: ArrayBuffer = await u.arrayBuffer(); console.log(b.byteLength, u.lastModified, u.index); });
  try {
    await readFormData(input);
  } catch (e) {
    if (e instanceof ReqparseError) {
      const status: 400 | 413 | 415 | undefined = e.status;
      console.log(status, e.limit, e.part, e.partName);
    }
  }
  // @ts-expect-error: a Content-Type is needed with a bare body
  parseFormData({ body });
  // @ts-expect-error: limits are parseMultipart's
  parseFormData(input, { limits: { maxPairs: 1 } });
  // @ts-expect-error: an upload handler answers what a FormData holds
  readFormData(input, () => 42);
  // @ts-expect-error: FileUploads are made by readFormData
  new FileUpload();
}
void more;
