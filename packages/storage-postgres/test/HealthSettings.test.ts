/**
 * The health settings of two replicas on one Postgres schema: sections dismissed through one
 * replica are the other's at once, in its settings and in its health report (even one it had
 * cached), because every read takes them from the database.
 */
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { bootstrapOwner, Client, type ServiceTestServer, startServiceTestServer } from "../../http/test/support.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("health settings across replicas on Postgres", () => {
  let a: ServiceTestServer
  let b: ServiceTestServer
  let owner: Client

  beforeAll(async () => {
    const schema = `h_${randomBytes(6).toString("hex")}`
    const options = { hangDetector: false, retention: false, lifecycle: false, proxyHealth: false } as const
    a = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
    b = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
    ;({ client: owner } = await bootstrapOwner(a))
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  it("a change on one replica shows on the other's settings and cached report", async () => {
    const ownerB = new Client(`${b.url}/api/v2`, owner.token)
    const cached = await ownerB.get("/debug/health?force=true")
    expect(cached.status).toBe(200)
    expect(cached.body.websocket.dismissed).toBe(false)
    const put = await owner.put("/debug/health/settings", { dismissed_healthchecks: ["Websocket", "AccessURL"] })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect((await ownerB.get("/debug/health/settings")).body).toEqual({
      dismissed_healthchecks: ["Websocket", "AccessURL"]
    })
    const report = await ownerB.get("/debug/health")
    expect(report.body.time).toBe(cached.body.time)
    expect(report.body).toMatchObject({
      websocket: { dismissed: true },
      access_url: { dismissed: true },
      database: { dismissed: false }
    })
    // The same sections through the other replica change nothing.
    expect((await ownerB.put("/debug/health/settings", { dismissed_healthchecks: ["AccessURL", "Websocket"] })).status)
      .toBe(304)
  })
})
