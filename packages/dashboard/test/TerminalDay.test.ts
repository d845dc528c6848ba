/**
 * The web terminal through a working day, against real parts only: a real service (in-memory
 * SQLite, the dashboard mounted, its streams joined in the socket relay's process as the
 * standalone server does, pinging every WebSocket each 2 s), the REAL reference agent
 * (`startAgent`: a real shell in a real pty) and Debian's Chromium. The browser reaches the service
 * through `idleProxy` below, a real TCP proxy that closes a connection once nothing crossed it for
 * 6 s, as a load balancer's idle timeout does, and that can drop every connection at once.
 *
 * - Idle: the proxy's idle timeout is seen to close a silent connection; the terminal then sits
 *   idle for 24 s (four times the timeout) and is still "Connected" on its first socket (no second
 *   `pty` request crossed the proxy), and a command still runs.
 * - Dropped: a background job prints a line 3 s later; every connection is dropped and the
 *   `pty` route refused until the line was printed (the job also touches a file the test waits
 *   for); the page says "Reconnecting…", then "Connected" by itself, and shows the line (the
 *   agent's replay of what it printed meanwhile).
 * - Wide characters: read through the accessibility tree (xterm's screen-reader mode, the rows a
 *   screen reader reads), which says what is in each row but not at which column. So the test has
 *   the terminal say it: `printf` writes `漢字😀|`, goes back to the line's start and forward 6
 *   columns (`\r\033[6C`), and writes `#`. With two columns for each of the three characters `|`
 *   is at column 6 and `#` replaces it (`漢字😀#`); with the emoji one column wide (xterm's default
 *   Unicode 6 table) `|` is at column 5 and the row reads `漢字😀|#`. This is xterm's own model of
 *   the screen, the one programs' cursor movements act on, with no hook in the page for the test
 *   and nothing measured in pixels. The command line is ASCII (octal escapes) so the shell's echo
 *   of it never matches.
 * - Links: a URL in the output, hovered, becomes a link (xterm's pointer cursor) and a click opens
 *   it in a new window; every request to an address other than 127.0.0.1 is answered by the
 *   test's route (example.invalid) or aborted, so the browser reaches nothing outside.
 * - Copy and paste: with the clipboard permissions granted, text put on the clipboard is pasted
 *   into `cat` with Ctrl+Shift+V and with Ctrl+V (the tty's echo and cat's copy: two rows each),
 *   and a word of the output selected by a double click is copied with Ctrl+Shift+C
 *   (`navigator.clipboard.readText()`).
 *
 * axe finds no serious or critical violation on the terminal page. No wait is timed: each is bounded
 * generously by what it waits for. Skipped, saying so, when /usr/bin/chromium is missing; under CI
 * that fails instead.
 */
import { startAgent } from "@workbay/agent"
import { dashboardDir } from "@workbay/dashboard"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { connect, createServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventually, externalAgentWorkspace } from "../../agent/test/support.js"
import { type Client, type ServiceTestServer, socketRelayFromSource, startWithOwner } from "../../http/test/support.js"
import {
  browserAvailable,
  expectAccessible,
  expectedProblems,
  expectNoProblems,
  launchBrowser,
  signIn,
  watchedPage
} from "./browser.js"

const available = browserAvailable("the terminal's day in the browser")

/** The service's keep-alive ping interval, well under the proxy's idle timeout. */
const PING_MS = 2000
/** The proxy closes a connection nothing crossed for this long. */
const IDLE_MS = 6000

/**
 * A TCP proxy to `target` (a port on 127.0.0.1) that closes a connection idle for `idleMs` in both
 * directions, counts the `pty` requests that crossed it, drops every connection on demand and can
 * refuse new `pty` requests (other requests pass).
 */
const idleProxy = async (target: number, idleMs: number) => {
  const open = new Set<Socket>()
  let ptyRequests = 0
  let refusePty = false
  const server = createServer((client) => {
    const upstream = connect(target, "127.0.0.1")
    open.add(client)
    open.add(upstream)
    const end = () => {
      client.destroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
    }
    // Node's socket timeout is inactivity in both directions: what crosses the proxy either way.
    client.setTimeout(idleMs, end)
    client.on("data", (chunk: Buffer) => {
      // A request line names the route; once upgraded, the browser's frames are masked.
      const pty = /^GET \/api\/v2\/workspaceagents\/[^ ]+\/pty\?/m.test(chunk.toString("latin1"))
      if (pty && refusePty) return end()
      if (pty) ptyRequests++
      upstream.write(chunk)
    })
    upstream.on("data", (chunk: Buffer) => client.write(chunk))
    for (const s of [client, upstream]) {
      s.on("close", end)
      s.on("error", end)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    ptyRequests: () => ptyRequests,
    refusePty: (refuse: boolean) => void (refusePty = refuse),
    drop: () => {
      for (const s of open) s.destroy()
    },
    close: async () => {
      for (const s of open) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!available)("the web terminal through a working day, in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let agent: { stop: () => Promise<void> } | undefined
  let proxy: Awaited<ReturnType<typeof idleProxy>>
  let browser: Browser
  let terminalPath: string
  const directory = mkdtempSync(join(tmpdir(), "workbay-dashboard-terminal-day-"))

  beforeAll(async () => {
    const started = await startWithOwner({
      dashboard: { dir: dashboardDir },
      http: { streamRelay: socketRelayFromSource, webSocketPingIntervalMillis: PING_MS }
    })
    srv = started.srv
    owner = started.owner
    const { agentId, token } = await externalAgentWorkspace(srv, owner, started.orgId, { script: "true" })
    agent = await startAgent({ url: srv.url, token, auth: "token", directory, logDir: directory, log: () => {} })
    await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body.status,
      (s) => s === "connected",
      "the agent connected"
    )
    const workspace = (await owner.get("/workspaces")).body.workspaces[0]
    terminalPath = `/@${workspace.owner_name}/${workspace.name}.main/terminal`
    proxy = await idleProxy(Number(new URL(srv.url).port), IDLE_MS)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await proxy?.close()
    await agent?.stop()
    await srv?.close()
    rmSync(directory, { recursive: true, force: true })
  })

  /** A new context (nothing outside 127.0.0.1 reachable) and page, signed in through the proxy, on a connected terminal. */
  const openTerminal = async (
    prepare: (context: BrowserContext) => Promise<void> = async () => {}
  ): Promise<Page> => {
    proxy.refusePty(false)
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
    await context.route((url) => url.hostname !== "127.0.0.1", (route) => route.abort())
    await prepare(context)
    const page = await watchedPage(context)
    await signIn(page, proxy.url, "admin@example.com")
    await page.goto(`${proxy.url}${terminalPath}`)
    await expect.poll(() => status(page).textContent(), { timeout: 60_000 }).toBe("Connected")
    return page
  }
  const status = (page: Page) => page.getByRole("status", { name: "Terminal status" })
  /** Types `line` and Enter into the terminal. */
  const run = async (page: Page, line: string) => {
    await page.getByRole("textbox", { name: "Terminal input" }).focus()
    await page.keyboard.type(line)
    await page.keyboard.press("Enter")
  }
  /** The rows of the accessibility tree whose whole text matches `text` (trailing blanks aside). */
  const rows = (page: Page, text: RegExp) => page.getByRole("listitem").filter({ hasText: text })
  /** The rendered row (xterm's DOM renderer, what the mouse points at) whose text is `text`. */
  const renderedRow = (page: Page, text: RegExp) => page.locator(".xterm-rows > div").filter({ hasText: text })

  it("stays connected while idle behind a proxy that closes idle connections", async () => {
    // The proxy does close a connection on which nothing moves.
    const silent = connect(proxy.port, "127.0.0.1")
    await new Promise<void>((resolve, reject) => {
      silent.on("close", () => resolve())
      silent.on("error", reject)
      setTimeout(() => reject(new Error("the proxy left an idle connection open")), IDLE_MS * 10)
    })

    const page = await openTerminal()
    await run(page, `echo "before-$((6*7))"`)
    await expect.poll(() => rows(page, /^\s*before-42\s*$/).count()).toBeGreaterThan(0)
    const requests = proxy.ptyRequests()
    // Idle for four times the proxy's timeout: only the service's pings and their pongs cross it.
    await sleep(IDLE_MS * 4)
    expect(await status(page).textContent()).toBe("Connected")
    expect(proxy.ptyRequests()).toBe(requests)
    await run(page, `echo "after-$((6*7))"`)
    await expect.poll(() => rows(page, /^\s*after-42\s*$/).count()).toBeGreaterThan(0)
    expect(proxy.ptyRequests()).toBe(requests)
    await expectAccessible(page)
    expectNoProblems(page)
    await page.context().close()
  })

  it("reconnects by itself after the network drops and shows what the shell printed meanwhile", async () => {
    const page = await openTerminal()
    const printed = join(directory, "printed-while-away")
    await run(page, `mark="kept-$((6*7))"; (sleep 3; echo "away-$((6*7))"; touch ${printed}) &`)
    // The job started (bash says `[1] <pid>`); the connection drops before its line is printed.
    await expect.poll(() => rows(page, /^\s*\[1\] \d+\s*$/).count()).toBeGreaterThan(0)
    proxy.refusePty(true)
    proxy.drop()
    await expect.poll(() => status(page).textContent()).toMatch(/^Reconnecting…/)
    await eventually(async () => existsSync(printed), (done) => done, "the job printed its line")
    expect(await rows(page, /away-42\s*$/).count()).toBe(0)
    proxy.refusePty(false)
    await expect.poll(() => status(page).textContent(), { timeout: 90_000 }).toBe("Connected")
    // The job printed after the shell's prompt: the row reads `<prompt> away-42`.
    await expect.poll(() => rows(page, /away-42\s*$/).count()).toBeGreaterThan(0)
    // The same shell: it still has the variable set before the drop.
    await run(page, `echo "still-$mark"`)
    await expect.poll(() => rows(page, /^\s*still-kept-42\s*$/).count()).toBeGreaterThan(0)
    // The refused attempts, and whatever the page had under way when everything dropped.
    expectedProblems(page, /WebSocket connection to .* failed|net::ERR_|Failed to load resource/)
    expectNoProblems(page)
    await page.context().close()
  })

  it("gives wide characters and emoji two columns", async () => {
    const page = await openTerminal()
    const wide = String.raw`\346\274\242\345\255\227\360\237\230\200`
    await run(page, String.raw`printf '${wide}|\n${wide}|\r\033[6C#\n'`)
    await expect.poll(() => rows(page, /^\s*漢字😀\|\s*$/).count()).toBeGreaterThan(0)
    await expect.poll(() => rows(page, /^\s*漢字😀#\s*$/).count()).toBeGreaterThan(0)
    expect(await rows(page, /漢字😀\|#/).count()).toBe(0)
    expectNoProblems(page)
    await page.context().close()
  })

  it("opens a URL of the output in a new window when clicked", async () => {
    const page = await openTerminal(async (context) => {
      await context.route(
        "https://example.invalid/**",
        (route) => route.fulfill({ contentType: "text/plain", body: "the linked page" })
      )
    })
    await run(page, "echo https://example.invalid/path")
    const row = renderedRow(page, /^https:\/\/example\.invalid\/path\s*$/)
    await expect.poll(() => row.count()).toBe(1)
    const box = await row.locator("span").first().boundingBox()
    if (box === null) throw new Error("the URL's row is not rendered")
    // Hovered, it becomes a link (xterm shows the pointer); clicked, it opens.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await expect.poll(() => page.locator(".xterm-cursor-pointer").count()).toBeGreaterThan(0)
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
    ])
    await popup.waitForURL("https://example.invalid/path")
    expect(await popup.textContent("body")).toBe("the linked page")
    // Opened without a way back to the dashboard.
    expect(await popup.evaluate(() => window.opener)).toBe(null)
    expectNoProblems(page)
    await page.context().close()
  })

  it("copies with Ctrl+Shift+C and pastes with Ctrl+Shift+V and Ctrl+V", async () => {
    const page = await openTerminal(async (context) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: proxy.url })
    })
    const setClipboard = (text: string) => page.evaluate((t) => navigator.clipboard.writeText(t), text)
    // Pasting once cat runs: bash turns bracketed paste off before the line it runs prints, and
    // cat would echo a paste bracketed in escape sequences.
    await run(page, `echo "cat-$((6*7))"; cat`)
    await expect.poll(() => rows(page, /^\s*cat-42\s*$/).count()).toBe(1)
    await setClipboard("pasted-with-shift")
    await page.keyboard.press("Control+Shift+V")
    await page.keyboard.press("Enter")
    // The tty's echo of the pasted line, and cat's copy of it.
    await expect.poll(() => rows(page, /^\s*pasted-with-shift\s*$/).count()).toBe(2)
    await setClipboard("pasted-with-ctrl-v")
    await page.keyboard.press("Control+V")
    await page.keyboard.press("Enter")
    await expect.poll(() => rows(page, /^\s*pasted-with-ctrl-v\s*$/).count()).toBe(2)
    await page.keyboard.press("Control+D")

    await run(page, `echo "copy-$((6*7))-me"`)
    const row = renderedRow(page, /^copy-42-me\s*$/)
    await expect.poll(() => row.count()).toBe(1)
    const box = await row.locator("span").first().boundingBox()
    if (box === null) throw new Error("the row to copy is not rendered")
    await setClipboard("not copied yet")
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2)
    await page.keyboard.press("Control+Shift+C")
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("copy-42-me")
    await expectAccessible(page)
    expectNoProblems(page)
    await page.context().close()
  })
})
