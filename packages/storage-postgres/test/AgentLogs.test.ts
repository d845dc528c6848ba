/**
 * Following an agent's logs across replicas: two services on one Postgres schema. A WebSocket
 * follower on replica A receives the lines the agent sends through replica B, by LISTEN/NOTIFY
 * (well within the 10-second fallback re-read).
 */
import { ProvisionerWorkers } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { recordingProvisioner, REPORTS_TEMPLATE } from "../../http/test/agents/fixtures.js"
import { bootstrapOwner, Client } from "../../http/test/support.js"
import { connect, eventually, startWsServer, type WsTestServer } from "../../http/test/websocket.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("following agent logs across replicas on Postgres", () => {
  let a: WsTestServer
  let b: WsTestServer
  const handed = new Map<string, Map<string, string>>()
  beforeAll(async () => {
    const schema = `g_${randomBytes(6).toString("hex")}`
    const options = {
      provisioners: [recordingProvisioner(["main", "side"], handed)],
      hangDetector: false,
      retention: false,
      lifecycle: false
    } as const
    a = await startWsServer([], [], { storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
    b = await startWsServer([], [], { storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  it("the follower on replica A sees the lines the agent sends through replica B", async () => {
    const boot = await bootstrapOwner(a as any)
    const owner = boot.client
    // These servers start no workers: replica A runs the queued jobs whenever the fixtures look.
    const drained = {
      ...a,
      run: async (effect: any) => (await a.run(Effect.flatMap(ProvisionerWorkers, (w) => w.drain())), a.run(effect))
    }
    const template = await makeTemplate(drained as any, owner, boot.organizationId, REPORTS_TEMPLATE)
    const w = await makeWorkspace(drained as any, owner, boot.organizationId, template.id)
    const main = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
      a.name === "main"
    )
    const agentOnB = new Client(`${b.url}/api/v2`, handed.get(w.id)!.get("main")!)
    const source = main.scripts[0].log_source_id
    const send = (output: string) =>
      agentOnB.patch("/workspaceagents/me/logs", {
        log_source_id: source,
        logs: [{ created_at: new Date().toISOString(), level: "info", output }]
      })
    expect((await send("before")).status).toBe(200)
    const ws = await connect(`${a.wsUrl}/api/v2/workspaceagents/${main.id}/logs?follow=true`, {
      "Service-Session-Token": owner.token!
    })
    await eventually(() => ws.messages.length === 1)
    const t0 = Date.now()
    expect((await send("from b")).status).toBe(200)
    await eventually(() => ws.messages.length === 2)
    // A signal, not the 10-second fallback read.
    expect(Date.now() - t0).toBeLessThan(2000)
    // Each message is an array of lines (WorkspaceAgentLog[]), as the described system sends them.
    expect(ws.messages.flatMap((m) => (JSON.parse(m) as Array<{ output: string }>).map((l) => l.output))).toEqual([
      "before",
      "from b"
    ])
    ws.socket.close()
  })
})
