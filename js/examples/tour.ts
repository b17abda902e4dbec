// The usage tour, type-checked by `npm test` (tsc --noEmit) through both type entries:
// example.ts gives it the CommonJS entry (index.d.cts), example.mts the ES module one
// (index.d.mts), so that both are held to every call below.
import type * as Reqparse from 'reqparse';

/** What `require('reqparse')` and `import * as reqparse from 'reqparse'` give. */
export type Api = typeof Reqparse;

export function tour(reqparse: Api): void {
  const {
    queryPairs,
    parseQuery,
    buildAbsolute,
    buildRelative,
    splitAbsolute,
    parseContentDisposition,
    formatContentDisposition,
    ReqparseError,
    MAX_INPUT_LENGTH,
  } = reqparse;

  const pairs: [string, string][] = queryPairs('?a=1&b=x%20y', { profile: 'whatwg' });
  const raw = queryPairs('a=%41', { raw: true });
  const [[firstName, firstValue]] = raw;
  console.log(pairs, firstName.length + firstValue.length);

  const map: Reqparse.QueryMap = parseQuery('tag=a&Tag=b', { ignoreCase: true, profile: 'dotnet' });
  const first: string | null = map.get('tag');
  const all: string[] = map.getAll('TAG');
  for (const [name, values] of map) console.log(name, values.join(','));
  const json: Record<string, string[]> = map.toJSON();
  console.log(first, all, map.has('x'), map.size, json);

  const url: string = buildAbsolute({ scheme: 'https', host: 'example.com', path: '/a b', query: '?q=1' });
  const rel: string = buildRelative({ pathBase: '/base', path: '/x' });
  const { scheme, host, path, query, fragment } = splitAbsolute(url);
  console.log(rel, scheme, host, path, query, fragment);

  const cd = parseContentDisposition('attachment; filename="a.txt"', { profile: 'browser', decode2047: false });
  const name: string | null = cd.filename;
  const params: [string, string][] = cd.parameters;
  console.log(cd.type, name, params);
  const header: string = formatContentDisposition({ type: 'attachment', filename: 'résumé.pdf', parameters: [['size', '10']] });
  console.log(header);

  try {
    queryPairs('a=%zz', { profile: 'strict' });
  } catch (e) {
    if (e instanceof ReqparseError) {
      const offset: number = e.offset;
      const index: number = e.index;
      const isTypeError: TypeError = e;
      console.log(offset, index, isTypeError.message, MAX_INPUT_LENGTH);
    }
  }

  // @ts-expect-error: profiles are a closed set
  queryPairs('a=1', { profile: 'rails' });
  // @ts-expect-error: the query profile names are not the disposition ones
  parseContentDisposition('inline', { profile: 'whatwg' });
  // @ts-expect-error: unknown options are refused (and throw a TypeError at run time)
  parseContentDisposition('inline', { decode_2047: true });
}
