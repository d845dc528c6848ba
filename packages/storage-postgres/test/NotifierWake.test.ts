/**
 * The wake-up reaches every replica: two server processes on one Postgres schema, the first with
 * no notifier, the second with a fetch interval of ten minutes. A notification enqueued through
 * the first is sent by the second's notifier at once (the NOTIFY on `notifier_wake`), and an inbox
 * watcher on the first receives it. No timed assertions: only the wake-up can send it in time.
 */
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import {
  bootstrapOwner,
  type Client,
  type ServiceTestServer,
  SESSION_HEADER,
  startServiceTestServer
} from "../../http/test/support.js"
import { connect, eventually } from "../../http/test/websocket.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("the notifier woken from another replica on Postgres", () => {
  const schema = `w_${randomBytes(6).toString("hex")}`
  let a: ServiceTestServer
  let b: ServiceTestServer
  let owner: Client

  beforeAll(async () => {
    const options = { hangDetector: false, retention: false, lifecycle: false } as const
    a = await startServiceTestServer({
      storage: Postgres.layer({ url: url!, schema, maxConnections: 5 }),
      ...options,
      notifier: false
    })
    b = await startServiceTestServer({
      storage: Postgres.layer({ url: url!, schema, maxConnections: 5 }),
      ...options,
      notifier: { interval: "10 minutes" }
    })
    owner = (await bootstrapOwner(a)).client
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  it("a notification enqueued on one replica is sent by the other's notifier and watched on the first", async () => {
    const ws = await connect(`${a.wsUrl}/api/v2/notifications/inbox/watch`, { [SESSION_HEADER]: owner.token! })
    expect(
      (await owner.post("/notifications/custom", {
        content: { title: "Across replicas", message: "Woken by NOTIFY." }
      })).status
    ).toBe(204)
    await eventually(() => ws.messages.some((m) => JSON.parse(m).notification.title === "Across replicas"))
    ws.socket.close()
    await ws.closed
  })
})
