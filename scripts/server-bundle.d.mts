// Types of scripts/server-bundle.mjs, for the tests' server bundle (packages/server/test/bundles.ts).
import type { Plugin } from "esbuild"
export declare const serverExternal: ReadonlyArray<string>
export declare const serverPlugins: Array<Plugin>
