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
  /** Byte offset in the input's UTF-8 encoding: what every reqparse face reports. */
  readonly offset: number;
  /** The same position as a UTF-16 index into the JS string. */
  readonly index: number;
}

/** Longest input accepted, in UTF-16 code units (1 MiB). */
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

export declare function parseContentDisposition(
  header: string,
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
