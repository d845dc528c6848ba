/**
 * The notifier as the server runs it: its own fiber, fetching every interval, sends a custom
 * notification to a real SMTP server with no call from the test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, type ServiceTestServer, startWithOwner } from "../support.js"
import { eventually } from "../websocket.js"
import { startSmtp } from "./fixtures.js"

describe("the notifier's fiber", () => {
  let srv: ServiceTestServer
  let owner: Client
  let smtp: Awaited<ReturnType<typeof startSmtp>>

  beforeAll(async () => {
    smtp = await startSmtp()
    ;({ srv, owner } = await startWithOwner({
      notifier: { interval: "20 millis" },
      settings: { emailSmarthost: smtp.smarthost, emailFrom: "workbay@example.com" }
    }))
  })
  afterAll(async () => {
    await srv.close()
    await smtp.close()
  })

  it("sends what is queued without being asked", async () => {
    expect(
      (await owner.post("/notifications/custom", { content: { title: "On its own", message: "Sent by the fiber." } }))
        .status
    ).toBe(204)
    await eventually(() => smtp.mails.some((m) => m.subject === "On its own"))
    expect(smtp.mails.find((m) => m.subject === "On its own")!.text).toBe("Sent by the fiber.")
  })
})
