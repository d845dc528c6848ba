import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bootstrapOwner, type Client, startTestServer, type TestServer } from "./support.js"

describe("general routes", () => {
  let srv: TestServer
  let owner: Client
  beforeAll(async () => {
    srv = await startTestServer()
    owner = (await bootstrapOwner(srv)).client
  })
  afterAll(() => srv.close())

  it("answers the root with a message", async () => {
    const r = await srv.anonymous.get("/")
    expect(r.status).toBe(200)
    expect(typeof r.body.message).toBe("string")
  })

  it("reports build info without a token", async () => {
    const r = await srv.anonymous.get("/buildinfo")
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ agent_api_version: expect.any(String), version: expect.any(String), workspace_proxy: false })
  })

  it("answers unknown routes with a 404 Response", async () => {
    const r = await owner.get("/no-such-route")
    expect(r.status).toBe(404)
    expect(r.body.message).toBe("Route not found.")
  })

  it("refuses deployment stats without a token", async () => {
    const r = await srv.anonymous.get("/deployment/stats")
    expect(r.status).toBe(401)
    expect(r.body.message).toEqual(expect.any(String))
  })
})
