/**
 * The workspace page and the web terminal against real parts only: a real service (in-memory
 * SQLite, the dashboard mounted as embedders do), a workspace whose agent is external with the
 * REAL reference agent running it (`startAgent`, a real shell in a real pty), and Debian's
 * Chromium (playwright-core). Through roles and accessible names only: sign in, open the
 * workspace from the list, see its agent connected, open its terminal, run a command and read its
 * output (xterm's screen-reader mode puts it in the accessibility tree), reload and read it again
 * (the same `?reconnect=` id: the agent replays the recent output). No Content-Security-Policy
 * violation and no page error;
 * axe finds no serious or critical violation on the workspace page.
 *
 * Skipped, saying so, when /usr/bin/chromium is missing; under CI that fails instead.
 */
import { startAgent } from "@workbay/agent"
import { dashboardDir } from "@workbay/dashboard"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventually, externalAgentWorkspace } from "../../agent/test/support.js"
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

const available = browserAvailable("the terminal's browser test")

describe.skipIf(!available)("the workspace page and the web terminal in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let agent: { stop: () => Promise<void> } | undefined
  let agentToken: string
  let workspace: { name: string; owner_name: string }
  const directory = mkdtempSync(join(tmpdir(), "workbay-dashboard-terminal-"))

  beforeAll(async () => {
    const started = await startWithOwner({ dashboard: { dir: dashboardDir } })
    srv = started.srv
    owner = started.owner
    const { agentId, token } = await externalAgentWorkspace(srv, owner, started.orgId, {
      script: "echo hello-from-the-script",
      troubleshootingUrl: "https://docs.example.com/troubleshooting",
      metadata: [{ key: "answer", display_name: "The answer", script: "echo $((6*7))", interval: 1 }]
    })
    agentToken = token
    agent = await startAgent({ url: srv.url, token, auth: "token", directory, logDir: directory, log: () => {} })
    await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body.status,
      (s) => s === "connected",
      "the agent connected"
    )
    workspace = (await owner.get("/workspaces")).body.workspaces[0]
  })
  afterAll(async () => {
    await agent?.stop()
    await srv?.close()
    rmSync(directory, { recursive: true, force: true })
  })

  it(
    "runs the URL's command instead of the shell, says when it ended, and starts a new session on demand",
    async () => {
      const browser = await launchBrowser()
      try {
        const page = await watchedPage(await browser.newContext({ viewport: { width: 1100, height: 800 } }))
        await signIn(page, srv.url, "admin@example.com")
        const command = `echo "ran-$((6*7))"; exit 3`
        await page.goto(
          `${srv.url}/@${workspace.owner_name}/${workspace.name}.main/terminal?command=${encodeURIComponent(command)}`
        )
        await page.getByRole("heading", { name: `Terminal: ${workspace.name}.main` }).waitFor()
        expect(await page.getByText(command, { exact: true }).count()).toBe(1)
        const output = page.getByRole("listitem").filter({ hasText: /^\s*ran-42\s*$/ })
        await expect.poll(() => output.count()).toBeGreaterThan(0)
        // The command exited: the agent closed the session, the page says why and does not reconnect.
        const terminalStatus = page.getByRole("status", { name: "Terminal status" })
        await expect.poll(() => terminalStatus.textContent()).toBe(
          "Ended: The shell exited with code 3."
        )
        const first = new URL(page.url()).searchParams.get("reconnect")
        await page.getByRole("button", { name: "Start a new session" }).click()
        await expect.poll(() => new URL(page.url()).searchParams.get("reconnect")).not.toBe(first)
        expect(new URL(page.url()).searchParams.get("command")).toBe(command)
        await expect.poll(() => terminalStatus.textContent()).toBe(
          "Ended: The shell exited with code 3."
        )
        await expect.poll(() => output.count()).toBeGreaterThan(0)
        await expectAccessible(page)
        expectNoProblems(page)
      } finally {
        await browser.close()
      }
    },
    60_000
  )

  it("opens the workspace from the list, then its agent's terminal, which survives a reload", async () => {
    const browser = await launchBrowser()
    try {
      const page = await watchedPage(await browser.newContext({ viewport: { width: 1100, height: 800 } }))
      await signIn(page, srv.url, "admin@example.com")

      // The list links each workspace to its page, /@owner/workspace.
      await page.getByRole("link", { name: workspace.name }).click()
      // (the workspace page, reached from the list)
      await page.getByRole("heading", { name: workspace.name, level: 1 }).waitFor()
      expect(new URL(page.url()).pathname).toBe(`/@${workspace.owner_name}/${workspace.name}`)
      await expect.poll(() => page.getByRole("status", { name: "Workspace status" }).textContent()).toBe("Running")
      const row = page.getByRole("row", { name: /main/ })
      await expect.poll(() => row.getByRole("cell", { name: "Connected" }).count()).toBe(1)
      await expect.poll(() => row.getByRole("cell", { name: "Ready" }).count()).toBe(1)
      // Its latency: the round trip of its connection, shown live (the first one is known at once).
      await expect.poll(() => row.getByRole("cell", { name: /^\d+(\.\d)? ms$/ }).count()).toBe(1)
      expect(await page.getByRole("button", { name: "Stop", exact: true }).isEnabled()).toBe(true)
      expect(await page.getByRole("button", { name: "Start", exact: true }).isEnabled()).toBe(false)
      // The agent's logs (its script's output, under the script's name), live, on demand; its metadata, live.
      await page.getByText("Show the logs of main").click()
      const agentLog = page.getByRole("log", { name: "Logs of main" })
      await expect.poll(() => agentLog.textContent()).toContain("hello-from-the-script")
      expect(await agentLog.textContent()).toContain("Hello")
      const metadata = page.getByRole("group", { name: "Metadata of main" })
      await expect.poll(() => metadata.textContent()).toMatch(/The answer\s*42/)
      await expectAccessible(page)

      // The terminal: the reconnect id written into the URL, the shell's output readable.
      await row.getByRole("link", { name: /Open terminal/ }).click()
      await page.getByRole("heading", { name: `Terminal: ${workspace.name}.main` }).waitFor()
      expect(new URL(page.url()).pathname).toBe(`/@${workspace.owner_name}/${workspace.name}.main/terminal`)
      await expect.poll(() => page.getByRole("status", { name: "Terminal status" }).textContent())
        .toBe("Connected")
      const reconnect = new URL(page.url()).searchParams.get("reconnect")
      expect(reconnect).toMatch(/^[0-9a-f-]{36}$/)
      const input = page.getByRole("textbox", { name: "Terminal input" })
      await input.focus()
      await page.keyboard.type(`echo "hello-$((6*7))"`)
      await page.keyboard.press("Enter")
      const output = page.getByRole("listitem").filter({ hasText: /^\s*hello-42\s*$/ })
      await expect.poll(() => output.count()).toBeGreaterThan(0)
      await screenshot(page, "terminal", false)

      // A reload re-attaches to the same shell: the same id, the output replayed.
      await page.reload()
      await expect.poll(() => page.getByRole("status", { name: "Terminal status" }).textContent())
        .toBe("Connected")
      expect(new URL(page.url()).searchParams.get("reconnect")).toBe(reconnect)
      await expect.poll(() => output.count()).toBeGreaterThan(0)

      // The agent goes away (its socket to the terminal drops): the page says it reconnects, and
      // once the agent is back it is connected again by itself, with the same reconnect id.
      const terminalStatus = page.getByRole("status", { name: "Terminal status" })
      await agent!.stop()
      agent = undefined
      await expect.poll(() => terminalStatus.textContent()).toMatch(/^Reconnecting…/)
      // The template's troubleshooting guide is offered while the terminal cannot reach the agent.
      expect(await page.getByRole("link", { name: "Troubleshooting main" }).getAttribute("href")).toBe(
        "https://docs.example.com/troubleshooting"
      )
      agent = await startAgent({
        url: srv.url,
        token: agentToken,
        auth: "token",
        directory,
        logDir: directory,
        log: () => {}
      })
      await expect.poll(() => terminalStatus.textContent()).toBe("Connected")
      await expect.poll(() => page.getByRole("link", { name: "Troubleshooting main" }).count()).toBe(0)
      expect(new URL(page.url()).searchParams.get("reconnect")).toBe(reconnect)
      await input.focus()
      await page.keyboard.type(`echo "again-$((6*8))"`)
      await page.keyboard.press("Enter")
      const again = page.getByRole("listitem").filter({ hasText: /^\s*again-48\s*$/ })
      await expect.poll(() => again.count()).toBeGreaterThan(0)

      // Back on the workspace page, Stop: its status follows the build live (the watch).
      await page.getByRole("link", { name: `Back to ${workspace.name}` }).click()
      await page.getByRole("button", { name: "Stop", exact: true }).click()
      const status = page.getByRole("status", { name: "Workspace status" })
      await expect.poll(() => status.textContent()).toBe("Stopped")
      expect(await page.getByRole("button", { name: "Start", exact: true }).isEnabled()).toBe(true)

      expectNoProblems(page)
    } finally {
      await browser.close()
    }
  })
})
