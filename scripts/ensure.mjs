// Makes a fresh clone ready: installs dependencies when missing or stale, and
// (with --build) bundles the server and builds the dashboard when the bundle or the dashboard's
// build is missing, the bundle is older than any source, or it was made by another Node version
// (whose V8 would reject its code cache).
// Runs before `npm start` and `npm test`.
import { execSync, spawn, spawnSync } from "node:child_process"
import { existsSync, openSync, statSync } from "node:fs"
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

// The optional real parts the tests use (each test prints "SKIPPED: <what>" without its part, and
// fails under CI) come from Debian's packages: installed before the tests only (not before
// `npm start`), only when missing, non-interactively.
const sudo = process.getuid?.() === 0 ? "" : "sudo -n "
const forTests = !process.argv.includes("--build")
const has = (command) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0

/** `apt-get install`s `packages` (after an `apt-get update` when the first try fails); false when it cannot. */
const aptInstall = (packages, what) => {
  try {
    execSync("command -v apt-get", { stdio: "ignore" })
    console.log(`Installing ${packages} for ${what} (apt-get)...`)
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
    const install = `${sudo}apt-get install -y --no-install-recommends ${packages}`
    try {
      execSync(install, { stdio: "inherit", env })
    } catch {
      execSync(`${sudo}apt-get update && ${install}`, { stdio: "inherit", env, shell: "/bin/sh" })
    }
    return true
  } catch {
    console.warn(`Could not install ${packages} (no apt-get or no permission): ${what} will be skipped.`)
    return false
  }
}

// The OAuth2 pages' browser test (packages/http/test/oauth2/Browser.test.ts) drives Debian's
// Chromium through playwright-core.
if (!existsSync("/usr/bin/chromium")) aptInstall("chromium", "the OAuth2 browser test")

// The agent's linux-arm64 executable is run by its test (packages/agent/test/Arm64.test.ts) under
// qemu-user: Debian's qemu-user-static and the arm64 C and C++ libraries (in /usr/aarch64-linux-gnu).
// The build only runs the executable when they are there.
if (
  forTests &&
  (!has("qemu-aarch64-static") ||
    !existsSync("/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1") ||
    !existsSync("/usr/aarch64-linux-gnu/lib/libstdc++.so.6"))
) {
  aptInstall("qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross", "the arm64 agent test")
}

// `workbay completion`'s test (packages/cli/test/Completion.test.ts) completes in real shells: bash
// with Debian's bash-completion (the script uses its `_get_comp_words_by_ref`), and zsh.
if (forTests && (!has("zsh") || !existsSync("/usr/share/bash-completion/bash_completion"))) {
  aptInstall("bash-completion zsh", "the shell completion test")
}

// The Docker provisioner's tests (packages/docker/test/globalSetup.ts) need a Docker daemon:
// Debian's docker.io when dockerd is missing, and dockerd started when nothing answers on its
// socket (`npm start` only uses one that answers).
const dockerAnswers = () =>
  spawnSync(process.execPath, [
    "-e",
    `require("node:http").get({ socketPath: "/var/run/docker.sock", path: "/_ping", timeout: 2000 }, (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on("error", () => process.exit(1))`
  ]).status === 0
if (forTests && !process.env.DOCKER_HOST && !dockerAnswers()) {
  if (has("dockerd") || aptInstall("docker.io", "the Docker provisioner tests")) {
    try {
      console.log("Starting dockerd for the Docker provisioner tests (log: /var/log/workbay-dockerd.log)...")
      const log = openSync("/var/log/workbay-dockerd.log", "a")
      const daemon = spawn(sudo === "" ? "dockerd" : "sudo", sudo === "" ? [] : ["-n", "dockerd"], {
        detached: true,
        stdio: ["ignore", log, log]
      })
      daemon.unref()
      const until = Date.now() + 30_000
      while (!dockerAnswers() && Date.now() < until) spawnSync("sleep", ["0.5"])
      if (!dockerAnswers()) throw new Error("dockerd did not answer within 30 s (see /var/log/workbay-dockerd.log)")
    } catch (e) {
      console.warn(
        `No Docker daemon (${e instanceof Error ? e.message : e}): the Docker provisioner tests will be skipped.`
      )
    }
  }
}
