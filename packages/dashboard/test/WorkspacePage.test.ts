/**
 * The workspace page as people use it, in Chromium against real parts only: a real service
 * (in-memory SQLite, the dashboard mounted, a wildcard app host `*.apps.test` that Chromium resolves
 * to 127.0.0.1 through `--host-resolver-rules`), the REAL reference agent of an external agent
 * whose template has a metadata item, and a real HTTP server of the test listening on a port of
 * this machine (the agent's machine). Through roles and accessible names only:
 * - the agent's metadata, live, without opening anything;
 * - its listening ports, the test's own among them: "Open" goes through the app proxy's subdomain
 *   port form to the server's page; "Share" is off while the template allows no sharing, then
 *   shares it with the organization (and the shared ports section lists it);
 * - "Open in VS Code": the Remote-SSH link of the host `workbay config-ssh` writes, at the agent's
 *   directory, no token in it, with the one-time set-up for this deployment beside it;
 * - the build's timings as a timeline: one bar a step of the timings table;
 * axe finds no serious or critical violation; no page error, no Content-Security-Policy violation.
 *
 * Skipped, saying so, when /usr/bin/chromium is missing; under CI that fails instead.
 */
import { type RunningAgent, startAgent } from "@workbay/agent"
import { dashboardDir } from "@workbay/dashboard"
import { mkdtempSync, rmSync } from "node:fs"
import type { Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventually, externalAgentWorkspace } from "../../agent/test/support.js"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import {
  browserAvailable,
  expectAccessible,
  expectNoProblems,
  htmlApp,
  launchBrowser,
  signIn,
  watchedPage
} from "./browser.js"

const available = browserAvailable("the workspace page's browser test")

describe.skipIf(!available)("the workspace page as people use it, in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let browser: Browser
  let app: Server
  let appPort: number
  let agent: RunningAgent
  let workspace: { id: string; name: string; owner_name: string }
  const directory = mkdtempSync(join(tmpdir(), "workbay-dashboard-workspace-page-"))

  beforeAll(async () => {
    ;({ server: app, port: appPort } = await htmlApp("Dev server"))
    const started = await startWithOwner({
      dashboard: { dir: dashboardDir },
      lifecycle: false,
      settings: { wildcardAccessUrl: "*.apps.test" }
    })
    srv = started.srv
    owner = started.owner
    const { agentId, token } = await externalAgentWorkspace(srv, owner, started.orgId, {
      script: "echo ready",
      metadata: [{ key: "load", display_name: "Load", script: "echo load-$((40+2))", interval: 1 }]
    })
    agent = await startAgent({ url: srv.url, token, auth: "token", directory, logDir: directory, log: () => {} })
    await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body.lifecycle_state,
      (s) => s === "ready",
      "the agent ready"
    )
    workspace = (await owner.get("/workspaces")).body.workspaces[0]
    browser = await launchBrowser({ resolve: "MAP *.apps.test 127.0.0.1" })
  })
  afterAll(async () => {
    await browser?.close()
    await agent?.stop()
    await srv?.close()
    app?.close()
    rmSync(directory, { recursive: true, force: true })
  })

  it("shows metadata, listening ports to open and share, Open in VS Code and the build's timeline", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
    const page = await watchedPage(context)
    await signIn(page, srv.url, "admin@example.com")
    await page.goto(`${srv.url}/@${workspace.owner_name}/${workspace.name}`)
    await page.getByRole("heading", { name: workspace.name, level: 1 }).waitFor()

    // The metadata, live, with nothing opened.
    const metadata = page.getByRole("group", { name: "Metadata of main" })
    await expect.poll(() => metadata.textContent(), { timeout: 30_000 }).toMatch(/Load\s*load-42/)

    // The listening ports, asked of the agent: the test's server is one of them.
    const ports = page.getByRole("group", { name: "Listening ports of main" })
    const row = ports.getByRole("row", { name: new RegExp(`^${appPort}\\b`) })
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1)
    const open = row.getByRole("link", { name: `Open port ${appPort}` })
    const appHost = `${appPort}--main--${workspace.name}--${workspace.owner_name}.apps.test:${new URL(srv.url).port}`
    expect(await open.getAttribute("href")).toBe(`http://${appHost}/`)
    const [opened] = await Promise.all([context.waitForEvent("page"), open.click()])
    await opened!.getByRole("heading", { name: "Dev server at /" }).waitFor()
    await opened!.close()

    // Share: not while the template allows no sharing (its maximum level, by default, is owner);
    // once it allows more, with the organization; the shared ports section lists it.
    const share = row.getByRole("button", { name: `Share port ${appPort} with the organization` })
    expect(await share.isDisabled()).toBe(true)
    const template = (await owner.get(`/workspaces/${workspace.id}`)).body.template_id
    expect((await owner.patch(`/templates/${template}`, { max_port_share_level: "public" })).status).toBe(200)
    await page.reload()
    await expect.poll(() => share.isEnabled(), { timeout: 30_000 }).toBe(true)
    await share.click()
    await expect.poll(() => row.getByText("Shared: Organization").count()).toBe(1)
    const shared = page.getByRole("table", { name: "Shared ports" })
    await expect.poll(() => shared.getByRole("rowheader", { name: String(appPort) }).count()).toBe(1)
    const shares = await owner.get(`/workspaces/${workspace.id}/port-share`)
    expect(shares.body.shares).toEqual([
      expect.objectContaining({ agent_name: "main", port: appPort, share_level: "organization", protocol: "http" })
    ])

    // Open in VS Code: config-ssh's host at the agent's directory, no token; the set-up beside it.
    const vscode = page.getByRole("link", { name: "Open in VS Code" })
    const href = (await vscode.getAttribute("href"))!
    expect(href).toBe(`vscode://vscode-remote/ssh-remote+workbay.${workspace.name}${encodeURI(directory)}`)
    expect(href).not.toContain(owner.token!)
    await page.getByText("First time on this computer?").click()
    const setup = await page.getByLabel("One-time set-up").textContent()
    expect(setup).toContain(`curl -fsSLO ${srv.url}/bin/workbay-linux-amd64`)
    expect(setup).toContain(`workbay login ${srv.url}`)
    expect(setup).toContain("workbay config-ssh --yes")

    // The build's timeline: one bar a row of the timings table.
    const timeline = page.getByRole("img", { name: /^Timeline of build #1: a timeline of \d+ steps over / })
    await timeline.waitFor()
    const steps = await page.getByRole("table", { name: "Timings of build #1" }).getByRole("row").count() - 1
    expect(steps).toBeGreaterThan(0)
    expect(await timeline.locator("rect").count()).toBe(steps)

    await expectAccessible(page)
    expectNoProblems(page)
    await context.close()
  }, 120_000)
})
