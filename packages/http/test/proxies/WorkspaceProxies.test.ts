/**
 * Workspace proxies through real HTTP: the administrators' routes, `/regions`, the primary proxy,
 * the token shown once and stored hashed, and a proxy registering itself against a local server
 * that answers its health report.
 */
import { WorkspaceProxyRepo } from "@workbay/core"
import { Effect, Option } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  uniqueName,
  UNKNOWN_ID
} from "../support.js"

let srv: ServiceTestServer
let owner: Client
let member: Client
let proxyServer: Server
let proxyUrl: string

/** The deployment's id: the primary proxy's (stored at the first start; read from /buildinfo). */
let DEPLOYMENT_ID = ""
const REPLICA = "11111111-2222-4333-8444-555555555555"

beforeAll(async () => {
  ;({ srv, owner } = await startWithOwner())
  DEPLOYMENT_ID = (await owner.get("/buildinfo")).body.deployment_id
  member = (await createUser(owner)).client
  proxyServer = createServer((req, res) => {
    if (req.url === "/healthz-report") {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ errors: [], warnings: ["a warning"] }))
    } else {
      res.writeHead(404)
      res.end()
    }
  })
  await new Promise<void>((resolve) => proxyServer.listen(0, "127.0.0.1", resolve))
  proxyUrl = `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}`
})
afterAll(async () => {
  await srv.close()
  await new Promise((resolve) => proxyServer.close(resolve))
})

const create = async (name = uniqueName("px")) => {
  const r = await owner.post("/workspaceproxies", { name, display_name: "Frankfurt", icon: "/emojis/1f1e9.png" })
  expect(r.status).toBe(201)
  return r.body as { proxy: any; proxy_token: string }
}

const register = (token: string | undefined, body: Record<string, unknown>) =>
  owner.as(undefined).request("POST", "/workspaceproxies/me/register", body, {
    headers: token === undefined ? {} : { "Coder-External-Proxy-Session-Token": token }
  })

const waitFor = async <T>(read: () => Promise<T>, ok: (t: T) => boolean) => {
  for (let i = 0; i < 100; i++) {
    const v = await read()
    if (ok(v)) return v
    await new Promise((r) => setTimeout(r, 50))
  }
  return read()
}

describe("workspace proxies", () => {
  it("creates a proxy with its token shown once, reads it by id and name, lists it after the primary", async () => {
    const name = uniqueName("fra")
    const made = await create(name)
    expect(made.proxy_token).toMatch(new RegExp(`^${made.proxy.id}:[0-9a-f]{64}$`))
    expect(made.proxy).toMatchObject({
      name,
      display_name: "Frankfurt",
      icon_url: "/emojis/1f1e9.png",
      healthy: false,
      path_app_url: "",
      wildcard_hostname: "",
      derp_enabled: true,
      derp_only: false,
      deleted: false,
      version: "",
      status: { status: "unregistered" }
    })
    const byId = await member.get(`/workspaceproxies/${made.proxy.id}`)
    expect(byId.status).toBe(200)
    expect(JSON.stringify(byId.body)).not.toContain(made.proxy_token.split(":")[1])
    expect((await member.get(`/workspaceproxies/${name.toUpperCase()}`)).body.id).toBe(made.proxy.id)
    const list = await member.get("/workspaceproxies")
    expect(list.status).toBe(200)
    expect(list.body.regions[0]).toMatchObject({
      id: DEPLOYMENT_ID,
      name: "primary",
      display_name: "Default",
      healthy: true,
      status: { status: "ok" }
    })
    expect(list.body.regions.map((p: any) => p.id)).toContain(made.proxy.id)
    const regions = await member.get("/regions")
    expect(regions.body.regions[0]).toEqual({
      id: DEPLOYMENT_ID,
      name: "primary",
      display_name: "Default",
      icon_url: "/emojis/1f3e1.png",
      healthy: true,
      path_app_url: expect.any(String),
      wildcard_hostname: ""
    })
    expect(regions.body.regions.find((r: any) => r.id === made.proxy.id)).toMatchObject({ name, healthy: false })
  })

  it("stores only the token's hash and audits creation without it", async () => {
    const made = await create()
    const secret = made.proxy_token.split(":")[1]!
    const stored = await srv.run(Effect.flatMap(WorkspaceProxyRepo, (r) => r.findById(made.proxy.id)))
    expect(Option.isSome(stored)).toBe(true)
    expect(JSON.stringify(stored)).not.toContain(secret)
    const audit = await owner.get("/audit?limit=100")
    expect(JSON.stringify(audit.body)).not.toContain(secret)
    const entry = audit.body.audit_logs.find((e: any) =>
      e.resource_type === "workspace_proxy" && e.resource_id === made.proxy.id
    )
    expect(entry).toMatchObject({ action: "create", status_code: 201 })
    expect(entry.diff.hashed_secret).toEqual({ old: "", new: "", secret: true })
  })

  it("updates a proxy and regenerates its token: the old one stops working", async () => {
    const made = await create()
    const renamed = uniqueName("ams")
    const patched = await owner.patch(`/workspaceproxies/${made.proxy.id}`, {
      id: made.proxy.id,
      name: renamed,
      display_name: "Amsterdam",
      icon: "/a.png",
      regenerate_token: false
    })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({
      proxy: { name: renamed, display_name: "Amsterdam", icon_url: "/a.png" },
      proxy_token: ""
    })
    const again = await owner.patch(`/workspaceproxies/${renamed}`, { regenerate_token: true })
    expect(again.body.proxy_token).toMatch(new RegExp(`^${made.proxy.id}:[0-9a-f]{64}$`))
    expect(again.body.proxy_token).not.toBe(made.proxy_token)
    const body = { access_url: proxyUrl, replica_id: REPLICA, derp_enabled: true }
    expect((await register(made.proxy_token, body)).status).toBe(401)
    expect((await register(again.body.proxy_token, body)).status).toBe(201)
    const audit = await owner.get("/audit?limit=100")
    const mine = audit.body.audit_logs.filter((e: any) =>
      e.resource_type === "workspace_proxy" && e.resource_id === made.proxy.id
    )
    // Newest first: the regeneration, the rename, the creation; registering writes nothing.
    expect(mine.map((e: any) => e.action)).toEqual(["write", "write", "create"])
    expect(mine[0].diff.hashed_secret).toEqual({ old: "", new: "", secret: true })
    expect(mine[1].diff.display_name).toMatchObject({ old: "Frankfurt", new: "Amsterdam" })
    expect(mine[1].diff.hashed_secret).toBeUndefined()
    expect(JSON.stringify(audit.body)).not.toContain(again.body.proxy_token.split(":")[1])
  })

  it("deletes a proxy: marked deleted with an empty status, gone from lists, its token refused", async () => {
    const made = await create()
    const r = await owner.delete(`/workspaceproxies/${made.proxy.id}`)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ message: "Proxy has been deleted!" })
    const audit = await owner.get("/audit?limit=100")
    expect(audit.body.audit_logs.find((e: any) => e.resource_id === made.proxy.id && e.action === "delete"))
      .toMatchObject({
        resource_type: "workspace_proxy",
        resource_target: made.proxy.name,
        status_code: 200
      })
    const read = await owner.get(`/workspaceproxies/${made.proxy.id}`)
    expect(read.status).toBe(200)
    expect(read.body.deleted).toBe(true)
    expect(read.body.status).toBeUndefined()
    expect(read.body.healthy).toBe(false)
    expect((await owner.get(`/workspaceproxies/${made.proxy.name}`)).status).toBe(404)
    expect((await owner.get("/workspaceproxies")).body.regions.map((p: any) => p.id)).not.toContain(made.proxy.id)
    expect((await owner.get("/regions")).body.regions.map((p: any) => p.id)).not.toContain(made.proxy.id)
    expect((await owner.delete(`/workspaceproxies/${made.proxy.id}`)).status).toBe(404)
    expect((await owner.patch(`/workspaceproxies/${made.proxy.id}`, { display_name: "x" })).status).toBe(404)
    expect((await register(made.proxy_token, { access_url: proxyUrl, replica_id: REPLICA })).status).toBe(401)
    // The name is free again.
    expect((await owner.post("/workspaceproxies", { name: made.proxy.name })).status).toBe(201)
  })

  it("edits only the primary's display name and icon, and never deletes it", async () => {
    const r = await owner.patch("/workspaceproxies/primary", { display_name: "Home" })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      proxy: { id: DEPLOYMENT_ID, name: "primary", display_name: "Home", icon_url: "/emojis/1f3e1.png" },
      proxy_token: ""
    })
    expect((await owner.get(`/workspaceproxies/${DEPLOYMENT_ID}`)).body.display_name).toBe("Home")
    expectValidations(await owner.patch("/workspaceproxies/primary", { name: "other" }), ["name"])
    expectValidations(await owner.patch("/workspaceproxies/primary", {}), ["display_name", "icon"])
    const del = await owner.delete("/workspaceproxies/primary")
    expect(del.status).toBe(400)
    expect(del.body.message).toBe("Cannot delete primary proxy")
  })

  it("answers 401 without a session", async () => {
    const anon = owner.as(undefined)
    for (
      const [method, path] of [
        ["GET", "/workspaceproxies"],
        ["POST", "/workspaceproxies"],
        ["GET", `/workspaceproxies/${UNKNOWN_ID}`],
        ["PATCH", `/workspaceproxies/${UNKNOWN_ID}`],
        ["DELETE", `/workspaceproxies/${UNKNOWN_ID}`],
        ["GET", "/regions"]
      ] as const
    ) {
      expect((await anon.request(method, path, method === "POST" || method === "PATCH" ? {} : undefined)).status).toBe(
        401
      )
    }
  })

  it("answers 403 to members who change proxies", async () => {
    const made = await create()
    expect((await member.post("/workspaceproxies", { name: uniqueName("m") })).status).toBe(403)
    expect((await member.patch(`/workspaceproxies/${made.proxy.id}`, { display_name: "x" })).status).toBe(403)
    expect((await member.delete(`/workspaceproxies/${made.proxy.id}`)).status).toBe(403)
    expect((await member.patch("/workspaceproxies/primary", { display_name: "x" })).status).toBe(403)
  })

  it("answers 404 for unknown proxies, 409 for a taken name, 400 for bad bodies and the reserved name", async () => {
    expect((await owner.get(`/workspaceproxies/${UNKNOWN_ID}`)).status).toBe(404)
    expect((await owner.get("/workspaceproxies/nobody-here")).status).toBe(404)
    expect((await owner.patch(`/workspaceproxies/${UNKNOWN_ID}`, { display_name: "x" })).status).toBe(404)
    expect((await owner.delete(`/workspaceproxies/${UNKNOWN_ID}`)).status).toBe(404)
    const made = await create()
    const taken = await owner.post("/workspaceproxies", { name: made.proxy.name.toUpperCase() })
    expect(taken.status).toBe(409)
    const other = await create()
    expect((await owner.patch(`/workspaceproxies/${other.proxy.id}`, { name: made.proxy.name })).status).toBe(409)
    expectValidations(await owner.post("/workspaceproxies", { name: "Primary" }), ["name"])
    expectValidations(await owner.post("/workspaceproxies", { name: "bad name!", display_name: 5 }), [
      "name",
      "display_name"
    ])
    expectValidations(await owner.post("/workspaceproxies", {}), ["name"])
    expectValidations(
      await owner.patch(`/workspaceproxies/${made.proxy.id}`, { regenerate_token: "yes", id: "nope" }),
      ["regenerate_token", "id"]
    )
    expectValidations(await owner.patch(`/workspaceproxies/${made.proxy.id}`, { name: "primary" }), ["name"])
  })
})

describe("a proxy registering itself", () => {
  it("registers with its token, answers 201, and its status comes from its health report", async () => {
    const made = await create()
    const r = await register(made.proxy_token, {
      access_url: proxyUrl,
      wildcard_hostname: "*.fra.example.com",
      derp_enabled: true,
      derp_only: false,
      replica_id: REPLICA,
      version: "v2.20.0"
    })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ deployment_id: DEPLOYMENT_ID, sibling_replicas: [] })
    const proxy = await waitFor(
      () => owner.get(`/workspaceproxies/${made.proxy.id}`),
      (p) => p.body.status.status === "ok"
    )
    expect(proxy.body).toMatchObject({
      path_app_url: proxyUrl,
      wildcard_hostname: "*.fra.example.com",
      version: "v2.20.0",
      healthy: true,
      status: { status: "ok", report: { errors: [], warnings: ["a warning"] } }
    })
    const regions = await member.get("/regions")
    expect(regions.body.regions.find((x: any) => x.id === made.proxy.id)).toMatchObject({
      healthy: true,
      path_app_url: proxyUrl
    })
    expect(
      (await owner.as(undefined).request("POST", "/workspaceproxies/me/deregister", { replica_id: REPLICA }, {
        headers: { "Coder-External-Proxy-Session-Token": made.proxy_token }
      })).status
    ).toBe(204)
  })

  it("refuses a missing, malformed or wrong token with 401", async () => {
    const made = await create()
    const body = { access_url: proxyUrl, replica_id: REPLICA }
    expect((await register(undefined, body)).status).toBe(401)
    expect((await register("not-a-token", body)).status).toBe(401)
    expect((await register(`${made.proxy.id}:${"0".repeat(64)}`, body)).status).toBe(401)
    expect((await register(`${UNKNOWN_ID}:${made.proxy_token.split(":")[1]}`, body)).status).toBe(401)
    // A user's session is not a proxy token.
    expect((await owner.post("/workspaceproxies/me/register", body)).status).toBe(401)
  })

  it("answers 400 for a bad URL, wildcard, replica or DERP combination", async () => {
    const made = await create()
    const t = made.proxy_token
    expectValidations(await register(t, { access_url: "ftp://x.example.com", replica_id: REPLICA }), ["access_url"])
    expectValidations(await register(t, { access_url: `${proxyUrl}/sub`, replica_id: REPLICA }), ["access_url"])
    expectValidations(
      await register(t, { access_url: proxyUrl, replica_id: REPLICA, wildcard_hostname: "no-star.example.com" }),
      ["wildcard_hostname"]
    )
    expectValidations(await register(t, { access_url: proxyUrl, replica_id: "00000000-0000-0000-0000-000000000000" }), [
      "replica_id"
    ])
    expectValidations(
      await register(t, { access_url: proxyUrl, replica_id: REPLICA, derp_only: true, derp_enabled: false }),
      ["derp_only"]
    )
    expectValidations(await register(t, { access_url: 5, replica_id: "x" }), ["access_url", "replica_id"])
  })
})
