/**
 * Test support (a vitest globalSetup): the standalone server's and the reference agent's commands,
 * bundled once from source for the tests that start them as real processes.
 *
 * Started with `node --import tsx src/main.ts`, every process compiled its TypeScript and loaded
 * Effect's hundreds of modules through tsx's loader hooks: about 3.4 s of CPU per start (1.5 s
 * for the bundle), and the suite starts a few dozen. The bundle is the same sources, put together
 * by esbuild (as scripts/build.mjs does for `npm start`) with the `@workbay/source` condition,
 * the dependencies in it but for the native and optional ones, as in `npm start`'s bundle.
 *
 * The bundles are named by a hash of everything they are made from (every package's src, the
 * lock file, this file), so an unchanged tree reuses them and a change rebuilds them. They are
 * written where the real bundles go (packages/<name>/dist, git-ignored) so that paths the server
 * finds from its own file (the agent beside it: `agentCommandOf`) are the same as from src/main.ts.
 */
import { build } from "esbuild"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"
import {
  buildSocketRelay,
  bundleOptions,
  serverExternal,
  serverPlugins,
  serverScriptPlugins
} from "../../../scripts/server-bundle.mjs"

declare module "vitest" {
  export interface ProvidedContext {
    /** The standalone server's entry (src/main.ts) bundled: run it with `node`. */
    workbayServerBundle: string
    /** The reference agent's command line (src/bin.ts) bundled: `node <bundle>`. */
    workbayAgentBundle: string
  }
}

const root = fileURLToPath(new URL("../../..", import.meta.url))

const files = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]
  )

/** A hash of the sources of every package, the lock file, the bundles' plugins and this file. */
const inputsHash = () => {
  const hash = createHash("sha256")
  const inputs = [
    ...readdirSync(join(root, "packages")).flatMap((p) =>
      existsSync(join(root, "packages", p, "src")) ? files(join(root, "packages", p, "src")) : []
    ),
    join(root, "package-lock.json"),
    join(root, "scripts", "dockerode-lean.mjs"),
    join(root, "scripts", "server-bundle.mjs"),
    join(root, "scripts", "lazy-libraries.mjs"),
    join(root, "scripts", "router-lean.mjs"),
    join(root, "scripts", "schema-lean.mjs"),
    join(root, "scripts", "checked-rewrite.mjs"),
    fileURLToPath(import.meta.url)
  ].sort()
  for (const file of inputs) hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0")
  return hash.digest("hex").slice(0, 16)
}

/** Bundles `entry` to `dist/test-<name>-<hash>.mjs` of its package unless there, removing older ones. */
const bundle = async (pkg: string, entry: string, name: string, hash: string) => {
  const dist = join(root, "packages", pkg, "dist")
  const outfile = join(dist, `test-${name}-${hash}.mjs`)
  if (existsSync(outfile)) return { outfile, built: false }
  mkdirSync(dist, { recursive: true })
  for (const old of readdirSync(dist).filter((f) => f.startsWith(`test-${name}-`))) rmSync(join(dist, old))
  // Written aside and renamed: a run beside this one never reads half a file.
  const partial = `${outfile}.${process.pid}.partial`
  await build({
    entryPoints: [join(root, "packages", pkg, entry)],
    outfile: partial,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    conditions: ["@workbay/source"],
    logLevel: "warning",
    // As `npm start`'s bundle (scripts/build.mjs, scripts/server-bundle.mjs): the dependencies
    // bundled too, but for the native, optional and on-demand ones, which load from node_modules.
    // One file loads in half the time of Effect's hundreds of modules (a server's `--help`: 0.6 s
    // instead of 1.25 s of CPU). The agent's node-pty (its pty.node) and ssh2 (its optional native
    // parts) load from node_modules too.
    external: [...serverExternal, "@lydell/node-pty", "ssh2"],
    // The server's as `npm start`'s (with the libraries loaded on first use); the agent's keeps them in.
    plugins: pkg === "server" ? serverScriptPlugins : serverPlugins,
    // CommonJS dependencies (ws, pg) require Node's modules: an ES module needs a real `require`.
    banner: {
      js:
        "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);"
    }
  })
  renameSync(partial, outfile)
  return { outfile, built: true }
}

/**
 * The socket relay's process beside the server's bundle (`socket-relay.cjs`, where the server looks
 * for it, as beside `npm start`'s), made with the server's bundle or when missing.
 */
const socketRelay = async (rebuild: boolean) => {
  const outfile = join(root, "packages", "server", "dist", "socket-relay.cjs")
  if (!rebuild && existsSync(outfile)) return
  const partial = `${outfile}.${process.pid}.partial`
  await buildSocketRelay(partial, { ...bundleOptions, absWorkingDir: root })
  renameSync(partial, outfile)
}

export default async function setup(project: TestProject) {
  const since = performance.now()
  const hash = inputsHash()
  const [server, agent] = await Promise.all([
    bundle("server", "src/main.ts", "server", hash),
    bundle("agent", "src/bin.ts", "agent", hash)
  ])
  await socketRelay(server.built)
  if (server.built || agent.built) {
    console.log(
      `bundled the server and the agent for the tests in ${((performance.now() - since) / 1000).toFixed(1)} s`
    )
  }
  project.provide("workbayServerBundle", server.outfile)
  project.provide("workbayAgentBundle", agent.outfile)
}
