// Types of scripts/server-bundle.mjs, for the tests' server bundles (packages/server/test/bundles.ts, Bundle.test.ts).
import type { BuildOptions, Plugin } from "esbuild"
export declare const serverExternal: ReadonlyArray<string>
export declare const serverPlugins: Array<Plugin>
export declare const serverScriptPlugins: Array<Plugin>
export declare const bundleOptions: BuildOptions
export declare const buildServerScripts: (outdir: string, common: BuildOptions) => Promise<void>
export declare const buildSocketRelay: (outfile: string, common: BuildOptions) => Promise<unknown>
