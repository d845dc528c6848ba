/**
 * The inbox watch across replicas: two services on one Postgres schema. A notification delivered
 * through replica B (its InboxDelivery port, as B's notifier would) reaches a WebSocket watcher
 * connected to replica A, through the user's PubSub channel (LISTEN/NOTIFY); the list on either
 * replica shows it, and a read on A shows on B.
 */
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes, randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { deliver } from "../../../http/test/notifications/InboxFixtures.js"
import {
  bootstrapOwner,
  Client,
  createUser,
  type ServiceTestServer,
  SESSION_HEADER,
  startServiceTestServer
} from "../../../http/test/support.js"
import { connect, eventually } from "../../../http/test/websocket.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("the inbox watch across replicas on Postgres", () => {
  let a: ServiceTestServer
  let b: ServiceTestServer
  beforeAll(async () => {
    const schema = `i_${randomBytes(6).toString("hex")}`
    const options = { hangDetector: false, retention: false, lifecycle: false } as const
    a = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
    b = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  it("a notification delivered through replica B reaches a watcher on replica A", async () => {
    const { client: owner } = await bootstrapOwner(a)
    const u = await createUser(owner)
    const onA = await connect(`${a.wsUrl}/api/v2/notifications/inbox/watch?format=plaintext`, {
      [SESSION_HEADER]: u.client.token!
    })
    const onB = await connect(`${b.wsUrl}/api/v2/notifications/inbox/watch`, { [SESSION_HEADER]: u.client.token! })
    const n = await deliver(b, u.user.id, { targets: [randomUUID()] })
    await eventually(() => onA.messages.length >= 1 && onB.messages.length >= 1)
    const fromA = JSON.parse(onA.messages[0]!)
    expect(fromA.unread_count).toBe(1)
    expect(fromA.notification).toMatchObject({
      id: n.id,
      user_id: u.user.id,
      targets: n.targets,
      title: "Workspace dev was deleted"
    })
    expect(JSON.parse(onB.messages[0]!).notification.title).toBe(n.title)
    // Delivered through A this time: B's watcher hears it.
    const m = await deliver(a, u.user.id)
    await eventually(() => onB.messages.length >= 2)
    expect(JSON.parse(onB.messages[1]!)).toMatchObject({ notification: { id: m.id }, unread_count: 2 })
    // The routes of either replica read the one database.
    const onBClient = new Client(`${b.url}/api/v2`, u.client.token!)
    const read = await u.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true })
    expect(read.status).toBe(200)
    const listed = await onBClient.get("/notifications/inbox")
    expect(listed.body.unread_count).toBe(1)
    expect(listed.body.notifications.map((x: any) => x.id)).toEqual([m.id, n.id])
    onA.socket.close()
    onB.socket.close()
  })
})
