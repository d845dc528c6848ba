/**
 * The HTTP API end to end on Postgres: the same black-box flow the SQLite
 * tests drive, plus the standalone server switched to Postgres by one setting.
 */
import { loadConfig, startServer } from "@workbay/server"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import {
  bootstrapOwner,
  type Client,
  createUser,
  startTestServer,
  STRONG_PASSWORD,
  type TestServer
} from "../../http/test/support.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("API on Postgres", () => {
  let srv: TestServer
  let owner: Client
  beforeAll(async () => {
    const schema = `api_${randomBytes(6).toString("hex")}`
    srv = await startTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 4 }) })
    owner = (await bootstrapOwner(srv)).client
  })
  afterAll(() => srv?.close())

  it("serves the first user, login and the caller", async () => {
    const me = await owner.get("/users/me")
    expect(me.status).toBe(200)
    expect(me.body.username).toBe("admin")
    expect(me.body.roles.map((r: { name: string }) => r.name)).toEqual(["owner"])
    expect(me.body.organization_ids).toHaveLength(1)
  })

  it("answers 409 for a duplicate username, not a database error", async () => {
    const member = await createUser(owner, { username: "dupe" })
    expect(member.user.username).toBe("dupe")
    const again = await owner.post("/users", {
      email: "other@example.com",
      username: "DUPE",
      password: STRONG_PASSWORD
    })
    expect(again.status).toBe(409)
    expect(again.body.validations[0].field).toBe("username")
  })

  it("creates, lists and revokes tokens", async () => {
    const created = await owner.post("/users/me/keys/tokens", { token_name: "ci" })
    expect(created.status).toBe(201)
    const viaToken = owner.as(created.body.key)
    expect((await viaToken.get("/users/me")).status).toBe(200)
    const list = await owner.get("/users/me/keys/tokens")
    expect(list.body.map((k: { token_name: string }) => k.token_name)).toContain("ci")
    expect((await owner.delete("/users/me/keys/tokens/ci")).status).toBe(204)
    expect((await viaToken.get("/users/me")).status).toBe(401)
  })

  it("answers 400, not a database error, for NUL characters anywhere in the input", async () => {
    for (
      const path of ["/organizations/a%00b", "/users/a%00b", "/organizations/coder/members/a%00b", "/groups/a%00b"]
    ) {
      const r = await owner.get(path)
      expect(r.status, path).toBe(400)
      expect(r.body.validations[0].detail).toBe("Must not contain NUL characters.")
    }
    const body = await owner.post("/organizations", { name: "nul-org", description: "a\u0000b" })
    expect(body.status).toBe(400)
    expect(body.body.validations).toEqual([{ field: "description", detail: "Must not contain NUL characters." }])
    const query = await owner.get("/users?q=a%00b")
    expect(query.status).toBe(400)
    expect(query.body.validations[0].field).toBe("q")
  })

  it("keeps groups, their counts and the audit log", async () => {
    const member = await createUser(owner, { username: "grouped" })
    const orgs = await owner.get("/organizations")
    const orgId = orgs.body[0].id
    const group = await owner.post(`/organizations/${orgId}/groups`, { name: "pg-team", quota_allowance: 3 })
    expect(group.status).toBe(201)
    const patched = await owner.patch(`/groups/${group.body.id}`, { add_users: [member.user.id] })
    expect(patched.status).toBe(200)
    expect(patched.body.total_member_count).toBe(1)
    const everyone = await owner.get(`/groups/${orgId}`)
    expect(everyone.body.name).toBe("Everyone")
    expect(everyone.body.total_member_count).toBe((await owner.get("/users")).body.count)
    const members = await owner.get(`/groups/${group.body.id}/members?limit=10`)
    expect(members.body).toMatchObject({ count: 1, users: [{ id: member.user.id }] })
    expect((await owner.get(`/workspace-quota/${member.user.id}`)).body).toEqual({ budget: 3, credits_consumed: 0 })
    const audit = await owner.get("/audit?limit=5&q=resource_type:group")
    expect(audit.status).toBe(200)
    expect(audit.body.audit_logs.map((e: { action: string }) => e.action)).toEqual(["write", "create"])
    expect(audit.body.audit_logs[0].diff.members).toBeDefined()
    expect(audit.body.count).toBe(2)
  })

  it("treats a non-UUID organization reference as a name, never as a bad uuid literal", async () => {
    const r = await owner.get("/organizations/not-a-uuid")
    expect(r.status).toBe(404)
    const created = await owner.post("/organizations", { name: "research" })
    expect(created.status).toBe(201)
    expect((await owner.get("/organizations/research")).body.id).toBe(created.body.id)
  })
})

describe.skipIf(url === null)("standalone server with DATABASE_URL", () => {
  it("stores in Postgres when DATABASE_URL is set", async () => {
    const config = loadConfig(["--port", "0"], { DATABASE_URL: url! })
    const running = await startServer(config)
    try {
      expect(running.storage).toContain("PostgreSQL")
      const port = (running.server.address() as { port: number }).port
      const r = await fetch(`http://127.0.0.1:${port}/api/v2/buildinfo`)
      expect(r.status).toBe(200)
    } finally {
      await running.close()
    }
  })
})
