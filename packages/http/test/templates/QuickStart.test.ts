/**
 * The README's "first template" and "workspace" commands, run as written (bash, curl, jq, tar)
 * against a real server: upload examples/templates/basic, let the built-in workers import it,
 * make a template, make a workspace of it, start its external agent with the credentials
 * route's command (the reference agent, from source) and see it reach `ready` with the start
 * script's logs, then stop it.
 */
import { execFile } from "node:child_process"
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { readmeBlock, repositoryRoot } from "../readme.js"
import { type Client, type ServiceTestServer, startWithOwner } from "../support.js"

const root = repositoryRoot
const block = readmeBlock

/** The reference agent's src/bin.ts, bundled once per change (packages/server/test/bundles.ts): what the standalone server's agent bundle does. */
const AGENT_COMMAND = `${process.execPath} ${inject("workbayAgentBundle")}`

let srv: ServiceTestServer
let owner: Client
let dir: string
let template: string
beforeAll(async () => {
  ;({ srv, owner } = await startWithOwner({ agentCommand: AGENT_COMMAND }))
  dir = mkdtempSync(join(tmpdir(), "workbay-quickstart-"))
  // The example as written, but cloning a repository that fails at once (no network here).
  template = join(dir, "basic")
  cpSync(join(root, "examples/templates/basic"), template, { recursive: true })
  const yaml = join(template, "template.yaml")
  writeFileSync(yaml, readFileSync(yaml, "utf8").replace("https://github.com/coder/coder", "file:///nonexistent/repo"))
})
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  await srv?.close()
})

describe("README quick start", () => {
  it("makes a template of the example, a workspace of it, and brings its agent to ready on this machine", async () => {
    const host = new URL(srv.url).host
    const script = [block("A first template"), block("A workspace of it")].join("\n")
      .replaceAll("localhost:3000", host)
      .replaceAll("examples/templates/basic", template)
      .replaceAll("basic.tar", join(dir, "basic.tar"))
    const { stdout } = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", script], {
      env: {
        ...process.env,
        TOKEN: owner.token!,
        WORKBAY_AGENT_DIRECTORY: dir,
        WORKBAY_AGENT_LOG_DIR: join(dir, "logs")
      },
      timeout: 60_000
    }).catch((e) => {
      // The script's own output says where it stopped.
      throw new Error(`the quick start failed:\n${e.stdout}\n${e.stderr}`)
    })
    expect(stdout).toContain("import: succeeded")
    const made = await owner.get(`/organizations/default/templates/basic`)
    expect(made.status).toBe(200)
    const params = await owner.get(`/templateversions/${made.body.active_version_id}/rich-parameters`)
    expect(params.body.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["repo", "cpus"]))
    expect(stdout).toContain(`{"name":"main","status":"connected","lifecycle_state":"ready"}`)
    expect(stdout).toContain("Cloning file:///nonexistent/repo")
    expect(stdout).toContain("Not cloned; going on.")
    // The agent stopped cleanly: off, and disconnected.
    const workspace = (await owner.get("/users/me/workspace/dev")).body
    const agentId = (workspace.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0].id
    const agent = (await owner.get(`/workspaceagents/${agentId}`)).body
    expect([agent.lifecycle_state, agent.status]).toEqual(["off", "disconnected"])
  })
})
