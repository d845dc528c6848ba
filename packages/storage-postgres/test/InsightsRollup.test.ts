/**
 * The insights rollup of two server processes on one Postgres schema: passes started together on
 * both make one pass (the advisory lock), a later pass of the other replica in the same tick is
 * skipped (the stored state), the usage is folded once, and both replicas answer the same report.
 */
import { AgentReportRepo, InsightsRollup, type RollupReport } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { agentStats as stats } from "../../core/test/insights/fixtures.js"
import { bootstrapOwner, type Client, type ServiceTestServer, startServiceTestServer } from "../../http/test/support.js"
import { portShareTemplate, seedWorkspace } from "../../http/test/workspaces/portShareFixtures.js"

const url = inject("workbayPgUrl")
const HOUR = 3_600_000
const DAY = 24 * HOUR

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")

describe.skipIf(url === null)("the insights rollups of two replicas on Postgres", () => {
  const schema = `i_${randomBytes(6).toString("hex")}`
  let a: ServiceTestServer
  let b: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string

  beforeAll(async () => {
    // No background passes: the test runs each replica's passes itself.
    const options = {
      hangDetector: false,
      retention: false,
      lifecycle: false,
      proxyHealth: false,
      insightsRollup: false
    } as const
    a = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 4 }), ...options })
    b = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 4 }), ...options })
    ;({ client: owner, organizationId: orgId } = await bootstrapOwner(a))
    ownerId = (await owner.get("/users/me")).body.id
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  // Ticks of 1,000 days: no tick boundary falls between the passes of the test.
  const pass = (srv: ServiceTestServer): Promise<RollupReport> =>
    srv.run(Effect.flatMap(InsightsRollup, (r) => r.pass("1000 days")))

  it("folds each hour once per tick, and both replicas report it", async () => {
    const template = await portShareTemplate(a, owner, { organizationId: orgId, createdBy: ownerId }) as any
    const ws = await seedWorkspace(a, { ownerId, template, organizationId: orgId, agents: null })
    const now = Date.now()
    for (let i = 0; i < 6; i++) {
      await a.run(
        Effect.flatMap(
          AgentReportRepo,
          (r) => r.insertStats(randomUUID(), ws.id, stats({ session_count_ssh: 1 }), new Date(now - (10 - i) * 60_000))
        )
      )
    }
    const [ra, rb] = await Promise.all([pass(a), pass(b)])
    expect([ra.ran, rb.ran].filter(Boolean)).toHaveLength(1)
    expect((ra.ran ? ra : rb).usageRows).toBeGreaterThanOrEqual(1)
    // The other replica, later in the same tick: skipped by the stored state.
    expect((await pass(ra.ran ? b : a)).ran).toBe(false)

    const start = isoSeconds(now - (now % DAY) - DAY)
    const end = isoSeconds(now - (now % HOUR) + HOUR)
    const path = `/insights/user-activity?start_time=${start}&end_time=${end}`
    const viaA = await owner.get(path)
    const viaB = await b.anonymous.as(owner.token).get(path)
    expect(viaA.status, JSON.stringify(viaA.body)).toBe(200)
    expect(viaA.body.report.users).toHaveLength(1)
    expect(viaA.body.report.users[0].seconds).toBe(6 * 60)
    expect(viaB.body).toEqual(viaA.body)
  })
})
