/**
 * The README's "first template" commands, run as written (bash, curl, jq, tar) against a real
 * server: upload examples/templates/basic, let the built-in workers import it, make a template.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, type ServiceTestServer, startWithOwner } from "../support.js"

const root = fileURLToPath(new URL("../../../../", import.meta.url))
const readme = readFileSync(join(root, "README.md"), "utf8")

/** The ```sh block after "A first template". */
const quickStart = (): string => {
  const at = readme.indexOf("A first template")
  const start = readme.indexOf("```sh\n", at)
  const end = readme.indexOf("```", start + 6)
  if (at < 0 || start < 0 || end < 0) throw new Error("README: no first-template block")
  return readme.slice(start + 6, end)
}

let srv: ServiceTestServer
let owner: Client
let dir: string
beforeAll(async () => {
  ;({ srv, owner } = await startWithOwner())
  dir = mkdtempSync(join(tmpdir(), "workbay-quickstart-"))
})
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  await srv?.close()
})

describe("README quick start", () => {
  it("uploads the example template, imports it with the built-in provisioner and makes a template of it", async () => {
    const host = new URL(srv.url).host
    const script = quickStart()
      .replaceAll("localhost:3000", host)
      .replaceAll("examples/templates/basic", join(root, "examples/templates/basic"))
      .replaceAll("basic.tar", join(dir, "basic.tar"))
    const { stdout } = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", script], {
      env: { ...process.env, TOKEN: owner.token! },
      timeout: 30_000
    })
    expect(stdout).toContain("import: succeeded")
    const template = JSON.parse(stdout.trim().split("\n").at(-1)!)
    expect(template.name).toBe("basic")
    const made = await owner.get(`/organizations/default/templates/basic`)
    expect(made.status).toBe(200)
    expect(made.body.active_version_id).toBe(template.active_version_id)
    const params = await owner.get(`/templateversions/${template.active_version_id}/rich-parameters`)
    expect(params.body.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["repo", "cpus"]))
  })
})
