/**
 * Path-based web apps across replicas on Postgres: the reference agent connected to replica B
 * carries B's requests; replica A, which does not hold the agent's connection and has no relay
 * address to send the request to (these in-process servers register none), answers 502 with the
 * documented message (docs/agents.md, "Several replicas"). Both opens show in the one connection
 * log. Then the agent moves to replica C, which registers a relay address: A's Fetch handler relays
 * the request to C and its Response streams C's answer. The relay is tested with real server
 * processes too (packages/server/test/RelayApps.test.ts, the Node handler).
 */
import { type RunningAgent, startAgent } from "@workbay/agent"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import {
  bootstrapOwner,
  type Client,
  type ServiceTestServer,
  SESSION_HEADER,
  startServiceTestServer
} from "../../http/test/support.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("web apps across replicas on Postgres", () => {
  let a: ServiceTestServer
  let b: ServiceTestServer
  let c: ServiceTestServer | undefined
  let path: string
  let agentToken: string
  let schema: string
  let owner: Client
  let orgId: string
  let app: Server
  let agent: RunningAgent | undefined
  const dir = mkdtempSync(join(tmpdir(), "workbay-pg-apps-"))
  beforeAll(async () => {
    app = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (d: Buffer) => chunks.push(d))
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8")
        res.setHeader("x-app", "yes")
        res.end(`app saw ${req.url}${body === "" ? "" : ` ${req.method} ${body}`}`)
      })
    })
    await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()))
    schema = `t_${randomBytes(6).toString("hex")}`
    const options = { hangDetector: false, retention: false, lifecycle: false } as const
    a = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
    b = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
    ;({ client: owner, organizationId: orgId } = await bootstrapOwner(a))
  })
  afterAll(async () => {
    await agent?.stop()
    await a?.close()
    await b?.close()
    await c?.close()
    app?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it(
    "the replica holding the agent's connection carries the request; another, unable to relay, answers 502",
    { timeout: 60_000 },
    async () => {
      const port = (app.address() as AddressInfo).port
      const template = await makeTemplate(
        a,
        owner,
        orgId,
        `resources:
  - name: laptop
    type: machine
    agents:
      - name: dev
        external: true
        apps:
          - slug: web
            url: http://127.0.0.1:${port}
`
      )
      const w = await makeWorkspace(a, owner, orgId, template.id)
      const credentials = await owner.get(`/workspaces/${w.id}/external-agent/dev/credentials`)
      expect(credentials.status).toBe(200)
      agentToken = credentials.body.agent_token
      agent = await startAgent({
        url: b.url,
        token: agentToken,
        auth: "token",
        directory: dir,
        logDir: dir,
        log: () => {}
      })
      await agent.started
      path = `/@admin/${w.name}/apps/web/hello`
      const headers = { [SESSION_HEADER]: owner.token! }
      const viaB = await fetch(`${b.url}${path}`, { headers })
      expect(viaB.status).toBe(200)
      expect(await viaB.text()).toBe("app saw /hello")
      const viaA = await fetch(`${a.url}${path}`, { headers })
      expect(viaA.status).toBe(502)
      expect(await viaA.json()).toMatchObject({
        message: "The workspace agent is connected to another replica of the service, which cannot be reached."
      })
      // Each open is written before its answer.
      const entries = ((await owner.get("/connectionlog?limit=10")).body.connection_logs as Array<any>).filter((e) =>
        e.type === "workspace_app"
      )
      expect(entries.map((e) => e.web_info.status_code).sort()).toEqual([200, 502])
    }
  )

  it(
    "the Fetch handler relays to the replica holding the agent, and streams its answer",
    { timeout: 60_000 },
    async () => {
      const options = { hangDetector: false, retention: false, lifecycle: false, relayToHere: true } as const
      c = await startServiceTestServer({
        storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }),
        ...options
      })
      await agent?.stop()
      agent = await startAgent({
        url: c.url,
        token: agentToken,
        auth: "token",
        directory: dir,
        logDir: dir,
        log: () => {}
      })
      await agent.started
      const headers = { [SESSION_HEADER]: owner.token! }
      const viaC = await fetch(`${c.url}${path}`, { headers })
      expect(viaC.status).toBe(200)

      const viaA = await a.web(
        new Request(`${a.url}${path}?q=1`, {
          method: "POST",
          headers: { ...headers, "user-agent": "relayed-client" },
          body: "posted through A"
        }),
        { remoteAddress: "127.0.0.1" }
      )
      expect(viaA.status).toBe(200)
      expect(viaA.headers.get("x-app")).toBe("yes")
      expect(await viaA.text()).toBe("app saw /hello?q=1 POST posted through A")
      // C served the request and recorded its session (with the client's user agent); A did not.
      const entries = ((await owner.get("/connectionlog?limit=20")).body.connection_logs as Array<any>).filter((e) =>
        e.type === "workspace_app" && e.web_info.user_agent === "relayed-client"
      )
      expect(entries.map((e) => [e.web_info.status_code, e.ip])).toEqual([[200, "127.0.0.1"]])
    }
  )
})
