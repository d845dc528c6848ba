/**
 * `GET /replicas` over real HTTP (docs/agents.md, "Several replicas"): the live replicas, for
 * owners. A service registers itself at start (its row refreshed every 10 s, removed when it
 * stops); one with no relay address lists an empty one. Two replicas on one Postgres with their
 * addresses: packages/server/test/Relay.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectIsoDate,
  expectResponse,
  startWithOwner,
  type TestServer,
  type TestUser,
  UUID_PATTERN
} from "../support.js"

describe("GET /replicas", () => {
  let srv: TestServer
  let owner: Client
  let member: TestUser
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({ settings: { derpServerRelayUrl: "http://10.0.0.5:3000" } }))
    member = await createUser(owner)
  })
  afterAll(() => srv.close())

  it("lists this replica, with its relay address, to an owner", async () => {
    const r = await owner.get("/replicas")
    expect(r.status).toBe(200)
    expect(r.body).toHaveLength(1)
    const [self] = r.body
    expect(self).toMatchObject({ relay_address: "http://10.0.0.5:3000", region_id: 0, error: "" })
    expect(self.id).toMatch(UUID_PATTERN)
    expect(typeof self.hostname).toBe("string")
    expect(Number.isInteger(self.database_latency)).toBe(true)
    expectIsoDate(self.created_at)
  })

  it("answers 403 to a member, 401 without a session", async () => {
    expectResponse(await member.client.get("/replicas"), 403)
    expectResponse(await srv.anonymous.get("/replicas"), 401)
  })

  it("answers 404 under another path and 405 for another method", async () => {
    expect((await owner.get("/replicas/nope")).status).toBe(404)
    expect([404, 405]).toContain((await owner.post("/replicas", {})).status)
  })
})
