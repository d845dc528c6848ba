/**
 * CLI test support: the command (src/bin.ts) bundled once per test file, run as a child process
 * with its own home and configuration folders, against a real server process
 * (packages/server/test/process.ts).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { buildCli } from "../../../scripts/cli-bundle.mjs"

const entry = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const cacheDir = fileURLToPath(new URL("../../../node_modules/.cache/workbay-cli-bundles", import.meta.url))

/** Bundles the command into a fresh folder: the script to run with `node` (its chunks beside it). */
export const bundleCli = async (): Promise<string> => {
  // Under the checkout's node_modules, so that the packages left outside the bundle (the agent's
  // ssh2 and node-pty, which `workbay scaletest` loads) resolve as from an installed CLI.
  mkdirSync(cacheDir, { recursive: true })
  // Bundles of earlier runs (a worker ends without a chance to remove its own): gone after two hours.
  for (const old of readdirSync(cacheDir)) {
    const path = join(cacheDir, old)
    if (Date.now() - statSync(path).mtimeMs > 2 * 3_600_000) rmSync(path, { recursive: true, force: true })
  }
  // As the build makes it (scripts/cli-bundle.mjs), not minified.
  return buildCli(mkdtempSync(join(cacheDir, "workbay-cli-bundle-")), entry, {
    conditions: ["@workbay/source"],
    logLevel: "warning"
  })
}

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** A user of the command: their own home folder (so ~/.config/workbay and ~/.ssh are theirs). */
export interface CliUser {
  readonly home: string
  readonly configDir: string
  readonly env: Record<string, string>
  /** Runs `workbay <args>` to its end, with `input` on standard input (closed after it). */
  readonly run: (
    args: ReadonlyArray<string>,
    options?: { input?: string; env?: Record<string, string> }
  ) => Promise<Run>
  /** Starts `workbay <args>` and leaves it running. */
  readonly spawn: (args: ReadonlyArray<string>, env?: Record<string, string>) => ChildProcess
}

/** The environment without the variables the command reads, so the tests' own never leak in. */
const cleanEnv = () => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("WORKBAY_") && k !== "XDG_CONFIG_HOME") env[k] = v
  }
  return env
}

/** `bundle`: the bundled script (run with this Node), or the executable with no Node (run as it is). */
export const cliUser = (bundle: string): CliUser => {
  const home = mkdtempSync(join(tmpdir(), "workbay-cli-home-"))
  mkdirSync(join(home, ".config"))
  const env = { ...cleanEnv(), HOME: home, XDG_CONFIG_HOME: join(home, ".config") }
  const [command, first] = /\.m?js$/.test(bundle) ? [process.execPath, [bundle]] : [bundle, []]
  const spawnCli = (args: ReadonlyArray<string>, extra: Record<string, string> = {}) =>
    spawn(command, [...first, ...args], { env: { ...env, ...extra }, stdio: ["pipe", "pipe", "pipe"] })
  return {
    home,
    configDir: join(home, ".config", "workbay"),
    env,
    spawn: spawnCli,
    run: (args, options = {}) =>
      new Promise((resolve, reject) => {
        const child = spawnCli(args, options.env)
        let stdout = ""
        let stderr = ""
        child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()))
        child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()))
        child.on("error", reject)
        child.on("close", (code, signal) => resolve({ code: code ?? (signal === null ? -1 : 128), stdout, stderr }))
        child.stdin!.end(options.input ?? "")
      })
  }
}

/** Reads until `done` holds (every 100 ms), or fails after `ms` naming `what`. */
export const eventually = async <A>(read: () => Promise<A>, done: (a: A) => boolean, what: string, ms = 30_000) => {
  const until = Date.now() + ms
  let last = await read()
  while (!done(last)) {
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(last)?.slice(0, 1000)}`)
    await new Promise((r) => setTimeout(r, 100))
    last = await read()
  }
  return last
}

/** A minimal API client for checking what the command did. */
export const api = (url: string, token: string) => ({
  get: async (path: string) => {
    const res = await fetch(`${url}/api/v2${path}`, { headers: { authorization: `Bearer ${token}` } })
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any }
  }
})
