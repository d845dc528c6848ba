/**
 * `version`: this command's version, and the deployment's when one is known (`GET /buildinfo`,
 * which needs no login), with the described system's warning when their major or minor versions
 * differ (its `buildinfo.VersionsMatch`: patches and build metadata may differ). Every other
 * command that talks to a deployment warns the same way before it runs ({@link warnOnMismatch}).
 */
import { unwrap } from "@workbay/client"
import { Client } from "../Client.js"
import type { Context } from "../Context.js"
import { printJson } from "../Output.js"

/** `v1.2.3-rc.1+abc` as `[1, 2]`, or undefined when it is not a version. */
const majorMinor = (version: string): readonly [number, number] | undefined => {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?$/.exec(version.trim())
  return m === null ? undefined : [Number(m[1]), Number(m[2])]
}

/**
 * The warning for a command of version `cli` against a deployment of version `server`, or
 * undefined when they match (same major and minor; either not a version: no warning).
 */
export const versionMismatch = (
  cli: string,
  server: string,
  upgradeMessage = "",
  url?: string
): string | undefined => {
  const a = majorMinor(cli)
  const b = majorMinor(server)
  if (a === undefined || b === undefined || (a[0] === b[0] && a[1] === b[1])) return undefined
  const v = (s: string) => (s.startsWith("v") ? s : `v${s}`)
  const fallback = url === undefined
    ? "install the workbay command of the deployment's version"
    : `download the deployment's own: curl -fsSLO ${url}/bin/workbay-${GO_OS[process.platform] ?? process.platform}-${
      GO_ARCH[process.arch] ?? process.arch
    }`
  return `version mismatch: client ${v(cli)}, server ${v(server)}\n${
    upgradeMessage.trim() === "" ? fallback : upgradeMessage.trim()
  }`
}

/** Node's platform names as the deployment's files name them (Go's). */
const GO_OS: Record<string, string> = { linux: "linux", darwin: "darwin", win32: "windows" }
const GO_ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64", arm: "armv7" }

/** The deployment's build info (`GET /buildinfo`, which needs no login). */
const buildInfoOf = (url: string, signal?: AbortSignal) =>
  unwrap(new Client(url, undefined).rest.GET("/api/v2/buildinfo", signal === undefined ? {} : { signal }))

/** How long a command waits for the deployment's version before it runs without knowing it. */
const CHECK_TIMEOUT_MS = 5_000

/**
 * Before a command that talks to `ctx`'s deployment: its version (`GET /buildinfo`), and the
 * mismatch warning on standard error when it differs from this command's, as the described
 * system's CLI does before every such command. Silent when the deployment cannot be reached or
 * does not answer in time: the command itself then says what is wrong.
 */
export const warnOnMismatch = async (ctx: Context, cliVersion: string): Promise<void> => {
  if (ctx.url === undefined) return
  try {
    const info = await buildInfoOf(ctx.url, AbortSignal.timeout(CHECK_TIMEOUT_MS))
    const warning = versionMismatch(cliVersion, info.version, info.upgrade_message, ctx.url)
    if (warning !== undefined) process.stderr.write(`${warning}\n`)
  } catch {
    // Unreachable, refused or slow: the command goes on and reports what it meets.
  }
}

export const version = async (ctx: Context, cliVersion: string) => {
  const own = { version: `v${cliVersion}`, node: process.version, os: process.platform, arch: process.arch }
  let deployment: { readonly url: string; readonly version?: string; readonly error?: string } | undefined
  let warning: string | undefined
  if (ctx.url !== undefined) {
    try {
      const info = await buildInfoOf(ctx.url)
      deployment = { url: ctx.url, version: info.version }
      warning = versionMismatch(cliVersion, info.version, info.upgrade_message, ctx.url)
    } catch (e) {
      deployment = { url: ctx.url, error: e instanceof Error ? e.message : String(e) }
    }
  }
  if (ctx.output === "json") printJson({ ...own, ...(deployment === undefined ? {} : { deployment }) })
  else {
    process.stdout.write(`Workbay CLI ${own.version} (Node ${own.node}, ${own.os}/${own.arch})\n`)
    if (deployment !== undefined) {
      process.stdout.write(
        `Deployment ${deployment.url}: ${deployment.version ?? `not reachable (${deployment.error})`}\n`
      )
    }
  }
  if (warning !== undefined) process.stderr.write(`${warning}\n`)
}
