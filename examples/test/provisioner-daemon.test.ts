/**
 * The example external provisioner daemon (examples/provisioner-daemon.ts) against an embedded
 * server over real HTTP and WebSockets: a key, a template imported and a workspace built by the
 * daemon's own provisioner type, a failed job, a canceled job, and a daemon that dies mid-job.
 */
import { HangDetector } from "@workbay/core"
import { makeWorkbay, type Workbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type Daemon, startDaemon } from "../provisioner-daemon.js"

let server: Server
let workbay: Workbay
let base: string
let token: string
let orgId: string
let key: string
const daemons: Array<Daemon> = []

const api = async (method: string, path: string, body?: unknown, raw?: { bytes: Uint8Array; type: string }) => {
  const headers: Record<string, string> = { "Service-Session-Token": token }
  if (body !== undefined) headers["content-type"] = "application/json"
  if (raw !== undefined) headers["content-type"] = raw.type
  const res = await fetch(`${base}/api/v2${path}`, {
    method,
    headers,
    body: raw !== undefined ? Buffer.from(raw.bytes) : body === undefined ? null : JSON.stringify(body)
  })
  const text = await res.text()
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text) }
}

/** A tar of `files` (ustar, regular files). */
const tar = (files: Record<string, string>): Uint8Array => {
  const blocks: Array<Buffer> = []
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.from(content)
    const header = Buffer.alloc(512)
    header.write(name, 0)
    header.write("0000644\0", 100)
    header.write("0000000\0", 108)
    header.write("0000000\0", 116)
    header.write(data.length.toString(8).padStart(11, "0") + "\0", 124)
    header.write("00000000000\0", 136)
    header.write("        ", 148)
    header.write("0", 156)
    header.write("ustar\0", 257)
    header.write("00", 263)
    let sum = 0
    for (const b of header) sum += b
    header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148)
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512))
  }
  blocks.push(Buffer.alloc(1024))
  return Buffer.concat(blocks)
}

const until = async <T>(read: () => Promise<T>, ok: (t: T) => boolean, what: string) => {
  for (let i = 0; i < 400; i++) {
    const v = await read()
    if (ok(v)) return v
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`waited too long for ${what}`)
}

const importVersion = async (script: object) => {
  const up = await api("POST", "/files", undefined, {
    bytes: tar({ "script.json": JSON.stringify(script), "README.md": "# script\n" }),
    type: "application/x-tar"
  })
  expect([200, 201]).toContain(up.status)
  const v = await api("POST", `/organizations/${orgId}/templateversions`, {
    storage_method: "file",
    file_id: up.body.hash,
    provisioner: "script"
  })
  expect(v.status).toBe(201)
  return v.body as { id: string; job: { id: string } }
}

const versionDone = (id: string) =>
  until(
    () => api("GET", `/templateversions/${id}`),
    (r) => ["succeeded", "failed", "canceled"].includes(r.body.job.status),
    "the import"
  )

beforeAll(async () => {
  server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  workbay = await makeWorkbay(Sqlite.layerMemory, { passwordHashCost: 4, settings: { accessUrl: base } })
  workbay.attach(server)
  const account = { email: "admin@example.com", username: "admin", password: "Correct-Horse-Battery-9" }
  const first = await fetch(`${base}/api/v2/users/first`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(account)
  })
  orgId = (await first.json()).organization_id
  const login = await fetch(`${base}/api/v2/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: account.email, password: account.password })
  })
  token = (await login.json()).session_token
  const created = await api("POST", `/organizations/${orgId}/provisionerkeys`, { name: "script-daemons" })
  expect(created.status).toBe(201)
  key = created.body.key
})

afterEach(async () => {
  // A daemon left connected would take the next test's jobs.
  for (const d of daemons.splice(0)) {
    d.stop()
    await d.closed
  }
})

afterAll(async () => {
  await workbay?.closeWebSockets()
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  await workbay?.dispose()
})

const daemon = async (name: string) => {
  const d = startDaemon({ url: base, organization: orgId, key, name })
  daemons.push(d)
  await d.welcome
  return d
}

describe("example provisioner daemon", () => {
  it("imports a template and builds a workspace with its own provisioner type", async () => {
    const d = await daemon("script-1")
    const version = await importVersion({
      logs: ["reading script.json"],
      parameters: [{ name: "size", type: "string", default_value: "small", mutable: true }]
    })
    const imported = await versionDone(version.id)
    expect(imported.body.job.status).toBe("succeeded")
    expect(d.done.get(version.job.id)?.status).toBe("succeeded")
    const params = await api("GET", `/templateversions/${version.id}/rich-parameters`)
    expect(params.body.map((p: any) => p.name)).toEqual(["size"])
    const logs = await api("GET", `/templateversions/${version.id}/logs`)
    expect(logs.body.map((l: any) => l.output)).toContain("reading script.json")

    const template = await api("POST", `/organizations/${orgId}/templates`, {
      name: "scripted",
      template_version_id: version.id
    })
    expect(template.status).toBe(201)
    const ws = await api("POST", `/organizations/${orgId}/members/me/workspaces`, {
      name: "box",
      template_id: template.body.id
    })
    expect(ws.status).toBe(200)
    const build = await until(
      () => api("GET", `/workspacebuilds/${ws.body.latest_build.id}`),
      (r) => ["succeeded", "failed"].includes(r.body.job.status),
      "the build"
    )
    expect(build.body.job.status, build.body.job.error).toBe("succeeded")
    const resources = build.body.resources as Array<any>
    expect(resources.map((r) => r.name)).toEqual(["box"])
    expect(resources[0].agents.map((a: any) => a.name)).toEqual(["main"])
    expect(resources[0].metadata).toContainEqual(expect.objectContaining({ key: "owner", value: "admin" }))

    const listed = await api("GET", `/organizations/${orgId}/provisionerdaemons`)
    const row = listed.body.find((x: any) => x.name === "script-1")
    expect(row).toMatchObject({
      provisioners: ["script"],
      key_name: "script-daemons",
      status: "idle",
      tags: { scope: "organization" }
    })
    expect(row.previous_job.id).toBe(build.body.job.id)
    d.stop()
  })

  it("a start over its owner's quota is refused before the daemon makes anything (commit_quota)", async () => {
    const d = await daemon("script-quota")
    const version = await importVersion({ daily_cost: 5 })
    expect((await versionDone(version.id)).body.job.status).toBe("succeeded")
    const template = await api("POST", `/organizations/${orgId}/templates`, {
      name: "costly",
      template_version_id: version.id
    })
    // The Everyone group (its id is the organization's) allows 3 credits a day: quotas are on.
    expect((await api("PATCH", `/groups/${orgId}`, { quota_allowance: 3 })).status).toBe(200)
    try {
      const ws = await api("POST", `/organizations/${orgId}/members/me/workspaces`, {
        name: "costly-box",
        template_id: template.body.id
      })
      const build = await until(
        () => api("GET", `/workspacebuilds/${ws.body.latest_build.id}`),
        (r) => ["succeeded", "failed"].includes(r.body.job.status),
        "the build"
      )
      expect(build.body.job.status).toBe("failed")
      expect(build.body.job.error).toMatch(/quota/i)
      // Nothing was made: the daemon never asked for the agent's token.
      expect(build.body.resources).toEqual([])
    } finally {
      expect((await api("PATCH", `/groups/${orgId}`, { quota_allowance: 0 })).status).toBe(200)
    }
    d.stop()
  })

  it("a job the daemon fails is failed with its message", async () => {
    const d = await daemon("script-2")
    const version = await importVersion({ fail: "the script exited with status 3" })
    const done = await versionDone(version.id)
    expect(done.body.job.status).toBe("failed")
    expect(done.body.job.error).toBe("the script exited with status 3")
    d.stop()
  })

  it("a canceled job is canceled on the daemon", async () => {
    const seen: Array<any> = []
    const d = startDaemon({ url: base, organization: orgId, key, name: "script-3", onMessage: (m) => seen.push(m) })
    daemons.push(d)
    await d.welcome
    const version = await importVersion({ hang: true })
    await until(async () => seen.some((m) => m.type === "job"), (x) => x, "the job to reach the daemon")
    expect((await api("PATCH", `/templateversions/${version.id}/cancel`)).status).toBe(200)
    const done = await versionDone(version.id)
    expect(done.body.job.status).toBe("canceled")
    expect(seen.some((m) => m.type === "cancel" && m.job_id === version.job.id)).toBe(true)
    await until(async () => d.done.get(version.job.id), (x) => x !== undefined, "job_done")
    expect(d.done.get(version.job.id).status).toBe("canceled")
    d.stop()
  })

  it("a daemon that dies mid-job has its job failed; the hang detector fails a stalled one", async () => {
    const seen: Array<any> = []
    const d = startDaemon({ url: base, organization: orgId, key, name: "script-4", onMessage: (m) => seen.push(m) })
    daemons.push(d)
    await d.welcome
    const version = await importVersion({ hang: true })
    await until(async () => seen.some((m) => m.type === "job"), (x) => x, "the job to reach the daemon")
    d.kill()
    const done = await versionDone(version.id)
    expect(done.body.job.status).toBe("failed")
    expect(done.body.job.error).toBe("The provisioner worker stopped before the job finished.")

    // A daemon that stays connected but whose job stalls: the hang detector fails the job.
    const quiet = startDaemon({ url: base, organization: orgId, key, name: "script-5" })
    daemons.push(quiet)
    await quiet.welcome
    const stalled = await importVersion({ hang: true })
    await until(
      () => api("GET", `/templateversions/${stalled.id}`),
      (r) => r.body.job.status === "running",
      "the job to run"
    )
    // A timeout of 0: every running job not updated before now is hung (no waiting on the clock). A
    // job updated in the very millisecond of a pass is not yet before it: the next pass takes it.
    const failed = await until(
      () => workbay.run(Effect.flatMap(HangDetector, (h) => h.detectOnce(0))),
      (n) => n >= 1,
      "the hang detector"
    )
    expect(failed).toBeGreaterThanOrEqual(1)
    const hung = await versionDone(stalled.id)
    expect(hung.body.job.status).toBe("failed")
    expect(hung.body.job.error).toMatch(/detected as hung/)
    quiet.stop()
  })
})
