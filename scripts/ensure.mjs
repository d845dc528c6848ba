// Makes a fresh clone ready: installs dependencies when missing or stale, and
// (with --build) bundles the server. Runs before `npm start` and `npm test`.
import { execSync } from "node:child_process"
import { existsSync, statSync } from "node:fs"

const marker = "node_modules/.package-lock.json"
const stale = !existsSync(marker) || statSync("package-lock.json").mtimeMs > statSync(marker).mtimeMs
if (stale) {
  console.log("Installing dependencies (first run compiles better-sqlite3, about two minutes)...")
  execSync("npm ci --no-audit --no-fund", { stdio: "inherit" })
}
if (process.argv.includes("--build")) {
  execSync("node scripts/build.mjs", { stdio: "inherit" })
}
