// Types for the `reqparse` npm package (CommonJS and, through index.d.mts, ESM).

/** How `%`-escapes, `+` and malformed input are treated in query strings. */
export type QueryProfile = 'whatwg' | 'dotnet' | 'strict';

/** How lenient the Content-Disposition parser is. */
export type DispositionProfile = 'strict' | 'browser' | 'dotnet';

/**
 * Thrown for input reqparse rejects (and for inputs longer than {@link MAX_INPUT_LENGTH}).
 * Wrong argument types and unknown options throw a plain `TypeError` instead.
 */
export declare class ReqparseError extends TypeError {
  constructor(message: string, offset: number, index?: number);
  readonly name: 'ReqparseError';
  /** Byte offset in the input's UTF-8 encoding (from the start of the body, for the body readers): what every reqparse face reports. */
  readonly offset: number;
  /** The same position as a UTF-16 index into the JS string (the byte offset, for bodies and for a `Uint8Array` header). */
  readonly index: number;
  /**
   * Body readers only: the error's kind by its name in every reqparse face (CLI, vectors),
   * e.g. `'bare-lf'`, `'unexpected-end'`, or `'limit:'` and the core's limit name
   * (`'limit:max_parts'`).
   */
  kind?: string;
  /**
   * Body readers, for a limit: the name of the option that sets it (`'maxParts'`);
   * `'maxPartBytes'` for the limit `onPart` set ({@link MultipartPartDecision}).
   */
  limit?: string;
  /**
   * Body readers: the HTTP status the error answers (RFC 9110 §15.5): 413 (Content Too Large)
   * for a limit, 400 (Bad Request) for a malformed body, boundary or Content-Type; 415
   * (Unsupported Media Type) for a request {@link parseFormData} and {@link readFormData} do not
   * read (another media type, no Content-Type, a Content-Encoding).
   */
  status?: 400 | 413 | 415;
  /**
   * `parseMultipart`: the index of the part the error is in (its header block or its data; 0
   * for the first part), as the parts' `index` counts them; `undefined` outside any part (the
   * boundary, a preamble, a delimiter line, the epilogue).
   */
  part?: number;
  /**
   * `parseMultipart`: the name of the part the error is in, when its header was read (an error
   * in its data); `undefined` otherwise (an error in its header block, `maxFiles` refusing it).
   */
  partName?: string;
}

/** Longest input accepted, in UTF-16 code units (1 Mi); a `Uint8Array` header, in bytes. */
export declare const MAX_INPUT_LENGTH: number;

export interface QueryPairsOptions {
  /** Default `'whatwg'` (what `URLSearchParams` does). */
  profile?: QueryProfile;
  /** Answer the pairs as written, without decoding `%XX` or `+`. Default false. */
  raw?: boolean;
}

/** The pairs of a query string (one leading `?` skipped), in input order. */
export declare function queryPairs(query: string, options?: QueryPairsOptions): [name: string, value: string][];

export interface ParseQueryOptions {
  profile?: QueryProfile;
  /** Look names up case-insensitively. Default false. */
  ignoreCase?: boolean;
}

/**
 * A parsed query for repeated lookups: names in first-appearance order, each with its values
 * in input order.
 */
export declare class QueryMap implements Iterable<[name: string, values: string[]]> {
  constructor(entries?: Iterable<[name: string, values: string[]]>, ignoreCase?: boolean);
  /** The first value of `name`, or null. */
  get(name: string): string | null;
  /** Every value of `name` (a new array, empty when absent). */
  getAll(name: string): string[];
  has(name: string): boolean;
  /** The number of distinct names. */
  readonly size: number;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string[]>;
  entries(): IterableIterator<[name: string, values: string[]]>;
  [Symbol.iterator](): IterableIterator<[name: string, values: string[]]>;
  forEach(callback: (values: string[], name: string, map: QueryMap) => void, thisArg?: unknown): void;
  /** `{ name: [values...] }` */
  toJSON(): Record<string, string[]>;
}

export declare function parseQuery(query: string, options?: ParseQueryOptions): QueryMap;

export interface AbsoluteParts {
  scheme: string;
  host: string;
  pathBase?: string;
  path?: string;
  /** With its leading `?`, or empty. */
  query?: string;
  /** With its leading `#`, or empty. */
  fragment?: string;
}

export type RelativeParts = Omit<AbsoluteParts, 'scheme' | 'host'>;

/** `scheme://host/pathBase/path?query#fragment`, each part escaped as needed. */
export declare function buildAbsolute(parts: AbsoluteParts): string;

/** `pathBase/path?query#fragment`, each part escaped as needed. */
export declare function buildRelative(parts: RelativeParts): string;

export interface SplitUri {
  scheme: string;
  host: string;
  /** Unescaped. */
  path: string;
  /** With its leading `?`, or empty. */
  query: string;
  /** With its leading `#`, or empty. */
  fragment: string;
}

export declare function splitAbsolute(uri: string): SplitUri;

export interface ParseContentDispositionOptions {
  /** Default `'strict'` (RFC 6266). */
  profile?: DispositionProfile;
  /** Decode RFC 2047 encoded words (`=?UTF-8?B?...?=`) in `filename`. Default false. */
  decode2047?: boolean;
}

export interface ContentDisposition {
  /** Lowercased. */
  type: string;
  /** The effective filename (`filename*` preferred, RFC 6266 §4.3), or null. */
  filename: string | null;
  /** Lowercased names, unquoted values (extended values as written), in input order. */
  parameters: [name: string, value: string][];
}

/**
 * Parses a Content-Disposition header value, given as text or as its raw bytes.
 *
 * - A string is text: every char reads as itself (`filename="résumé.pdf"` as typed).
 * - A `Uint8Array` (a `Buffer`) is the header's bytes, read as the Rust core reads bytes: a
 *   value whose bytes are valid UTF-8 as UTF-8, any other as ISO-8859-1. Node's `req.headers`
 *   holds one char per header byte: pass `Buffer.from(req.headers['content-disposition'],
 *   'latin1')` to read a raw UTF-8 filename right. A `ReqparseError`'s `offset` and `index`
 *   are then both the byte offset.
 *
 * Outside quoted strings the `'strict'` and `'dotnet'` profiles refuse non-ASCII (RFC 9110);
 * `'browser'` reads it like quoted text.
 */
export declare function parseContentDisposition(
  header: string | Uint8Array,
  options?: ParseContentDispositionOptions,
): ContentDisposition;

export interface ContentDispositionInit {
  type: string;
  filename?: string | null;
  parameters?: [name: string, value: string][];
}

/**
 * A header value; `filename*` is added when the filename is not plain ASCII.
 * @throws {Error} (not a `ReqparseError`: there is no input offset) with the crate's message
 * when the header would not parse back to the same type, filename and parameters: the type or
 * a parameter name is not a token, a parameter is written twice, there are more than 16 items,
 * or the header would be longer than 16384 bytes.
 */
export declare function formatContentDisposition(value: ContentDispositionInit): string;

// ---- request bodies ---------------------------------------------------------------------------

/** A web `ReadableStream` of bytes, as much of it as the body readers use. */
export interface ByteReadableStream {
  getReader(): {
    read(): Promise<{ done: false; value: Uint8Array } | { done: true; value?: undefined }>;
    cancel(reason?: unknown): Promise<void>;
  };
}

/**
 * Where a body's bytes come from: a Node `Readable` (it is an `AsyncIterable`), a web
 * `ReadableStream`, or any (async) iterable of `Uint8Array` chunks (`Buffer`s included).
 */
export type BodySource = AsyncIterable<Uint8Array> | Iterable<Uint8Array> | ByteReadableStream;

/** How a multipart body is read: `'fetch'` (default, the Fetch Standard / WPT), `'strict'` (RFC 7578 + RFC 2046), `'lenient'` (busboy, ASP.NET Core). */
export type MultipartProfile = 'fetch' | 'strict' | 'lenient';

/** Limits of a multipart body, finite by default (ASP.NET Core's FormOptions); `Infinity` lifts one. */
export interface MultipartLimits {
  /** Parts in the body. Default 1024. */
  maxParts?: number;
  /** Bytes of the boundary. Default 70 (RFC 2046). */
  maxBoundaryBytes?: number;
  /** Header fields in one part. Default 16. */
  maxHeaders?: number;
  /** Bytes of one part's header block. Default 16384. */
  maxHeaderBytes?: number;
  /** Bytes of one field (a part without a filename). Default 4 MiB. */
  maxValueBytes?: number;
  /** Bytes of the whole body. Default 128 MiB. */
  maxBodyBytes?: number;
  /** Bytes before the first boundary (`'lenient'`). Default 16384. */
  maxPreambleBytes?: number;
  /** Bytes after the close delimiter (`'lenient'`). Default 16384. */
  maxEpilogueBytes?: number;
  /**
   * Parts with a filename (files). Default 100 (Django's `DATA_UPLOAD_MAX_NUMBER_FILES`,
   * against CVE-2023-24580: 10,000 tiny files exhausting file descriptors).
   */
  maxFiles?: number;
  /** Parts without a filename (fields). Default 1024 (ASP.NET Core's `ValueCountLimit`). */
  maxFields?: number;
  /** Bytes of one file part's data. Default 128 MiB (the body's): lower it to keep files small. */
  maxFileBytes?: number;
  /** Bytes of all fields' data together (what a server keeps in memory). Default 16 MiB. */
  maxTextBytes?: number;
  /** Bytes of a part's `name`, as sent. Default 2048 (ASP.NET Core's `KeyLengthLimit`). */
  maxNameBytes?: number;
  /** Bytes of a part's `filename`, and of its `filename*`, each as sent. Default 1024. */
  maxFilenameBytes?: number;
}

/**
 * A part as {@link ParseMultipartOptions.onPart} sees it: its header read, its data not yet.
 * A file's filename fields are as {@link MultipartFile} has them; a field's are null.
 */
export interface MultipartPartInfo {
  /** 0 for the first part of the body, counting every part (skipped ones too). */
  index: number;
  name: string;
  filename: string | null;
  filenameRaw: Uint8Array | null;
  filenameBasename: string | null;
  filenamePortable: string | null;
  contentType: string | null;
  /** As {@link MultipartFile.mimeType}. */
  mimeType: string | null;
}

/**
 * What `onPart` answers about a part: nothing (`undefined`) to read it as the limits say;
 * `'skip'` to read past its data without handing it out (the part is not yielded; only
 * `maxBodyBytes` applies to it, and a skipped field does not count against `maxTextBytes`);
 * `{ maxBytes }` to read it with its own data limit in place of `maxFileBytes` or
 * `maxValueBytes`, lower or higher (`Infinity` lifts it; `maxBodyBytes`, and for a field
 * `maxTextBytes`, still apply): a byte past it rejects the read with a {@link ReqparseError}
 * whose `kind` is `'limit:max_part_bytes'`.
 */
export type MultipartPartDecision = 'skip' | { maxBytes: number } | undefined | void;

export type ParseMultipartOptions = {
  profile?: MultipartProfile;
  limits?: MultipartLimits;
  /**
   * Called once a part's header is read, before any of its data, to decide about that part
   * (what multer's `fileFilter`, formidable's `filter` and busboy's `file.resume()` are for):
   * see {@link MultipartPartDecision}. It must answer synchronously; what it throws rejects
   * the read (and lets the source go, as an error does): a way to refuse a request by a
   * part's name or type.
   *
   * ```ts
   * parseMultipart(req, {
   *   contentType: req.headers['content-type'],
   *   limits: { maxFileBytes: 10 << 20 },
   *   onPart: (part) => {
   *     if (part.name === 'avatar') return { maxBytes: 256 << 10 }; // avatars: 256 KiB
   *     if (part.filename !== null && !part.contentType?.startsWith('image/')) return 'skip';
   *   },
   * });
   * ```
   */
  onPart?: (part: MultipartPartInfo) => MultipartPartDecision;
} & (
  | {
      /** The `boundary` parameter of the body's Content-Type, unquoted; a string is looked for UTF-8 encoded. */
      boundary: string | Uint8Array;
      contentType?: undefined;
    }
  | {
      /**
       * The body's Content-Type header value (`req.headers['content-type']`): the boundary is
       * read from it. A string of chars up to U+00FF is read one byte per char, as Node hands
       * header bytes over; a Uint8Array as the raw bytes; `undefined` (a request without the
       * header) throws a ReqparseError, as a bad value does.
       */
      contentType: string | Uint8Array | undefined;
      boundary?: undefined;
    }
);

/** A part without a filename: a form field, its value decoded as UTF-8 (invalid bytes replaced). */
export interface MultipartField {
  /** 0 for the first part of the body (as {@link MultipartPartInfo.index} and an error's `part` count). */
  index: number;
  name: string;
  filename: null;
  /** The part's Content-Type value as sent, or null. */
  contentType: string | null;
  /** As {@link MultipartFile.mimeType}. */
  mimeType: string | null;
  value: string;
}

/** A file part: its data comes through `stream`, which must be read before the next part is asked for (or its rest is skipped). */
export interface MultipartFile {
  /** 0 for the first part of the body (as {@link MultipartPartInfo.index} and an error's `part` count). */
  index: number;
  name: string;
  /** The effective filename (`filename*` preferred, RFC 6266 §4.3). Data, not a path. */
  filename: string;
  /** The filename parameter's bytes as sent, between its quotes. */
  filenameRaw: Uint8Array;
  /** What follows the last `/` or `\` of `filename` (old browsers sent whole paths); may still be `..` or empty. */
  filenameBasename: string;
  /**
   * A name safe to create on Linux, macOS and Windows, from the basename: control characters,
   * `< > : " / \ | ? *` and bidi overrides become `_`, leading dots and trailing dots and
   * spaces go, Windows device names get a leading `_`, at most 255 bytes, never empty.
   */
  filenamePortable: string;
  /** The part's Content-Type value as sent, or null. */
  contentType: string | null;
  /**
   * The MIME type the Fetch Standard reads in the part's Content-Type ("extract a MIME type"),
   * serialized: `Text/Plain; Charset="UTF-8"` is `'text/plain;charset=UTF-8'` (the essence,
   * `type/subtype` lowercase, is what precedes the first `;`; then `;name=value` per
   * parameter). Null when there is no Content-Type or it is not a MIME type, whatever
   * `contentType` (the header as sent) says.
   */
  mimeType: string | null;
  /**
   * The file's data, as it arrives: views of the source's own chunks (no copy), except a few
   * bytes held back between chunks. Works with `stream.pipeline`, `Readable.from` and
   * `ReadableStream.from`.
   */
  stream: AsyncIterableIterator<Uint8Array>;
}

export type MultipartPart = MultipartField | MultipartFile;

/**
 * The parts of a multipart/form-data body, as they arrive: nothing is buffered whole, and the
 * source is read only as fast as the parts (and file streams) are. A `break` lets the source
 * go. A bad boundary or Content-Type throws at once; a bad body rejects the read that meets it
 * with a {@link ReqparseError} (`kind`, `offset`, `status`, `limit`, `part`, `partName`).
 * `onPart` decides about each part before its data (skip it, or set its limit).
 */
export declare function parseMultipart(source: BodySource, options: ParseMultipartOptions): AsyncIterableIterator<MultipartPart>;

export interface FormLimits {
  /** Pairs in the body. Default 1024. */
  maxPairs?: number;
  /** Bytes of one name, as sent. Default 2048. */
  maxNameBytes?: number;
  /** Bytes of one value, as sent. Default 4 MiB. */
  maxValueBytes?: number;
  /** Bytes of the whole body. Default 128 MiB. */
  maxBodyBytes?: number;
}

export interface ParseFormOptions {
  /** As for queries; default `'whatwg'`. */
  profile?: QueryProfile;
  limits?: FormLimits;
}

/** The `[name, value]` pairs of an application/x-www-form-urlencoded body, decoded as {@link queryPairs} decodes. */
export declare function parseForm(source: BodySource, options?: ParseFormOptions): AsyncIterableIterator<[name: string, value: string]>;

export interface ChunkedLimits {
  /** Hex digits in a chunk size. Default 16. */
  maxSizeDigits?: number;
  /** Bytes of one chunk-size line. Default 4096. */
  maxLineBytes?: number;
  /** Bytes of chunk extensions in the body. Default 16384. */
  maxExtensionBytes?: number;
  /** Framing bytes allowed beyond the data's own length. Default 65536. */
  overheadGrace?: number;
  /** Bytes of chunk data. Default 128 MiB. */
  maxBodyBytes?: number;
  /** Bytes of the trailer section. Default 16384. */
  maxTrailerBytes?: number;
  /** Trailer fields. Default 64. */
  maxTrailerFields?: number;
}

export interface DecodeChunkedOptions {
  limits?: ChunkedLimits;
}

/** The decoded data of a chunked body, and what came with it once it is read to its end. */
export interface ChunkedBody extends AsyncIterableIterator<Uint8Array> {
  /** The trailer fields, filled as they are read (all of them once iteration has ended). */
  readonly trailers: [name: string, value: string][];
  /** Bytes of the source that were the chunked body; null until the end. */
  readonly consumed: number | null;
  /** What the source gave after the body (the next message's first bytes); null until the end. */
  readonly rest: Uint8Array | null;
}

/**
 * The data of a body in the chunked transfer coding (RFC 9112 §7.1), decoded strictly (a bare
 * CR or LF, an empty size line, a missing CRLF after data: errors). The source is read up to
 * the body's end and left open there.
 */
export declare function decodeChunked(source: BodySource, options?: DecodeChunkedOptions): ChunkedBody;

// ---- web-standard bodies: Fetch API Requests ------------------------------------------------

/**
 * A form body to read: a Fetch API `Request` (Node's global one, a framework's: Hono's
 * `c.req.raw`, a Next.js or Remix route's `request`), or a body and its Content-Type value.
 */
export type FormDataInput =
  | Request
  | {
      /** The body's bytes (`null` or `undefined`: an empty body). */
      body: BodySource | null | undefined;
      /** The Content-Type header value (`null` or `undefined`: none, refused with 415). */
      contentType: string | Uint8Array | null | undefined;
    };

/**
 * How {@link parseFormData} and {@link readFormData} read a body: the options of
 * {@link parseMultipart}, for both media types. A urlencoded body (all fields) takes the limits
 * that apply to it: `maxFields` (its pairs), `maxNameBytes`, `maxValueBytes`, `maxBodyBytes`,
 * and `maxTextBytes`, which bounds the whole body too; `profile` and `onPart` are multipart's
 * (a urlencoded body is read as `URLSearchParams` and `Request.formData()` read it).
 */
export interface FormDataOptions {
  /** The multipart profile; default `'fetch'`, as `Request.formData()` reads. */
  profile?: MultipartProfile;
  /**
   * As {@link parseMultipart}'s; {@link readFormData} without an upload handler lowers
   * `maxBodyBytes` to 1 MiB unless it is given.
   */
  limits?: MultipartLimits;
  /** A decision about each multipart part once its header is read, as {@link ParseMultipartOptions.onPart}. */
  onPart?: (part: MultipartPartInfo) => MultipartPartDecision;
}

/** A field of a form body: its value decoded as UTF-8. */
export interface FormDataField {
  kind: 'field';
  /** 0 for the first entry (a multipart body's part index, as an error's `part` counts). */
  index: number;
  name: string;
  value: string;
}

/** A file of a multipart body: its data comes through `stream`, read from the body as it is read. */
export interface FormDataFile {
  kind: 'file';
  /** 0 for the first entry (the part's index, as an error's `part` counts). */
  index: number;
  /** The part's `name` (the form field's), as `FormData` names entries. */
  name: string;
  /** The effective filename (`filename*` preferred, RFC 6266 §4.3): data, not a path. */
  filename: string;
  /** As {@link MultipartFile.filenameRaw}. */
  filenameRaw: Uint8Array;
  /** As {@link MultipartFile.filenameBasename}. */
  filenameBasename: string;
  /** As {@link MultipartFile.filenamePortable}: a name safe to create on any common file system. */
  filenamePortable: string;
  /**
   * The file's type as the Fetch Standard's parser gives it (WPT formdata-parsing): the part's
   * {@link MultipartFile.mimeType} lowercased, `''` when its Content-Type is not a MIME type (or
   * the type holds a char outside U+0020–U+007E, as a `File` reads a type), `'text/plain'` when
   * the part has none.
   */
  type: string;
  /**
   * The file's data, pulled from the body only as it is read (highWaterMark 0). Read it before
   * asking for the next entry: the body is read past the rest then, and the stream errors.
   * `cancel()` it to skip the file.
   */
  stream: ReadableStream<Uint8Array>;
}

export type FormDataEntry = FormDataField | FormDataFile;

/**
 * The entries of a multipart/form-data or application/x-www-form-urlencoded body, as they
 * arrive: fields as strings, files as web streams with back-pressure (the body is read only as
 * a file's stream is). Another media type, or none, throws a {@link ReqparseError} with status
 * 415 at once; a bad boundary one with 400; a bad body rejects the read that meets it (the
 * file's stream first, when it is in a file's data), 413 for a limit.
 *
 * ```ts
 * // Hono: app.post('/upload', async (c) => { ... })
 * for await (const entry of parseFormData(c.req.raw, { limits: { maxFileBytes: 10 << 20 } })) {
 *   if (entry.kind === 'field') console.log(entry.name, entry.value);
 *   else await pipeline(Readable.fromWeb(entry.stream), createWriteStream(`/uploads/${randomUUID()}`));
 * }
 * ```
 */
export declare function parseFormData(input: FormDataInput, options?: FormDataOptions): AsyncIterableIterator<FormDataEntry>;

/**
 * A file of a multipart body handed to a {@link FileUploadHandler}: File-like (`name`, `type`,
 * `lastModified`, `stream()`, `arrayBuffer()`, `bytes()`, `text()`), with
 * @remix-run/form-data-parser's `fieldName`, but its data is read from the body as it is asked
 * for, once, and only until the handler's promise settles. Its size is not known before.
 */
export declare class FileUpload {
  private constructor();
  /** The part's `name`: the form field (`<input type="file" name>`). */
  readonly fieldName: string;
  /** The effective filename, as a `File`'s name: data, not a path. */
  readonly name: string;
  /** As {@link FormDataFile.type}. */
  readonly type: string;
  /** The time the upload was read (what a `File` made without one has). */
  readonly lastModified: number;
  /** The part's index in the body. */
  readonly index: number;
  readonly filenameRaw: Uint8Array;
  readonly filenameBasename: string;
  /** A name safe to create on any common file system. */
  readonly filenamePortable: string;
  /** The data as a web stream, pulled from the body as it is read. */
  stream(): ReadableStream<Uint8Array>;
  /**
   * The data whole (bounded by `maxFileBytes`, or the part's `onPart` limit), in a buffer of
   * its own (a `BlobPart` as it is).
   */
  bytes(): Promise<Uint8Array & { buffer: ArrayBuffer }>;
  arrayBuffer(): Promise<ArrayBuffer>;
  /** The data decoded as UTF-8. */
  text(): Promise<string>;
}

/**
 * What becomes of a file: its answer is the form's entry for it (a `File`, a `Blob`, a string
 * such as where it was stored), `null` or `undefined` to leave it out. Read the upload's data
 * before answering: what is left is read past.
 */
export type FileUploadHandler = (
  upload: FileUpload,
) => File | Blob | string | null | undefined | void | Promise<File | Blob | string | null | undefined | void>;

/**
 * A form body read to its end as a `FormData`, as `Request.formData()` answers it (fields as
 * strings, files as `File`s) but never past its limits: the whole body at most 1 MiB by default
 * (`limits.maxBodyBytes`), past which it rejects with a {@link ReqparseError} of status 413.
 *
 * With an `uploadHandler` (@remix-run/form-data-parser's `parseFormData(request, options,
 * uploadHandler)`), each file goes to it as a {@link FileUpload} streamed from the body, its
 * answer is the entry, and the limits are {@link parseMultipart}'s defaults (128 MiB of body).
 *
 * ```ts
 * // Next.js route handler (app/upload/route.ts)
 * export async function POST(request: Request) {
 *   const form = await readFormData(request, { limits: { maxFiles: 4 } });
 *   const avatar = form.get('avatar'); // a File, or null
 *   return Response.json({ name: form.get('name'), size: avatar instanceof File ? avatar.size : 0 });
 * }
 * ```
 */
export declare function readFormData(input: FormDataInput, uploadHandler?: FileUploadHandler): Promise<FormData>;
export declare function readFormData(
  input: FormDataInput,
  options?: FormDataOptions,
  uploadHandler?: FileUploadHandler,
): Promise<FormData>;
