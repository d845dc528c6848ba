// Bundles the standalone server for a fast start and a small resident set:
//
//   packages/server/dist/server.cjs         the server and its dependencies, one minified script
//   packages/server/dist/server.cjs.cache   V8's code cache for it, made by starting the server once
//   packages/server/dist/main.mjs           the entry (src/launch.ts): runs server.cjs with that cache
//   packages/server/dist/socket-relay.cjs   the socket relay's process, which the server starts
//   packages/cli/dist/workbay.mjs           the workbay command line, which its bin (packages/cli/bin) runs
//   packages/cli/dist/chunks/               what only some of its commands read
//   packages/agent/dist/bin/                the agent as an executable with no Node needed, which the
//                                           server serves at /bin (scripts/executables.mjs)
//   packages/cli/dist/bin/                  the workbay command line the same way, served at
//                                           /bin/workbay-<os>-<arch> for people to download
//   packages/dashboard/dist/                the web dashboard (Vite: index.html and hashed assets/),
//                                           which the server serves at / (docs/dashboard.md)
//
// Code used only on demand (the Postgres driver) is bundled but not evaluated
// unless DATABASE_URL is set; libraries only some requests use load from node_modules on
// their first use (scripts/server-bundle.mjs). Without the cache (it could not be made, or Node
// changed since the build) the server starts all the same, only slower.
import { build } from "esbuild"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { buildDashboard } from "../packages/dashboard/build.mjs"
import { buildCli } from "./cli-bundle.mjs"
import { buildAgentBinaries, buildCliBinaries } from "./executables.mjs"
import { buildServerScripts, bundleOptions } from "./server-bundle.mjs"

const outdir = "packages/server/dist"
// This build's own files only: the test runs' bundles beside them (packages/server/test/bundles.ts,
// `test-*`) may be in use by a run going on.
for (const file of ["main.mjs", "server.cjs", "server.cjs.cache", "server.cjs.map", "socket-relay.cjs", "build.json"]) {
  rmSync(join(outdir, file), { force: true })
}

// The server's bundle and its launcher (scripts/server-bundle.mjs).
await buildServerScripts(outdir, bundleOptions)

// The reference agent (packages/agent): one script its bin runs, and the credentials route names.
await build({
  ...bundleOptions,
  entryPoints: ["packages/agent/src/index.ts"],
  outfile: "packages/agent/dist/workbay-agent.mjs",
  format: "esm",
  // ws is CommonJS: its requires of Node's modules need a real require in an ES module.
  banner: {
    js:
      "import { createRequire as __agentRequire } from 'node:module'; const require = __agentRequire(import.meta.url);"
  },
  // node-pty loads its native pty.node, ssh2 its optional native parts: both from node_modules
  // (the agent package's dependencies).
  external: ["bufferutil", "utf-8-validate", "@lydell/node-pty", "ssh2"]
})

// The workbay command line (packages/cli): the script its bin runs and the chunks only some commands
// read (scripts/cli-bundle.mjs, docs/cli.md).
await buildCli("packages/cli/dist", "packages/cli/src/index.ts", bundleOptions)

// The agent's executable for this platform (a few seconds; skipped when current). A platform
// Node cannot make one on still gets a server, which then serves no /bin files.
let agentBinaries = false
try {
  await buildAgentBinaries({ log: console.log })
  agentBinaries = true
} catch (e) {
  console.warn(`build: no agent executable, /bin will serve none (${e instanceof Error ? e.message : e})`)
}
// The command line's, the same way (served at /bin/workbay-<os>-<arch>, docs/cli.md).
let cliBinaries = false
try {
  await buildCliBinaries({ log: console.log })
  cliBinaries = true
} catch (e) {
  console.warn(`build: no workbay executable, /bin will serve none (${e instanceof Error ? e.message : e})`)
}

// The dashboard (under a second; skipped when dist/ holds a build of the same inputs). Without it
// the server still starts, and says it serves no dashboard.
try {
  await buildDashboard({ log: console.log })
} catch (e) {
  console.warn(`build: no dashboard, / will serve none (${e instanceof Error ? e.message : e})`)
}

/**
 * Starts the built server once on a throwaway database, sends it the requests
 * every deployment serves first, and stops it: the launcher then writes the
 * code cache, with the functions those ran already compiled.
 */
const makeCodeCache = async () => {
  const cacheFile = join(outdir, "server.cjs.cache")
  const dataDir = mkdtempSync(join(tmpdir(), "workbay-build-"))
  const child = spawn(
    process.execPath,
    [join(outdir, "main.mjs"), "--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir],
    {
      env: { ...process.env, DATABASE_URL: "", WORKBAY_WRITE_CODE_CACHE: cacheFile },
      stdio: ["ignore", "pipe", "pipe"]
    }
  )
  const exited = new Promise((resolve) => child.once("exit", resolve))
  try {
    let output = ""
    const base = await new Promise((resolve, reject) => {
      // A bound for a busy machine (a start takes about 0.5 s on a quiet one): without the cache
      // every later start compiles the bundle again.
      const timer = setTimeout(() => reject(new Error(`no "ready" line within 120 s:\n${output}`)), 120_000)
      const onData = (d) => {
        output += d
        const m = /(http:\/\/\S+\/api\/v2) ready in/.exec(output)
        if (m) {
          clearTimeout(timer)
          resolve(m[1].replace("localhost", "127.0.0.1"))
        }
      }
      child.stdout.on("data", onData)
      child.stderr.on("data", (d) => (output += d))
      child.once("exit", () => reject(new Error(`the server exited:\n${output}`)))
    })
    const token = { "Service-Session-Token": "aaaaaaaaaa-bbbbbbbbbbbbbbbbbbbbbb" }
    for (let i = 0; i < 20; i++) {
      for (
        const [path, headers] of [
          ["/buildinfo", {}],
          ["/users/first", {}],
          ["/users/me", {}],
          ["/users/me", token],
          ["/nope", {}]
        ]
      ) {
        await (await fetch(base + path, { headers })).arrayBuffer()
      }
    }
    child.kill("SIGTERM")
    await exited
    if (!existsSync(cacheFile)) throw new Error("the server wrote no cache")
    return statSync(cacheFile).size
  } finally {
    child.kill("SIGKILL")
    rmSync(dataDir, { recursive: true, force: true })
  }
}

let codeCache = false
try {
  await makeCodeCache()
  codeCache = true
} catch (e) {
  console.warn(`build: no code cache, the server will start without one (${e instanceof Error ? e.message : e})`)
}
// Written last: scripts/ensure.mjs rebuilds when the sources are newer or Node differs.
writeFileSync(
  join(outdir, "build.json"),
  JSON.stringify({ node: process.version, codeCache, agentBinaries, cliBinaries }) + "\n"
)
