// Types of scripts/lazy-libraries.mjs, for the test of the built server (packages/server/test/Bundle.test.ts).
import type { Plugin } from "esbuild"
export declare const LAZY_LIBRARIES: ReadonlyArray<string>
export declare const lazyLibraries: Plugin
