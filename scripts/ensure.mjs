// Makes a fresh clone ready: installs dependencies when missing or stale, and
// (with --build) bundles the server when the bundle is missing, older than any
// source, or made by another Node version (whose V8 would reject its code cache).
// Runs before `npm start` and `npm test`.
import { execSync } from "node:child_process"
import { existsSync, statSync } from "node:fs"
import { bundleIsCurrent } from "./bundle.mjs"

const marker = "node_modules/.package-lock.json"
const stale = !existsSync(marker) || statSync("package-lock.json").mtimeMs > statSync(marker).mtimeMs
if (stale) {
  console.log("Installing dependencies (first run compiles better-sqlite3, about two minutes)...")
  // `npm install` (not `npm ci`): it honours the lock file and tolerates its missing optional platform entries.
  execSync("npm install --no-audit --no-fund", { stdio: "inherit" })
}

if (process.argv.includes("--build") && (stale || !bundleIsCurrent())) {
  execSync("node scripts/build.mjs", { stdio: "inherit" })
}
