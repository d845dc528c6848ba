// Makes a fresh clone ready: installs dependencies when missing or stale, and
// (with --build) bundles the server when the bundle is missing, older than any
// source, or made by another Node version (whose V8 would reject its code cache).
// Runs before `npm start` and `npm test`.
import { execSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"

const marker = "node_modules/.package-lock.json"
const stale = !existsSync(marker) || statSync("package-lock.json").mtimeMs > statSync(marker).mtimeMs
if (stale) {
  console.log("Installing dependencies (first run compiles better-sqlite3, about two minutes)...")
  // `npm install` (not `npm ci`): it honours the lock file and tolerates its missing optional platform entries.
  execSync("npm install --no-audit --no-fund", { stdio: "inherit" })
}

/** The newest modification time under `path` (a file or a folder, skipping dist, node_modules and tests). */
const newest = (path) => {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (stat === undefined) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let max = stat.mtimeMs
  for (const entry of readdirSync(path)) {
    if (entry === "dist" || entry === "node_modules" || entry === "test") continue
    max = Math.max(max, newest(join(path, entry)))
  }
  return max
}

const bundleIsCurrent = () => {
  const stampFile = "packages/server/dist/build.json"
  if (!existsSync(stampFile)) return false
  const stamp = JSON.parse(readFileSync(stampFile, "utf8"))
  if (stamp.node !== process.version) return false
  const sources = Math.max(newest("packages"), newest("package-lock.json"), newest("scripts/build.mjs"))
  return statSync(stampFile).mtimeMs > sources
}

if (process.argv.includes("--build") && (stale || !bundleIsCurrent())) {
  execSync("node scripts/build.mjs", { stdio: "inherit" })
}
