/**
 * Web apps and listening ports relayed between replicas (docs/agents.md, "Several replicas"): two
 * standalone server processes on one fresh Postgres database. A test agent on a real WebSocket is
 * connected to replica B and carries app requests to a small HTTP server of the test's (its
 * `app_request` frames answered with `app_response`, `app_body`, `app_end`, as "Web apps"
 * describes) and answers `listening_ports_request`. A client asks replica A, which relays to B:
 * the app's status, headers and body (100 KiB, byte for byte), a POST body, one connection log
 * entry for the session; the agent's listening ports. Once B stops, A answers 502 at once.
 */
import { randomBytes } from "node:crypto"
import { createServer, request, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { sendToHost } from "../../http/test/applications/hostRequest.js"
import { connect } from "../../http/test/websocket.js"
import { firstOwnerSession } from "./owner.js"
import { freshDatabase, type ServerProcess, startServerProcess } from "./process.js"
import { call, makeTemplate, SESSION_HEADER, until } from "./workload.js"

const url = inject("workbayPgUrl")

/** The app's big answer, compared byte for byte after both relays (service → agent, replica → replica). */
const BIG = randomBytes(100 * 1024)

describe.skipIf(url === null)("apps and listening ports relayed between replicas on one Postgres", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let a: ServerProcess
  let b: ServerProcess
  let app: Server
  let token: string
  let agentId: string
  let appPath: string
  let agentToken: string
  let appPort: number
  let rpc: Awaited<ReturnType<typeof connect>> | undefined
  const portAsks: Array<string> = []

  /** The test agent, connected to the replica at `replicaUrl`: app requests performed against the local app, ports listed. */
  const connectAgent = async (replicaUrl: string) => {
    const socket = await connect(`${replicaUrl.replace("http", "ws")}/api/v2/workspaceagents/me/rpc`, {
      [SESSION_HEADER]: agentToken
    })
    const send = (m: unknown) => socket.socket.send(JSON.stringify(m))
    socket.socket.on("message", (data) => {
      const m = JSON.parse(data.toString())
      if (m.type === "listening_ports_request") {
        portAsks.push(m.request_id)
        return send({
          type: "listening_ports",
          request_id: m.request_id,
          ports: [
            { process_name: "dev-server", network: "tcp", port: 3000 },
            { process_name: "sshd", network: "tcp", port: 22 },
            { process_name: "app", network: "tcp", port: appPort }
          ]
        })
      }
      if (m.type !== "app_request") return
      const headers: Record<string, Array<string>> = m.headers
      const req = request(m.url, { method: m.method, headers }, (res) => {
        send({ type: "app_response", request_id: m.request_id, status: res.statusCode, headers: res.headersDistinct })
        res.on("data", (chunk: Buffer) => {
          for (let i = 0; i < chunk.length; i += 16 * 1024) {
            send({
              type: "app_body",
              request_id: m.request_id,
              data: chunk.subarray(i, i + 16 * 1024).toString("base64")
            })
          }
        })
        res.on("end", () => send({ type: "app_end", request_id: m.request_id }))
      })
      req.on("error", (e) => send({ type: "app_end", request_id: m.request_id, error: e.message }))
      req.end(Buffer.from(m.body, "base64"))
    })
    return socket
  }

  beforeAll(async () => {
    app = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        if (req.url === "/big") {
          res.writeHead(200, { "content-type": "application/octet-stream", "x-app": "big" })
          return res.end(BIG)
        }
        res.writeHead(200, {
          "content-type": "text/plain",
          "x-app": "echo",
          "x-app-method": req.method ?? "",
          // What the app was told about the request, and whether any relay header reached it.
          "x-app-proto": String(req.headers["x-forwarded-proto"]),
          "x-app-relay-headers": Object.keys(req.headers).filter((h) => h.startsWith("x-workbay-")).join(",")
        })
        res.end(`${req.method} ${req.url} ${Buffer.concat(chunks).toString("utf8")}`)
      })
    })
    await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()))
    appPort = (app.address() as AddressInfo).port

    db = await freshDatabase(url!)
    const env = { DATABASE_URL: db.url }
    // A wildcard app host: subdomain apps are relayed the same way (their host names the app on B too).
    a = await startServerProcess(["--provisioner-daemons", "1", "--wildcard-access-url", "*.apps.test"], env)
    b = await startServerProcess(["--provisioner-daemons", "0", "--wildcard-access-url", "*.apps.test"], env)
    token = await firstOwnerSession(a.url)

    const { orgId, templateId } = await makeTemplate(
      a.url,
      token,
      `resources:
  - name: box
    type: machine
    agents:
      - name: main
        external: true
        apps:
          - slug: web
            url: http://127.0.0.1:${appPort}
          - slug: sub
            url: http://127.0.0.1:${appPort}
            subdomain: true
`
    )
    const created = await call(a.url, token, "POST", `/organizations/${orgId}/members/me/workspaces`, {
      name: "apps",
      template_id: templateId
    })
    expect(created.status).toBe(200)
    const built = await until(
      () => call(a.url, token, "GET", `/workspaces/${created.body.id}`),
      (r) => r.body.latest_build.job.status === "succeeded"
    )
    agentId = built.body.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0].id
    const credentials = await call(
      a.url,
      token,
      "GET",
      `/workspaces/${created.body.id}/external-agent/main/credentials`
    )
    appPath = `/@admin/apps/apps/web`

    agentToken = credentials.body.agent_token
    rpc = await connectAgent(b.url)
    await until(
      () => call(a.url, token, "GET", `/workspaceagents/${agentId}`),
      (r) => r.body.status === "connected"
    )
  })
  afterAll(async () => {
    rpc?.socket.close()
    await Promise.all([a?.stop(), b?.stop()])
    await db?.drop()
    app?.close()
  })

  it("an app through replica A is carried by replica B, which holds the agent; one connection log entry", async () => {
    const headers = { [SESSION_HEADER]: token }
    const big = await fetch(`${a.url}${appPath}/big`, { headers })
    expect(big.status).toBe(200)
    expect(big.headers.get("x-app")).toBe("big")
    expect(big.headers.get("content-type")).toBe("application/octet-stream")
    const bytes = Buffer.from(await big.arrayBuffer())
    expect(bytes.length).toBe(BIG.length)
    expect(bytes.equals(BIG)).toBe(true)

    const posted = await fetch(`${a.url}${appPath}/echo?x=1`, {
      method: "POST",
      headers: { ...headers, "content-type": "text/plain" },
      body: "hello from the client"
    })
    expect(posted.status).toBe(200)
    expect(posted.headers.get("x-app-method")).toBe("POST")
    // The relay's headers (its secret) never reach the app; the scheme is the client's, as A saw it.
    expect(posted.headers.get("x-app-relay-headers")).toBe("")
    expect(posted.headers.get("x-app-proto")).toBe("http")
    expect(await posted.text()).toBe("POST /echo?x=1 hello from the client")

    // The session cookie works through the relay too (B authenticates the request again).
    const byCookie = await fetch(`${a.url}${appPath}/echo`, { headers: { cookie: `service_session_token=${token}` } })
    expect(byCookie.status).toBe(200)
    // No credentials: A refuses before any relay.
    expect((await fetch(`${a.url}${appPath}/echo`)).status).toBe(401)

    // One session (the owner, 127.0.0.1, the same user agent, 200): one entry, written by B only.
    await new Promise((r) => setTimeout(r, 300))
    const log = await call(a.url, token, "GET", "/connectionlog?limit=50")
    const apps = (log.body.connection_logs as Array<any>).filter((e) => e.type === "workspace_app")
    expect(apps.map((e) => ({ slug: e.web_info.slug_or_port, status: e.web_info.status_code }))).toEqual(
      expect.arrayContaining([{ slug: "web", status: 200 }])
    )
    expect(apps.filter((e) => e.web_info.status_code === 200)).toHaveLength(1)
    expect(apps[0].ip).toBe("127.0.0.1")
  })

  it("a subdomain app through replica A is carried by replica B, with the app session cookie A's exchange set", async () => {
    const host = "sub--main--apps--admin.apps.test"
    /** One request to A with this `Host`. */
    const toA = (path: string, headers: Record<string, string> = {}) => sendToHost(a.url, host, path, { headers })
    const byHeader = await toA("/echo?x=1", { [SESSION_HEADER]: token })
    expect(byHeader.status, byHeader.text).toBe(200)
    expect(byHeader.text).toBe("GET /echo?x=1 ")
    expect(byHeader.headers["x-app-relay-headers"]).toBe("")
    // The browser's exchange, all on A: 303 to auth-redirect, the key, the cookie; B takes the cookie.
    const first = await toA("/echo")
    expect(first.status).toBe(303)
    const handed = await fetch(String(first.headers.location), {
      headers: { [SESSION_HEADER]: token },
      redirect: "manual"
    })
    expect(handed.status).toBe(307)
    const back = new URL(handed.headers.get("location")!)
    const exchanged = await toA(back.pathname + back.search)
    expect(exchanged.status).toBe(307)
    const cookie = String(exchanged.headers["set-cookie"]?.[0]).split(";")[0]!
    const byCookie = await toA("/echo", { cookie })
    expect(byCookie.status, byCookie.text).toBe(200)
    expect(byCookie.text).toBe("GET /echo ")
  })

  it("listening ports through replica A are asked of the agent on replica B", async () => {
    const before = portAsks.length
    const r = await call(a.url, token, "GET", `/workspaceagents/${agentId}/listening-ports`)
    expect(r.status).toBe(200)
    // 22 is an ignored port, the app's port is shown as the app.
    expect(r.body).toEqual({ ports: [{ process_name: "dev-server", network: "tcp", port: 3000 }] })
    expect(portAsks.length).toBe(before + 1)
    // Refusals come from A itself, before any relay.
    expect((await call(a.url, "", "GET", `/workspaceagents/${agentId}/listening-ports`)).status).toBe(401)
  })

  it("once replica B is stopped (SIGTERM), A answers at once: the agent is not connected", async () => {
    await b.stop("SIGTERM")
    const started = Date.now()
    // B closed the agent's connection as it stopped, and recorded it.
    const viaApp = await fetch(`${a.url}${appPath}/echo`, { headers: { [SESSION_HEADER]: token } })
    expect(viaApp.status).toBe(502)
    expect(await viaApp.json()).toMatchObject({ message: "The workspace agent is not connected." })
    const ports = await call(a.url, token, "GET", `/workspaceagents/${agentId}/listening-ports`)
    expect(ports.status).toBe(400)
    expect(ports.body).toMatchObject({ message: "Agent state is not connected." })
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it("a holder that died without a word (SIGKILL) answers 502 through A at once (no hang)", async () => {
    const c = await startServerProcess(["--provisioner-daemons", "0"], { DATABASE_URL: db.url })
    try {
      rpc?.socket.close()
      rpc = await connectAgent(c.url)
      await until(
        () => call(a.url, token, "GET", `/workspaceagents/${agentId}`),
        (r) => r.body.status === "connected"
      )
      const headers = { [SESSION_HEADER]: token }
      const through = await until(() => fetch(`${a.url}${appPath}/echo`, { headers }), (r) => r.status === 200)
      expect(through.status).toBe(200)
      expect(await through.text()).toBe("GET /echo ")

      await c.stop("SIGKILL")
      // The agent's row still says connected, C's row is still fresh: A relays, and cannot reach C.
      const started = Date.now()
      const viaApp = await fetch(`${a.url}${appPath}/echo`, { headers })
      expect(viaApp.status).toBe(502)
      expect(await viaApp.json()).toMatchObject({
        message: "The replica that holds the workspace agent's connection cannot be reached.",
        detail: expect.stringContaining(c.url)
      })
      const ports = await call(a.url, token, "GET", `/workspaceagents/${agentId}/listening-ports`)
      expect(ports.status).toBe(502)
      expect(ports.body).toMatchObject({
        message: "The replica that holds the workspace agent's connection cannot be reached."
      })
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      await c.stop("SIGKILL")
    }
  })
})
