/**
 * The proxy health checker of two server processes on one Postgres schema: when both tick at the
 * same moment exactly one checks (the advisory lock), the proxy is asked once, and both replicas
 * answer the stored verdict.
 */
import { ProxyHealth, type ProxyHealthTick } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { bootstrapOwner, type Client, type ServiceTestServer, startServiceTestServer } from "../../http/test/support.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("the proxy health checkers of two replicas on Postgres", () => {
  const schema = `p_${randomBytes(6).toString("hex")}`
  let a: ServiceTestServer
  let b: ServiceTestServer
  let owner: Client
  let proxy: Server
  let proxyUrl: string
  let requests = 0
  let status = 200

  beforeAll(async () => {
    // No background ticks: the tests tick each replica themselves.
    const options = { hangDetector: false, retention: false, lifecycle: false, proxyHealth: false } as const
    a = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 4 }), ...options })
    b = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 4 }), ...options })
    ;({ client: owner } = await bootstrapOwner(a))
    proxy = createServer((req, res) => {
      if (req.url !== "/healthz-report") {
        res.writeHead(404)
        res.end()
        return
      }
      requests++
      // Slow enough that the two ticks overlap.
      setTimeout(() => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify({ errors: [], warnings: [] }))
      }, 300)
    })
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await new Promise((resolve) => proxy?.close(resolve))
  })

  const tick = (srv: ServiceTestServer): Promise<ProxyHealthTick> => srv.run(Effect.flatMap(ProxyHealth, (h) => h.tick))

  it("checks once per tick across the replicas, and both answer the verdict", async () => {
    const made = await owner.post("/workspaceproxies", { name: "fra" })
    expect(made.status).toBe(201)
    const reg = await a.anonymous.request("POST", "/workspaceproxies/me/register", {
      access_url: proxyUrl,
      replica_id: "11111111-2222-4333-8444-555555555555"
    }, {
      headers: { "Coder-External-Proxy-Session-Token": made.body.proxy_token }
    })
    expect(reg.status).toBe(201)
    // Let the check registration started land.
    await new Promise((resolve) => setTimeout(resolve, 600))
    requests = 0

    const [ta, tb] = await Promise.all([tick(a), tick(b)])
    expect([ta.ran, tb.ran].filter(Boolean)).toHaveLength(1)
    expect(requests).toBe(1)
    const viaB = b.anonymous.as(owner.token)
    expect((await owner.get(`/workspaceproxies/${made.body.proxy.id}`)).body.status.status).toBe("ok")
    expect((await viaB.get(`/workspaceproxies/${made.body.proxy.id}`)).body.status.status).toBe("ok")

    status = 500
    expect((await tick(b)).ran).toBe(true)
    expect(requests).toBe(2)
    expect((await owner.get(`/workspaceproxies/${made.body.proxy.id}`)).body.status.status).toBe("unhealthy")
    expect((await viaB.get(`/workspaceproxies/${made.body.proxy.id}`)).body.status.status).toBe("unhealthy")
    expect((await owner.get("/regions")).body.regions.find((r: { id: string }) => r.id === made.body.proxy.id).healthy)
      .toBe(false)
  })
})
