/**
 * The dashboard's end-to-end flow, as a person goes through it, on one real service (no user yet,
 * the dashboard mounted as embedders do, its own provisioner workers building), the REAL
 * reference agent and Debian's Chromium, through roles and accessible names only:
 *
 * the first user set up → a template created from the Basic starter (its import's log) → a
 * workspace created from its page's form, built live with no quota set up (the starter costs
 * credits; no group has an allowance, so none applies and the form shows none) → a quota budget
 * for everyone saved in the Everyone group's page, which the create form then shows without a
 * reload → a second workspace, of a template whose
 * agent the real reference agent runs: its agent seen connecting and ready, its terminal running a
 * command → stop and start → a second user created by the administrator (the "account created"
 * notification arrives in the owner's inbox live, and is read) → the workspace shared with them,
 * and listed in their own browser → the administrator suspends them, and their next step in the
 * dashboard is the sign-in page.
 *
 * Skipped, saying so, when /usr/bin/chromium is missing; under CI that fails instead.
 */
import { startAgent } from "@workbay/agent"
import { Notifier } from "@workbay/core"
import { dashboardDir } from "@workbay/dashboard"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventually } from "../../agent/test/support.js"
import { Client, type ServiceTestServer, startServiceTestServer, STRONG_PASSWORD } from "../../http/test/support.js"
import { makeTemplate } from "../../http/test/workspaces/fixtures.js"
import { browserAvailable, expectAccessible, expectNoProblems, launchBrowser, signIn, watchedPage } from "./browser.js"

const available = browserAvailable("the dashboard's end-to-end flow")

const EXTERNAL_TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        external: true
`

describe.skipIf(!available)("the dashboard, end to end, in Chromium", () => {
  let srv: ServiceTestServer
  let browser: Browser
  let agent: { stop: () => Promise<void> } | undefined
  const directory = mkdtempSync(join(tmpdir(), "workbay-dashboard-flow-"))

  beforeAll(async () => {
    srv = await startServiceTestServer({ dashboard: { dir: dashboardDir }, notifier: false })
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await agent?.stop()
    await browser?.close()
    await srv?.close()
    rmSync(directory, { recursive: true, force: true })
  })

  /** Sends every queued notification now (the notifier's fetch; its periodic fiber is off). */
  const dispatch = async () => {
    for (;;) {
      const r = await srv.run(Effect.flatMap(Notifier, (n) => n.dispatchOnce))
      if (r.leased === 0) return
    }
  }
  const workspaceStatus = (page: Page) => page.getByRole("status", { name: "Workspace status" })
  const quotaShown = (page: Page) => page.getByRole("status", { name: "Quota" })
  /**
   * Opens the create-workspace form with `open`, and waits until it has its answer on the quota:
   * with a budget of 0, whether a group of the organization has an allowance (its groups read),
   * then a frame for the answer to be drawn.
   */
  const openCreateForm = async (page: Page, open: () => Promise<void>) => {
    const asked = page.waitForResponse((r) => r.url().includes("/paginated-groups"))
    await open()
    await page.getByRole("heading", { name: "Parameters" }).waitFor()
    await asked
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  }

  it(
    "goes from the first user to a shared, running workspace with a terminal, the inbox, and a suspension",
    async () => {
      const page = await watchedPage(await browser.newContext({ viewport: { width: 1200, height: 900 } }))

      // The first user.
      await page.goto(`${srv.url}/`)
      await page.getByRole("heading", { name: "Create the first user" }).waitFor()
      await page.getByLabel("Email").fill("olivia@example.com")
      await page.getByLabel("Username").fill("olivia")
      await page.getByLabel("Full name").fill("Olivia Owner")
      await page.getByLabel("Password").fill(STRONG_PASSWORD)
      await page.getByRole("button", { name: "Create account" }).click()
      await page.getByRole("heading", { name: "Workspaces" }).waitFor()

      // A template from the Basic starter, its import's log shown.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Templates" }).click()
      await page.getByRole("link", { name: "Create template" }).click()
      await page.getByRole("button", { name: "Use Basic workspace" }).click()
      await expect.poll(() => page.getByRole("status", { name: "Import status" }).textContent())
        .toMatch(/Succeeded/)
      expect(await page.getByRole("log", { name: "Import log" }).textContent()).not.toBe("")
      await page.getByRole("textbox", { name: "Name", exact: true }).fill("basic")
      await page.getByRole("button", { name: "Create template" }).click()
      await page.getByRole("heading", { name: "Basic workspace", level: 3 }).waitFor()

      // A workspace from the template's page: the parameter form, then the build live. The
      // starter's resources cost credits, but no group has a quota allowance: no quota applies, the
      // form shows none, and the build goes through.
      await openCreateForm(page, () => page.getByRole("link", { name: "Create workspace" }).click())
      expect(await quotaShown(page).count()).toBe(0)
      await page.getByRole("textbox", { name: "Workspace name" }).fill("first")
      await page.getByRole("button", { name: "Create workspace" }).click()
      await page.getByRole("heading", { name: "first", level: 1 }).waitFor()
      expect(new URL(page.url()).pathname).toBe("/@olivia/first")
      await expect.poll(() => workspaceStatus(page).textContent()).toBe("Running")
      await expect.poll(() => page.getByRole("log", { name: "Latest build's logs" }).textContent())
        .toContain("first")

      // Its 5 credits a day are counted, still with no quota shown; then the administrator gives
      // everyone a budget (the Everyone group's allowance), and the form, opened again by the links
      // (no reload), shows it.
      const main = page.getByRole("navigation", { name: "Main" })
      const openBasicForm = async () => {
        await main.getByRole("link", { name: "Workspaces" }).click()
        await page.getByRole("link", { name: "New workspace" }).click()
        await page.getByRole("link", { name: "basic", exact: true }).click()
      }
      await openCreateForm(page, openBasicForm)
      expect(await quotaShown(page).count()).toBe(0)
      await main.getByRole("link", { name: "Admin" }).click()
      await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Organizations" })
        .click()
      await page.getByRole("link", { name: "Coder" }).click()
      await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Groups" }).click()
      await page.getByRole("link", { name: "Everyone" }).click()
      await page.getByLabel("Quota allowance").fill("20")
      await page.getByRole("button", { name: "Save quota" }).click()
      await page.getByRole("status").filter({ hasText: "Quota saved." }).waitFor()
      await openBasicForm()
      await expect.poll(() => quotaShown(page).textContent()).toBe("Quota: 5 of 20 credits used")

      // A workspace whose agent the real reference agent runs: connected and ready, its terminal.
      const owner = new Client(`${srv.url}/api/v2`).as(
        (await new Client(`${srv.url}/api/v2`).post("/users/login", {
          email: "olivia@example.com",
          password: STRONG_PASSWORD
        })).body.session_token
      )
      const orgId = (await owner.get("/users/me")).body.organization_ids[0] as string
      await makeTemplate(srv, owner, orgId, EXTERNAL_TEMPLATE, { name: "external", display_name: "External agent" })
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspaces" }).click()
      await page.getByRole("link", { name: "New workspace" }).click()
      await page.getByRole("link", { name: "External agent" }).click()
      await page.getByRole("textbox", { name: "Workspace name" }).fill("dev")
      await page.getByRole("button", { name: "Create workspace" }).click()
      await page.getByRole("heading", { name: "dev", level: 1 }).waitFor()
      await expect.poll(() => workspaceStatus(page).textContent()).toBe("Running")
      const dev = (await owner.get("/users/olivia/workspace/dev")).body
      const credentials = await owner.get(`/workspaces/${dev.id}/external-agent/main/credentials`)
      expect(credentials.status, JSON.stringify(credentials.body)).toBe(200)
      agent = await startAgent({
        url: srv.url,
        token: credentials.body.agent_token,
        auth: "token",
        directory,
        logDir: directory,
        log: () => {}
      })
      const agentRow = page.getByRole("row", { name: /main/ })
      await expect.poll(() => agentRow.getByRole("cell", { name: "Connected" }).count()).toBe(1)
      await expect.poll(() => agentRow.getByRole("cell", { name: "Ready" }).count()).toBe(1)
      await expectAccessible(page)
      await agentRow.getByRole("link", { name: /Open terminal/ }).click()
      await expect.poll(() => page.getByRole("status", { name: "Terminal status" }).textContent())
        .toBe("Connected")
      await page.getByRole("textbox", { name: "Terminal input" }).focus()
      await page.keyboard.type(`echo "flow-$((20+22))"`)
      await page.keyboard.press("Enter")
      await expect.poll(() => page.getByRole("listitem").filter({ hasText: /^\s*flow-42\s*$/ }).count())
        .toBeGreaterThan(0)

      // Stop, then start: the status follows each build live.
      await page.getByRole("link", { name: "Back to dev" }).click()
      await page.getByRole("button", { name: "Stop", exact: true }).click()
      await expect.poll(() => workspaceStatus(page).textContent()).toBe("Stopped")
      await agent.stop()
      agent = undefined
      await page.getByRole("button", { name: "Start", exact: true }).click()
      await expect.poll(() => workspaceStatus(page).textContent()).toBe("Running")

      // The administrator creates a second user: the "account created" notification reaches the
      // owner's inbox while the page is open (the badge, live), and is read.
      // (What the steps so far sent is delivered first, so the badge counts the new one alone.)
      await dispatch()
      const badge = page.getByRole("link", { name: /^Inbox, \d+ unread$/ })
      const unread = async () => Number((await badge.getAttribute("aria-label"))!.match(/\d+/)![0])
      const before = (await owner.get("/notifications/inbox")).body.unread_count as number
      await expect.poll(unread).toBe(before)
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click()
      await page.getByRole("link", { name: "Create user" }).click()
      await page.getByLabel("Email").fill("mia@example.com")
      await page.getByLabel("Username").fill("mia")
      await page.getByLabel("Password").fill(STRONG_PASSWORD)
      await page.getByRole("button", { name: "Create user" }).click()
      await page.getByRole("heading", { name: "Users", level: 1 }).waitFor()
      await page.getByRole("row", { name: /mia/ }).waitFor()
      await dispatch()
      await expect.poll(unread).toBe(before + 1)
      await badge.click()
      await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor()
      const created = page.getByRole("listitem").filter({ hasText: "mia" }).first()
      await created.getByRole("button", { name: /^Mark “.*” as read$/ }).click()
      await expect.poll(unread).toBe(before)
      await page.getByRole("button", { name: "Mark all as read" }).click()
      await expect.poll(unread).toBe(0)

      // The first workspace shared with mia, who then lists it in her own browser.
      await page.goto(`${srv.url}/@olivia/first`)
      await page.getByRole("textbox", { name: "Username" }).fill("mia")
      await page.getByRole("button", { name: "Share", exact: true }).click()
      await page.getByRole("row", { name: /mia/ }).waitFor()
      const mias = await watchedPage(await browser.newContext(), /401|403|404/)
      await signIn(mias, srv.url, "mia@example.com")
      await mias.getByRole("link", { name: "first" }).waitFor()
      expect(await mias.getByRole("link", { name: "dev" }).count()).toBe(0)

      // The administrator suspends mia: her next step in the dashboard is the sign-in page.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click()
      const row = page.getByRole("row", { name: /mia/ })
      await row.getByRole("button", { name: "Suspend" }).click()
      await page.getByRole("dialog", { name: "Suspend mia?" }).getByRole("button", { name: "Suspend" }).click()
      await expect.poll(() => row.getByRole("cell", { name: "Suspended" }).count()).toBe(1)
      await mias.getByRole("link", { name: "first" }).click()
      await mias.getByRole("heading", { name: "Sign in to Workbay" }).waitFor()
      expect(new URL(mias.url()).pathname).toBe("/login")

      expectNoProblems(mias)
      expectNoProblems(page)
      await eventually(async () => (await owner.get("/users/mia")).body.status, (s) => s === "suspended", "suspended")
    },
    150_000
  )
})
