// The types of fullOnly.mjs, for the TypeScript test that checks it.
export declare const FULL_ONLY: readonly string[];
