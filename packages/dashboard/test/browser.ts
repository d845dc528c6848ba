/**
 * Test support for the dashboard's browser tests: Debian's Chromium driven by playwright-core,
 * pages watched for problems, axe-core's check, screenshots into docs/images, and signing in
 * through the sign-in page as a person does.
 *
 * `browserAvailable` is false (after printing `SKIPPED: <what>`) when /usr/bin/chromium is
 * missing; under CI that throws instead. Wrap a file's browser tests in
 * `describe.skipIf(!browserAvailable(...))`.
 */
import { existsSync, readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { createRequire } from "node:module"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { expect } from "vitest"
import { STRONG_PASSWORD } from "../../http/test/support.js"

export const CHROMIUM = "/usr/bin/chromium"

/** Whether the browser is here; says SKIPPED (or throws under CI) when it is not. */
export const browserAvailable = (what: string) => {
  if (existsSync(CHROMIUM)) return true
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing under CI: ${what} cannot run.`)
  console.warn(`SKIPPED: ${what} (${CHROMIUM} is missing; node scripts/ensure.mjs installs it).`)
  return false
}

/** Chromium, headless; `resolve` maps host names to addresses (`MAP *.apps.test 127.0.0.1`, a wildcard app host). */
export const launchBrowser = (options: { readonly resolve?: string } = {}): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      ...(options.resolve === undefined ? [] : [`--host-resolver-rules=${options.resolve}`])
    ]
  })

/**
 * Chromium fails the requests under way when the machine's network interfaces change, which other
 * test files do (the multi-host test adds network namespaces and veth pairs): the machine's event,
 * not the page's problem (the dashboard's queries retry).
 */
const MACHINE_NETWORK = /net::ERR_NETWORK_CHANGED/

/**
 * How long a page's actions and waits may take. Playwright's 30 s was too short on a busy machine:
 * a new context's first page (its own download and compilation of the dashboard's scripts) beside
 * the suite's three workers and a CPU hog took longer (ci-under-load, session 63).
 */
export const PAGE_TIMEOUT_MS = 60_000

/**
 * A new page in `context` whose problems are collected: page errors, console errors (but the
 * expected answers of `expected`, by default 401 and 404) and every Content-Security-Policy
 * violation. `expectNoProblems(page)` at the end of a test. Its actions wait up to PAGE_TIMEOUT_MS.
 */
export const watchedPage = async (context: Browser | BrowserContext, expected = /401|404/) => {
  const page = await context.newPage()
  page.setDefaultTimeout(PAGE_TIMEOUT_MS)
  const problems: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error" && !expected.test(m.text()) && !MACHINE_NETWORK.test(m.text())) problems.push(m.text())
  })
  page.on("pageerror", (e) => problems.push(e.message))
  // The init script runs through the DevTools protocol, which the page's policy does not govern.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`)
    })
  })
  problemsOf.set(page, problems)
  return page
}

const problemsOf = new WeakMap<Page, Array<string>>()

export const expectNoProblems = (page: Page) => expect(problemsOf.get(page) ?? []).toEqual([])

/** Takes back the problems matching `pattern` (a request the test made fail on purpose); how many there were. */
export const expectedProblems = (page: Page, pattern: RegExp) => {
  const problems = problemsOf.get(page) ?? []
  const kept = problems.filter((p) => !pattern.test(p))
  const taken = problems.length - kept.length
  problems.splice(0, problems.length, ...kept)
  return taken
}

const axeSource = readFileSync(
  createRequire(fileURLToPath(new URL("../package.json", import.meta.url))).resolve("axe-core/axe.min.js"),
  "utf8"
)

/** axe-core in the page: its serious and critical violations (none expected). */
export const accessibilityViolations = async (page: Page) => {
  // Evaluated through the DevTools protocol, which the page's policy does not govern.
  await page.evaluate(axeSource)
  const results = await page.evaluate(() =>
    (globalThis as unknown as { axe: { run: () => Promise<{ violations: Array<any> }> } }).axe.run()
  )
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(" ")).join(", ")})`)
}

export const expectAccessible = async (page: Page) => expect(await accessibilityViolations(page)).toEqual([])

const imagesDir = fileURLToPath(new URL("../../../docs/images/", import.meta.url))

/** With WORKBAY_SCREENSHOTS=1, the page into docs/images/dashboard-<name>.png. */
export const screenshot = async (page: Page, name: string, fullPage = true) => {
  if (process.env.WORKBAY_SCREENSHOTS === "1") {
    await page.screenshot({ path: join(imagesDir, `dashboard-${name}.png`), fullPage })
  }
}

/** Signs in through the sign-in page (email and password, Enter), waiting for the workspaces. */
export const signIn = async (page: Page, url: string, email: string, password = STRONG_PASSWORD) => {
  await page.goto(`${url}/login`)
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Password").fill(password)
  await page.getByLabel("Password").press("Enter")
  await page.getByRole("heading", { name: "Workspaces" }).waitFor()
}

/**
 * A web app of the test on 127.0.0.1 (a free port): every path answers an HTML page whose heading
 * is `<title> at <path>`. Answers the server (to close) and its port.
 */
export const htmlApp = async (title: string): Promise<{ server: Server; port: number }> => {
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(`<!doctype html><html lang="en"><title>${title}</title><h1>${title} at ${req.url}</h1></html>`)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return { server, port: (server.address() as AddressInfo).port }
}
