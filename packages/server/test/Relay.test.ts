/**
 * Every replica reaches every agent (docs/agents.md, "Several replicas"): two standalone server
 * processes on one fresh Postgres database. An agent's connection is held by replica B; a client
 * opens a tunnel through replica A, which relays the request to B's relay address; the agent opens
 * its end of the stream back through A, which relays it to B. Bytes go both ways through both
 * relays, which each replica's socket relay carries. `GET /replicas` lists both, with their relay addresses. The agent here is a small test
 * agent on a real WebSocket (the reference agent's streams are tested end to end in
 * packages/agent); what is under test is the service's relay.
 */
import { execFileSync } from "node:child_process"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import WebSocket from "ws"
import { connect, refusal } from "../../http/test/websocket.js"
import { firstOwnerSession } from "./owner.js"
import { freshDatabase, type ServerProcess, startServerProcess } from "./process.js"
import { call, makeTemplate, SESSION_HEADER, until } from "./workload.js"

const url = inject("workbayPgUrl")

const EXTERNAL = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        external: true
`

/** The socket relay's process a server started (its bundle beside the server's). */
const relayOf = (server: ServerProcess): Array<string> => {
  try {
    return execFileSync("pgrep", ["-P", String(server.child.pid), "-f", "socket-relay"], { encoding: "utf8" })
      .split("\n").filter((line) => line !== "")
  } catch {
    return []
  }
}

describe.skipIf(url === null)("streams relayed between replicas on one Postgres", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let a: ServerProcess
  let b: ServerProcess
  let token: string

  beforeAll(async () => {
    db = await freshDatabase(url!)
    const env = { DATABASE_URL: db.url }
    a = await startServerProcess(["--provisioner-daemons", "1"], env)
    b = await startServerProcess(["--provisioner-daemons", "0"], env)
    token = await firstOwnerSession(a.url)
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await db?.drop()
  })

  it("lists both replicas with their relay addresses", async () => {
    const r = await call(a.url, token, "GET", "/replicas")
    expect(r.status).toBe(200)
    expect(r.body.map((x: any) => x.relay_address).sort()).toEqual([a.url, b.url].sort())
    expect(r.body[0]).toMatchObject({ hostname: expect.any(String), region_id: 0, error: "" })
    expect((await call(a.url, "", "GET", "/replicas")).status).toBe(401)
  })

  it("a tunnel through replica A reaches the agent connected to replica B, both ways", async () => {
    const { orgId, templateId } = await makeTemplate(a.url, token, EXTERNAL)
    const created = await call(a.url, token, "POST", `/organizations/${orgId}/members/me/workspaces`, {
      name: "relayed",
      template_id: templateId
    })
    expect(created.status).toBe(200)
    const built = await until(
      () => call(a.url, token, "GET", `/workspaces/${created.body.id}`),
      (r) => r.body.latest_build.job.status === "succeeded"
    )
    const agentId: string = built.body.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0].id
    const credentials = await call(
      a.url,
      token,
      "GET",
      `/workspaces/${created.body.id}/external-agent/main/credentials`
    )
    const agentToken: string = credentials.body.agent_token

    // The agent connects to B; it opens each stream's end through A (a load balancer's choice).
    const rpc = await connect(`${b.url.replace("http", "ws")}/api/v2/workspaceagents/me/rpc`, {
      [SESSION_HEADER]: agentToken
    })
    const asked: Array<any> = []
    rpc.socket.on("message", (data) => {
      const message = JSON.parse(data.toString())
      if (message.type !== "stream_open") return
      asked.push(message)
      const end = new WebSocket(new URL(message.path, a.url.replace("http", "ws")).toString(), {
        headers: { [SESSION_HEADER]: agentToken }
      })
      end.on("error", () => undefined)
      end.on(
        "message",
        (d, isBinary) => end.send(Buffer.concat([Buffer.from("echo:"), d as Buffer]), { binary: isBinary })
      )
    })
    await until(
      () => call(a.url, token, "GET", `/workspaceagents/${agentId}`),
      (r) => r.body.status === "connected"
    )

    const client = await connect(`${a.url.replace("http", "ws")}/api/v2/workspaceagents/${agentId}/tunnel?port=22`, {
      [SESSION_HEADER]: token
    })
    const payloads = [Buffer.from("one"), Buffer.alloc(16 * 1024, 1), Buffer.from("three")]
    const received: Array<Buffer> = []
    const all = new Promise<void>((resolve) =>
      client.socket.on("message", (d) => {
        received.push(d as Buffer)
        if (received.length === payloads.length) resolve()
      })
    )
    for (const p of payloads) client.socket.send(p)
    await all
    expect(received.map((r) => r.toString("base64"))).toEqual(
      payloads.map((p) => Buffer.concat([Buffer.from("echo:"), p]).toString("base64"))
    )
    // B asked the agent, naming itself as the replica that waits, and the client's address as A saw it.
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatchObject({ kind: "tcp", port: 22, remote_address: "127.0.0.1" })
    // Carried by each replica's socket relay (docs/agents.md, "The socket relay"), not its own process:
    // A pipes both relayed requests, B joins the two ends.
    for (const replica of [a, b]) expect(relayOf(replica)).toHaveLength(1)
    const replicas = (await call(a.url, token, "GET", "/replicas")).body
    const bId = replicas.find((r: any) => r.relay_address === b.url).id
    expect(asked[0].path).toContain(`replica=${bId}`)
    client.socket.close(1000)
    expect((await client.closed).code).toBe(1000)

    // A client of another user is refused by A before any relay.
    const nobody = await refusal(connect(`${a.url.replace("http", "ws")}/api/v2/workspaceagents/${agentId}/ssh`))
    expect(nobody.status).toBe(401)
    rpc.socket.close()
  })
})
