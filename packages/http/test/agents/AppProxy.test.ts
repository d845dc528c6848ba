/**
 * Path-based web apps (`/@owner/workspace[.agent]/apps/slug/...`) for real: a real server, the
 * reference agent (its library, in-process) connected over a real WebSocket with its token, and a
 * tiny HTTP app on localhost that only the agent reaches. Requests go through the agent's
 * connection and back; each app session's open shows in the connection log; sharing levels,
 * 401, 403, 404 and 502 answer with the Response object.
 */
import { type RunningAgent, startAgent } from "@workbay/agent"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createOrganization,
  createUser,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  type TestUser
} from "../support.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"

/**
 * A tiny app: echoes what it received; `/big` answers 300,000 bytes; `/status/<n>` answers n;
 * `/slow` sends one piece and then waits (`slowClosed` counts the ones whose client went away).
 */
const startApp = async () => {
  const slow = { closed: 0 }
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const url = req.url ?? "/"
      if (url === "/slow") {
        res.writeHead(200, { "content-type": "text/plain" })
        res.write("first piece\n")
        res.on("close", () => void slow.closed++)
        return
      }
      if (url === "/huge") {
        res.writeHead(200, { "content-type": "application/octet-stream" })
        return res.end(Buffer.alloc(17 * 1024 * 1024, 1))
      }
      if (url === "/big") {
        res.writeHead(200, { "content-type": "application/octet-stream" })
        return res.end(Buffer.alloc(300_000, 7))
      }
      const status = /^\/status\/(\d+)$/.exec(url)
      res.setHeader("set-cookie", ["a=1; Path=/", "b=2; Path=/", "service_session_token=stolen; Path=/"])
      res.writeHead(status ? Number(status[1]) : 200, { "content-type": "application/json", "x-app": "tiny" })
      res.end(
        JSON.stringify({ method: req.method, url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
      )
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return { server, port: (server.address() as AddressInfo).port, slow }
}

const template = (port: number) =>
  `resources:
  - name: laptop
    type: machine
    agents:
      - name: dev
        external: true
        apps:
          - slug: web
            url: http://127.0.0.1:${port}
          - slug: shared
            url: http://127.0.0.1:${port}/base/
            sharing_level: authenticated
          - slug: team
            url: http://127.0.0.1:${port}
            sharing_level: organization
          - slug: open
            url: http://127.0.0.1:${port}
            sharing_level: public
          - slug: tool
            command: echo hi
          - slug: down
            url: http://127.0.0.1:1
          - slug: sick
            url: http://127.0.0.1:${port}
            healthcheck: { url: "http://127.0.0.1:1/nothing", interval: 1, threshold: 1 }
`

const eventually = async (check: () => Promise<boolean>, what: string, ms = 15_000) => {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

interface Deployment {
  srv: ServiceTestServer
  owner: Client
  orgId: string
  dev: TestUser
  other: TestUser
  templateAdmin: TestUser
  workspace: { id: string; name: string }
  agentId: string
  agent: RunningAgent
  /** The URL of an app path of dev's workspace. */
  app: (slug: string, rest?: string, workspace?: string) => string
}

describe("path-based web apps through the agent connection", () => {
  let tiny: Awaited<ReturnType<typeof startApp>>
  const dirs: Array<string> = []
  const deployments: Array<Deployment> = []

  /** A server with `settings`, dev's workspace on the template above, and the reference agent connected. */
  const deploy = async (settings: Record<string, unknown> = {}): Promise<Deployment> => {
    const { srv, owner, orgId } = await startWithOwner({ lifecycle: false, settings })
    const dev = await createUser(owner, { username: "app-dev" })
    const other = await createUser(owner, { username: "app-other" })
    const templateAdmin = await createUser(owner, { username: "app-tadmin", roles: ["template-admin"] })
    const t = await makeTemplate(srv, owner, orgId, template(tiny.port))
    const workspace = await makeWorkspace(srv, dev.client, orgId, t.id)
    const agentId =
      (workspace.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) => a.name === "dev")
        .id
    const credentials = await dev.client.get(`/workspaces/${workspace.id}/external-agent/dev/credentials`)
    expect(credentials.status).toBe(200)
    const dir = mkdtempSync(join(tmpdir(), "workbay-app-proxy-"))
    dirs.push(dir)
    const agent = await startAgent({
      url: srv.url,
      token: credentials.body.agent_token,
      auth: "token",
      directory: dir,
      logDir: dir,
      log: () => {}
    })
    await agent.started
    await eventually(
      async () => (await dev.client.get(`/workspaceagents/${agentId}`)).body.status === "connected",
      "the agent connects"
    )
    const d: Deployment = {
      srv,
      owner,
      orgId,
      dev,
      other,
      templateAdmin,
      workspace,
      agentId,
      agent,
      app: (slug, rest = "/", name = workspace.name) => `${srv.url}/@app-dev/${name}/apps/${slug}${rest}`
    }
    deployments.push(d)
    return d
  }

  const as = (user: TestUser | Client | undefined, init: RequestInit = {}): RequestInit => {
    const token = user === undefined ? undefined : "client" in user ? user.client.token : user.token
    return {
      ...init,
      redirect: "manual",
      headers: { ...(token ? { [SESSION_HEADER]: token } : {}), ...(init.headers as Record<string, string>) }
    }
  }

  const expectResponse = async (res: Response, status: number, message?: RegExp) => {
    expect(res.status).toBe(status)
    const body = await res.json() as { message: string; detail?: string }
    expect(typeof body.message).toBe("string")
    if (message !== undefined) expect(body.message).toMatch(message)
    return body
  }

  let main: Deployment
  beforeAll(async () => {
    tiny = await startApp()
    main = await deploy()
  })
  afterAll(async () => {
    for (const d of deployments) {
      await d.agent.stop()
      await d.srv.close()
    }
    tiny.server.close()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it("carries a request through the agent to its app and the answer back, without the caller's credentials", async () => {
    const res = await fetch(
      main.app("web", "/hello/world?x=1&y=2"),
      as(main.dev, {
        headers: { cookie: `service_session_token=${main.dev.client.token}; theme=dark`, "x-custom": "yes" }
      })
    )
    expect(res.status).toBe(200)
    expect(res.headers.get("x-app")).toBe("tiny")
    // The app's cookies pass, but not one that would replace the caller's session.
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"])
    const seen = await res.json() as { method: string; url: string; headers: Record<string, string> }
    expect(seen.method).toBe("GET")
    expect(seen.url).toBe("/hello/world?x=1&y=2")
    expect(seen.headers["x-custom"]).toBe("yes")
    // The service's credentials stay with the service; the app's own cookies pass.
    expect(seen.headers[SESSION_HEADER.toLowerCase()]).toBeUndefined()
    expect(seen.headers.cookie).toBe("theme=dark")
    expect(seen.headers["x-forwarded-for"]).toBe("127.0.0.1")
    expect(seen.headers["x-forwarded-host"]).toBe(new URL(main.srv.url).host)
  })

  it("carries bodies both ways, statuses as the app answers, and the app's own path under its URL", async () => {
    const posted = await fetch(
      main.app("web", "/submit"),
      as(main.dev, { method: "POST", body: "name=workbay", headers: { "content-type": "text/plain" } })
    )
    expect(posted.status).toBe(200)
    expect(await posted.json()).toMatchObject({ method: "POST", url: "/submit", body: "name=workbay" })
    const big = await fetch(main.app("web", "/big"), as(main.dev))
    expect(big.status).toBe(200)
    const bytes = new Uint8Array(await big.arrayBuffer())
    expect(bytes.length).toBe(300_000)
    expect(bytes.every((b) => b === 7)).toBe(true)
    expect((await fetch(main.app("web", "/status/418"), as(main.dev))).status).toBe(418)
    // An app whose URL has a path: the request's path goes under it.
    const based = await fetch(`${main.srv.url}/@app-dev/${main.workspace.name}.dev/apps/shared/x`, as(main.dev))
    expect(await based.json()).toMatchObject({ url: "/base/x" })
    // `me` names the caller.
    expect((await fetch(`${main.srv.url}/@me/${main.workspace.name}/apps/web/`, as(main.dev))).status).toBe(200)
  })

  it("redirects the app's path without its trailing slash", async () => {
    const res = await fetch(main.app("web", "?a=1"), as(main.dev))
    expect(res.status).toBe(307)
    expect(res.headers.get("location")).toBe(`/@app-dev/${main.workspace.name}/apps/web/?a=1`)
  })

  it("records one connection log entry per app session, with the user, ip, user agent and status", async () => {
    const d = await deploy()
    for (let i = 0; i < 3; i++) {
      expect((await fetch(d.app("web", `/page/${i}`), as(d.dev, { headers: { "user-agent": "browser-1" } }))).status)
        .toBe(200)
    }
    expect((await fetch(d.app("web", "/status/404"), as(d.dev, { headers: { "user-agent": "browser-1" } }))).status)
      .toBe(404)
    expect((await fetch(d.app("web"), as(d.dev, { headers: { "user-agent": "browser-2" } }))).status).toBe(200)
    const log = await d.owner.get(`/connectionlog?limit=50`)
    expect(log.status).toBe(200)
    const apps = (log.body.connection_logs as Array<any>).filter((e) => e.type === "workspace_app")
    expect(apps).toHaveLength(3)
    const byAgentOf = (ua: string, status: number) =>
      apps.filter((e) => e.web_info.user_agent === ua && e.web_info.status_code === status)
    expect(byAgentOf("browser-1", 200)).toHaveLength(1)
    expect(byAgentOf("browser-1", 404)).toHaveLength(1)
    expect(byAgentOf("browser-2", 200)).toHaveLength(1)
    expect(byAgentOf("browser-1", 200)[0]).toMatchObject({
      workspace_id: d.workspace.id,
      workspace_name: d.workspace.name,
      agent_name: "dev",
      ip: "127.0.0.1",
      workspace_owner_id: d.dev.user.id,
      workspace_owner_username: "app-dev",
      web_info: { slug_or_port: "web", status_code: 200, user: { id: d.dev.user.id, username: "app-dev" } }
    })
    expect(byAgentOf("browser-1", 200)[0].ssh_info).toBeUndefined()
  })

  it("401 without a session for an app that is not public; a bad token is 401 too", async () => {
    await expectResponse(await fetch(main.app("web"), as(undefined)), 401, /logged in/)
    await expectResponse(
      await fetch(main.app("web"), as(undefined, { headers: { [SESSION_HEADER]: "nope-nope" } })),
      401
    )
    // An agent's token is not a user's session.
    await expectResponse(
      await fetch(main.app("web"), as(undefined, { headers: { [SESSION_HEADER]: crypto.randomUUID() } })),
      401
    )
    await expectResponse(await fetch(`${main.srv.url}/@me/${main.workspace.name}/apps/web/`, as(undefined)), 401)
  })

  it("path apps are the owner's alone by default: 404 for another member, 403 for who may read the workspace", async () => {
    await expectResponse(await fetch(main.app("web"), as(main.other)), 404, /Workspace not found/)
    await expectResponse(await fetch(main.app("shared"), as(main.other)), 404)
    const refused = await expectResponse(await fetch(main.app("shared"), as(main.templateAdmin)), 403, /may not open/)
    expect(refused.detail).toMatch(/only the workspace's owner/)
    // A site owner too, without dangerousAllowPathAppSiteOwnerAccess.
    await expectResponse(await fetch(main.app("web"), as(main.owner)), 403)
    // A public app too: without sharing allowed every path app counts as the owner's.
    await expectResponse(await fetch(main.app("open"), as(undefined)), 401)
    expect((await fetch(main.app("open"), as(main.dev))).status).toBe(200)
  })

  it("with path app sharing allowed, each app's sharing level decides", async () => {
    const d = await deploy({ dangerousAllowPathAppSharing: true })
    // A user of another organization only: any signed-in user, but not the workspace's organization.
    const elsewhere = await createOrganization(d.owner)
    const outsider = await createUser(d.owner, { username: "app-outsider", organization_ids: [elsewhere.id] })
    expect((await fetch(d.app("shared"), as(d.other))).status).toBe(200)
    expect((await fetch(d.app("shared"), as(outsider))).status).toBe(200)
    expect((await fetch(d.app("team"), as(d.other))).status).toBe(200)
    await expectResponse(await fetch(d.app("team"), as(outsider)), 404)
    expect((await fetch(d.app("open"), as(undefined))).status).toBe(200)
    await expectResponse(await fetch(d.app("web"), as(d.other)), 404)
    await expectResponse(await fetch(d.app("team"), as(undefined)), 401)
    // An owner-level app stays the owner's, site owners included.
    await expectResponse(await fetch(d.app("web"), as(d.owner)), 403)
    const log = await d.owner.get(`/connectionlog?limit=50`)
    const anonymous = (log.body.connection_logs as Array<any>).find((e) => e.web_info?.slug_or_port === "open")
    expect(anonymous.web_info).toMatchObject({ status_code: 200, user: null })
  })

  it("404 for an unknown app, agent, workspace or owner; 400 for an app that is not served on a path", async () => {
    await expectResponse(await fetch(main.app("nothing"), as(main.dev)), 404, /Workspace app not found/)
    await expectResponse(
      await fetch(`${main.srv.url}/@app-dev/${main.workspace.name}.ghost/apps/web/`, as(main.dev)),
      404,
      /agent not found/
    )
    await expectResponse(
      await fetch(main.app("web", "/", "no-such-workspace"), as(main.dev)),
      404,
      /Workspace not found/
    )
    await expectResponse(await fetch(`${main.srv.url}/@nobody/${main.workspace.name}/apps/web/`, as(main.dev)), 404)
    await expectResponse(await fetch(`${main.srv.url}/@app-dev/%E0%A4%A/apps/web/`, as(main.dev)), 404)
    await expectResponse(await fetch(`${main.srv.url}/@app-dev`, as(main.dev)), 404)
    await expectResponse(await fetch(main.app("tool"), as(main.dev)), 400, /not a web app/)
  })

  it("502 with the Response object when the agent is not connected or the app is unhealthy", async () => {
    await eventually(async () => {
      const agent = (await main.dev.client.get(`/workspaceagents/${main.agentId}`)).body
      return agent.apps.find((a: any) => a.slug === "sick").health === "unhealthy"
    }, "the failing health check")
    await expectResponse(await fetch(main.app("sick"), as(main.dev)), 502, /not healthy/)
    // The agent could not reach the app: its error is the detail.
    const down = await expectResponse(await fetch(main.app("down"), as(main.dev)), 502, /did not answer/)
    expect(down.detail).toMatch(/ECONNREFUSED/)
    const t = await makeTemplate(main.srv, main.owner, main.orgId, template(tiny.port))
    const idle = await makeWorkspace(main.srv, main.dev.client, main.orgId, t.id)
    const body = await expectResponse(await fetch(main.app("web", "/", idle.name), as(main.dev)), 502, /not connected/)
    expect(body.detail).toBeDefined()
  })

  it("streams the answer as it comes, and a client that leaves cancels the request at the app", async () => {
    const controller = new AbortController()
    const res = await fetch(main.app("web", "/slow"), as(main.dev, { signal: controller.signal }))
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toBe("first piece\n")
    const before = tiny.slow.closed
    controller.abort()
    await eventually(async () => tiny.slow.closed > before, "the app sees its client go")
  })

  it("a request in flight when the agent's connection ends is cut; the next answers 502", async () => {
    const d = await deploy()
    const res = await fetch(d.app("web", "/slow"), as(d.dev))
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    await reader.read()
    await d.agent.stop()
    await expect((async () => {
      for (;;) if ((await reader.read()).done) return "ended"
    })()).rejects.toThrow()
    await expectResponse(await fetch(d.app("web"), as(d.dev)), 502, /not connected/)
  })

  it("passes the trusted proxy headers on from a trusted proxy only (the described system's FilterUntrustedOriginHeaders)", async () => {
    const d = await deploy({ proxyTrustedHeaders: ["X-Forwarded-For"], proxyTrustedOrigins: ["10.0.0.0/8"] })
    const headers = { [SESSION_HEADER]: d.dev.client.token!, "x-forwarded-for": "198.51.100.9" }
    const seenBy = async (remoteAddress: string) => {
      const res = await d.srv.web(new Request(d.app("web", "/who"), { headers }), { remoteAddress })
      expect(res.status).toBe(200)
      return ((await res.json()) as { headers: Record<string, string> }).headers["x-forwarded-for"]
    }
    // A client that names another address is passed on as itself.
    expect(await seenBy("192.0.2.7")).toBe("192.0.2.7")
    // A trusted proxy's list is kept.
    expect(await seenBy("10.0.0.1")).toBe("198.51.100.9")
  })

  it("the Fetch handler serves app paths too: the answer streamed, a refusal as the Response object, a cancel reaching the app", async () => {
    const headers = { [SESSION_HEADER]: main.dev.client.token!, "x-forwarded-for": "10.1.2.3" }
    const res = await main.srv.web(
      new Request(main.app("web", "/via-fetch?q=1"), { method: "POST", body: "hi", headers })
    )
    expect(res.status).toBe(200)
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"])
    expect(await res.json()).toMatchObject({
      method: "POST",
      url: "/via-fetch?q=1",
      body: "hi",
      headers: { "x-forwarded-for": "10.1.2.3" }
    })
    await expectResponse(await main.srv.web(new Request(main.app("web"))), 401)
    expect((await main.srv.web(new Request(main.app("web", "")))).status).toBe(307)
    const slow = await main.srv.web(new Request(main.app("web", "/slow"), { headers }))
    const reader = slow.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first piece\n")
    const before = tiny.slow.closed
    await reader.cancel()
    await eventually(async () => tiny.slow.closed > before, "the app sees its client go")
  })

  it("cuts an answer past 16 MiB", async () => {
    const res = await fetch(main.app("web", "/huge"), as(main.dev))
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let received = 0
    const outcome = await (async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return "complete"
        received += value.length
      }
    })().catch(() => "cut")
    expect(outcome).toBe("cut")
    expect(received).toBeLessThanOrEqual(16 * 1024 * 1024)
    // The agent's connection still serves.
    expect((await fetch(main.app("web", "/after"), as(main.dev))).status).toBe(200)
  })

  it("413 for a request body over the limit", async () => {
    const res = await fetch(
      main.app("web", "/upload"),
      as(main.dev, { method: "POST", body: Buffer.alloc(1024 * 1024 + 1) })
    )
    await expectResponse(res, 413)
  })
})
