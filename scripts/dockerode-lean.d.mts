// Types of scripts/dockerode-lean.mjs, for the tests' server bundle (packages/server/test/bundles.ts).
import type { Plugin } from "esbuild"
export declare const dockerodeLean: Plugin
