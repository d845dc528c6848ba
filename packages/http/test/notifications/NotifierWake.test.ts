/**
 * The notifier wakes on enqueue (docs/notifications.md, The notifier): with a fetch interval of ten
 * minutes, an inbox watcher (a real WebSocket) receives a notification enqueued by a route long
 * before any periodic fetch could have sent it. No timed assertions: the interval is far beyond
 * the test's own time limit, so only the wake-up can deliver it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, type ServiceTestServer, SESSION_HEADER, startWithOwner } from "../support.js"
import { connect, eventually } from "../websocket.js"

describe("the notifier woken by an enqueue", () => {
  let srv: ServiceTestServer
  let owner: Client

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({ notifier: { interval: "10 minutes" } }))
  })
  afterAll(() => srv.close())

  it("an inbox watcher receives a custom notification without waiting for the fetch interval", async () => {
    const ws = await connect(`${srv.wsUrl}/api/v2/notifications/inbox/watch`, { [SESSION_HEADER]: owner.token! })
    for (const title of ["Woken once", "Woken twice"]) {
      expect((await owner.post("/notifications/custom", { content: { title, message: "Sent on enqueue." } })).status)
        .toBe(204)
      await eventually(() => ws.messages.some((m) => JSON.parse(m).notification.title === title))
    }
    expect(ws.messages.map((m) => JSON.parse(m).notification.title)).toEqual(["Woken once", "Woken twice"])
    ws.socket.close()
    await ws.closed
  })
})
