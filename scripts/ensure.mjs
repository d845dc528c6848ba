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
  // A fresh clone installs exactly the lock file (`npm ci`, as CI systems do; examples/test/install.test.ts
  // keeps the lock complete); an existing node_modules behind a newer lock is brought up to date in place.
  // JOBS=max: node-gyp compiles better-sqlite3's two sources (SQLite's amalgamation and the binding)
  // side by side instead of one after the other.
  execSync(existsSync("node_modules") ? "npm install --no-audit --no-fund" : "npm ci --no-audit --no-fund", {
    stdio: "inherit",
    env: { ...process.env, JOBS: process.env.JOBS ?? "max" }
  })
}

if (process.argv.includes("--build") && (stale || !bundleIsCurrent())) {
  execSync("node scripts/build.mjs", { stdio: "inherit" })
}

// The OAuth2 pages' browser test (packages/http/test/oauth2/Browser.test.ts) drives Debian's
// Chromium through playwright-core. Installed only when missing, non-interactively; without apt
// (or root) the test reports itself skipped.
if (!existsSync("/usr/bin/chromium")) {
  try {
    execSync("command -v apt-get", { stdio: "ignore" })
    console.log("Installing chromium for the browser test (apt-get)...")
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
    const sudo = process.getuid?.() === 0 ? "" : "sudo -n "
    try {
      execSync(`${sudo}apt-get install -y --no-install-recommends chromium`, { stdio: "inherit", env })
    } catch {
      execSync(`${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends chromium`, {
        stdio: "inherit",
        env,
        shell: "/bin/sh"
      })
    }
  } catch {
    console.warn("Could not install chromium (no apt-get or no permission): the OAuth2 browser test will be skipped.")
  }
}
