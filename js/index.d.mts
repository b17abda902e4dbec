// ESM view of the same declarations.
export * from "./index.cjs";
