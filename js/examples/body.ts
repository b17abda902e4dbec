// Type-checked by `npm test`: the body readers (parseMultipart, parseForm, decodeChunked).
import { parseMultipart, parseForm, decodeChunked, ReqparseError } from 'reqparse';
import type { MultipartPart, MultipartPartInfo, MultipartPartDecision, ChunkedBody, BodySource } from 'reqparse';

async function tour(chunks: Uint8Array[], stream: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const part of parseMultipart(chunks, { contentType: 'multipart/form-data; boundary=b', profile: 'lenient' })) {
    const p: MultipartPart = part;
    if (p.filename === null) {
      const value: string = p.value;
      console.log(p.name, value, p.contentType);
    } else {
      const raw: Uint8Array = p.filenameRaw;
      const safe: string = p.filenamePortable;
      console.log(p.filenameBasename, safe);
      let size = 0;
      for await (const piece of p.stream) size += piece.byteLength;
      console.log(p.name, p.filename, raw.length, size);
    }
  }
  for await (const part of parseMultipart(stream, { boundary: 'b', limits: { maxParts: 10, maxBodyBytes: Infinity } })) {
    console.log(part.name);
  }
  // The upload limits, and a decision about each part once its header is read.
  const decide = (part: MultipartPartInfo): MultipartPartDecision => {
    if (part.name === 'avatar') return { maxBytes: 256 << 10 };
    if (part.filename !== null && part.filenamePortable?.endsWith('.exe')) return 'skip';
    return undefined;
  };
  const limits = { maxFiles: 10, maxFields: 100, maxFileBytes: 10 << 20, maxTextBytes: 1 << 20, maxNameBytes: 100, maxFilenameBytes: 255 };
  for await (const part of parseMultipart(chunks, { boundary: 'b', limits, onPart: decide })) {
    const index: number = part.index;
    console.log(index, part.name);
  }
  // An onPart that answers nothing reads every part as the limits say.
  parseMultipart(chunks, { boundary: 'b', onPart: (part) => console.log(part.index, part.contentType) });
  for await (const [name, value] of parseForm(chunks, { profile: 'strict', limits: { maxPairs: 100 } })) {
    console.log(name.length + value.length);
  }
  const body: ChunkedBody = decodeChunked(stream, { limits: { maxTrailerFields: 4 } });
  for await (const data of body) console.log(data.byteLength);
  const trailers: [string, string][] = body.trailers;
  const rest: Uint8Array | null = body.rest;
  console.log(trailers, rest, body.consumed);
  try {
    const source: BodySource = chunks;
    for await (const part of parseMultipart(source, { boundary: 'b' })) console.log(part.name);
  } catch (e) {
    if (e instanceof ReqparseError) {
      const status: 400 | 413 | 415 | undefined = e.status;
      const part: number | undefined = e.part;
      const name: string | undefined = e.partName;
      console.log(e.kind, e.limit, e.offset, status, part, name);
    }
  }
  // @ts-expect-error: one of boundary and contentType
  parseMultipart(chunks, { profile: 'fetch' });
  // @ts-expect-error: limits are named in camelCase
  parseForm(chunks, { limits: { max_pairs: 1 } });
  // @ts-expect-error: multipart profiles are their own set
  parseMultipart(chunks, { boundary: 'b', profile: 'whatwg' });
  // @ts-expect-error: onPart answers 'skip', { maxBytes } or nothing
  parseMultipart(chunks, { boundary: 'b', onPart: () => 'drop' });
  // @ts-expect-error: and synchronously
  parseMultipart(chunks, { boundary: 'b', onPart: async () => 'skip' });
}
void tour;
