/**
 * The administrators' app routes (`/oauth2-provider/apps` and their secrets): success, 401,
 * 403/404, 400, secrets shown once and stored hashed, audit entries without secrets.
 */
import { OAuth2Repo } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  UNKNOWN_ID
} from "../support.js"
import { REDIRECT } from "./fixtures.js"

let srv: ServiceTestServer
let owner: Client
let member: Client

beforeAll(async () => {
  ;({ srv, owner } = await startWithOwner())
  member = (await createUser(owner)).client
})
afterAll(() => srv.close())

const create = async (name: string) => {
  const r = await owner.post("/oauth2-provider/apps", { name, callback_url: REDIRECT, icon: "/icon/code.svg" })
  expect(r.status).toBe(201)
  return r.body
}

describe("OAuth2 apps", () => {
  it("creates, reads, lists, updates and deletes an app", async () => {
    const app = await create("My App")
    expect(app).toMatchObject({ name: "My App", callback_url: REDIRECT, icon: "/icon/code.svg" })
    expect(app.endpoints.authorization).toBe(`${srv.url}/oauth2/authorize`)
    expect((await member.get(`/oauth2-provider/apps/${app.id}`)).body.id).toBe(app.id)
    expect((await member.get("/oauth2-provider/apps")).body.map((a: any) => a.id)).toContain(app.id)
    const updated = await owner.put(`/oauth2-provider/apps/${app.id}`, {
      name: "Renamed",
      callback_url: "https://other.example.com/cb"
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ name: "Renamed", callback_url: "https://other.example.com/cb", icon: "" })
    expect((await owner.delete(`/oauth2-provider/apps/${app.id}`)).status).toBe(204)
    expect((await owner.get(`/oauth2-provider/apps/${app.id}`)).status).toBe(404)
  })

  it("answers 401 without a session", async () => {
    const anon = owner.as(undefined)
    for (
      const [method, path] of [
        ["GET", "/oauth2-provider/apps"],
        ["POST", "/oauth2-provider/apps"],
        ["GET", `/oauth2-provider/apps/${UNKNOWN_ID}`],
        ["GET", `/oauth2-provider/apps/${UNKNOWN_ID}/secrets`],
        ["DELETE", `/oauth2/tokens?client_id=${UNKNOWN_ID}`]
      ] as const
    ) {
      expect((await anon.request(method, path, method === "POST" ? {} : undefined)).status).toBe(401)
    }
  })

  it("answers 403 to members who change apps or read secrets", async () => {
    const app = await create("Guarded")
    expect((await member.post("/oauth2-provider/apps", { name: "Mine", callback_url: REDIRECT })).status).toBe(403)
    expect((await member.put(`/oauth2-provider/apps/${app.id}`, { name: "X", callback_url: REDIRECT })).status).toBe(
      403
    )
    expect((await member.delete(`/oauth2-provider/apps/${app.id}`)).status).toBe(403)
    expect((await member.post(`/oauth2-provider/apps/${app.id}/secrets`)).status).toBe(403)
    expect((await member.get(`/oauth2-provider/apps/${app.id}/secrets`)).status).toBe(404)
  })

  it("answers 404 for unknown apps and secrets, 400 for bad ids and bodies", async () => {
    expect((await owner.get(`/oauth2-provider/apps/${UNKNOWN_ID}`)).status).toBe(404)
    expect((await owner.delete(`/oauth2-provider/apps/${UNKNOWN_ID}`)).status).toBe(404)
    const app = await create("Secretive")
    expect((await owner.delete(`/oauth2-provider/apps/${app.id}/secrets/${UNKNOWN_ID}`)).status).toBe(404)
    expect((await owner.delete(`/oauth2/tokens?client_id=${UNKNOWN_ID}`)).status).toBe(404)
    expectValidations(await owner.get("/oauth2-provider/apps/not-a-uuid"), ["app"])
    expectValidations(await owner.post("/oauth2-provider/apps", { name: "", callback_url: "ftp://x" }), [
      "name",
      "callback_url"
    ])
    expectValidations(await owner.post("/oauth2-provider/apps", { name: 5, callback_url: REDIRECT }), ["name"])
    expectValidations(await owner.get("/oauth2-provider/apps?user_id=nope"), ["user_id"])
    expectValidations(await owner.delete("/oauth2/tokens"), ["client_id"])
  })

  it("shows a secret once, lists it truncated, stores only its hash, and audits without it", async () => {
    const app = await create("With Secret")
    const made = await owner.post(`/oauth2-provider/apps/${app.id}/secrets`)
    expect(made.status).toBe(201)
    const secret = made.body.client_secret_full as string
    expect(secret).toMatch(/^wbs_[A-Za-z0-9]{40}$/)
    const listed = await owner.get(`/oauth2-provider/apps/${app.id}/secrets`)
    expect(listed.body).toEqual([{
      id: made.body.id,
      last_used_at: null,
      client_secret_truncated: expect.stringMatching(/^wbs_\w{6}\*+$/)
    }])
    expect(JSON.stringify(listed.body)).not.toContain(secret)
    const stored = await srv.run(Effect.flatMap(OAuth2Repo, (r) => r.listSecrets(app.id)))
    expect(JSON.stringify(stored)).not.toContain(secret.slice(4))
    const audit = await owner.get("/audit?limit=100")
    expect(JSON.stringify(audit.body)).not.toContain(secret.slice(4))
    const entry = audit.body.audit_logs.find((e: any) => e.resource_type === "oauth2_provider_app_secret")
    expect(entry.diff.hashed_secret).toEqual({ old: "", new: "", secret: true })
    expect((await owner.delete(`/oauth2-provider/apps/${app.id}/secrets/${made.body.id}`)).status).toBe(204)
    expect((await owner.get(`/oauth2-provider/apps/${app.id}/secrets`)).body).toEqual([])
  })
})
