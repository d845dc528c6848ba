/**
 * A subdomain app in Chromium against a real service with a wildcard app host (`*.apps.test`,
 * which Chromium resolves to 127.0.0.1 through `--host-resolver-rules`): the workspace page links
 * the app to its own host, and following the link goes through the access URL's auth-redirect and
 * the key exchange to the app's page (served by a real app that the reference agent reaches, over
 * its real connection). The app session cookie stays on that one host. Skipped, saying so, when
 * /usr/bin/chromium is missing; under CI that fails instead.
 */
import { type RunningAgent, startAgent } from "@workbay/agent"
import { dashboardDir } from "@workbay/dashboard"
import { mkdtempSync, rmSync } from "node:fs"
import type { Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventually } from "../../agent/test/support.js"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"
import { browserAvailable, expectNoProblems, htmlApp, launchBrowser, signIn, watchedPage } from "./browser.js"

const available = browserAvailable("the subdomain apps' browser test")

const template = (port: number) =>
  `resources:
  - name: dev
    type: machine
    agents:
      - name: main
        external: true
        apps:
          - slug: notes
            display_name: Notes
            url: http://127.0.0.1:${port}
            subdomain: true
`

describe.skipIf(!available)("a subdomain app from the dashboard, in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let browser: Browser
  let app: Server
  let agent: RunningAgent
  let dir: string
  let workspace: { id: string; name: string; latest_build: any }

  beforeAll(async () => {
    let port: number
    ;({ server: app, port } = await htmlApp("Notes"))
    const started = await startWithOwner({
      dashboard: { dir: dashboardDir },
      lifecycle: false,
      settings: { wildcardAccessUrl: "*.apps.test" }
    })
    srv = started.srv
    owner = started.owner
    const t = await makeTemplate(srv, owner, started.orgId, template(port))
    workspace = await makeWorkspace(srv, owner, started.orgId, t.id)
    const credentials = await owner.get(`/workspaces/${workspace.id}/external-agent/main/credentials`)
    dir = mkdtempSync(join(tmpdir(), "workbay-subdomain-browser-"))
    agent = await startAgent({
      url: srv.url,
      token: credentials.body.agent_token,
      auth: "token",
      directory: dir,
      logDir: dir,
      log: () => {}
    })
    await agent.started
    const agentId = workspace.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0].id
    await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body.status,
      (s) => s === "connected",
      "the agent connected"
    )
    browser = await launchBrowser({ resolve: "MAP *.apps.test 127.0.0.1" })
  })
  afterAll(async () => {
    await browser?.close()
    await agent?.stop()
    await srv?.close()
    app?.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it("follows the workspace page's link to the app's own host and sees its page", async () => {
    const context = await browser.newContext()
    const page = await watchedPage(context)
    await signIn(page, srv.url, "admin@example.com")
    await page.goto(`${srv.url}/@admin/${workspace.name}`)
    const link = page.getByRole("link", { name: "Notes" })
    const appHost = `notes--main--${workspace.name}--admin.apps.test:${new URL(srv.url).port}`
    expect(await link.getAttribute("href")).toBe(`http://${appHost}/`)
    const [opened] = await Promise.all([context.waitForEvent("page"), link.click()])
    await opened!.getByRole("heading", { name: "Notes at /" }).waitFor()
    // The key left the URL; the session is a cookie of that one host, out of the page's reach.
    expect(opened!.url()).toBe(`http://${appHost}/`)
    const cookies = await context.cookies(`http://${appHost}/`)
    const session = cookies.filter((c) => c.name.startsWith("coder_subdomain_app_session_token_"))
    expect(session).toHaveLength(1)
    expect(session[0]).toMatchObject({ domain: appHost.replace(/:\d+$/, ""), httpOnly: true, sameSite: "Lax" })
    expect(await opened!.evaluate(() => document.cookie)).toBe("")
    const elsewhere = `http://other--main--${workspace.name}--admin.apps.test:${new URL(srv.url).port}/`
    expect((await context.cookies(elsewhere)).filter((c) => c.name.startsWith("coder_subdomain"))).toEqual([])
    expectNoProblems(page)
    await context.close()
  })
})
