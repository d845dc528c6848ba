// Builds the dashboard into dist/ (index.html, hashed files under assets/) with Vite, unless the
// build there was made from the same inputs: its sources, index.html, this file and the lock file,
// hashed into dist/build.json. Run by scripts/build.mjs (npm start) and by the tests' globalSetup.
// `--force` builds all the same. Imports Vite from here, so the dashboard's own Vite is used.
import react from "@vitejs/plugin-react"
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { build, defaultClientConditions } from "vite"

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, "../..")
// The typed client (@workbay/client) is bundled from its sources: they are inputs too.
const client = join(root, "packages/client/src")
const dist = join(here, "dist")

const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]
  )

/** A hash of everything the build is made from. */
export const inputsHash = () => {
  const hash = createHash("sha256")
  const inputs = [
    ...files(join(here, "src")),
    ...files(client),
    join(here, "index.html"),
    fileURLToPath(import.meta.url)
  ]
  if (existsSync(join(root, "package-lock.json"))) inputs.push(join(root, "package-lock.json"))
  for (const file of inputs.sort()) {
    hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0")
  }
  return hash.digest("hex").slice(0, 16)
}

/** Whether dist/ holds a build of the current inputs. */
export const dashboardIsCurrent = () => {
  try {
    return existsSync(join(dist, "index.html")) &&
      JSON.parse(readFileSync(join(dist, "build.json"), "utf8")).inputs === inputsHash()
  } catch {
    return false
  }
}

/** Builds into dist/ (written aside, then renamed, so a reader never sees half a build). */
export const buildDashboard = async ({ force = false, log = console.log } = {}) => {
  if (!force && dashboardIsCurrent()) return { built: false, seconds: 0 }
  const since = performance.now()
  const inputs = inputsHash()
  const partial = join(here, `dist.${process.pid}.partial`)
  // React's production build and JSX whatever NODE_ENV the caller has (vitest sets "test", with
  // which Vite and the React plugin would bundle the development build: 60% larger, and its JSX
  // calls a jsxDEV that the production React does not have).
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = "production"
  try {
    await build({
      root: here,
      configFile: false,
      logLevel: "warn",
      mode: "production",
      plugins: [react()],
      // @workbay/* from their sources (the first entry of their exports), as the server's bundle does.
      resolve: { conditions: [...defaultClientConditions, "@workbay/source"] },
      base: "/",
      build: {
        outDir: partial,
        emptyOutDir: true,
        assetsDir: "assets",
        // No inline script in index.html (the Content-Security-Policy allows none).
        modulePreload: { polyfill: false },
        assetsInlineLimit: 0,
        target: "es2022",
        sourcemap: false,
        reportCompressedSize: false,
        // One script of React, the router, the query cache and the pages: about 350 KB, 110 KB
        // gzipped (the aim is under 250 KB compressed). Warn past 512 KB.
        chunkSizeWarningLimit: 512
      }
    })
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
  writeFileSync(join(partial, "build.json"), JSON.stringify({ inputs }) + "\n")
  rmSync(dist, { recursive: true, force: true })
  renameSync(partial, dist)
  const seconds = (performance.now() - since) / 1000
  log(`built the dashboard in ${seconds.toFixed(1)} s`)
  return { built: true, seconds }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildDashboard({ force: process.argv.includes("--force") })
}
