// The notification queue at scale (npm run bench:notifications). Not a test: it measures and reports.
//
// Runs the service in process (TypeScript sources through tsx, like the tests), on a SQLite file
// (and on Postgres too with --pg <url>), its notifier's fiber off: enqueues --messages (10,000) custom
// notifications for one user (NotificationQueue.enqueue, one at a time: messages/s), then fetches
// until the queue is empty (Notifier.dispatchOnce, lease_count --lease, webhook method to a local
// node:http endpoint that answers 204): messages/s sent, and the fetches it took.
// Writes bench/results/notifications.md. Options: --messages 10000 --lease 20,100 --pg <url> --no-write
import { NotificationQueue, Notifier, TemplateIds } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import pg from "pg"
import { logger, machineLine, seedFirstUser, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    messages: { type: "string", default: "10000" },
    lease: { type: "string", default: "20,100" },
    pg: { type: "string" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("notifications")
const count = Number(opts.messages)

const main = async () => {
  const startedAt = new Date()
  const load0 = loadavg()
  let received = 0
  const hook = createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      received++
      res.statusCode = 204
      res.end()
    })
  })
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", () => resolve()))
  const endpoint = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`
  const rows: Array<string> = []
  const runs = ["sqlite", ...(opts.pg === undefined ? [] : ["pg"])].flatMap((kind) =>
    opts.lease.split(",").map((lease) => ({ kind, lease: Number(lease) }))
  )
  for (const { kind, lease } of runs) {
    const dir = mkdtempSync(join(tmpdir(), "workbay-bench-notify-"))
    const schema = `bench_${randomBytes(4).toString("hex")}`
    const storage = kind === "pg"
      ? (await import("@workbay/storage-postgres")).layer({ url: opts.pg!, schema })
      : Sqlite.layer({ filename: join(dir, "workbay.db") })
    const workbay = await makeWorkbay(storage, {
      http: { rateLimits: false },
      passwordHashCost: 4,
      notifier: false,
      workers: false,
      lifecycle: false,
      retention: false,
      hangDetector: false,
      agentMonitor: false,
      settings: {
        notificationsMethod: "webhook",
        notificationsWebhookEndpoint: endpoint,
        notificationsInboxEnabled: false,
        notificationsLeaseCount: lease
      }
    })
    const server = createServer(workbay.node)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`
    const { userId } = await seedFirstUser(base)
    log(`lease ${lease}: enqueueing ${count}`)
    const t0 = performance.now()
    await workbay.run(
      Effect.flatMap(NotificationQueue, (q) =>
        Effect.forEach(
          Array.from({ length: count }, (_, i) => i),
          (i) =>
            q.enqueue({
              templateId: TemplateIds.customNotification,
              userId,
              labels: { custom_title: `Message ${i}`, custom_message: "Benchmark" },
              createdBy: "bench"
            }),
          { discard: true }
        ))
    )
    const enqueueMs = performance.now() - t0
    const before = received
    let fetches = 0
    const t1 = performance.now()
    for (;;) {
      const r = await workbay.run(Effect.flatMap(Notifier, (n) => n.dispatchOnce))
      if (r.leased === 0) break
      fetches++
    }
    const dispatchMs = performance.now() - t1
    const sent = received - before
    rows.push(
      `| ${kind === "pg" ? "Postgres" : "SQLite"} | ${lease} | ${count} | ${
        Math.round(count / (enqueueMs / 1000))
      } | ` +
        `${sent} | ${fetches} | ${Math.round(sent / (dispatchMs / 1000))} |`
    )
    log(rows.at(-1))
    server.closeAllConnections()
    server.close()
    await workbay.dispose()
    rmSync(dir, { recursive: true, force: true })
    if (kind === "pg") {
      const client = new pg.Client({ connectionString: opts.pg! })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
    }
  }
  hook.closeAllConnections()
  hook.close()
  const report = [
    "# Notifications: the queue and the notifier",
    "",
    machineLine(startedAt, load0),
    "",
    "Custom notifications for one user, webhook method to a local endpoint (204), one notifier fetching",
    "until the queue is empty (ten sends at a time per fetch).",
    "",
    "| storage | lease_count | messages | enqueued/s | sent | fetches | sent/s |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    ""
  ].join("\n")
  writeReport(report, "notifications.md", { write: !opts["no-write"], log })
}

main().then(() => process.exit(0), (e) => {
  console.error(e)
  process.exit(1)
})
