// Types of scripts/cli-bundle.mjs, for the tests' command bundles (packages/cli/test/support.ts).
import type { BuildOptions } from "esbuild"
export declare const buildCli: (outdir: string, entry: string, common: BuildOptions) => Promise<string>
