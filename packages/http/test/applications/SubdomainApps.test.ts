/**
 * Subdomain apps for real (docs/agents.md, "Subdomain apps"): a real server with a wildcard app
 * host, the reference agent (its library, in-process) connected over a real WebSocket, and a tiny
 * HTTP app on localhost that only the agent reaches. Requests name the app by their `Host`
 * (`{app}--{agent}--{workspace}--{user}.apps.test`, or `{port}--...` for a port); the session
 * exchange goes through the access URL's auth-redirect and ends in a host-only app cookie.
 */
import { type RunningAgent, startAgent } from "@workbay/agent"
import { ApiKeyRepo } from "@workbay/core"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  type TestUser
} from "../support.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { sendToHost } from "./hostRequest.js"

const WILDCARD = "*.apps.test"
const KEY_PARAM = "coder_application_connect_api_key"

/** A tiny app: echoes the request; sets cookies of its own and one named as the app session cookie. */
const startApp = async () => {
  const server = createServer((req, res) => {
    res.setHeader("set-cookie", ["mine=1; Path=/", `${appCookieName}=planted; Path=/`])
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers }))
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return { server, port: (server.address() as AddressInfo).port }
}

let appCookieName = ""

const template = (port: number) =>
  `resources:
  - name: laptop
    type: machine
    agents:
      - name: dev
        external: true
        apps:
          - slug: web
            url: http://127.0.0.1:${port}/base
            subdomain: true
          - slug: shared
            url: http://127.0.0.1:${port}
            subdomain: true
            sharing_level: authenticated
          - slug: open
            url: http://127.0.0.1:${port}
            subdomain: true
            sharing_level: public
          - slug: plain
            url: http://127.0.0.1:${port}
`

const eventually = async (check: () => Promise<boolean>, what: string, ms = 15_000) => {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** One request to the server with this `Host`. */
const send = (
  srv: ServiceTestServer,
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; upgrade?: boolean } = {}
) => sendToHost(srv.url, host, path, init)

describe("subdomain apps on the wildcard app host", () => {
  let srv: ServiceTestServer
  let owner: Client
  let dev: TestUser
  let other: TestUser
  let templateAdmin: TestUser
  let workspace: { id: string; name: string; latest_build: any }
  let agent: RunningAgent
  let tiny: Awaited<ReturnType<typeof startApp>>
  let dir: string
  let templateId: string
  /** The host of an app (or port) of dev's workspace. */
  const host = (slug: string, agentName = "dev") => `${slug}--${agentName}--${workspace.name}--app-dev.apps.test`
  const as = (user: TestUser | undefined): Record<string, string> =>
    user === undefined ? {} : { [SESSION_HEADER]: user.client.token ?? "" }

  /** The whole browser exchange for `user` on `appHost`: 303 to auth-redirect, its key, and the cookie it becomes. */
  const signIn = async (user: TestUser, appHost: string, path = "/") => {
    const first = await send(srv, appHost, path)
    expect(first.status, first.text).toBe(303)
    const redirect = new URL(first.headers.location as string)
    const handed = await fetch(redirect, { headers: as(user), redirect: "manual" })
    expect(handed.status).toBe(307)
    const back = new URL(handed.headers.get("location")!)
    const exchanged = await send(srv, appHost, back.pathname + back.search)
    expect(exchanged.status, exchanged.text).toBe(307)
    const cookie = (exchanged.headers["set-cookie"] as Array<string>)[0]!
    return { first, redirect, back, exchanged, cookie, pair: cookie.slice(0, cookie.indexOf(";")) }
  }

  beforeAll(async () => {
    tiny = await startApp()
    ;({ srv, owner } = await startWithOwner({ lifecycle: false, settings: { wildcardAccessUrl: WILDCARD } }))
    const { createHash } = await import("node:crypto")
    appCookieName = `coder_subdomain_app_session_token_${
      createHash("sha256").update(WILDCARD).digest("hex").slice(0, 32)
    }`
    const orgId = (await owner.get("/organizations")).body[0].id
    dev = await createUser(owner, { username: "app-dev" })
    other = await createUser(owner, { username: "app-other" })
    templateAdmin = await createUser(owner, { username: "app-tadmin", roles: ["template-admin"] })
    const t = await makeTemplate(srv, owner, orgId, template(tiny.port))
    templateId = t.id
    workspace = await makeWorkspace(srv, dev.client, orgId, t.id)
    const agentId = workspace.latest_build.resources.flatMap((r: any) =>
      r.agents ?? []
    ).find((a: any) => a.name === "dev").id
    const credentials = await dev.client.get(`/workspaces/${workspace.id}/external-agent/dev/credentials`)
    dir = mkdtempSync(join(tmpdir(), "workbay-subdomain-apps-"))
    agent = await startAgent({
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
  })
  afterAll(async () => {
    await agent?.stop()
    await srv?.close()
    tiny?.server.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it("names each subdomain app's host in subdomain_name, and no other app's", async () => {
    const ws = await dev.client.get(`/workspaces/${workspace.id}`)
    const apps = ws.body.latest_build.resources.flatMap((r: any) => r.agents ?? []).flatMap((a: any) => a.apps)
    const names = Object.fromEntries(apps.map((a: any) => [a.slug, a.subdomain_name]))
    expect(names).toEqual({
      web: `web--dev--${workspace.name}--app-dev`,
      shared: `shared--dev--${workspace.name}--app-dev`,
      open: `open--dev--${workspace.name}--app-dev`,
      plain: undefined
    })
    const agentId = apps.length > 0 ? ws.body.latest_build.resources[0].agents[0].id : ""
    const one = await dev.client.get(`/workspaceagents/${agentId}`)
    expect(one.body.apps.find((a: any) => a.slug === "web").subdomain_name).toBe(names.web)
  })

  it("sends a caller without a session through auth-redirect, exchanges the key for a host-only cookie, and serves the app", async () => {
    const { first, redirect, back, exchanged, cookie, pair } = await signIn(dev, host("web"), "/hello/x?y=1")
    expect(`${redirect.origin}${redirect.pathname}`).toBe(`${srv.url}/api/v2/applications/auth-redirect`)
    expect(redirect.searchParams.get("redirect_uri")).toBe(`http://${host("web")}/hello/x?y=1`)
    expect(first.headers["cache-control"]).toBe("no-store")
    expect(back.searchParams.get(KEY_PARAM)).toMatch(/^[A-Za-z0-9]+-[A-Za-z0-9]+$/)
    // The key leaves the URL; the cookie is the app host's only: no Domain, HttpOnly, SameSite, not Secure on http.
    expect(exchanged.headers.location).toBe("/hello/x?y=1")
    expect(cookie.startsWith(`${appCookieName}=`)).toBe(true)
    expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(cookie).not.toMatch(/Domain=/i)
    const served = await send(srv, host("web"), "/hello/x?y=1", { headers: { cookie: `${pair}; theme=dark` } })
    expect(served.status, served.text).toBe(200)
    const echoed = served.json()
    expect(echoed.url).toBe("/base/hello/x?y=1")
    // The app never sees the app session; it may not set it either.
    expect(echoed.headers.cookie).toBe("theme=dark")
    expect(echoed.headers["x-forwarded-host"]).toBe(host("web"))
    expect(served.headers["set-cookie"]).toEqual(["mine=1; Path=/"])
  })

  it("serves a caller with a session header, and a public app to anybody", async () => {
    expect((await send(srv, host("web"), "/", { headers: as(dev) })).status).toBe(200)
    const anonymous = await send(srv, host("open"), "/anything")
    expect(anonymous.status, anonymous.text).toBe(200)
    expect(anonymous.json().url).toBe("/anything")
  })

  it("keeps an app cookie to its own host: another app's host sends the browser through auth-redirect again", async () => {
    const { cookie } = await signIn(dev, host("web"))
    // A browser sends a host-only cookie to its host only; another app's host starts its own exchange.
    expect(cookie).not.toMatch(/Domain=/i)
    const elsewhere = await send(srv, host("shared"), "/")
    expect(elsewhere.status).toBe(303)
    expect(new URL(elsewhere.headers.location as string).searchParams.get("redirect_uri")).toBe(
      `http://${host("shared")}/`
    )
    // The dashboard's host does not take it as a session either.
    const api = await fetch(`${srv.url}/api/v2/users/me`, { headers: { cookie: cookie.slice(0, cookie.indexOf(";")) } })
    expect(api.status).toBe(401)
  })

  it("an app cookie that no longer works sends the browser through auth-redirect again", async () => {
    const stale = await send(srv, host("web"), "/", {
      headers: { cookie: `${appCookieName}=abcdefghij-nottherightsecret` }
    })
    expect(stale.status).toBe(303)
  })

  it("keeps to the sharing levels: owner, authenticated, public", async () => {
    const otherSession = await signIn(other, host("shared"))
    const shared = await send(srv, host("shared"), "/", { headers: { cookie: otherSession.pair } })
    expect(shared.status, shared.text).toBe(200)
    // dev's owner-level app: a stranger learns nothing (404), a template admin who reads the workspace gets 403.
    const stranger = await send(srv, host("web"), "/", { headers: as(other) })
    expect(stranger.status).toBe(404)
    expect(typeof stranger.json().message).toBe("string")
    const admin = await send(srv, host("web"), "/", { headers: as(templateAdmin) })
    expect(admin.status).toBe(403)
    expect(admin.json().message).toBe("You may not open this app.")
  })

  it("serves a port of the agent as an app to its owner, and to others once the port is shared", async () => {
    const port = String(tiny.port)
    const ownerView = await send(srv, host(port), "/p?q=1", { headers: as(dev) })
    expect(ownerView.status, ownerView.text).toBe(200)
    expect(ownerView.json().url).toBe("/p?q=1")
    expect((await send(srv, host(port), "/", { headers: as(other) })).status).toBe(404)
    expect((await owner.patch(`/templates/${templateId}`, { max_port_share_level: "public" })).status).toBe(200)
    const shared = await dev.client.post(`/workspaces/${workspace.id}/port-share`, {
      agent_name: "dev",
      port: tiny.port,
      share_level: "authenticated",
      protocol: "http"
    })
    expect(shared.status, JSON.stringify(shared.body)).toBe(200)
    expect((await send(srv, host(port), "/", { headers: as(other) })).status).toBe(200)
    expect((await send(srv, host(port), "/")).status).toBe(303)
  })

  it("answers a bad or unknown app host with the Response object, never a 500", async () => {
    const cases: Array<[string, number]> = [
      ["nodashes.apps.test", 400],
      [`${tiny.port}--${workspace.name}--app-dev.apps.test`, 400],
      ["bad_name--dev--ws--app-dev.apps.test", 400],
      [`web--dev--${workspace.name}--nobody.apps.test`, 404],
      [`web--dev--missing--app-dev.apps.test`, 404],
      [`nothing--dev--${workspace.name}--app-dev.apps.test`, 404],
      [`web--ghost--${workspace.name}--app-dev.apps.test`, 404],
      [`plain--dev--${workspace.name}--app-dev.apps.test`, 200]
    ]
    for (const [h, status] of cases) {
      const r = await send(srv, h, "/", { headers: as(dev) })
      expect(r.status, `${h}: ${r.text}`).toBe(status)
      if (status !== 200) expect(typeof r.json().message).toBe("string")
    }
    const invalid = await send(srv, "nodashes.apps.test", "/")
    expect(invalid.json().message).toBe("Invalid application URL.")
    // A bad key in the query: 400, no cookie.
    const badKey = await send(srv, host("web"), `/?${KEY_PARAM}=nope`)
    expect(badKey.status).toBe(400)
    expect(badKey.headers["set-cookie"]).toBeUndefined()
    // WebSockets to apps are not carried; on an app host, never the API's.
    expect((await send(srv, host("web"), "/api/v2/buildinfo", { upgrade: true, headers: as(dev) })).status).toBe(404)
  })

  it("never hands an app a key in its URL: auth-redirect for a path app mints none, and the parameter is dropped", async () => {
    const keysOf = async (userId: string) =>
      (await srv.run(Effect.flatMap(ApiKeyRepo, (r) => r.list({ userId, includeExpired: true, now: new Date() }))))
        .map((k) => k.id).sort()
    const cookie = { cookie: `service_session_token=${dev.client.token}` }
    const authRedirect = (uri: string) =>
      fetch(`${srv.url}/api/v2/applications/auth-redirect?redirect_uri=${encodeURIComponent(uri)}`, {
        headers: cookie,
        redirect: "manual"
      })
    const appPath = `/@app-dev/${workspace.name}/apps/plain`

    // A path app's URL on the access URL: straight back, no key minted, the app reached with the cookie.
    const before = await keysOf(dev.user.id)
    const landing = `${srv.url}${appPath}/landing?x=1`
    const straight = await authRedirect(landing)
    expect(straight.status).toBe(307)
    expect(straight.headers.get("location")).toBe(landing)
    expect(await keysOf(dev.user.id)).toEqual(before)
    const served = await fetch(straight.headers.get("location")!, { headers: cookie })
    expect(served.status).toBe(200)
    expect((await served.json()).url).toBe("/landing?x=1")

    // A key in a path app's URL (an old link, or made up) is dropped, however its name is written;
    // the rest of the query reaches the app as it was.
    const withKey = await fetch(
      `${srv.url}${appPath}/landing?a=1&${KEY_PARAM}=abc&b=%20x+y&coder%5Fapplication_connect_api_key=zz&c`,
      { headers: cookie }
    )
    expect(withKey.status).toBe(200)
    expect((await withKey.json()).url).toBe("/landing?a=1&b=%20x+y&c")
    const onlyKey = await fetch(`${srv.url}${appPath}/?${KEY_PARAM}=abc`, { headers: cookie })
    expect((await onlyKey.json()).url).toBe("/")
    const slash = await fetch(`${srv.url}${appPath}?${KEY_PARAM}=abc&y=2`, { headers: cookie, redirect: "manual" })
    expect(slash.status).toBe(307)
    expect(slash.headers.get("location")).toBe(`${appPath}/?y=2`)

    // A subdomain app: the key is exchanged for the host's cookie on the way, and the app gets the URL without it.
    const { back, exchanged, pair } = await signIn(dev, host("web"), "/k?z=1")
    expect(back.searchParams.get(KEY_PARAM)).not.toBeNull()
    expect(exchanged.headers.location).toBe("/k?z=1")
    const app = await send(srv, host("web"), "/k?z=1", { headers: { cookie: pair } })
    expect(app.status, app.text).toBe(200)
    expect(app.json().url).toBe("/base/k?z=1")
    expect(app.text).not.toContain(KEY_PARAM)
  })

  it("takes a session header or bearer that does not authenticate as no session: sign-in for an app, a public one served", async () => {
    for (
      const headers of [
        { [SESSION_HEADER]: "bogus" },
        { [SESSION_HEADER]: "abcdefghij-nottherightsecretatall12" },
        { authorization: "Bearer bogus" }
      ]
    ) {
      const owned = await send(srv, host("web"), "/p?q=1", { headers })
      expect(owned.status, owned.text).toBe(303)
      const to = new URL(owned.headers.location as string)
      expect(`${to.origin}${to.pathname}`).toBe(`${srv.url}/api/v2/applications/auth-redirect`)
      expect(to.searchParams.get("redirect_uri")).toBe(`http://${host("web")}/p?q=1`)
      const open = await send(srv, host("open"), "/p", { headers })
      expect(open.status, open.text).toBe(200)
      // Served as to anybody: the credential does not reach the app.
      expect(open.json().headers[SESSION_HEADER.toLowerCase()]).toBeUndefined()
      expect(open.json().headers.authorization).toBeUndefined()
    }
    // On a path, a bad token is still refused outright.
    const onPath = await fetch(`${srv.url}/@app-dev/${workspace.name}/apps/plain/`, {
      headers: { [SESSION_HEADER]: "bogus" }
    })
    expect(onPath.status).toBe(401)
  })

  it("keeps the access URL's host for the API and path apps; a subdomain app on a path answers 400", async () => {
    const u = new URL(srv.url)
    expect((await send(srv, u.host, "/api/v2/buildinfo")).status).toBe(200)
    const onPath = await fetch(`${srv.url}/@app-dev/${workspace.name}/apps/web/`, { headers: as(dev) })
    expect(onPath.status).toBe(400)
    expect((await onPath.json()).detail).toContain(`web--dev--${workspace.name}--<owner>.apps.test`)
    expect((await fetch(`${srv.url}/@app-dev/${workspace.name}/apps/plain/`, { headers: as(dev) })).status).toBe(200)
  })
})
