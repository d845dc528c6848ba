// Types of scripts/router-lean.mjs, for its test (packages/http/test/RouterLean.test.ts).
import type { Plugin } from "esbuild"
export declare const routerLean: Plugin
export declare const leanRouterSource: (file: "node.js" | "handler-storage.js", source: string) => string
