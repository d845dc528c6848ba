/**
 * The agent's executables at `/bin/workbay-agent-<os>-<arch>`, the command line's at
 * `/bin/workbay-<os>-<arch>` and the init script at `/api/v2/init-script/{os}/{arch}`, through real
 * HTTP with no token: the file streamed with its type, length and hash as ETag (304 for a matching
 * If-None-Match, HEAD without the body, the Fetch handler the same), its checksum at `.sha256`, 404
 * naming what is served; the script for the deployment's access URL with the served file's hash,
 * 400 for a platform with no script.
 */
import { OpenApi } from "@effect/platform"
import { WorkbayApi } from "@workbay/http"
import { createHash } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServiceTestServer, startServiceTestServer } from "../support.js"

describe("agent executables and the init script", () => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-bin-test-"))
  // Larger than a stream's chunk, so that it arrives in pieces.
  const bytes = Buffer.alloc(200_000, 7)
  bytes.write("#!fake agent\n")
  const sha256 = createHash("sha256").update(bytes).digest("hex")
  const cliDir = mkdtempSync(join(tmpdir(), "workbay-cli-bin-test-"))
  const cli = Buffer.from("#!fake workbay command\n")
  const cliSha256 = createHash("sha256").update(cli).digest("hex")
  let srv: ServiceTestServer
  let bare: ServiceTestServer

  beforeAll(async () => {
    writeFileSync(join(dir, "workbay-agent-linux-amd64"), bytes)
    writeFileSync(join(dir, "workbay-agent-linux-amd64.sha256"), `${sha256}  workbay-agent-linux-amd64\n`)
    writeFileSync(join(dir, "unrelated.txt"), "not an agent")
    writeFileSync(join(cliDir, "workbay-linux-arm64"), cli)
    srv = await startServiceTestServer({ agentBinaries: dir, cliBinaries: cliDir })
    bare = await startServiceTestServer()
  })
  afterAll(async () => {
    await srv.close()
    await bare.close()
    rmSync(dir, { recursive: true, force: true })
    rmSync(cliDir, { recursive: true, force: true })
  })

  it("serves the executable with its length, type and hash, 304 when unchanged, HEAD without the body", async () => {
    const res = await fetch(`${srv.url}/bin/workbay-agent-linux-amd64`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/octet-stream")
    expect(res.headers.get("content-length")).toBe(String(bytes.length))
    expect(res.headers.get("etag")).toBe(`"${sha256}"`)
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)

    const again = await fetch(`${srv.url}/bin/workbay-agent-linux-amd64`, {
      headers: { "if-none-match": `"${sha256}"` }
    })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe("")
    const changed = await fetch(`${srv.url}/bin/workbay-agent-linux-amd64`, { headers: { "if-none-match": `"abc"` } })
    expect(changed.status).toBe(200)
    await changed.arrayBuffer()

    const head = await fetch(`${srv.url}/bin/workbay-agent-linux-amd64`, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(head.headers.get("content-length")).toBe(String(bytes.length))
    expect(head.headers.get("etag")).toBe(`"${sha256}"`)

    const web = await srv.web(new Request("http://w.example/bin/workbay-agent-linux-amd64"))
    expect(web.status).toBe(200)
    expect(Buffer.from(await web.arrayBuffer()).equals(bytes)).toBe(true)
  })

  it("answers 404 naming the platforms served, and when none are", async () => {
    const res = await fetch(`${srv.url}/bin/workbay-agent-linux-riscv64`)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({
      message: "No agent binary for linux-riscv64.",
      detail: "This deployment serves: linux-amd64."
    })
    const none = await fetch(`${bare.url}/bin/workbay-agent-linux-amd64`)
    expect(none.status).toBe(404)
    expect(await none.json()).toEqual({
      message: "No agent binary for linux-amd64.",
      detail: "This deployment serves no agent binaries."
    })
    // Other names under /bin are no route.
    expect((await fetch(`${srv.url}/bin/unrelated.txt`)).status).toBe(404)
  })

  it("serves the workbay command beside the agent, each with its checksum as sha256sum prints it", async () => {
    const res = await fetch(`${srv.url}/bin/workbay-linux-arm64`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/octet-stream")
    expect(res.headers.get("etag")).toBe(`"${cliSha256}"`)
    expect(Buffer.from(await res.arrayBuffer()).equals(cli)).toBe(true)
    const again = await fetch(`${srv.url}/bin/workbay-linux-arm64`, { headers: { "if-none-match": `"${cliSha256}"` } })
    expect(again.status).toBe(304)

    const sum = await fetch(`${srv.url}/bin/workbay-linux-arm64.sha256`)
    expect(sum.status).toBe(200)
    expect(sum.headers.get("content-type")).toBe("text/plain; charset=utf-8")
    expect(await sum.text()).toBe(`${cliSha256}  workbay-linux-arm64\n`)
    const agentSum = await fetch(`${srv.url}/bin/workbay-agent-linux-amd64.sha256`)
    expect(await agentSum.text()).toBe(`${sha256}  workbay-agent-linux-amd64\n`)

    // The agent's file is not the command's, nor the other way round.
    const notCli = await fetch(`${srv.url}/bin/workbay-linux-amd64`)
    expect(notCli.status).toBe(404)
    expect(await notCli.json()).toEqual({
      message: "No workbay command binary for linux-amd64.",
      detail: "This deployment serves: linux-arm64."
    })
    expect((await fetch(`${srv.url}/bin/workbay-agent-linux-arm64`)).status).toBe(404)
  })

  it("answers 404 for a platform it does not serve, the checksum too, and 400 for a name too long", async () => {
    for (const path of ["workbay-plan9-mips", "workbay-plan9-mips.sha256", "workbay-windows-amd64.exe"]) {
      const res = await fetch(`${srv.url}/bin/${path}`)
      expect(res.status, path).toBe(404)
      expect((await res.json()).message).toMatch(/^No workbay command binary for /)
    }
    const none = await fetch(`${bare.url}/bin/workbay-linux-amd64.sha256`)
    expect(none.status).toBe(404)
    expect(await none.json()).toEqual({
      message: "No workbay command binary for linux-amd64.",
      detail: "This deployment serves no workbay command binaries."
    })
    const long = await fetch(`${srv.url}/bin/workbay-linux-${"x".repeat(10_000)}`)
    expect(long.status).toBe(400)
    expect((await long.json()).validations).toEqual([{ field: "arch", detail: "Must be at most 32 characters." }])
  })

  it("answers the init script for the access URL with the served hash, in any case, without a token", async () => {
    const res = await fetch(`${srv.url}/api/v2/init-script/Linux/AMD64`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8")
    const script = await res.text()
    expect(script.startsWith("#!/usr/bin/env sh\n")).toBe(true)
    expect(script).toContain(`ACCESS_URL='${srv.url}'`)
    expect(script).toContain(`BINARY_URL='${srv.url}/bin/workbay-agent-linux-amd64'`)
    expect(script).toContain(`BINARY_SHA256='${sha256}'`)
    expect(res.headers.get("content-digest")).toBe(
      `sha-256=:${createHash("sha256").update(script).digest("base64")}:`
    )

    const arm = await fetch(`${srv.url}/api/v2/init-script/linux/arm64`)
    expect(arm.status).toBe(200)
    expect(await arm.text()).toContain("BINARY_SHA256=''")
    const windows = await fetch(`${srv.url}/api/v2/init-script/windows/amd64`)
    expect(windows.status).toBe(200)
    expect(await windows.text()).toContain("workbay-agent-windows-amd64.exe")
  })

  it("refuses a platform with no script with 400, as the described system", async () => {
    const res = await fetch(`${srv.url}/api/v2/init-script/linux/riscv64`)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ message: "Unknown os/arch: linux/riscv64." })
    const plan9 = await fetch(`${srv.url}/api/v2/init-script/plan9/amd64`)
    expect(plan9.status).toBe(400)
    // A long name is refused with a validation, not echoed back.
    const long = "x".repeat(10_000)
    const script = await fetch(`${srv.url}/api/v2/init-script/${long}/amd64`)
    expect(script.status).toBe(400)
    const body = await script.json()
    expect(body.validations).toEqual([{ field: "os", detail: "Must be at most 32 characters." }])
    expect(JSON.stringify(body).length).toBeLessThan(1_000)
    const binary = await fetch(`${srv.url}/bin/workbay-agent-linux-${long}`)
    expect(binary.status).toBe(400)
    expect(JSON.stringify(await binary.json()).length).toBeLessThan(1_000)
  })

  it("lists the routes in the OpenAPI document", async () => {
    const doc = OpenApi.fromApi(WorkbayApi) as any
    expect(doc.paths["/api/v2/init-script/{os}/{arch}"].get.responses["200"].content).toHaveProperty(
      ["text/plain; charset=utf-8"]
    )
    for (const path of ["/bin/workbay-agent-{os}-{arch}", "/bin/workbay-{os}-{arch}"]) {
      expect(doc.paths[path].get.responses["200"].content).toHaveProperty(["application/octet-stream"])
      expect(doc.paths[`${path}.sha256`].get.responses["200"].content).toHaveProperty(["text/plain; charset=utf-8"])
    }
  })
})
