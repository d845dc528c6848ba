// The per-user inbox at scale (npm run bench:inbox). Not a test: it measures and reports.
//
// Issue 13: "the inbox page costs the same with 100 and with 100,000 notifications for the user" and
// "1,000 concurrent inbox watchers on one process, p99 delivery under 200 ms".
//
// 1. Pages. The service in process (TypeScript sources through tsx, like the tests) on a SQLite file;
//    the first user's inbox gets `--sizes` notifications inserted straight into the file in one
//    transaction (two templates in turn, a target on every tenth, one in three unread; the kept unread
//    count set to match). For each size: GET /notifications/inbox (200 sequential requests, p50 and
//    p99 alone, then an autocannon load), and each filter alone (read_status=unread, templates=,
//    targets=, two templates unread, a starting_before cursor in the middle of the inbox).
// 2. Watchers. The service in a CHILD process (this file with --serve: a SQLite file), so the
//    watchers' clients do not share its event loop (both share the machine's 2 cores). The parent opens
//    `--watchers` WebSockets on GET /api/v2/notifications/inbox/watch (50 at a time), then asks the
//    child (IPC) `--deliveries` times, `--gap` ms apart, to deliver a notification through the
//    InboxDelivery port (what the notifier's inbox method calls); delay = a client's receipt of that
//    notification minus the moment the parent asked (both clocks are performance.timeOrigin + now(), so
//    the IPC hop is inside the delay). Two shapes: every watcher on one user's inbox (one delivery fans
//    out to all), and `--users` users with watchers/users sockets each, every delivery round storing one
//    notification for each user at once.
// 3. From enqueue (issue 29): the same child service with its notifier running (the default fetch
//    interval, 15 s, so only the wake-up on enqueue can deliver in time). `--enqueue-watchers`
//    WebSockets watch the first user's inbox; `--enqueues` times, `--gap` ms apart, the parent POSTs
//    /notifications/custom (the route enqueues the custom template for the caller: the inbox method);
//    delay = a client's receipt of that notification minus the moment before the parent sent the POST
//    (the HTTP request, the enqueue, the wake-up, the notifier's fetch and render, the delivery and the
//    watch all inside it).
// Writes bench/results/inbox.md. Options: --sizes 100,100000 --duration 3 --watchers 1000 --users 100 --per-round 10,100
// --deliveries 20 --gap 200 --timeout 5000 --enqueues 50 --enqueue-watchers 100 --only pages|watchers|enqueue --service-prof DIR (the service's CPU profile, node --cpu-prof) --no-write. Everything listens on and connects to 127.0.0.1
// only; every run is bounded in time (about two minutes).
import { InboxDelivery, type InboxDeliveryInput } from "@workbay/core"
import { makeWorkbay, type Workbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import WebSocket from "ws"
import { serveInChild, startChild } from "./child.js"
import {
  fmt,
  logger,
  machineLine,
  queryPlan,
  request,
  rssMb,
  scalingTable,
  seedFirstUser,
  sequential,
  SESSION_HEADER,
  sleep,
  warmThenLoad,
  writeReport
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    serve: { type: "string" },
    sizes: { type: "string", default: "100,100000" },
    duration: { type: "string", default: "3" },
    watchers: { type: "string", default: "1000" },
    users: { type: "string", default: "100" },
    "per-round": { type: "string", default: "10,100" },
    deliveries: { type: "string", default: "20" },
    gap: { type: "string", default: "200" },
    timeout: { type: "string", default: "5000" },
    enqueues: { type: "string", default: "50" },
    "enqueue-watchers": { type: "string", default: "100" },
    only: { type: "string" },
    "service-prof": { type: "string" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("inbox")
const now = () => performance.timeOrigin + performance.now()

const T1 = "3b3e5a3e-0000-4000-8000-0000000000a1"
const T2 = "3b3e5a3e-0000-4000-8000-0000000000a2"
const TARGET = "3b3e5a3e-0000-4000-8000-0000000000f1"

const notification = (userId: string, i = 0): InboxDeliveryInput => ({
  id: randomUUID(),
  userId,
  templateId: i % 2 === 0 ? T1 : T2,
  targets: [TARGET],
  title: `Workspace **bench-${i}** was *deleted*`,
  content: `Hi, your workspace [bench-${i}](http://127.0.0.1/@bench/bench-${i}) was deleted because it was dormant.`,
  icon: "",
  actions: [{ label: "View workspaces", url: "http://127.0.0.1/workspaces" }],
  createdAt: new Date()
})

// ---- the child: the service alone in its process, delivering on the parent's word -----------------
if (opts.serve !== undefined) {
  const workbay: Workbay = await makeWorkbay(Sqlite.layer({ filename: opts.serve }), {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    lifecycle: false
  })
  process.on("message", (m: any) => {
    if (m?.deliver === undefined) return
    const inputs = (m.deliver as Array<InboxDeliveryInput>).map((i) => ({ ...i, createdAt: new Date() }))
    void workbay.run(
      Effect.flatMap(
        InboxDelivery,
        (d) => Effect.forEach(inputs, (i) => d.deliver(i), { concurrency: "unbounded", discard: true })
      )
    )
      .then(() => process.send?.({ delivered: m.round, at: now() }))
  })
  await serveInChild(workbay)
}

type Headers = Record<string, string>

// ---- 1. pages ----------------------------------------------------------------------------------------
const FILTERS: ReadonlyArray<readonly [string, (middle: string) => string]> = [
  ["no filter", () => ""],
  ["read_status=unread", () => "?read_status=unread"],
  ["read_status=read", () => "?read_status=read"],
  ["templates=T1", () => `?templates=${T1}`],
  ["templates=T1,T2&read_status=unread", () => `?templates=${T1},${T2}&read_status=unread`],
  ["targets=X (every tenth)", () => `?targets=${TARGET}`],
  ["starting_before=(the middle one)", (middle) => `?starting_before=${middle}`]
]

/** `n` notifications of `userId` straight into the file, newest first by index; answers the middle one's id and the page's plan. */
const seedInbox = (file: string, userId: string, n: number) => {
  const db = new Database(file)
  const insert = db.prepare(
    `INSERT INTO inbox_notifications (id, user_id, template_id, targets, title, content, icon, actions, read_at, created_at)
    VALUES (?, ?, ?, ?, ?, ?, '', ?, ?, ?)`
  )
  const target = db.prepare(
    "INSERT INTO inbox_notification_targets (notification_id, user_id, target_id, created_at) VALUES (?, ?, ?, ?)"
  )
  const base = Date.now()
  let unread = 0
  let middle = ""
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const id = randomUUID()
      const created = new Date(base - i * 1000).toISOString()
      const read = i % 3 === 0 ? null : created
      if (read === null) unread++
      const targets = i % 10 === 0 ? [TARGET] : []
      const body = notification(userId, i)
      insert.run(
        id,
        userId,
        i % 2 === 0 ? T1 : T2,
        JSON.stringify(targets),
        body.title,
        body.content,
        JSON.stringify(body.actions),
        read,
        created
      )
      for (const t of targets) target.run(id, userId, t, created)
      if (i === Math.floor(n / 2)) middle = id
    }
    db.prepare(
      "INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value"
    )
      .run(`inbox_unread:${userId}`, unread)
  })()
  db.pragma("wal_checkpoint(TRUNCATE)")
  const plan = queryPlan(
    db,
    `SELECT * FROM inbox_notifications n WHERE n.user_id = ? ORDER BY n.created_at DESC, n.id DESC LIMIT 25`,
    [userId]
  )
  db.close()
  return { middle, plan, unread }
}

const measurePages = async (size: number) => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-inbox-"))
  const file = join(dir, "workbay.db")
  const workbay = await makeWorkbay(Sqlite.layer({ filename: file }), {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    lifecycle: false
  })
  const server = createServer(workbay.node)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`
  try {
    const { userId, auth } = await seedFirstUser(base)
    const { middle, plan, unread } = seedInbox(file, userId, size)
    const url = `${base}/notifications/inbox`
    // Seeding blocked this process (the server's too): a kept-alive socket may have closed meanwhile.
    const check = await request(url, { headers: auth }).catch(() => request(url, { headers: auth }))
    if (check.status !== 200 || check.body.notifications.length !== 25 || check.body.unread_count !== unread) {
      throw new Error(`GET /notifications/inbox: ${check.status} ${JSON.stringify(check.body).slice(0, 300)}`)
    }
    const filters: Record<string, { median: number; p99: number }> = {}
    for (const [name, query] of FILTERS) {
      const r = await request(url + query(middle), { headers: auth })
      if (r.status !== 200 || r.body.notifications.length === 0) {
        throw new Error(`${name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
      }
      filters[name] = await sequential(url + query(middle), auth as Headers, 200)
    }
    const alone = filters["no filter"]!
    const loaded = await warmThenLoad(url, {
      connections: 10,
      warmup: 1,
      duration: Number(opts.duration),
      headers: auth
    })
    return { size, alone, loaded, plan, filters }
  } finally {
    server.closeAllConnections()
    server.close()
    await workbay.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---- 2. watchers ---------------------------------------------------------------------------------------
interface Watcher {
  readonly socket: WebSocket
  /** notification id → when this client received it. */
  readonly seen: Map<string, number>
}

const openWatcher = (url: string, auth: Headers) =>
  new Promise<Watcher>((resolve, reject) => {
    const socket = new WebSocket(url, { headers: auth, perMessageDeflate: false })
    const w: Watcher = { socket, seen: new Map() }
    socket.on("message", (raw) => {
      const at = now()
      const m = /^\{"notification":\{"id":"([0-9a-f-]{36})"/.exec(raw.toString())
      if (m && !w.seen.has(m[1]!)) w.seen.set(m[1]!, at)
    })
    socket.once("open", () => resolve(w))
    socket.once("error", reject)
  })

const quantile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!

const createUsers = async (base: string, auth: Headers, n: number) => {
  const made: Array<{ id: string; auth: Headers }> = []
  for (let i = 0; i < n; i++) {
    const email = `watcher${i}@example.com`
    const password = "Bench-Password-2024!x"
    const u = await request(`${base}/users`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ email, username: `watcher${i}`, password })
    })
    if (u.status !== 201) throw new Error(`user: ${u.status} ${JSON.stringify(u.body)}`)
    const login = await request(`${base}/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password })
    })
    made.push({ id: u.body.id, auth: { [SESSION_HEADER]: login.body.session_token } })
  }
  return made
}

interface Round {
  readonly round: number
  readonly askedAt: number
  /** user id → the notification delivered to them in this round. */
  readonly byUser: Map<string, string>
}

const runWatchers = async (shape: "one user" | "many users", perRound: number) => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-inbox-watch-"))
  const service = await startChild(fileURLToPath(import.meta.url), ["--serve", join(dir, "workbay.db")], {
    nodeArgs: opts["service-prof"] === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${opts["service-prof"]}`]
  })
  const base = `http://127.0.0.1:${service.port}/api/v2`
  const watchers: Array<Watcher> = []
  const count = Number(opts.watchers)
  const delivered = new Map<number, number>()
  service.child.on("message", (m: any) => {
    if (m?.delivered !== undefined) delivered.set(m.delivered, m.at)
  })
  try {
    const first = await seedFirstUser(base)
    const users = shape === "one user"
      ? [{ id: first.userId as string, auth: first.auth as Headers }]
      : await createUsers(base, first.auth, Number(opts.users))
    const url = `ws://127.0.0.1:${service.port}/api/v2/notifications/inbox/watch`
    log(`${shape}: opening ${count} watchers of ${users.length} user(s)`)
    const t0 = performance.now()
    for (let i = 0; i < count; i += 50) {
      watchers.push(
        ...await Promise.all(
          Array.from(
            { length: Math.min(50, count - i) },
            (_, k) => openWatcher(url, users[(i + k) % users.length]!.auth)
          )
        )
      )
    }
    const openedIn = performance.now() - t0
    const ownerOf = (i: number) => users[i % users.length]!.id
    let round = 0
    /** One round: a notification for `perRound` users (in turn) at once; answers the ids by user and when the parent asked. */
    const deliverRound = (): Round => {
      const chosen: Array<{ id: string; auth: Headers }> = Array.from(
        { length: Math.min(perRound, users.length) },
        (_, k) => users[(round * perRound + k) % users.length]!
      )
      const inputs = chosen.map((u) => notification(u.id, round))
      const askedAt = now()
      service.child.send({ deliver: inputs, round: ++round })
      return { round, askedAt, byUser: new Map(inputs.map((n) => [n.userId, n.id])) }
    }
    const waitAll = async (r: Round, timeoutMs: number) => {
      const deadline = performance.now() + timeoutMs
      const waiting = () => watchers.some((w, i) => r.byUser.has(ownerOf(i)) && !w.seen.has(r.byUser.get(ownerOf(i))!))
      while (performance.now() < deadline && waiting()) await sleep(10)
    }
    // Warm-up rounds, one per user at least and three in all: every reader subscribed, every path warm.
    for (let k = 0; k < Math.max(users.length, 3 * perRound); k += perRound) await waitAll(deliverRound(), 10_000)
    const rssIdle = rssMb(service.child.pid)
    const rounds: Array<Round> = []
    log(`${shape}: ${opts.deliveries} delivery rounds, ${opts.gap} ms apart`)
    for (let i = 0; i < Number(opts.deliveries); i++) {
      rounds.push(deliverRound())
      await sleep(Number(opts.gap))
    }
    await waitAll(rounds.at(-1)!, Number(opts.timeout))
    const rssLoaded = rssMb(service.child.pid)
    const all: Array<number> = []
    const deliverMs: Array<number> = []
    let missed = 0
    const byRound = rounds.map((r) => {
      const delays: Array<number> = []
      watchers.forEach((w, i) => {
        if (!r.byUser.has(ownerOf(i))) return
        const at = w.seen.get(r.byUser.get(ownerOf(i))!)
        if (at === undefined) missed++
        else delays.push(at - r.askedAt)
      })
      delays.sort((a, b) => a - b)
      all.push(...delays)
      const done = delivered.get(r.round)
      if (done !== undefined) deliverMs.push(done - r.askedAt)
      return {
        round: r.round,
        got: delays.length,
        p50: quantile(delays, 0.5),
        p99: quantile(delays, 0.99),
        max: delays.at(-1) ?? NaN,
        deliver: done === undefined ? NaN : done - r.askedAt
      }
    })
    all.sort((a, b) => a - b)
    deliverMs.sort((a, b) => a - b)
    return {
      shape,
      perRound: Math.min(perRound, users.length),
      users: users.length,
      count,
      openedIn,
      rssIdle,
      rssLoaded,
      byRound,
      missed,
      p50: quantile(all, 0.5),
      p99: quantile(all, 0.99),
      max: all.at(-1) ?? NaN,
      deliverP50: quantile(deliverMs, 0.5)
    }
  } finally {
    for (const w of watchers) w.socket.terminate()
    await service.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---- 3. from enqueue to the watcher ---------------------------------------------------------------------
const runEnqueue = async () => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-inbox-enqueue-"))
  const service = await startChild(fileURLToPath(import.meta.url), ["--serve", join(dir, "workbay.db")])
  const base = `http://127.0.0.1:${service.port}/api/v2`
  const sockets: Array<WebSocket> = []
  /** Per watcher: title → when it received the notification with that title. */
  const seen: Array<Map<string, number>> = []
  try {
    const first = await seedFirstUser(base)
    const url = `ws://127.0.0.1:${service.port}/api/v2/notifications/inbox/watch`
    const count = Number(opts["enqueue-watchers"])
    for (let i = 0; i < count; i++) {
      const got = new Map<string, number>()
      const socket = new WebSocket(url, { headers: first.auth, perMessageDeflate: false })
      socket.on("message", (raw) => {
        const at = now()
        const title = JSON.parse(raw.toString()).notification?.title as string | undefined
        if (title !== undefined && !got.has(title)) got.set(title, at)
      })
      await new Promise((resolve, reject) => {
        socket.once("open", resolve)
        socket.once("error", reject)
      })
      sockets.push(socket)
      seen.push(got)
    }
    const post = (title: string) =>
      request(`${base}/notifications/custom`, {
        method: "POST",
        headers: { ...first.auth, "content-type": "application/json" },
        body: JSON.stringify({ content: { title, message: "Bench." } })
      })
    const waitFor = async (title: string, timeoutMs: number) => {
      const deadline = performance.now() + timeoutMs
      while (performance.now() < deadline && seen.some((m) => !m.has(title))) await sleep(5)
    }
    // Warm-up: every path taken once.
    for (let i = 0; i < 3; i++) {
      const title = `warm-${i}`
      await post(title)
      await waitFor(title, 20_000)
    }
    const rounds: Array<{ title: string; askedAt: number }> = []
    log(`enqueue: ${opts.enqueues} custom notifications ${opts.gap} ms apart to ${count} watchers`)
    for (let i = 0; i < Number(opts.enqueues); i++) {
      const title = `bench-${i}`
      const askedAt = now()
      const r = await post(title)
      if (r.status !== 204) throw new Error(`POST /notifications/custom: ${r.status} ${JSON.stringify(r.body)}`)
      rounds.push({ title, askedAt })
      await sleep(Number(opts.gap))
    }
    await waitFor(rounds.at(-1)!.title, Number(opts.timeout))
    const delays: Array<number> = []
    let missed = 0
    for (const r of rounds) {
      for (const m of seen) {
        const at = m.get(r.title)
        if (at === undefined) missed++
        else delays.push(at - r.askedAt)
      }
    }
    delays.sort((a, b) => a - b)
    return {
      watchers: count,
      enqueues: rounds.length,
      missed,
      p50: quantile(delays, 0.5),
      p99: quantile(delays, 0.99),
      max: delays.at(-1) ?? NaN
    }
  } finally {
    for (const socket of sockets) socket.terminate()
    await service.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

const startedAt = new Date()
const load0 = loadavg()
const lines: Array<string> = ["# Inbox", "", machineLine(startedAt, load0), ""]
lines.push(
  "A shared 2-core machine: other work ran beside this one, so read the ratios and orders of magnitude, not the absolute figures.",
  ""
)

const pages = []
for (const size of opts.only === "watchers" || opts.only === "enqueue" ? [] : opts.sizes.split(",").map(Number)) {
  log(`pages with ${size} notifications`)
  pages.push(await measurePages(size))
}
if (pages.length > 0) {
  lines.push("## GET /notifications/inbox (a page of 25) by notifications in the user's inbox", "")
  lines.push(...scalingTable("notifications", pages))
  lines.push("", "### Each filter alone: p50 / p99 of 200 sequential requests (ms)", "")
  lines.push(`| filter | ${pages.map((p) => p.size.toLocaleString("en")).join(" | ")} | ratio largest/smallest (p50) |`)
  lines.push(`|---|${pages.map(() => "---:|").join("")}---:|`)
  for (const [name] of FILTERS) {
    const cells = pages.map((p) => `${fmt(p.filters[name]!.median, 2)} / ${fmt(p.filters[name]!.p99, 2)}`)
    const ratio = pages.at(-1)!.filters[name]!.median / pages[0]!.filters[name]!.median
    lines.push(`| ${name} | ${cells.join(" | ")} | ${fmt(ratio, 2)}x |`)
  }
}

const watched = []
if (opts.only !== "pages" && opts.only !== "enqueue") {
  watched.push(await runWatchers("one user", 1))
  for (const perRound of opts["per-round"].split(",").map(Number)) {
    watched.push(await runWatchers("many users", perRound))
  }
}
if (watched.length > 0) {
  lines.push("", `## ${opts.watchers} watchers on one process (GET /notifications/inbox/watch)`, "")
  lines.push(
    `The service in a child process (SQLite file); ${opts.deliveries} delivery rounds ${opts.gap} ms apart through the InboxDelivery port ` +
      "(a round stores one notification for each of `per round` watched users at once, the users in turn); delay = a client's receipt minus the moment the parent asked " +
      "the child to deliver (ms; the IPC hop included), on the client process's clock, which handles every receipt on its one event loop.",
    ""
  )
  lines.push(
    "| shape | users | watchers | per round | notifications/s | opened in (s) | missed | delay p50 | p99 | max | deliver() done p50 | service RSS idle / after (MB) |"
  )
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
  for (const r of watched) {
    lines.push(
      `| ${r.shape} | ${r.users} | ${r.count.toLocaleString("en")} | ${r.perRound} | ${
        fmt(r.perRound * 1000 / Number(opts.gap), 0)
      } | ${fmt(r.openedIn / 1000, 1)} | ${r.missed} | ${fmt(r.p50, 1)} | **${fmt(r.p99, 1)}** | ` +
        `${fmt(r.max, 1)} | ${fmt(r.deliverP50, 1)} | ${fmt(r.rssIdle, 0)} / ${fmt(r.rssLoaded, 0)} |`
    )
  }
  for (const r of watched) {
    lines.push(
      "",
      `### ${r.shape}, ${r.perRound} per round: per round`,
      "",
      "| round | clients got it | p50 | p99 | max | deliver() done |",
      "|---|---:|---:|---:|---:|---:|"
    )
    for (const x of r.byRound) {
      lines.push(
        `| ${x.round} | ${x.got} | ${fmt(x.p50, 1)} | ${fmt(x.p99, 1)} | ${fmt(x.max, 1)} | ${fmt(x.deliver, 1)} |`
      )
    }
  }
}
if (opts.only === undefined || opts.only === "enqueue") {
  const e = await runEnqueue()
  lines.push("", "## From enqueue to the watcher (POST /notifications/custom, the notifier woken by the enqueue)", "")
  lines.push(
    `The service in a child process (SQLite file) with its notifier at the default fetch interval (15 s); ${e.enqueues} custom notifications ` +
      `${opts.gap} ms apart, each to ${e.watchers} watchers of the caller's inbox; delay = a client's receipt minus the moment before the POST was sent (ms).`,
    ""
  )
  lines.push("| watchers | enqueues | missed | delay p50 | p99 | max |", "|---:|---:|---:|---:|---:|---:|")
  lines.push(
    `| ${e.watchers} | ${e.enqueues} | ${e.missed} | ${fmt(e.p50, 1)} | **${fmt(e.p99, 1)}** | ${fmt(e.max, 1)} |`
  )
}
writeReport(lines.join("\n") + "\n", "inbox.md", { write: !opts["no-write"], log })
process.exit(0)
