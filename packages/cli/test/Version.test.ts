/** When `workbay` warns that its version and the deployment's differ: their major or minor, as the described system's CLI. */
import { rmSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { versionMismatch } from "../src/commands/Version.js"
import { bundleCli, type CliUser, cliUser } from "./support.js"

describe("versionMismatch", () => {
  it("is silent for the same major and minor, whatever the patch, a pre-release or build metadata", () => {
    for (const [cli, server] of [["0.1.0", "v0.1.0"], ["0.1.0", "v0.1.7"], ["v1.2.3", "1.2.0-rc.1+abc"]]) {
      expect(versionMismatch(cli!, server!)).toBeUndefined()
    }
  })

  it("warns for another major or minor, with the deployment's upgrade message when it has one", () => {
    expect(versionMismatch("0.1.0", "v0.2.0")).toBe(
      "version mismatch: client v0.1.0, server v0.2.0\ninstall the workbay command of the deployment's version"
    )
    expect(versionMismatch("1.0.0", "v2.0.0", "  Run: curl -fsSL https://example.com/install | sh ")).toBe(
      "version mismatch: client v1.0.0, server v2.0.0\nRun: curl -fsSL https://example.com/install | sh"
    )
  })

  it("is silent when either is not a version (a development build)", () => {
    expect(versionMismatch("0.1.0", "devel")).toBeUndefined()
    expect(versionMismatch("", "v0.2.0")).toBeUndefined()
  })
})

/**
 * Every command that talks to the deployment warns first when its version differs (the described
 * system's CLI checks `GET /buildinfo` before each), on standard error so that its output stays
 * what scripts read; never for `ssh --stdio` (ssh's ProxyCommand) or with `--no-version-warning`.
 */
describe("the version warning before each command", () => {
  let bundle: string
  let user: CliUser
  let srv: ServiceTestServer
  let token: string

  beforeAll(async () => {
    bundle = await bundleCli()
    user = cliUser(bundle)
    let owner
    ;({ srv, owner } = await startWithOwner({ settings: { version: "v0.9.3" } }))
    token = owner.token!
  }, 120_000)
  afterAll(async () => {
    await srv?.close()
    if (user !== undefined) rmSync(user.home, { recursive: true, force: true })
  })

  it("warns on stderr before `list` and `templates list`, with the download of the deployment's own", async () => {
    const env = { WORKBAY_URL: srv.url, WORKBAY_SESSION_TOKEN: token }
    for (const args of [["list", "-o", "json"], ["templates", "list"]]) {
      const run = await user.run(args, { env })
      expect(run.code, run.stderr).toBe(0)
      // First, before what the command says (its "No ... found." goes to stderr too).
      expect(run.stderr.startsWith(
        `version mismatch: client v0.1.0, server v0.9.3\ndownload the deployment's own: curl -fsSLO ${srv.url}/bin/workbay-linux-amd64\n`
      )).toBe(true)
    }
    // The JSON on stdout is untouched.
    expect(JSON.parse((await user.run(["list", "-o", "json"], { env })).stdout)).toEqual([])
  })

  it("is silent with --no-version-warning, WORKBAY_NO_VERSION_WARNING, logged out, or for ssh --stdio", async () => {
    const env = { WORKBAY_URL: srv.url, WORKBAY_SESSION_TOKEN: token }
    expect((await user.run(["list", "--no-version-warning"], { env })).stderr).toBe("No workspaces found.\n")
    expect((await user.run(["list"], { env: { ...env, WORKBAY_NO_VERSION_WARNING: "1" } })).stderr).toBe(
      "No workspaces found.\n"
    )
    const loggedOut = await user.run(["list"], { env: { WORKBAY_URL: srv.url } })
    expect(loggedOut.stderr).not.toContain("version mismatch")
    const stdio = await user.run(["ssh", "--stdio", "nope"], { env })
    expect(stdio.code).toBe(1)
    expect(stdio.stderr).not.toContain("version mismatch")
  })

  it("is silent when the deployment cannot be reached: the command says so itself", async () => {
    const run = await user.run(["list"], { env: { WORKBAY_URL: "http://127.0.0.1:9", WORKBAY_SESSION_TOKEN: token } })
    expect(run.code).toBe(1)
    expect(run.stderr).not.toContain("version mismatch")
    expect(run.stderr).toContain("Could not reach http://127.0.0.1:9")
  })
})
