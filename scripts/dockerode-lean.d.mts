// Types of scripts/dockerode-lean.mjs, for the tests' server bundle (packages/server/test/bundles.ts)
// and the test of its docker-modem rewrite (packages/docker/test/ModemLean.test.ts).
import type { Plugin } from "esbuild"
export declare const dockerodeLean: Plugin
export declare const leanModemSource: (source: string) => string
