// ESM view of the same declarations.
import * as reqparse from "./index.cjs";
export * from "./index.cjs";
/** `import rp from 'reqparse'`: every named export as one object (what `require` gives). */
export default reqparse;
