/**
 * `version`: this command's version, and the deployment's when one is known (`GET /buildinfo`,
 * which needs no login), with the described system's warning when their major or minor versions
 * differ (its `buildinfo.VersionsMatch`: patches and build metadata may differ).
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
export const versionMismatch = (cli: string, server: string, upgradeMessage = ""): string | undefined => {
  const a = majorMinor(cli)
  const b = majorMinor(server)
  if (a === undefined || b === undefined || (a[0] === b[0] && a[1] === b[1])) return undefined
  const v = (s: string) => (s.startsWith("v") ? s : `v${s}`)
  return `version mismatch: client ${v(cli)}, server ${v(server)}\n${
    upgradeMessage.trim() === "" ? "install the workbay command of the deployment's version" : upgradeMessage.trim()
  }`
}

export const version = async (ctx: Context, cliVersion: string) => {
  const own = { version: `v${cliVersion}`, node: process.version, os: process.platform, arch: process.arch }
  let deployment: { readonly url: string; readonly version?: string; readonly error?: string } | undefined
  let warning: string | undefined
  if (ctx.url !== undefined) {
    try {
      const info = await unwrap(new Client(ctx.url, undefined).rest.GET("/api/v2/buildinfo"))
      deployment = { url: ctx.url, version: info.version }
      warning = versionMismatch(cliVersion, info.version, info.upgrade_message)
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
