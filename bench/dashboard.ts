// The dashboard in a real browser (npm run bench:dashboard). Not a test: it measures and reports.
//
// Runs the service in process (TypeScript sources through tsx) on a SQLite file with the built
// dashboard mounted (makeWorkbay's `dashboard` option), and drives Debian's Chromium
// (playwright-core, headless) with Chromium's own timing (the Performance API in the page):
// (a) the first load of the workspaces page with 25 workspaces listed: bytes over the wire
//     (compressed; all, and the scripts alone), and the time from navigation to the 25th row in
//     the document, cold (a new browser context: empty cache) and warm (a reload: the hashed
//     assets from the cache, the HTML revalidated). Beside it, the bare baseline: a page of a few
//     lines of plain JavaScript on the same server that fetches the same list and writes the same
//     table (no framework, nothing to load first); the ratio is the dashboard's cost;
// (b) the same with 10, 25 and 10,000 workspaces behind the list (copies written straight into
//     the SQLite file), and a search typed into the page (time from Enter to the filtered rows);
// (c) a build log of 100,000 lines streamed into the workspace page (the follow WebSocket of
//     `/workspacebuilds/{id}/logs`): the time until the page shows them all, and the main thread's
//     long tasks (over 50 ms, PerformanceObserver "longtask") while it streams.
// Writes bench/results/dashboard.md. Options: --runs 7 --sizes 10,25,10000 --lines 100000 --no-write
// Everything listens on and loads 127.0.0.1 only.
import { workbayProvisioner } from "@workbay/core"
import { dashboardDir } from "@workbay/dashboard"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { type Browser, chromium, type Page } from "playwright-core"
import { buildDashboard } from "../packages/dashboard/build.mjs"
import {
  BENCH_EMAIL,
  BENCH_PASSWORD,
  fmt,
  keepCounts,
  logger,
  machineLine,
  machineTemplate,
  request,
  seedFirstUser,
  seedTemplate,
  sleep,
  workspaceCloner,
  writeReport
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    runs: { type: "string", default: "7" },
    sizes: { type: "string", default: "10,25,10000" },
    lines: { type: "string", default: "100000" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("dashboard")
const runs = Number(opts.runs)
const sizes = opts.sizes.split(",").map(Number)
const logLines = Number(opts.lines)

/**
 * The bare baseline: the same list fetched and written as a table by a few lines of plain
 * JavaScript (inline: this page is the bench's own, not the dashboard's, so no policy applies).
 */
const BARE = `<!doctype html><html><head><meta charset="utf-8"><title>bare</title></head><body>
<table><tbody id="rows"></tbody></table>
<script>
fetch("/api/v2/workspaces?q=&limit=25&offset=0", { credentials: "same-origin" })
  .then((r) => r.json())
  .then((page) => {
    const rows = document.getElementById("rows")
    for (const w of page.workspaces) {
      const tr = document.createElement("tr")
      for (const text of [w.name, w.owner_name, w.template_name, w.latest_build.status, w.latest_build.created_at]) {
        const td = document.createElement("td")
        td.textContent = text
        tr.append(td)
      }
      rows.append(tr)
    }
  })
</script></body></html>`

/** Records in the page when the first `n` table rows are in the document (performance.now()). */
const rowsObserver = (n: number) => {
  const w = globalThis as unknown as { __rowsAt?: number }
  const observer = new MutationObserver(() => {
    if (w.__rowsAt === undefined && document.querySelectorAll("tbody tr").length >= n) {
      w.__rowsAt = performance.now()
      observer.disconnect()
    }
  })
  document.addEventListener(
    "DOMContentLoaded",
    () => observer.observe(document.body, { childList: true, subtree: true })
  )
}

const longTasksObserver = () => {
  const w = globalThis as unknown as { __longTasks: Array<number> }
  w.__longTasks = []
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push(e.duration)
  }).observe({ type: "longtask", buffered: true })
}

const setUp = async (file: string) => {
  const workbay = await makeWorkbay(Sqlite.layer({ filename: file }), {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    provisioners: [workbayProvisioner],
    dashboard: { dir: dashboardDir }
  })
  const server = createServer((req, res) => {
    if (req.url === "/bare.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" })
      return res.end(BARE)
    }
    return workbay.node(req, res)
  })
  server.on("upgrade", workbay.upgrade)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const base = `${url}/api/v2`
  const { orgId, auth } = await seedFirstUser(base)
  const template = await seedTemplate(base, auth, orgId, machineTemplate())
  const close = async () => {
    server.closeAllConnections()
    server.close()
    await workbay.dispose()
  }
  return { url, base, orgId, auth, templateId: template.id as string, close }
}

type Headers = Record<string, string>

const createWorkspace = async (base: string, auth: Headers, orgId: string, templateId: string, name: string) => {
  const r = await request(`${base}/organizations/${orgId}/members/me/workspaces`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ name, template_id: templateId })
  })
  if (r.status !== 200 && r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`)
  for (let i = 0;; i++) {
    const w = await request(`${base}/workspaces/${r.body.id}`, { headers: auth })
    if (w.body.latest_build.status === "running") return w.body
    if (i > 1000) throw new Error(`workspace ${name} is not running: ${w.body.latest_build.status}`)
    await sleep(10)
  }
}

/** A browser context signed in as the bench user (the session cookie the sign-in sets). */
const signedIn = async (browser: Browser, url: string) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const r = await context.request.post(`${url}/api/v2/users/login`, {
    data: { email: BENCH_EMAIL, password: BENCH_PASSWORD }
  })
  if (r.status() !== 201) throw new Error(`sign-in: ${r.status()}`)
  return context
}

interface Load {
  readonly ms: number
  readonly bytes: number
  readonly scriptBytes: number
}

/** Navigates (or reloads) and answers the time to `n` rows and the bytes that came over the wire. */
const measureLoad = async (page: Page, go: () => Promise<unknown>): Promise<Load> => {
  await go()
  await page.waitForFunction(() => (globalThis as unknown as { __rowsAt?: number }).__rowsAt !== undefined, null, {
    timeout: 30_000,
    polling: 50
  })
  return page.evaluate(() => {
    const entries = [
      ...performance.getEntriesByType("navigation"),
      ...performance.getEntriesByType("resource")
    ] as Array<PerformanceResourceTiming>
    return {
      ms: (globalThis as unknown as { __rowsAt: number }).__rowsAt,
      bytes: entries.reduce((sum, e) => sum + e.transferSize, 0),
      scriptBytes: entries.filter((e) => e.name.endsWith(".js")).reduce((sum, e) => sum + e.transferSize, 0)
    }
  })
}

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

/** Cold (a new context per run) and warm (reloads in one context) loads of `path`, `runs` each. */
const loads = async (browser: Browser, url: string, path: string, n: number) => {
  const cold: Array<Load> = []
  for (let i = 0; i < runs; i++) {
    const context = await signedIn(browser, url)
    await context.addInitScript(rowsObserver, n)
    const page = await context.newPage()
    cold.push(await measureLoad(page, () => page.goto(url + path)))
    await context.close()
  }
  const context = await signedIn(browser, url)
  await context.addInitScript(rowsObserver, n)
  const page = await context.newPage()
  await measureLoad(page, () => page.goto(url + path))
  const warm: Array<Load> = []
  for (let i = 0; i < runs; i++) warm.push(await measureLoad(page, () => page.reload()))
  await context.close()
  const summary = (xs: Array<Load>) => ({
    ms: median(xs.map((x) => x.ms)),
    bytes: median(xs.map((x) => x.bytes)),
    scriptBytes: median(xs.map((x) => x.scriptBytes))
  })
  return { cold: summary(cold), warm: summary(warm) }
}

/** Time from Enter in the search box to the list showing only what matches `q`. */
const searchTime = async (browser: Browser, url: string, q: string, expected: number, all: number) => {
  const context = await signedIn(browser, url)
  const page = await context.newPage()
  await page.goto(`${url}/workspaces`)
  await page.getByRole("row").nth(1).waitFor({ timeout: 30_000 })
  const times: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const box = page.getByRole("searchbox", { name: "Search workspaces" })
    await box.fill(i % 2 === 0 ? q : "")
    const want = i % 2 === 0 ? expected : all
    // A string, not a function: tsx would name the inner arrow with a helper the page lacks.
    const t = await page.evaluate<number>(`new Promise((resolve) => {
      const start = performance.now()
      const check = () => {
        if (document.querySelectorAll("tbody tr").length === ${want}) resolve(performance.now() - start)
        else requestAnimationFrame(check)
      }
      document.querySelector("input[type=search]").form.requestSubmit()
      requestAnimationFrame(check)
    })`)
    if (i % 2 === 0) times.push(t)
  }
  await context.close()
  return median(times)
}

/**
 * (c) A build log of `count` lines (written straight into the SQLite file for the workspace's
 * latest build) streamed into its page: time from navigation until the page says it holds them
 * all, and the long tasks meanwhile.
 */
const logStream = async (browser: Browser, count: number) => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-dashboard-logs-"))
  const file = join(dir, "workbay.db")
  const s = await setUp(file)
  try {
    const w = await createWorkspace(s.base, s.auth, s.orgId, s.templateId, "logged")
    const db = new Database(file)
    const jobId = (db.prepare("SELECT job_id FROM workspace_builds WHERE id = ?").get(w.latest_build.id) as {
      job_id: string
    }).job_id
    const insert = db.prepare(
      "INSERT INTO provisioner_job_logs (job_id, created_at, log_source, log_level, stage, output) VALUES (?, ?, 'provisioner', 'info', ?, ?)"
    )
    const at = new Date().toISOString()
    const own =
      (db.prepare("SELECT count(*) AS n FROM provisioner_job_logs WHERE job_id = ?").get(jobId) as { n: number }).n
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        insert.run(jobId, at, `Stage ${Math.floor(i / 10_000) + 1}`, `line ${i + 1}: ${"x".repeat(60)}`)
      }
    })()
    db.close()
    const context = await signedIn(browser, s.url)
    await context.addInitScript(longTasksObserver)
    const page = await context.newPage()
    const t0 = Date.now()
    await page.goto(`${s.url}/@bench/logged`)
    const total = count + own // and the build's own lines
    try {
      await page.getByText(`${total} lines`, { exact: true }).waitFor({ timeout: 300_000 })
    } catch (e) {
      await page.screenshot({ path: "/tmp/bench-logs.png" })
      throw e
    }
    const ms = Date.now() - t0
    const tasks = await page.evaluate(() => (globalThis as unknown as { __longTasks: Array<number> }).__longTasks)
    const rows = await page.getByRole("log").first().locator("div div").count()
    await context.close()
    return { ms, tasks, rows }
  } finally {
    await s.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const startedAt = new Date()
const load0 = loadavg()
await buildDashboard({ log })
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"]
})
const lines: Array<string> = ["# The dashboard in Chromium", "", machineLine(startedAt, load0), ""]
const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`

try {
  const sizeRows: Array<string> = []
  let first: { cold: Load; warm: Load; bareCold: Load; bareWarm: Load } | undefined
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), "workbay-bench-dashboard-"))
    const file = join(dir, "workbay.db")
    const s = await setUp(file)
    try {
      log(`${size} workspaces`)
      const one = await createWorkspace(s.base, s.auth, s.orgId, s.templateId, "first")
      const db = new Database(file)
      const clone = workspaceCloner(db, one.id)
      db.transaction(() => {
        for (let i = 1; i < size; i++) clone(i)
      })()
      keepCounts(db, s.orgId)
      db.close()
      const n = Math.min(25, size)
      const dashboard = await loads(browser, s.url, "/workspaces", n)
      const bare = await loads(browser, s.url, "/bare.html", n)
      // ws-1 .. ws-9 and ws-1x... match "ws-1": the search narrows to the names holding it.
      const expected = Math.min(
        25,
        Array.from({ length: size }, (_, i) => `ws-${i}`).filter((x) => x.includes("ws-1")).length
      )
      const search = await searchTime(browser, s.url, "ws-1", expected, n)
      if (size >= 25) first ??= { cold: dashboard.cold, warm: dashboard.warm, bareCold: bare.cold, bareWarm: bare.warm }
      sizeRows.push(
        `| ${size.toLocaleString("en")} | ${fmt(dashboard.cold.ms, 0)} ms | ${fmt(dashboard.warm.ms, 0)} ms | ${
          fmt(bare.cold.ms, 0)
        } ms | ${fmt(dashboard.cold.ms / bare.cold.ms, 2)} | ${fmt(search, 0)} ms |`
      )
    } finally {
      await s.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
  if (first !== undefined) {
    lines.push(
      `## (a) First load of /workspaces (25 rows shown; median of ${runs} runs)`,
      "",
      "| | dashboard | bare baseline | ratio |",
      "| --- | --- | --- | --- |",
      `| cold: time to the 25th row | ${fmt(first.cold.ms, 0)} ms | ${fmt(first.bareCold.ms, 0)} ms | ${
        fmt(first.cold.ms / first.bareCold.ms, 2)
      } |`,
      `| cold: bytes over the wire (compressed) | ${kb(first.cold.bytes)} | ${kb(first.bareCold.bytes)} | ${
        fmt(first.cold.bytes / first.bareCold.bytes, 1)
      } |`,
      `| cold: script bytes (compressed) | ${kb(first.cold.scriptBytes)} | 0 (inline) | |`,
      `| warm (reload): time to the 25th row | ${fmt(first.warm.ms, 0)} ms | ${fmt(first.bareWarm.ms, 0)} ms | ${
        fmt(first.warm.ms / first.bareWarm.ms, 2)
      } |`,
      `| warm: bytes over the wire | ${kb(first.warm.bytes)} | ${kb(first.bareWarm.bytes)} | |`,
      "",
      "Aim (issue 33): under 250 KB of compressed script and under 1 s cold.",
      ""
    )
  }
  lines.push(
    "## (b) Workspaces behind the list",
    "",
    "| workspaces | cold | warm | bare cold | cold / bare | search (Enter → rows) |",
    "| --- | --- | --- | --- | --- | --- |",
    ...sizeRows,
    ""
  )
  log(`a build log of ${logLines.toLocaleString("en")} lines`)
  const logs = await logStream(browser, logLines)
  const longest = Math.max(0, ...logs.tasks)
  lines.push(
    `## (c) A build log of ${logLines.toLocaleString("en")} lines streamed into the workspace page`,
    "",
    `- all shown ${
      fmt(logs.ms / 1000, 2)
    } s after the navigation began (the follow WebSocket sends every line, one frame each)`,
    `- long tasks (over 50 ms) meanwhile: ${logs.tasks.length}, the longest ${fmt(longest, 0)} ms, ${
      fmt(logs.tasks.reduce((a, b) => a + b, 0), 0)
    } ms in all`,
    `- rows in the document at the end: ${logs.rows} (the view is virtualized: only the rows in sight)`,
    ""
  )
} finally {
  await browser.close()
}

writeReport(lines.join("\n") + "\n", "dashboard.md", { write: !opts["no-write"], log })
process.exit(0)
