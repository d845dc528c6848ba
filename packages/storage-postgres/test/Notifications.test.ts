/**
 * The notifiers of two server processes on one Postgres schema: each leases its batches with
 * `FOR UPDATE SKIP LOCKED`, so when both fetch at the same moment, again and again, every queued
 * message reaches the webhook endpoint exactly once. The pause is one row both read.
 */
import { NotificationQueue, Notifier, TemplateIds } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { startWebhook } from "../../http/test/notifications/fixtures.js"
import { bootstrapOwner, type Client, type ServiceTestServer, startServiceTestServer } from "../../http/test/support.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("the notifiers of two replicas on Postgres", () => {
  const schema = `n_${randomBytes(6).toString("hex")}`
  let a: ServiceTestServer
  let b: ServiceTestServer
  let owner: Client
  let ownerId: string
  let hook: Awaited<ReturnType<typeof startWebhook>>

  beforeAll(async () => {
    hook = await startWebhook()
    // No background fetches: the tests fetch on both replicas themselves.
    const options = {
      hangDetector: false,
      retention: false,
      lifecycle: false,
      notifier: false,
      settings: {
        notificationsMethod: "webhook",
        notificationsWebhookEndpoint: hook.url,
        notificationsInboxEnabled: false,
        notificationsLeaseCount: 7
      }
    } as const
    a = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 5 }), ...options })
    b = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 5 }), ...options })
    const boot = await bootstrapOwner(a)
    owner = boot.client
    ownerId = (await owner.get("/users/me")).body.id
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await hook?.close()
  })

  const dispatch = (srv: ServiceTestServer) => srv.run(Effect.flatMap(Notifier, (n) => n.dispatchOnce))

  it("two notifiers fetching at once send every message once", async () => {
    const count = 60
    await a.run(
      Effect.flatMap(NotificationQueue, (q) =>
        Effect.forEach(
          Array.from({ length: count }, (_, i) => i),
          (i) =>
            q.enqueue({
              templateId: TemplateIds.customNotification,
              userId: ownerId,
              labels: { custom_title: `Message ${i}`, custom_message: "" },
              createdBy: "test"
            })
        ))
    )
    const before = hook.received.length
    const leased = { a: 0, b: 0 }
    for (let round = 0; round < 20; round++) {
      const [x, y] = await Promise.all([dispatch(a), dispatch(b)])
      // A fetch leases at most lease_count (7) messages.
      expect(Math.max(x.leased, y.leased)).toBeLessThanOrEqual(7)
      leased.a += x.leased
      leased.b += y.leased
      if (x.leased + y.leased === 0) break
    }
    // Both shared the work, and no message was leased twice.
    expect(leased.a).toBeGreaterThan(0)
    expect(leased.b).toBeGreaterThan(0)
    expect(leased.a + leased.b).toBe(count)
    const ids = hook.received.slice(before).map((r) => r.body.msg_id as string)
    expect(ids).toHaveLength(count)
    expect(new Set(ids).size).toBe(count)
    expect(new Set(hook.received.slice(before).map((r) => r.body.title)).size).toBe(count)
  })

  it("a pause set through one replica holds the other's notifier", async () => {
    expect((await owner.put("/notifications/settings", { notifier_paused: true })).status).toBe(200)
    expect((await owner.post("/notifications/custom", { content: { title: "Held" } })).status).toBe(204)
    expect(await dispatch(b)).toEqual({ paused: true, leased: 0, sent: 0, failed: 0 })
    expect((await owner.put("/notifications/settings", { notifier_paused: false })).status).toBe(200)
    expect(await dispatch(b)).toMatchObject({ paused: false, leased: 1, sent: 1 })
  })
})
