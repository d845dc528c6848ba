/**
 * Liveness, readiness and the health report through real HTTP: the report's checks are real (the
 * database pinged, the access URL's /healthz fetched, a WebSocket echo through the server's own
 * upgrade path, the built-in workers' daemon rows).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, createUser, expectResponse, expectValidations, type ServiceTestServer, SESSION_HEADER, startWithOwner, type TestUser } from "../support.js"
import { connect, eventually, refusal } from "../websocket.js"

describe("health", () => {
  let srv: ServiceTestServer
  let owner: Client
  let member: TestUser

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({ settings: { version: "v9.9.9" } }))
    member = await createUser(owner)
  })
  afterAll(() => srv.close())

  it("answers liveness at /healthz with OK, without credentials", async () => {
    const res = await fetch(`${srv.url}/healthz`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toContain("text/plain")
    expect(await res.text()).toBe("OK")
    expect((await fetch(`${srv.url}/healthz`, { method: "HEAD" })).status).toBe(200)
  })

  it("answers readiness at /readyz once the database answers", async () => {
    const res = await fetch(`${srv.url}/readyz`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: "Ready." })
  })

  it("reports every section with real checks to owners, cached until forced", async () => {
    // The built-in workers registered their daemon rows when they started.
    const r = await owner.get("/debug/health?force=true")
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const report = r.body
    expect(report).toMatchObject({
      healthy: true,
      coder_version: "v9.9.9",
      database: { healthy: true, reachable: true, threshold_ms: 15, dismissed: false },
      access_url: { healthy: true, reachable: true, status_code: 200, healthz_response: "OK", access_url: srv.url, severity: "ok" },
      websocket: { healthy: true, code: 101, severity: "ok" },
      derp: { dismissed: true },
      workspace_proxy: { healthy: true }
    })
    expect(typeof report.database.latency_ms).toBe("number")
    expect(report.database.latency).toMatch(/^[\d.]+(ns|µs|ms|s)$/)
    expect(report.provisioner_daemons.items.length).toBeGreaterThan(0)
    expect(report.provisioner_daemons.items[0].provisioner_daemon).toMatchObject({ status: expect.stringMatching(/idle|busy/) })
    expect(["ok", "warning"]).toContain(report.severity)
    // Cached: the same report until forced.
    const again = await owner.get("/debug/health")
    expect(again.body.time).toBe(report.time)
    await new Promise((r) => setTimeout(r, 5))
    const forced = await owner.get("/debug/health?force=1")
    expect(forced.body.time).not.toBe(report.time)
  })

  it("refuses others: 401 without a token, 403 to members, 400 on a bad force", async () => {
    expectResponse(await srv.anonymous.get("/debug/health"), 401)
    expectResponse(await member.client.get("/debug/health"), 403)
    expectValidations(await owner.get("/debug/health?force=perhaps"), ["force"])
  })

  it("echoes on the debug WebSocket for owners only", async () => {
    const ws = await connect(`${srv.wsUrl}/api/v2/debug/ws`, { [SESSION_HEADER]: owner.token! })
    ws.socket.send("hello")
    await eventually(() => ws.messages.length > 0)
    expect(ws.messages).toEqual(["hello"])
    ws.socket.close()
    const refused = await refusal(connect(`${srv.wsUrl}/api/v2/debug/ws`, { [SESSION_HEADER]: member.client.token! }))
    expect(refused.status).toBe(403)
  })
})
