/**
 * The administration against a real service (in-memory SQLite, the dashboard mounted as
 * embedders do) in Debian's Chromium, through roles and accessible names only: the "Admin" entry
 * shown by `POST /authcheck` (to the owner, not to a member, who is refused at an admin address
 * with a message), users (create with the form's checks, search, roles, suspend, which sends the
 * suspended user's open page to sign in, activate, delete), the audit log (its `q` filter and
 * pages), an organization's members, groups and custom roles, appearance (the service banner),
 * deployment settings, licenses, health, and the insights' charts with their tables. axe on every
 * page (the users page in dark too). One service and one browser for the file's tests.
 *
 * Skipped, saying so, when /usr/bin/chromium is missing; under CI that fails instead.
 */
import { dashboardDir } from "@workbay/dashboard"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  type ServiceTestServer,
  startWithOwner,
  type TestUser
} from "../../http/test/support.js"
import {
  browserAvailable,
  expectAccessible,
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
  let member: TestUser
  let browser: Browser
  let admin: Page

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ dashboard: { dir: dashboardDir } }))
    member = await createUser(owner, { username: "mia" })
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
      .toEqual(["Users", "Organizations", "Audit log", "Insights", "General", "Appearance", "Licenses", "Health"])
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
    await hers.getByRole("heading", { name: "Sign in to Workbay" }).waitFor({ timeout: 10_000 })
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

    await page.getByRole("searchbox", { name: "Search users" }).fill("")
    await page.getByRole("searchbox", { name: "Search users" }).press("Enter")
    await mia.waitFor()
    await expectAccessible(page)
    await screenshot(page, "admin-users")
    const dark = await watchedPage(
      await browser.newContext({ colorScheme: "dark", viewport: { width: 1200, height: 800 } })
    )
    await signIn(dark, srv.url, "admin@example.com")
    await dark.goto(`${srv.url}/deployment/users`)
    await dark.getByRole("row", { name: /mia/ }).waitFor()
    await expectAccessible(dark)
    await screenshot(dark, "admin-users-dark")
    expectNoProblems(dark)
    await dark.context().close()
  })
})
