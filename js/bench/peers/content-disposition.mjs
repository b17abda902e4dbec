// content-disposition 3.x, resolved from this folder's own node_modules (see package.json here).
export * from 'content-disposition';
