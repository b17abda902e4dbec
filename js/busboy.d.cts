// `reqparse/busboy`: busboy 1.x's interface (its README, "busboy(config)" and "Busboy
// (special) events"), read by reqparse. Needs @types/node, as busboy's own types do.
/// <reference types="node" />
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable, Writable } from 'node:stream';

declare namespace busboy {
  /** busboy's limits: each truncates and reports (see the events) instead of failing. */
  interface Limits {
    /** Max field name size in bytes (urlencoded bodies; default 100). */
    fieldNameSize?: number;
    /** Max field value size in bytes (default 1 MiB): `valueTruncated` past it. */
    fieldSize?: number;
    /** Max number of non-file fields (default Infinity): `fieldsLimit`. */
    fields?: number;
    /** Max file size in bytes (default Infinity): the stream's `limit` event, `truncated`. */
    fileSize?: number;
    /** Max number of file fields (default Infinity): `filesLimit`. */
    files?: number;
    /** Max number of parts, fields and files (default Infinity): `partsLimit`. */
    parts?: number;
    /** Max number of header key-value pairs of a part (busboy 1.6 reads 2000, whatever this says). */
    headerPairs?: number;
  }

  interface BusboyConfig {
    /** The request's headers: `content-type` chooses the body's reader. */
    headers: IncomingHttpHeaders;
    highWaterMark?: number;
    fileHwm?: number;
    /** Charset of field values without one of their own (default 'utf8'). */
    defCharset?: string;
    /** Charset of names and filenames (default 'latin1', as busboy: one char per byte). */
    defParamCharset?: string;
    /** Keep the filename's directories (default false: its basename). */
    preservePath?: boolean;
    limits?: Limits;
  }

  interface FieldInfo {
    nameTruncated: boolean;
    valueTruncated: boolean;
    encoding: string;
    mimeType: string;
  }

  interface FileInfo {
    /** undefined for a part that is a file by its Content-Type alone. */
    filename: string | undefined;
    encoding: string;
    mimeType: string;
  }

  /** A file's data: ends early with `truncated` set and a `limit` event past `fileSize`. */
  interface FileStream extends Readable {
    truncated: boolean;
    on(event: 'limit', listener: () => void): this;
    on(event: string | symbol, listener: (...args: any[]) => void): this;
    once(event: 'limit', listener: () => void): this;
    once(event: string | symbol, listener: (...args: any[]) => void): this;
  }

  interface Busboy extends Writable {
    on(event: 'field', listener: (name: string, value: string, info: FieldInfo) => void): this;
    on(event: 'file', listener: (name: string, stream: FileStream, info: FileInfo) => void): this;
    on(event: 'partsLimit' | 'filesLimit' | 'fieldsLimit', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: 'close' | 'finish', listener: () => void): this;
    on(event: string | symbol, listener: (...args: any[]) => void): this;
    once(event: 'field', listener: (name: string, value: string, info: FieldInfo) => void): this;
    once(event: 'file', listener: (name: string, stream: FileStream, info: FileInfo) => void): this;
    once(event: 'partsLimit' | 'filesLimit' | 'fieldsLimit', listener: () => void): this;
    once(event: 'error', listener: (error: Error) => void): this;
    once(event: 'close' | 'finish', listener: () => void): this;
    once(event: string | symbol, listener: (...args: any[]) => void): this;
  }
}

/**
 * A Writable for a multipart/form-data or application/x-www-form-urlencoded body, as busboy
 * 1.x's factory. Throws 'Missing Content-Type', 'Malformed content type', 'Unsupported content
 * type: …' or 'Multipart: Boundary not found', as busboy does.
 */
declare function busboy(config: busboy.BusboyConfig): busboy.Busboy;

export = busboy;
