import type { Plugin } from "esbuild"

/** Effect's Schema.js (dist/esm) with its schema classes made without a class of methods each; throws when its text differs. */
export declare const leanSchemaSource: (source: string) => string
/** The esbuild plugin applying it to effect/dist/esm/Schema.js. */
export declare const schemaLean: Plugin
