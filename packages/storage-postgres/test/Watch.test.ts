/**
 * Watching a workspace across replicas: two services on one Postgres schema. A WebSocket
 * watcher on replica A receives the changes of a build queued on replica B (and run by either
 * replica's workers), through LISTEN/NOTIFY on the workspace's and the job's channels.
 */
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import {
  bootstrapOwner,
  Client,
  type ServiceTestServer,
  SESSION_HEADER,
  startServiceTestServer
} from "../../http/test/support.js"
import { connect, eventually } from "../../http/test/websocket.js"
import { FREE_TEMPLATE, makeTemplate } from "../../http/test/workspaces/fixtures.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("watching a workspace across replicas on Postgres", () => {
  let a: ServiceTestServer
  let b: ServiceTestServer
  beforeAll(async () => {
    const schema = `w_${randomBytes(6).toString("hex")}`
    a = await startServiceTestServer({
      storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }),
      hangDetector: false,
      retention: false
    })
    b = await startServiceTestServer({
      storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }),
      hangDetector: false,
      retention: false
    })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  it("the watcher on replica A sees a build queued on replica B", async () => {
    const { client, organizationId } = await bootstrapOwner(a)
    const template = await makeTemplate(a, client, organizationId, FREE_TEMPLATE)
    const created = await client.post(`/organizations/${organizationId}/members/me/workspaces`, {
      name: "replicated",
      template_id: template.id
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const id = created.body.id
    const ws = await connect(`${a.wsUrl}/api/v2/workspaces/${id}/watch-ws`, { [SESSION_HEADER]: client.token! })
    const data = () => ws.messages.map((m) => JSON.parse(m)).filter((m) => m.type === "data").map((m) => m.data)
    // The first build, by either replica's workers (a generous wait: it is not what is measured).
    await eventually(() => data().at(-1)?.latest_build.status === "running", 30_000)
    const bClient = new Client(`${b.url}/api/v2`, client.token!)
    const t0 = Date.now()
    const stop = await bClient.post(`/workspaces/${id}/builds`, { transition: "stop" })
    expect(stop.status, JSON.stringify(stop.body)).toBe(200)
    await eventually(() => data().some((w) => w.latest_build.build_number === 2))
    // A signal, not the 10-second fallback read.
    expect(Date.now() - t0).toBeLessThan(2000)
    await eventually(() => data().at(-1)?.latest_build.status === "stopped", 30_000)
    ws.socket.close()
  })
})
