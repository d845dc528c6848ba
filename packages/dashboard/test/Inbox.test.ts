/**
 * The inbox in Chromium against a real service (in-memory SQLite, the dashboard mounted as
 * embedders do). Notifications are delivered through the service's own `InboxDelivery` port, as
 * its notifier does (`deliver` of the http package's inbox tests). Through roles and accessible
 * names only: the frame's badge counts the unread ones and follows a new one live (the watch, no
 * reload); a notification whose markdown carries an `<img onerror>` and a `javascript:` action is
 * shown harmlessly (the markup as text, no image, no script, no such link); one marked read, then
 * all; the notification preferences toggled and still so after a reload. axe on every page, in
 * light and in dark for the inbox.
 */
import { TemplateIds } from "@workbay/core"
import { dashboardDir } from "@workbay/dashboard"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { deliver } from "../../http/test/notifications/InboxFixtures.js"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import {
  browserAvailable,
  expectAccessible,
  expectNoProblems,
  launchBrowser,
  screenshot,
  signIn,
  watchedPage
} from "./browser.js"

const available = browserAvailable("the inbox's browser test")

const WORKSPACE_DELETED = TemplateIds.workspaceDeleted

describe.skipIf(!available)("the inbox in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string

  beforeAll(async () => {
    ;({ srv, owner, ownerId } = await startWithOwner({ dashboard: { dir: dashboardDir } }))
  })
  afterAll(() => srv?.close())

  const badge = (page: Page) => page.getByRole("link", { name: /^Inbox, \d+ unread$/ })
  const badgeName = async (page: Page) => (await badge(page).getAttribute("aria-label")) ?? ""

  it("counts unread notifications live, renders markdown harmlessly, marks read, keeps preferences", async () => {
    await deliver(srv, ownerId, {
      title: "Workspace **first** was *stopped*",
      content: "Your workspace [first](http://example.com/@admin/first) was stopped.",
      actions: [{ label: "View workspaces", url: "http://example.com/workspaces" }]
    })
    const browser = await launchBrowser()
    try {
      const context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
      const page = await watchedPage(context)
      await signIn(page, srv.url, "admin@example.com")
      await expect.poll(() => badgeName(page)).toBe("Inbox, 1 unread")

      // A new notification arrives while the page is open: the badge follows (the watch).
      let listReads = 0
      page.on("request", (r) => {
        if (r.url().includes("/api/v2/notifications/inbox") && r.method() === "GET" && !r.url().includes("watch")) {
          listReads++
        }
      })
      // Let the watch connect before delivering.
      await page.waitForTimeout(300)
      await deliver(srv, ownerId, {
        title: "A **hostile** note",
        content: `Look: <img src="x" onerror="window.pwned = 1"> and **bold** \`code\`.\n\n- one\n- two\n\n` +
          "![tracking pixel](https://tracker.example/p.png)",
        actions: [
          { label: "Open it", url: "javascript:window.pwned = 2" },
          { label: "View templates", url: "http://example.com/templates" }
        ]
      })
      await expect.poll(() => badgeName(page)).toBe("Inbox, 2 unread")
      expect(listReads).toBe(0)

      // The inbox: newest first, unread ones said so, the markdown rendered and the markup inert.
      await badge(page).click()
      await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor()
      const list = page.getByRole("list", { name: "Notifications" })
      const items = list.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 2 }) })
      await expect.poll(() => items.count()).toBe(2)
      expect(await items.nth(0).getByRole("heading", { level: 2 }).textContent()).toBe("Unread:A hostile note")
      expect(await items.nth(1).getByRole("heading", { level: 2 }).textContent()).toBe(
        "Unread:Workspace first was stopped"
      )
      const hostile = items.nth(0)
      expect(await hostile.getByText(`<img src="x" onerror="window.pwned = 1">`).count()).toBe(1)
      expect(await page.getByRole("img").count()).toBe(0)
      expect(await hostile.getByRole("listitem").count()).toBe(2)
      expect(await hostile.getByText("tracking pixel").count()).toBe(1)
      expect(await hostile.getByRole("link", { name: "Open it" }).count()).toBe(0)
      expect(await hostile.getByText("Open it").count()).toBe(1)
      expect(await hostile.getByRole("link", { name: "View templates" }).getAttribute("href")).toBe(
        "http://example.com/templates"
      )
      expect(await items.nth(1).getByRole("link", { name: "first" }).getAttribute("href")).toBe(
        "http://example.com/@admin/first"
      )
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
      await expectAccessible(page)
      await screenshot(page, "inbox")

      // The same page in dark.
      const dark = await browser.newContext({
        colorScheme: "dark",
        viewport: { width: 1100, height: 800 },
        storageState: await context.storageState()
      })
      const darkPage = await watchedPage(dark)
      await darkPage.goto(`${srv.url}/inbox`)
      await darkPage.getByRole("list", { name: "Notifications" }).waitFor()
      await expectAccessible(darkPage)
      await screenshot(darkPage, "inbox-dark")
      await dark.close()

      // Mark one read: the badge and the status follow; then all.
      await page.getByRole("button", { name: "Mark “A hostile note” as read" }).click()
      await expect.poll(() => badgeName(page)).toBe("Inbox, 1 unread")
      expect(await page.getByRole("status", { name: "Unread notifications" }).textContent()).toBe("1 unread")
      expect(await items.nth(0).getByRole("heading", { level: 2 }).textContent()).toBe("A hostile note")
      await page.getByRole("button", { name: "Mark all as read" }).click()
      await expect.poll(() => badgeName(page)).toBe("Inbox, 0 unread")
      expect(await page.getByRole("button", { name: /^Mark “/ }).count()).toBe(0)
      const stored = (await owner.get("/notifications/inbox")).body
      expect(stored.unread_count).toBe(0)
      expect(stored.notifications.every((n: { read_at: string | null }) => n.read_at !== null)).toBe(true)

      // After a reload the state is the service's.
      await page.reload()
      await expect.poll(() => badgeName(page)).toBe("Inbox, 0 unread")
      await expect.poll(() => page.getByRole("status", { name: "Unread notifications" }).textContent()).toBe("All read")

      // Preferences: turn one template off, still off after a reload, and so in the service.
      await page.getByRole("link", { name: "Account" }).click()
      await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Notifications" }).click()
      await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor()
      const deleted = page.getByRole("checkbox", { name: "Workspace Deleted", exact: true })
      expect(await deleted.isChecked()).toBe(true)
      await deleted.click()
      await page.getByRole("status").filter({ hasText: "Preferences saved." }).waitFor()
      expect(await deleted.isChecked()).toBe(false)
      await expectAccessible(page)
      await screenshot(page, "settings-notifications")
      await page.reload()
      await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor()
      await expect.poll(() => deleted.isChecked()).toBe(false)
      const prefs = (await owner.get("/users/me/notifications/preferences")).body as Array<
        { id: string; disabled: boolean }
      >
      expect(prefs.find((p) => p.id === WORKSPACE_DELETED)?.disabled).toBe(true)
      await deleted.click()
      await expect.poll(
        async () =>
          ((await owner.get("/users/me/notifications/preferences")).body as Array<{ id: string; disabled: boolean }>)
            .find((p) => p.id === WORKSPACE_DELETED)?.disabled
      ).toBe(false)

      expectNoProblems(page)
    } finally {
      await browser.close()
    }
  })
})
