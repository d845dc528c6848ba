import { Effect } from "effect"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { tour } from "../client.js"
import { start as startExpress } from "../express.js"
import { start as startNode } from "../node-http.js"

const account = { email: "admin@example.com", username: "admin", password: "Correct-Horse-Battery-9" }
let close: (() => Promise<unknown>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

const baseOf = (server: { address(): unknown }) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`

describe("examples", () => {
  it("node:http serves the API beside the host's route", async () => {
    const app = await startNode(0)
    close = app.close
    const base = baseOf(app.server)
    expect(await (await fetch(`${base}/healthz`)).text()).toBe("ok")
    const result = await Effect.runPromise(tour(base, account))
    expect(result.me.username).toBe("admin")
    expect(result.organizations.map((o) => o.is_default)).toContain(true)
  })

  it("express passes non-API requests on to the app", async () => {
    const app = await startExpress(0)
    close = app.close
    const base = baseOf(app.server)
    expect(await (await fetch(`${base}/hello`)).json()).toEqual({ hello: "from express" })
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404)
    const unauth = await fetch(`${base}/api/v2/users/me`)
    expect(unauth.status).toBe(401)
    const result = await Effect.runPromise(tour(base, account))
    expect(result.me.email).toBe("admin@example.com")
  })

  it("the typed client reports a wrong password as Unauthorized", async () => {
    const app = await startNode(0)
    close = app.close
    const base = baseOf(app.server)
    await Effect.runPromise(tour(base, account))
    const error = await Effect.runPromise(Effect.flip(tour(base, { ...account, password: "Wrong-Password-123456" })))
    expect(error._tag).toBe("Unauthorized")
  })
})
