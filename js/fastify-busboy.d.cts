// `reqparse/fastify-busboy`: @fastify/busboy's interface (busboy 0.3's), read by reqparse.
// Needs @types/node.
/// <reference types="node" />
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable, Writable, WritableOptions } from 'node:stream';
import busboy = require('./busboy.cjs');

declare namespace Busboy {
  /** busboy's limits (`reqparse/busboy`'s, one definition), and the header block's. */
  interface Limits extends busboy.Limits {
    /** Max size of a part's header block in bytes (default 80 KiB). */
    headerSize?: number;
  }

  interface BusboyConfig extends WritableOptions {
    headers: IncomingHttpHeaders;
    fileHwm?: number;
    defCharset?: string;
    preservePath?: boolean;
    /** Which parts are files (default: a filename, or the Content-Type application/octet-stream). */
    isPartAFile?: (fieldName: string | undefined, contentType: string | undefined, fileName: string | undefined) => boolean;
    limits?: Limits;
  }

  interface FileStream extends Readable {
    truncated: boolean;
    bytesRead: number;
  }

  interface BusboyEvents {
    field: (name: string, value: string, fieldnameTruncated: boolean, valueTruncated: boolean, encoding: string, mimeType: string) => void;
    file: (fieldname: string, stream: FileStream, filename: string, transferEncoding: string, mimeType: string) => void;
    partsLimit: () => void;
    filesLimit: () => void;
    fieldsLimit: () => void;
    error: (error: Error) => void;
    finish: () => void;
  }

  interface Busboy extends Writable {
    on<E extends keyof BusboyEvents>(event: E, listener: BusboyEvents[E]): this;
    on(event: string | symbol, listener: (...args: any[]) => void): this;
    once<E extends keyof BusboyEvents>(event: E, listener: BusboyEvents[E]): this;
    once(event: string | symbol, listener: (...args: any[]) => void): this;
  }

  interface BusboyConstructor {
    new (config: BusboyConfig): Busboy;
    (config: BusboyConfig): Busboy;
    Busboy: BusboyConstructor;
    default: BusboyConstructor;
  }

  // The names @fastify/busboy's own declarations export, so that code typed against it
  // (@fastify/multipart's `import { BusboyConfig, BusboyFileStream } from '@fastify/busboy'`)
  // compiles unchanged once the package is swapped in.
  /** @fastify/busboy's name for {@link FileStream}. */
  type BusboyFileStream = FileStream;
  /** @fastify/busboy's name for a {@link Busboy} instance. */
  type BusboyInstance = Busboy;
  /** The request headers a Busboy reads: `content-type` required. */
  type BusboyHeaders = { 'content-type': string } & IncomingHttpHeaders;
}

/** `new Busboy(config)`, as @fastify/busboy: events `field`, `file`, the limit events, `error`, `finish`. */
declare const Busboy: Busboy.BusboyConstructor;

export = Busboy;
