// The workbay command line's bundle (packages/cli), shared by `npm start`'s build (scripts/build.mjs)
// and the tests' (packages/cli/test/support.ts).
//
// Split into chunks: `workbay.mjs` holds what every command needs, and what only some commands load
// with `import()` (`provisioner start` with the Docker driver and core, `scaletest` with the agent's
// code and core) lands in chunk files beside it, read only by those commands. As one script the
// command read, decoded and compiled all of it (3.6 MB minified, 8 MB not) for every command:
// `workbay --help` took 0.62-0.70 s, 0.26 s split (node itself 0.11 s; docs/cli.md).
import { build } from "esbuild"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { dockerodeLean } from "./dockerode-lean.mjs"
import { schemaLean } from "./schema-lean.mjs"

/**
 * Bundles the command from `entry` into `outdir` (emptied first): `workbay.mjs` and its chunks.
 * `common` is the production options (scripts/server-bundle.mjs's `bundleOptions`) or the tests'.
 * Answers the path of `workbay.mjs`.
 */
export const buildCli = async (outdir, entry, common) => {
  rmSync(outdir, { recursive: true, force: true })
  await build({
    ...common,
    entryPoints: [entry],
    outdir,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    splitting: true,
    entryNames: "workbay",
    chunkNames: "chunks/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    // ws is CommonJS: its requires of Node's modules need a real require in an ES module (each chunk
    // is one, and gets its own).
    banner: {
      js: "import { createRequire as __cliRequire } from 'node:module'; const require = __cliRequire(import.meta.url);"
    },
    // node-pty loads its native pty.node, ssh2 its optional native parts: both from node_modules
    // (`workbay scaletest` runs light agents, the agent's code).
    external: ["bufferutil", "utf-8-validate", "@lydell/node-pty", "ssh2"],
    // `workbay provisioner start` runs the Docker driver: dockerode as the server bundles it; Effect's
    // schemas made as in the server's bundle (schema-lean.mjs).
    plugins: [dockerodeLean, schemaLean]
  })
  return join(outdir, "workbay.mjs")
}
