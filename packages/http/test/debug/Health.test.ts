/**
 * Liveness, readiness and the health report through real HTTP: the report's checks are real (the
 * database pinged, the access URL's /healthz fetched, a WebSocket echo through the server's own
 * upgrade path, the built-in workers' daemon rows).
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  type TestUser
} from "../support.js"
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
      access_url: {
        healthy: true,
        reachable: true,
        status_code: 200,
        healthz_response: "OK",
        access_url: srv.url,
        severity: "ok"
      },
      websocket: { healthy: true, code: 101, severity: "ok" },
      derp: { dismissed: true },
      workspace_proxy: { healthy: true }
    })
    expect(typeof report.database.latency_ms).toBe("number")
    expect(report.database.latency).toMatch(/^[\d.]+(ns|µs|ms|s)$/)
    expect(report.provisioner_daemons.items.length).toBeGreaterThan(0)
    expect(report.provisioner_daemons.items[0].provisioner_daemon).toMatchObject({
      status: expect.stringMatching(/idle|busy/)
    })
    expect(["ok", "warning"]).toContain(report.severity)
    // Cached: the same report until forced.
    const again = await owner.get("/debug/health")
    expect(again.body.time).toBe(report.time)
    await new Promise((r) => setTimeout(r, 5))
    const forced = await owner.get("/debug/health?force=1")
    expect(forced.body.time).not.toBe(report.time)
  })

  it("warns in the database section (EDB03) while no external token encryption key is configured; not with one", async () => {
    const warnings = (report: any) =>
      (report.database.warnings as Array<{ code: string; message: string }>).map((w) => w.code)
    const without = (await owner.get("/debug/health?force=true")).body
    expect(warnings(without)).toContain("EDB03")
    expect(without.database.severity).toBe("warning")
    expect(without.database.warnings.find((w: any) => w.code === "EDB03").message).toContain("unencrypted")
    const keyed = await startWithOwner({
      settings: { externalTokenEncryptionKeys: [randomBytes(32).toString("base64")] }
    })
    try {
      const report = (await keyed.owner.get("/debug/health?force=true")).body
      expect(warnings(report)).not.toContain("EDB03")
    } finally {
      await keyed.srv.close()
    }
  })

  it("refuses others: 401 without a token, 403 to members, 400 on a bad force", async () => {
    expectResponse(await srv.anonymous.get("/debug/health"), 401)
    expectResponse(await member.client.get("/debug/health"), 403)
    expectValidations(await owner.get("/debug/health?force=perhaps"), ["force"])
  })

  it("dismisses health sections: stored, audited, shown in the next report, 304 and no audit entry when unchanged", async () => {
    const empty = await owner.get("/debug/health/settings")
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual({ dismissed_healthchecks: [] })
    // Unchanged (nothing stored is no section dismissed): 304, no body.
    const same = await owner.put("/debug/health/settings", { dismissed_healthchecks: [] })
    expect(same.status).toBe(304)
    expect(same.body).toBeUndefined()
    const before = await owner.get("/debug/health")
    expect(before.body.database.dismissed).toBe(false)

    const put = await owner.put("/debug/health/settings", {
      dismissed_healthchecks: ["Database", "ProvisionerDaemons", "Database"]
    })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(put.body).toEqual({ dismissed_healthchecks: ["Database", "ProvisionerDaemons"] })
    expect((await owner.get("/debug/health/settings")).body).toEqual({
      dismissed_healthchecks: ["Database", "ProvisionerDaemons"]
    })
    // The cached report (not forced) shows the change at once.
    const after = await owner.get("/debug/health")
    expect(after.body.time).toBe(before.body.time)
    expect(after.body).toMatchObject({
      database: { dismissed: true },
      provisioner_daemons: { dismissed: true },
      access_url: { dismissed: false },
      derp: { dismissed: true }
    })
    // The same sections in another order change nothing.
    expect(
      (await owner.put("/debug/health/settings", { dismissed_healthchecks: ["ProvisionerDaemons", "Database"] })).status
    ).toBe(304)

    const audit = await owner.get(`/audit?limit=10&q=${encodeURIComponent("resource_type:health_settings")}`)
    expect(audit.status, JSON.stringify(audit.body)).toBe(200)
    // One entry: the change; the two requests that changed nothing (304) wrote none.
    expect(audit.body.audit_logs.map((e: any) => e.status_code)).toEqual([200])
    const written = audit.body.audit_logs.find((e: any) => e.status_code === 200)
    expect(written).toMatchObject({ action: "write", resource_type: "health_settings" })
    expect(written.diff.dismissed_healthchecks).toEqual({
      old: [],
      new: ["Database", "ProvisionerDaemons"],
      secret: false
    })

    // Back to none (null means none too).
    expect((await owner.put("/debug/health/settings", { dismissed_healthchecks: null })).status).toBe(200)
    expect((await owner.get("/debug/health")).body.database.dismissed).toBe(false)
  })

  it("refuses bad health settings: 401, 403, and 400 naming each unknown section", async () => {
    expectResponse(await srv.anonymous.get("/debug/health/settings"), 401)
    expectResponse(await srv.anonymous.put("/debug/health/settings", { dismissed_healthchecks: [] }), 401)
    expectResponse(await member.client.get("/debug/health/settings"), 403)
    expectResponse(await member.client.put("/debug/health/settings", { dismissed_healthchecks: ["DERP"] }), 403)
    const bad = await owner.put("/debug/health/settings", { dismissed_healthchecks: ["DERP", "Nope", "Websocket", 7] })
    expectValidations(bad, ["dismissed_healthchecks.1", "dismissed_healthchecks.3"])
    expect(bad.body.validations[0].detail).toContain("Unknown health check section \"Nope\"")
    expectValidations(await owner.put("/debug/health/settings", { dismissed_healthchecks: "DERP" }), [
      "dismissed_healthchecks"
    ])
    expect((await owner.get("/debug/health/settings")).body).toEqual({ dismissed_healthchecks: [] })
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
