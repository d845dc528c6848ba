/**
 * Tasks in Chromium against a real service (in-memory SQLite, the built-in provisioner workers,
 * the dashboard mounted as embedders do), with the http package's AI task template: the agent
 * `main` runs the app `claude`. Its agent is scripted over a real WebSocket on the agent
 * connection (its token set by the test, as the http package's task tests do). Through roles
 * and accessible names only: "Tasks" in the navigation → the empty list → a task created from a
 * prompt → its page: the prompt in its logs, its status following the workspace (its watch) to
 * "Active" when the agent is ready, and the agent's report shown → the list with the task → a
 * message sent to the agent, in the conversation → pause, a new prompt, resume → delete after its
 * dialog. axe on both pages, in light and in dark for the list.
 */
import { dashboardDir } from "@workbay/dashboard"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { AI_TEMPLATE, connectAgent } from "../../http/test/tasks/fixtures.js"
import { makeTemplate } from "../../http/test/workspaces/fixtures.js"
import {
  browserAvailable,
  expectAccessible,
  expectNoProblems,
  launchBrowser,
  screenshot,
  signIn,
  watchedPage
} from "./browser.js"

const available = browserAvailable("the tasks' browser test")

describe.skipIf(!available)("tasks in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let template: { id: string; name: string; active_version_id: string }

  beforeAll(async () => {
    let orgId: string
    ;({ srv, owner, orgId } = await startWithOwner({ dashboard: { dir: dashboardDir } }))
    template = await makeTemplate(srv, owner, orgId, AI_TEMPLATE)
  })
  afterAll(() => srv?.close())

  it("creates a task from a prompt and follows it on its page", async () => {
    const browser = await launchBrowser()
    try {
      const context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
      const page = await watchedPage(context)
      await signIn(page, srv.url, "admin@example.com")
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tasks" }).click()
      await page.getByRole("heading", { name: "Tasks", level: 1 }).waitFor()
      await page.getByText("No tasks yet.").waitFor()
      await expectAccessible(page)

      await page.getByRole("textbox", { name: "Prompt" }).fill("Fix the login bug\nIt fails on Safari.")
      await page.getByRole("combobox", { name: "Template" }).selectOption({ label: template.name })
      await page.getByRole("button", { name: "Create task" }).click()
      await page.getByRole("heading", { name: "Fix the login bug", level: 1 }).waitFor()
      const task = (await owner.get("/tasks")).body.tasks[0]
      expect(new URL(page.url()).pathname).toBe(`/tasks/${task.owner_name}/${task.id}`)
      expect(task.initial_prompt).toBe("Fix the login bug\nIt fails on Safari.")

      // The build runs (the workspace's watch): initializing until the agent is ready.
      const status = page.getByRole("status", { name: "Task status" })
      await expect.poll(() => status.textContent()).toBe("Initializing")
      expect(await page.getByRole("status", { name: "Task state" }).textContent()).toBe("No report yet")
      const logs = page.getByRole("list", { name: "Task logs" })
      await expect.poll(() => logs.getByRole("listitem").first().textContent()).toContain(
        "Fix the login bug"
      )
      const ws = await connectAgent(srv, owner, task.workspace_id.uuid)
      const asAgent = owner.as(ws.token)
      await expect.poll(() => status.textContent()).toBe("Active")

      // The agent's report, live (the workspace's watch), and after a reload.
      const report = await asAgent.patch("/workspaceagents/me/app-status", {
        app_slug: "claude",
        state: "working",
        message: "Reading the code",
        uri: "https://example.com/pr/1"
      })
      expect(report.status, JSON.stringify(report.body)).toBe(200)
      const state = page.getByRole("status", { name: "Task state" })
      await expect.poll(() => state.textContent()).toBe("Working: Reading the code")
      await page.reload()
      await expect.poll(() => state.textContent()).toBe("Working: Reading the code")
      await expectAccessible(page)
      await screenshot(page, "task")

      // The list, in light and dark.
      await page.getByRole("link", { name: "All tasks" }).click()
      const row = page.getByRole("row", { name: /Fix the login bug/ })
      await row.waitFor()
      await expect.poll(() => row.getByRole("cell", { name: "Active" }).count()).toBe(1)
      expect(await row.getByRole("cell", { name: "Working: Reading the code" }).count()).toBe(1)
      await expectAccessible(page)
      await screenshot(page, "tasks")
      const dark = await browser.newContext({
        colorScheme: "dark",
        viewport: { width: 1100, height: 800 },
        storageState: await context.storageState()
      })
      const darkPage = await watchedPage(dark)
      await darkPage.goto(`${srv.url}/tasks`)
      await darkPage.getByRole("row", { name: /Fix the login bug/ }).waitFor()
      await expectAccessible(darkPage)
      await screenshot(darkPage, "tasks-dark")
      await dark.close()

      // A message to the running agent, in the conversation at once.
      await row.getByRole("link", { name: /Fix the login bug/ }).click()
      await page.getByRole("textbox", { name: "Message to the agent" }).fill("Also check Firefox.")
      await page.getByRole("button", { name: "Send", exact: true }).click()
      await expect.poll(() => logs.getByRole("listitem").last().textContent()).toContain(
        "Also check Firefox."
      )
      expect(await page.getByRole("textbox", { name: "Message to the agent" }).inputValue()).toBe("")

      // Pause (the workspace stops), a new prompt, resume (it starts again with it).
      const actions = page.getByRole("group", { name: "Task actions" })
      await actions.getByRole("button", { name: "Pause" }).click()
      await expect.poll(() => status.textContent()).toBe("Paused")
      await page.getByRole("button", { name: "Change the prompt" }).click()
      await page.getByRole("textbox", { name: "New prompt" }).fill("Fix the login bug on Safari and Firefox")
      await page.getByRole("button", { name: "Save the prompt" }).click()
      // Saved once the form closes (the text alone is already in the form's own textarea).
      await page.getByRole("textbox", { name: "New prompt" }).waitFor({ state: "detached" })
      await page.getByText("Fix the login bug on Safari and Firefox").waitFor()
      expect((await owner.get(`/tasks/${task.owner_name}/${task.id}`)).body.initial_prompt).toBe(
        "Fix the login bug on Safari and Firefox"
      )
      await expectAccessible(page)
      await actions.getByRole("button", { name: "Resume" }).click()
      await expect.poll(() => status.textContent()).toBe("Initializing")

      // Delete, after its dialog: back to the list, which empties once the workspace is gone.
      await actions.getByRole("button", { name: "Delete" }).click()
      await page.getByRole("dialog", { name: /Delete the task/ }).getByRole("button", { name: "Delete task" }).click()
      await page.getByRole("heading", { name: "Tasks", level: 1 }).waitFor()
      await expect.poll(async () => (await owner.get("/tasks")).body.count).toBe(0)

      ws.socket.close(1000)
      await ws.closed
      expectNoProblems(page)
    } finally {
      await browser.close()
    }
  })
})
