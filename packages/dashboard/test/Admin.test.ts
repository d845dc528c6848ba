/**
 * The administration against a real service (in-memory SQLite, the dashboard mounted as
 * embedders do) in Debian's Chromium, through roles and accessible names only: the "Admin" entry
 * shown by `POST /authcheck` (to the owner, not to a member, who is refused at an admin address
 * with a message), users (create with the form's checks, search, roles, suspend, which sends the
 * suspended user's open page to sign in, activate, delete), the audit log (its `q` filter and
 * pages), an organization's members, groups, custom roles and provisioners (a host that a daemon
 * connected with a provisioner key reports, drained and taken back by the owner; no button for
 * who may not manage daemons), appearance (the service banner), deployment
 * settings, licenses, health, and the insights' charts with their tables. axe on every page (the
 * users page in dark too). One service and one browser for the file's tests.
 *
 * Skipped, saying so, when /usr/bin/chromium is missing; under CI that fails instead.
 */
import { AgentReportRepo, AuditLogs, InsightsRollup } from "@workbay/core"
import { dashboardDir } from "@workbay/dashboard"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentStats as stats } from "../../core/test/insights/fixtures.js"
import {
  type Client,
  createUser,
  type ServiceTestServer,
  startWithOwner,
  type TestUser
} from "../../http/test/support.js"
import { connect } from "../../http/test/websocket.js"
import { portShareTemplate, seedWorkspace } from "../../http/test/workspaces/portShareFixtures.js"
import {
  browserAvailable,
  expectAccessible,
  expectedProblems,
  expectNoProblems,
  launchBrowser,
  screenshot,
  signIn,
  watchedPage
} from "./browser.js"

const available = browserAvailable("the administration's browser tests")

describe.skipIf(!available)("the administration in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let ownerId: string
  let member: TestUser
  let browser: Browser
  let admin: Page
  let workspace: { id: string; name: string }

  beforeAll(async () => {
    ;({ srv, owner, orgId, ownerId } = await startWithOwner({
      dashboard: { dir: dashboardDir },
      insightsRollup: false
    }))
    member = await createUser(owner, { username: "mia" })
    // More users than a page holds (and as many audit entries).
    for (let i = 0; i < 24; i++) {
      const r = await owner.post("/users", {
        email: `extra${i}@example.com`,
        username: `extra${i}`,
        password: "Correct-Horse-Battery-9"
      })
      expect(r.status).toBe(201)
    }
    // Insights: ten minutes of SSH by the owner in a workspace, in the last half hour, rolled up.
    const template = await portShareTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId }) as any
    const ws = await seedWorkspace(srv, { ownerId, template, organizationId: orgId, agents: null })
    workspace = ws
    const now = Date.now()
    const base = now % 86_400_000 < 25 * 60_000 ? now - (now % 86_400_000) - 60_000 : now
    for (let i = 0; i < 10; i++) {
      await srv.run(Effect.flatMap(AgentReportRepo, (r) =>
        r.insertStats(
          randomUUID(),
          ws.id,
          stats({ session_count_ssh: 1, connection_median_latency_ms: 20 + i }),
          new Date(base - (20 - i) * 60_000)
        )))
    }
    await srv.run(Effect.flatMap(InsightsRollup, (r) => r.pass()))
    browser = await launchBrowser()
    // The admin's page (401 before signing in, 403 from a refused request: expected answers).
    admin = await watchedPage(await browser.newContext({ viewport: { width: 1200, height: 900 } }), /401|403|404/)
    await signIn(admin, srv.url, "admin@example.com")
  })
  afterAll(async () => {
    await browser?.close()
    await srv?.close()
  })

  it("shows Admin to who may, and refuses a member at an admin address with a message", async () => {
    const context = await browser.newContext()
    const page = await watchedPage(context, /401|403|404/)
    await signIn(page, srv.url, member.email)
    const nav = page.getByRole("navigation", { name: "Main" })
    expect(await nav.getByRole("link", { name: "Workspaces" }).count()).toBe(1)
    expect(await nav.getByRole("link", { name: "Admin" }).count()).toBe(0)
    await page.goto(`${srv.url}/deployment/users`)
    await page.getByRole("alert").filter({ hasText: "You do not have permission to view this page" }).waitFor()
    await expectAccessible(page)
    expectNoProblems(page)
    await context.close()

    await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click()
    await admin.getByRole("heading", { name: "Users", level: 1 }).waitFor()
    expect(new URL(admin.url()).pathname).toBe("/deployment/users")
    expect(await admin.getByRole("navigation", { name: "Administration" }).getByRole("link").allTextContents())
      .toEqual([
        "Users",
        "Organizations",
        "Audit log",
        "Connection log",
        "Insights",
        "General",
        "Appearance",
        "Notifications",
        "OAuth2 applications",
        "Workspace proxies",
        "IdP organization sync",
        "Licenses",
        "Health"
      ])
  })

  it("creates a user through the form, searches, changes roles, suspends (signing them out), activates, deletes", async () => {
    const page = admin
    await page.getByRole("link", { name: "Create user" }).click()
    await page.getByRole("heading", { name: "Create user" }).waitFor()
    await page.getByLabel("Email").fill("not-an-email")
    await page.getByLabel("Username").fill("bob-the-builder")
    await page.getByLabel("Password").fill("Correct-Horse-Battery-9")
    await page.getByRole("button", { name: "Create user" }).click()
    // The bad field's message, describing its input, and nothing sent.
    const email = page.getByLabel("Email")
    expect(await email.getAttribute("aria-invalid")).toBe("true")
    await expect.poll(() => email.evaluate((el) => el.getAttribute("aria-describedby"))).toBeTruthy()
    await page.getByText("Enter a valid email address, like name@example.com.").waitFor()
    expect(await page.getByRole("alert").first().textContent()).toContain("One field needs a change")
    await expectAccessible(page)
    await email.fill("bob@example.com")
    await page.getByRole("button", { name: "Create user" }).click()
    // Back on the list, searched for the new user.
    await page.getByRole("heading", { name: "Users", level: 1 }).waitFor()
    await expect.poll(() => page.getByRole("searchbox", { name: "Search users" }).inputValue()).toBe("bob-the-builder")
    const bob = page.getByRole("row", { name: /bob-the-builder/ })
    await bob.waitFor()
    expect(await page.getByRole("row").count()).toBe(2)

    // Search: the member only.
    await page.getByRole("searchbox", { name: "Search users" }).fill("mia")
    await page.getByRole("searchbox", { name: "Search users" }).press("Enter")
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("mia")
    const mia = page.getByRole("row", { name: /mia/ })
    await mia.waitFor()
    await expect.poll(() => page.getByRole("row", { name: /bob-the-builder/ }).count()).toBe(0)

    // Roles: Auditor.
    await mia.getByRole("button", { name: "Edit roles of mia" }).click()
    const rolesDialog = page.getByRole("dialog", { name: "Roles of mia" })
    await rolesDialog.getByRole("checkbox", { name: "Auditor" }).check()
    await expectAccessible(page)
    await rolesDialog.getByRole("button", { name: "Save roles" }).click()
    await expect.poll(() => mia.getByRole("cell", { name: "Auditor" }).count()).toBe(1)
    expect((await owner.get(`/users/mia/roles`)).body.roles).toEqual(["auditor"])
    await owner.put(`/users/mia/roles`, { roles: [] })

    // Suspend while mia's dashboard is open in another browser: her next step there signs her out.
    const context = await browser.newContext()
    const hers = await watchedPage(context, /401|403|404/)
    await signIn(hers, srv.url, member.email)
    await mia.getByRole("button", { name: "Suspend" }).click()
    await page.getByRole("dialog", { name: "Suspend mia?" }).getByRole("button", { name: "Suspend" }).click()
    await expect.poll(() => mia.getByRole("cell", { name: "Suspended" }).count()).toBe(1)
    await hers.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspaces" }).click()
    await hers.getByRole("heading", { name: "Sign in to Workbay" }).waitFor()
    expect(new URL(hers.url()).pathname).toBe("/login")
    expectNoProblems(hers)
    await context.close()

    await mia.getByRole("button", { name: "Activate" }).click()
    await expect.poll(() => mia.getByRole("cell", { name: "Active" }).count()).toBe(1)
    expect((await owner.get(`/users/mia`)).body.status).toBe("active")

    // Delete bob, confirmed.
    await page.getByRole("searchbox", { name: "Search users" }).fill("bob")
    await page.getByRole("searchbox", { name: "Search users" }).press("Enter")
    await bob.getByRole("button", { name: "Delete" }).click()
    await page.getByRole("dialog", { name: "Delete bob-the-builder?" }).getByRole("button", { name: "Delete" }).click()
    await page.getByText("No users match “bob”.").waitFor()
    expect((await owner.get(`/users/bob-the-builder`)).status).toBe(404)

    // All 27 users: mia is on the second page.
    await page.getByRole("searchbox", { name: "Search users" }).fill("")
    await page.getByRole("searchbox", { name: "Search users" }).press("Enter")
    const pager = page.getByRole("navigation", { name: "Pages" })
    await pager.getByText("Page 1 of 2").waitFor()
    expect(await mia.count()).toBe(0)
    await pager.getByRole("button", { name: "Next page" }).click()
    await mia.waitFor()
    expect(new URL(page.url()).searchParams.get("page")).toBe("1")
    await expectAccessible(page)
    await screenshot(page, "admin-users")
    const dark = await watchedPage(
      await browser.newContext({ colorScheme: "dark", viewport: { width: 1200, height: 800 } })
    )
    await signIn(dark, srv.url, "admin@example.com")
    await dark.goto(`${srv.url}/deployment/users?page=1`)
    await dark.getByRole("row", { name: /mia/ }).waitFor()
    await expectAccessible(dark)
    await screenshot(dark, "admin-users-dark")
    expectNoProblems(dark)
    await dark.context().close()
  })

  it("lists the audit log, narrowed by its filter (in the URL), paged, each entry's changes expandable", async () => {
    const page = admin
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Audit log" }).click()
    await page.getByRole("heading", { name: "Audit log", level: 1 }).waitFor()
    const table = page.getByRole("table", { name: /Audit log/ })
    await table.waitFor()
    // The actions above are there: the deletion, the suspension, the new user.
    await table.getByRole("rowheader", { name: /admin deleted user bob-the-builder/ }).waitFor()
    expect(await table.getByRole("rowheader", { name: /admin created user bob-the-builder/ }).count()).toBe(1)
    // Pages: more than 25 entries.
    const pager = page.getByRole("navigation", { name: "Pages" })
    expect(await pager.getByText(/^Page 1 of \d+$/).count()).toBe(1)
    await pager.getByRole("button", { name: "Next page" }).click()
    await pager.getByText(/^Page 2 of/).waitFor()
    expect(new URL(page.url()).searchParams.get("page")).toBe("1")
    await pager.getByRole("button", { name: "Previous page" }).click()
    await pager.getByText(/^Page 1 of/).waitFor()

    const filter = page.getByRole("searchbox", { name: "Filter the audit log" })
    await filter.fill("action:delete resource_type:user")
    await filter.press("Enter")
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("action:delete resource_type:user")
    await expect.poll(() => table.getByRole("row").count()).toBe(2)
    const entry = table.getByRole("row", { name: /admin deleted user bob-the-builder/ })
    await entry.getByText(/^Changes \(/).click()
    const changes = entry.getByRole("table", { name: "Changes of this entry" })
    await changes.waitFor()
    expect(await changes.getByRole("rowheader").count()).toBeGreaterThan(0)
    expect(await pager.count()).toBe(0)
    await expectAccessible(page)
    // The filter survives a reload (it is the URL).
    await page.reload()
    await expect.poll(() => filter.inputValue()).toBe("action:delete resource_type:user")
    await filter.fill("")
    await filter.press("Enter")
    await table.getByRole("rowheader", { name: /admin updated user mia/ }).first().waitFor()
    await screenshot(page, "admin-audit")
  })

  it("lists the connection log: sessions with how they ended, web requests with their status, filtered", async () => {
    const connection = (type: "ssh" | "reconnecting_pty", connectionId: string, minutesAgo: number) => ({
      organizationId: orgId,
      workspaceOwnerId: ownerId,
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      agentName: "main",
      type,
      ip: "192.0.2.10",
      connectionId,
      time: new Date(Date.now() - minutesAgo * 60_000)
    })
    const ended = randomUUID()
    await srv.run(Effect.flatMap(AuditLogs, (logs) =>
      Effect.all([
        logs.connect(connection("ssh", ended, 30)),
        logs.disconnect({ ...connection("ssh", ended, 20), reason: "client closed", exitCode: 3 }),
        logs.connect(connection("reconnecting_pty", randomUUID(), 10)),
        logs.connect({
          organizationId: orgId,
          workspaceOwnerId: ownerId,
          workspaceId: workspace.id,
          workspaceName: workspace.name,
          agentName: "main",
          type: "workspace_app",
          ip: "198.51.100.3",
          slugOrPort: "code-server",
          statusCode: 502,
          userId: ownerId,
          userAgent: "Mozilla/5.0 test",
          time: new Date(Date.now() - 5 * 60_000)
        })
      ], { discard: true })))
    const page = admin
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Connection log" }).click()
    await page.getByRole("heading", { name: "Connection log", level: 1 }).waitFor()
    const table = page.getByRole("table", { name: /Connection log, 3 entries/ })
    await table.waitFor()
    // Newest first: the app request with its status, the terminal still open, the SSH session ended.
    const rows = table.getByRole("row")
    expect(await rows.count()).toBe(4)
    expect(await rows.nth(1).getByRole("rowheader").textContent()).toContain("App code-server")
    expect(await rows.nth(1).getByText("502", { exact: true }).count()).toBe(1)
    expect(await rows.nth(2).getByRole("rowheader").textContent()).toContain("Web terminal")
    expect(await rows.nth(2).getByText("Ongoing").count()).toBe(1)
    expect(await rows.nth(3).getByText("exit code 3").count()).toBe(1)
    expect(await rows.nth(3).getByText("client closed").count()).toBe(1)
    expect(await rows.nth(3).getByRole("link", { name: `admin/${workspace.name}` }).getAttribute("href"))
      .toBe(`/@admin/${workspace.name}`)
    await expectAccessible(page)
    await screenshot(page, "admin-connection-log")

    const filter = page.getByRole("searchbox", { name: "Filter the connection log" })
    await filter.fill("type:ssh")
    await filter.press("Enter")
    await page.getByRole("table", { name: /Connection log, 1 entries/ }).waitFor()
    expect(new URL(page.url()).searchParams.get("q")).toBe("type:ssh")
    await filter.fill("status:ongoing type:ssh")
    await filter.press("Enter")
    await page.getByText("No connections match “status:ongoing type:ssh”.").waitFor()
    expectNoProblems(page)
  })

  it("pauses and resumes the notifier, sets a notification's method, and sends a test notification", async () => {
    const page = admin
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Notifications" }).click()
    await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor()
    await page.getByRole("button", { name: "Pause the notifier" }).click()
    await page.getByRole("button", { name: "Resume the notifier" }).waitFor()
    expect((await owner.get("/notifications/settings")).body).toEqual({ notifier_paused: true })
    await page.getByText(/notifications wait in the queue/).waitFor()
    await page.getByRole("button", { name: "Resume the notifier" }).click()
    await page.getByRole("button", { name: "Pause the notifier" }).waitFor()
    expect((await owner.get("/notifications/settings")).body).toEqual({ notifier_paused: false })

    // A template's method: the select shows the deployment's default first, then each method.
    const select = page.getByRole("combobox", { name: "Method of Workspace Deleted" })
    await select.waitFor()
    expect(await select.inputValue()).toBe("")
    await select.selectOption("inbox")
    await page.getByRole("status").filter({ hasText: "Method saved." }).waitFor()
    const deleted = ((await owner.get("/notifications/templates/system")).body as Array<any>)
      .find((t) => t.name === "Workspace Deleted")
    expect(deleted.method).toBe("inbox")
    await page.reload()
    await expect.poll(() => select.inputValue()).toBe("inbox")
    await expectAccessible(page)
    await screenshot(page, "admin-notifications")
    await select.selectOption("")
    await page.getByRole("status").filter({ hasText: "Method saved." }).waitFor()

    await page.getByRole("button", { name: "Send a test notification" }).click()
    await page.getByRole("status").filter({ hasText: "A test notification is on its way to you." }).waitFor()
    expectNoProblems(page)
  })

  it("creates an OAuth2 application, gives it a secret shown once, edits it, deletes the secret and the application", async () => {
    const page = admin
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click()
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "OAuth2 applications" })
      .click()
    await page.getByRole("heading", { name: "OAuth2 applications", level: 1 }).waitFor()
    await page.getByText("No OAuth2 applications yet.").waitFor()
    // Dynamic client registration, turned off and on again.
    const registration = page.getByRole("checkbox", { name: /Let clients register themselves/ })
    await expect.poll(() => registration.isChecked()).toBe(true)
    await registration.uncheck()
    await page.getByRole("status").filter({ hasText: "Registration setting saved." }).waitFor()
    expect((await owner.get("/oauth2-provider/settings")).body).toEqual({ dynamic_client_registration_enabled: false })
    const register = await fetch(`${srv.url}/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["https://client.example.com/cb"], client_name: "Self" })
    })
    expect(register.status).toBe(403)
    await registration.check()
    await expect.poll(async () => (await owner.get("/oauth2-provider/settings")).body).toEqual({
      dynamic_client_registration_enabled: true
    })
    await page.getByRole("link", { name: "Create application" }).click()
    await page.getByRole("heading", { name: "Create an OAuth2 application" }).waitFor()
    // A callback that is not a URL: the service's message under the field, nothing made.
    await page.getByRole("textbox", { name: "Name" }).fill("Acme Portal")
    await page.getByRole("textbox", { name: "Callback URL" }).fill("not a url")
    await page.getByRole("button", { name: "Create application" }).click()
    const callback = page.getByRole("textbox", { name: "Callback URL" })
    await expect.poll(() => callback.getAttribute("aria-invalid")).toBe("true")
    expect((await owner.get("/oauth2-provider/apps")).body).toEqual([])
    expect(expectedProblems(page, /status of 400/)).toBe(1)
    await expectAccessible(page)
    await callback.fill("https://portal.example.com/oauth/callback")
    await page.getByRole("button", { name: "Create application" }).click()
    await page.getByRole("heading", { name: "Acme Portal", level: 1 }).waitFor()
    await page.getByRole("status").filter({ hasText: "Application created." }).waitFor()
    const [created] = (await owner.get("/oauth2-provider/apps")).body as Array<any>
    expect(created).toMatchObject({ name: "Acme Portal", callback_url: "https://portal.example.com/oauth/callback" })
    expect(await page.getByRole("definition").filter({ hasText: created.id }).count()).toBe(1)
    expect(await page.getByRole("definition").filter({ hasText: created.endpoints.token }).count()).toBe(1)

    // A secret: shown once, in full; listed truncated afterwards.
    await page.getByText("No client secrets").waitFor()
    await page.getByRole("button", { name: "Generate a client secret" }).click()
    const secret = page.getByRole("textbox", { name: "Client secret" })
    await secret.waitFor()
    const full = await secret.inputValue()
    const listed = (await owner.get(`/oauth2-provider/apps/${created.id}/secrets`)).body as Array<any>
    expect(listed).toHaveLength(1)
    // Listed by its first characters, the rest hidden.
    const shown = (listed[0].client_secret_truncated as string).replace(/\*+$/, "")
    expect(full.startsWith(shown)).toBe(true)
    expect(full.length).toBeGreaterThan(shown.length)
    await expectAccessible(page)
    await screenshot(page, "admin-oauth2-app")
    await page.getByRole("button", { name: "Done" }).click()
    await expect.poll(() => secret.count()).toBe(0)
    expect(await page.content()).not.toContain(full)
    await page.getByRole("table", { name: "Client secrets of Acme Portal" }).getByText("Never").waitFor()

    // Its settings, saved.
    await page.getByRole("textbox", { name: "Name" }).fill("Acme Portal 2")
    await page.getByRole("button", { name: "Save application" }).click()
    await page.getByRole("heading", { name: "Acme Portal 2", level: 1 }).waitFor()
    expect((await owner.get(`/oauth2-provider/apps/${created.id}`)).body.name).toBe("Acme Portal 2")

    // The secret deleted (confirmed), then the application.
    await page.getByRole("button", { name: `Delete secret ${listed[0].client_secret_truncated}` }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Delete secret" }).click()
    await page.getByText("No client secrets").waitFor()
    expect((await owner.get(`/oauth2-provider/apps/${created.id}/secrets`)).body).toEqual([])
    await page.getByRole("button", { name: "Delete application" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Delete application" }).click()
    await page.getByRole("heading", { name: "OAuth2 applications", level: 1 }).waitFor()
    await page.getByText("No OAuth2 applications yet.").waitFor()
    expect((await owner.get(`/oauth2-provider/apps/${created.id}`)).status).toBe(404)
    expectNoProblems(page)
  })

  it("creates a workspace proxy whose token is shown once, gives it a new one, and deletes it", async () => {
    const page = admin
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click()
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Workspace proxies" })
      .click()
    await page.getByRole("heading", { name: "Workspace proxies", level: 1 }).waitFor()
    const regions = page.getByRole("table", { name: "Regions" })
    await regions.getByRole("cell", { name: "Healthy (this deployment)" }).waitFor()
    // A bad name: the service's message under the field.
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("not a name!")
    await page.getByRole("button", { name: "Create proxy" }).click()
    await expect.poll(() => page.getByRole("textbox", { name: "Name", exact: true }).getAttribute("aria-invalid")).toBe(
      "true"
    )
    expect(expectedProblems(page, /status of 400/)).toBe(1)
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("eu-west")
    await page.getByRole("textbox", { name: "Display name" }).fill("Europe West")
    await page.getByRole("button", { name: "Create proxy" }).click()
    const token = page.getByRole("textbox", { name: "Proxy token" })
    await token.waitFor()
    const first = await token.inputValue()
    expect(first.length).toBeGreaterThan(20)
    await regions.getByRole("rowheader", { name: /Europe West/ }).waitFor()
    expect(await regions.getByRole("cell", { name: "Not registered yet" }).count()).toBe(1)
    await expectAccessible(page)
    await screenshot(page, "admin-workspace-proxies")
    // The token works until a new one replaces it: the proxy may register with it.
    const register = (t: string) =>
      fetch(`${srv.url}/api/v2/workspaceproxies/me/register`, {
        method: "POST",
        headers: { "content-type": "application/json", "coder-external-proxy-session-token": t },
        body: JSON.stringify({ access_url: "http://127.0.0.1:9", replica_id: randomUUID() })
      }).then((r) => r.status)
    expect(await register(first)).toBe(201)
    await page.getByRole("button", { name: "Done" }).click()
    await page.getByRole("button", { name: "New token for eu-west" }).click()
    await expect.poll(async () => (await token.count()) > 0 && (await token.inputValue()) !== first).toBe(true)
    expect(await register(first)).toBe(401)
    await page.getByRole("button", { name: "Done" }).click()
    await page.getByRole("button", { name: "Delete eu-west" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Delete eu-west" }).click()
    await expect.poll(() => regions.getByRole("rowheader", { name: /Europe West/ }).count()).toBe(0)
    expect(((await owner.get("/workspaceproxies")).body.regions as Array<any>).map((r) => r.name)).toEqual(["primary"])
    expectNoProblems(page)
  })

  it("sets IdP sync: organization sync for the deployment, group and role sync for an organization", async () => {
    const target = await owner.post("/organizations", { name: "sync-target", display_name: "Sync Target" })
    expect(target.status).toBe(201)
    const group = await owner.post("/organizations/default/groups", { name: "engineers", display_name: "Engineers" })
    expect(group.status).toBe(201)
    const page = admin
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click()
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "IdP organization sync" })
      .click()
    await page.getByRole("heading", { name: "IdP organization sync", level: 1 }).waitFor()
    const orgSync = page.getByRole("form", { name: "Organization sync" })
    await orgSync.getByRole("combobox", { name: "Organization claim" }).fill("orgs")
    await orgSync.getByRole("checkbox", { name: "Also assign the default organization" }).check()
    await orgSync.getByRole("button", { name: "Save organization sync" }).click()
    await page.getByRole("status").filter({ hasText: "Organization sync saved." }).waitFor()
    const mapping = page.getByRole("form", { name: "New organization mapping" })
    await mapping.getByRole("textbox", { name: "Claim value" }).fill("acme")
    await mapping.getByRole("combobox", { name: "Organization" }).selectOption({ label: "Sync Target" })
    await mapping.getByRole("button", { name: "Add mapping" }).click()
    await page.getByRole("table", { name: "Claim values and their organizations" }).getByRole("rowheader", {
      name: "acme"
    }).waitFor()
    expect((await owner.get("/settings/idpsync/organization")).body).toEqual({
      field: "orgs",
      mapping: { acme: [target.body.id] },
      organization_assign_default: true
    })
    await expectAccessible(page)
    await screenshot(page, "admin-idp-org-sync")
    // Kept across a reload; then the mapping removed (confirmed).
    await page.reload()
    await expect.poll(() => orgSync.getByRole("combobox", { name: "Organization claim" }).inputValue()).toBe("orgs")
    await page.getByRole("button", { name: "Remove acme → Sync Target" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click()
    await page.getByText("No mappings yet.").waitFor()
    // As the described system, a claim value whose last mapping went stays, with nothing.
    expect((await owner.get("/settings/idpsync/organization")).body.mapping).toEqual({ acme: [] })

    // The default organization's group and role sync, a tab of the organization.
    await page.goto(`${srv.url}/organizations/default/idp-sync`)
    await page.getByRole("heading", { name: "IdP sync", level: 2 }).waitFor()
    const groupSync = page.getByRole("form", { name: "Group sync" })
    await groupSync.getByRole("combobox", { name: "Group claim" }).fill("groups")
    await groupSync.getByRole("textbox", { name: "Regex filter" }).fill("(unclosed")
    await groupSync.getByRole("button", { name: "Save group sync" }).click()
    // A regular expression that does not compile: the service's message under the field.
    await expect.poll(() => groupSync.getByRole("textbox", { name: "Regex filter" }).getAttribute("aria-invalid"))
      .toBe("true")
    expect(expectedProblems(page, /status of 400/)).toBe(1)
    await groupSync.getByRole("textbox", { name: "Regex filter" }).fill("^eng-")
    await groupSync.getByRole("checkbox", { name: "Create missing groups" }).check()
    await groupSync.getByRole("button", { name: "Save group sync" }).click()
    await page.getByRole("status").filter({ hasText: "Group sync saved." }).waitFor()
    const groupMapping = page.getByRole("form", { name: "New group mapping" })
    await groupMapping.getByRole("textbox", { name: "Claim value" }).fill("eng-devs")
    await groupMapping.getByRole("combobox", { name: "Group" }).selectOption({ label: "Engineers" })
    await groupMapping.getByRole("button", { name: "Add mapping" }).click()
    await page.getByRole("table", { name: "Claim values and their groups" }).getByRole("rowheader", {
      name: "eng-devs"
    })
      .waitFor()
    const roleSync = page.getByRole("form", { name: "Role sync" })
    await roleSync.getByRole("combobox", { name: "Role claim" }).fill("roles")
    await roleSync.getByRole("button", { name: "Save role sync" }).click()
    await page.getByRole("status").filter({ hasText: "Role sync saved." }).waitFor()
    const roleMapping = page.getByRole("form", { name: "New role mapping" })
    await roleMapping.getByRole("textbox", { name: "Claim value" }).fill("admins")
    await roleMapping.getByRole("combobox", { name: "Role" }).selectOption("organization-admin")
    await roleMapping.getByRole("button", { name: "Add mapping" }).click()
    await page.getByRole("table", { name: "Claim values and their roles" }).getByRole("rowheader", { name: "admins" })
      .waitFor()
    expect((await owner.get("/organizations/default/settings/idpsync/groups")).body).toMatchObject({
      field: "groups",
      regex_filter: "^eng-",
      auto_create_missing_groups: true,
      mapping: { "eng-devs": [group.body.id] }
    })
    expect((await owner.get("/organizations/default/settings/idpsync/roles")).body).toMatchObject({
      field: "roles",
      mapping: { admins: ["organization-admin"] }
    })
    await expectAccessible(page)
    await screenshot(page, "admin-idp-sync")
    expectNoProblems(page)
  })

  it("manages an organization: members and their roles, a group with a member and a quota, a custom role, provisioners", async () => {
    const page = admin
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Organizations" }).click()
    await page.getByRole("link", { name: "Coder" }).click()
    await page.getByRole("heading", { name: "Members", level: 2 }).waitFor()
    const mia = page.getByRole("row", { name: /mia/ })
    await mia.getByRole("button", { name: "Edit roles of mia" }).click()
    await page.getByRole("dialog", { name: "Roles of mia" }).getByRole("checkbox", { name: "Organization Auditor" })
      .check()
    await page.getByRole("dialog", { name: "Roles of mia" }).getByRole("button", { name: "Save roles" }).click()
    await expect.poll(() => mia.getByRole("cell", { name: "Organization Auditor" }).count()).toBe(1)
    await expectAccessible(page)

    // A new organization; mia added, then removed (confirmed).
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Organizations" }).click()
    await page.getByLabel("Name", { exact: true }).fill("research")
    await page.getByRole("button", { name: "Create organization" }).click()
    await page.getByRole("heading", { name: "research", level: 1 }).waitFor()
    await page.getByLabel("Username to add").fill("mia")
    await page.getByRole("button", { name: "Add member" }).click()
    await mia.waitFor()
    await mia.getByRole("button", { name: "Remove" }).click()
    await page.getByRole("dialog", { name: "Remove mia from the organization?" }).getByRole("button", {
      name: "Remove"
    })
      .click()
    await expect.poll(() => mia.count()).toBe(0)

    // A group in the default organization, with mia and a quota.
    await page.goto(`${srv.url}/organizations/coder/groups`)
    await page.getByLabel("Group name").fill("devs")
    await page.getByLabel("Quota allowance").fill("5")
    await page.getByRole("button", { name: "Create group" }).click()
    await page.getByRole("heading", { name: "devs", level: 2 }).waitFor()
    await page.getByLabel("Username to add to the group").fill("mia")
    await page.getByRole("button", { name: "Add to group" }).click()
    await page.getByRole("row", { name: /mia/ }).waitFor()
    await page.getByLabel("Quota allowance").fill("10")
    await page.getByRole("button", { name: "Save quota" }).click()
    await expect.poll(async () => (await owner.get(`/organizations/${orgId}/groups/devs`)).body.quota_allowance).toBe(
      10
    )
    expect((await owner.get(`/organizations/${orgId}/groups/devs`)).body.members.map((m: any) => m.username)).toEqual([
      "mia"
    ])
    await expectAccessible(page)
    await page.getByRole("link", { name: "Groups" }).first().click()
    await page.getByRole("row", { name: /devs/ }).getByRole("cell", { name: "10" }).waitFor()

    // A custom role with two permissions.
    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Roles" }).click()
    await page.getByRole("link", { name: "Create custom role" }).click()
    await page.getByLabel("Name", { exact: true }).fill("viewer")
    await page.getByLabel("Display name").fill("Viewer")
    await page.getByRole("checkbox", { name: "template: read" }).check()
    await page.getByRole("checkbox", { name: "workspace: read" }).check()
    await expectAccessible(page)
    await page.getByRole("button", { name: "Create role" }).click()
    const viewer = page.getByRole("row", { name: /Viewer/ })
    await viewer.getByRole("cell", { name: "Custom" }).waitFor()
    const role = (await owner.get(`/organizations/${orgId}/members/roles`)).body.find((r: any) => r.name === "viewer")
    expect(role.organization_permissions.map((p: any) => `${p.resource_type}:${p.action}`).sort())
      .toEqual(["template:read", "workspace:read"])
    // Edit: one more permission.
    await viewer.getByRole("link", { name: "Edit Viewer" }).click()
    expect(await page.getByRole("checkbox", { name: "template: read" }).isChecked()).toBe(true)
    await page.getByRole("checkbox", { name: "group: read" }).check()
    await page.getByRole("button", { name: "Save role" }).click()
    await viewer.waitFor()
    await expect.poll(async () =>
      (await owner.get(`/organizations/${orgId}/members/roles`)).body.find((r: any) => r.name === "viewer")
        .organization_permissions.length
    ).toBe(3)

    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Provisioners" }).click()
    await page.getByRole("table", { name: "Provisioner daemons" }).getByRole("rowheader", { name: /built-in-1/ })
      .waitFor()
    // No hosts until an external daemon names one and reports its capacity.
    await page.getByRole("paragraph").filter({ hasText: "No provisioner hosts" }).waitFor()
    expect(await page.getByRole("table", { name: "Provisioner hosts" }).count()).toBe(0)
    await expectAccessible(page)

    // A daemon with a provisioner key names its host and reports it; the page (reloaded) shows its figures.
    const key = await owner.post(`/organizations/${orgId}/provisionerkeys`, { name: "rack", tags: { pool: "rack" } })
    expect(key.status, JSON.stringify(key.body)).toBe(201)
    const daemon = await connect(
      `${srv.wsUrl}/api/v2/organizations/${orgId}/provisionerdaemons/serve?provisioner=docker&name=docker-a&host=rack-7`,
      { "Coder-Provisioner-Daemon-Key": key.body.key, "Coder-Build-Version": "v2.24.1" }
    )
    try {
      await expect.poll(() => daemon.messages.length).toBeGreaterThan(0)
      daemon.socket.send(JSON.stringify({
        type: "capacity",
        cpus: 16,
        memory_bytes: 64 * 1024 ** 3,
        memory_promised_bytes: 1.5 * 1024 ** 3,
        cpus_promised: 4.5,
        containers: 3,
        disk_free_bytes: null
      }))
      await expect.poll(async () => (await owner.get(`/organizations/${orgId}/provisionerhosts`)).body.length).toBe(1)
      await page.reload()
      const host = page.getByRole("table", { name: "Provisioner hosts" }).getByRole("row", { name: /rack-7/ })
      await host.waitFor()
      expect(await host.getByRole("cell").allTextContents()).toEqual([
        "connected",
        "pool=rack scope=organization",
        "v2.24.1",
        "4.5 of 16",
        "1.5 GiB of 64 GiB",
        "3",
        "unknown",
        "docker-a",
        expect.stringMatching(/^(now|\d+ seconds ago)$/),
        "Drain"
      ])
      await page.getByRole("table", { name: "Provisioner daemons" }).getByRole("rowheader", { name: /docker-a/ })
        .waitFor()
      await expectAccessible(page)

      // The owner (who may manage daemons) drains the host, then takes it back.
      await host.getByRole("button", { name: "Drain rack-7" }).click()
      await host.getByRole("cell", { name: /^(connected|offline), draining$/ }).waitFor()
      await host.getByRole("button", { name: "Undrain rack-7" }).waitFor()
      expect((await owner.get(`/organizations/${orgId}/provisionerhosts`)).body[0].draining).toBe(true)
      await expectAccessible(page)
      await host.getByRole("button", { name: "Undrain rack-7" }).click()
      await host.getByRole("button", { name: "Drain rack-7" }).waitFor()
      // The row's cells follow the host list's next read (the button may come first).
      await expect.poll(() => host.getByRole("cell", { name: /draining/ }).count()).toBe(0)
      expect((await owner.get(`/organizations/${orgId}/provisionerhosts`)).body[0].draining).toBe(false)

      // A member is refused the page; one who may edit the organization but not manage its daemons
      // (a custom role) sees the host without the button.
      const memberContext = await browser.newContext()
      const memberPage = await watchedPage(memberContext, /401|403|404/)
      await signIn(memberPage, srv.url, member.email)
      await memberPage.goto(`${srv.url}/organizations/coder/provisioners`)
      await memberPage.getByRole("alert").filter({ hasText: "You do not have permission to view this page" }).waitFor()
      expect(await memberPage.getByRole("button", { name: /Drain/ }).count()).toBe(0)
      expectNoProblems(memberPage)
      await memberContext.close()
      const editorRole = await owner.post(`/organizations/${orgId}/members/roles`, {
        name: "org-editor",
        display_name: "Organization editor",
        organization_permissions: [{ resource_type: "organization", action: "update", negate: false }]
      })
      expect(editorRole.status, JSON.stringify(editorRole.body)).toBe(200)
      const editor = await createUser(owner, { username: "olga", organization_ids: [orgId] })
      const assigned = await owner.put(`/organizations/${orgId}/members/${editor.user.id}/roles`, {
        roles: ["org-editor"]
      })
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(200)
      const editorContext = await browser.newContext()
      const editorPage = await watchedPage(editorContext, /401|403|404/)
      await signIn(editorPage, srv.url, editor.email)
      await editorPage.goto(`${srv.url}/organizations/coder/provisioners`)
      const seen = editorPage.getByRole("table", { name: "Provisioner hosts" }).getByRole("row", { name: /rack-7/ })
      await seen.getByRole("cell", { name: /^(connected|offline)$/ }).waitFor()
      expect(await editorPage.getByRole("button", { name: /Drain/ }).count()).toBe(0)
      expect(await editorPage.getByRole("columnheader", { name: "Actions" }).count()).toBe(0)
      await expectAccessible(editorPage)
      expectNoProblems(editorPage)
      await editorContext.close()
    } finally {
      daemon.socket.close()
    }
  })

  it("saves the appearance (the banner shown above the pages) and shows settings, licenses and health", async () => {
    const page = admin
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Appearance" }).click()
    await page.getByLabel("Banner message").fill("Maintenance on Sunday at 06:00")
    await page.getByLabel("Show the service banner").check()
    await page.getByLabel("Application name").fill("Acme Workbay")
    await expectAccessible(page)
    await page.getByRole("button", { name: "Save appearance" }).click()
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor()
    await page.getByRole("region", { name: "Service banner" }).getByText("Maintenance on Sunday at 06:00").waitFor()
    expect((await owner.get("/appearance")).body.service_banner.enabled).toBe(true)
    // A member sees it too.
    const context = await browser.newContext()
    const hers = await watchedPage(context)
    await signIn(hers, srv.url, member.email)
    await hers.getByRole("region", { name: "Service banner" }).getByText("Maintenance on Sunday at 06:00").waitFor()
    await expectAccessible(hers)
    expectNoProblems(hers)
    await context.close()

    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "General" }).click()
    const settings = page.getByRole("table", { name: /Deployment settings/ })
    await settings.getByRole("cell", { name: srv.url, exact: true }).first().waitFor()
    await page.getByLabel("Filter settings").fill("access")
    await expect.poll(() => settings.getByRole("row").count()).toBeLessThan(10)
    await expectAccessible(page)

    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Licenses" }).click()
    await page.getByText("No license added.").waitFor()
    await page.getByRole("table", { name: "Features and their entitlements" }).getByRole("rowheader", {
      name: "audit log"
    })
      .waitFor()
    await expectAccessible(page)

    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Health" }).click()
    await expect.poll(() => page.getByRole("status", { name: "Deployment health" }).textContent()).toMatch(/^Healthy/)
    await page.getByRole("table", { name: "Health checks" }).getByRole("rowheader", { name: "Database" }).waitFor()
    await expectAccessible(page)
  })

  it("draws the insights' charts, each with a table of its figures", async () => {
    const page = admin
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Insights" }).click()
    await page.getByRole("heading", { name: "Insights", level: 1 }).waitFor()
    for (
      const name of [
        "Daily active users",
        "Template usage: active users per day",
        "User activity: minutes in workspaces",
        "User latency (milliseconds)"
      ]
    ) {
      const figure = page.getByRole("figure", { name })
      await figure.waitFor()
      expect(
        await figure.getByRole("img", { name: new RegExp(`^${name.replace(/[()]/g, "\\$&")}: chart`) }).locator(
          "canvas"
        ).count()
      ).toBe(1)
      expect(await figure.getByRole("table", { name }).count()).toBe(1)
    }
    // Some data: the owner's ten minutes, their latency, and one active user today.
    const activity = page.getByRole("table", { name: "User activity: minutes in workspaces" })
    expect(await activity.getByRole("row", { name: /admin/ }).getByRole("cell").textContent()).toMatch(
      /^\d+(\.\d)? min$/
    )
    const latency = page.getByRole("table", { name: "User latency (milliseconds)" })
    expect(await latency.getByRole("row", { name: /admin/ }).count()).toBe(1)
    const dauCells = await page.getByRole("table", { name: "Daily active users" }).getByRole("cell").allTextContents()
    expect(dauCells.some((c) => Number(c) >= 1)).toBe(true)
    await expectAccessible(page)
    await screenshot(page, "admin-insights")
    expectNoProblems(page)
  })
})
