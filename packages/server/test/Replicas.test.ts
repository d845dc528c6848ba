/**
 * Three standalone server processes on one fresh Postgres database, as an operator runs replicas
 * behind a load balancer. Real processes (`node` on the server's entry point), real HTTP, real
 * WebSockets; the database is read directly to count what happened.
 * - Provisioner jobs queued through every replica are each run once: one worker, one completion,
 *   their logs not duplicated; every replica's workers have their own daemon rows.
 * - Notifications are each sent once: every replica's notifier leases from the same queue, and a
 *   webhook sink counts the deliveries; an inbox message reaches watchers on every replica
 *   through Postgres's LISTEN/NOTIFY (the PubSub port).
 * - A workspace whose deadline has passed is stopped once, though every replica's lifecycle
 *   executor ticks every 200 ms (`--autobuild-poll-interval`).
 * - The retention purge at start of two replicas started together deletes the old audit entries
 *   once: one purge reports them all.
 * - A workspace watcher on one replica sees a build started through another.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { tar } from "../../http/test/templates/archives.js"
import { connect, eventually } from "../../http/test/websocket.js"
import { firstOwnerSession } from "./owner.js"
import { freshDatabase, SERVER } from "./process.js"

const url = inject("workbayPgUrl")
const SESSION_HEADER = "Service-Session-Token"

interface Replica {
  readonly child: ChildProcess
  readonly url: string
  readonly output: () => string
}

/**
 * Starts the server (src/main.ts, bundled: process.ts) on the Postgres database `databaseUrl`
 * with `extra` flags; resolves with its URL once it says it is ready.
 */
const startReplica = (databaseUrl: string, extra: ReadonlyArray<string>): Promise<Replica> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      ...SERVER,
      "--port",
      "0",
      ...extra
    ], {
      env: { ...process.env, DATABASE_URL: databaseUrl, WORKBAY_LOG_LEVEL: "warning" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const onData = (d: Buffer) => {
      output += d.toString()
      const ready = output.match(/Workbay (http:\/\/\S+)\/api\/v2 ready/)
      if (ready) resolve({ child, url: ready[1]!, output: () => output })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`replica exited (${code}) before it was ready:\n${output}`)))
  })

const stop = (replica: Replica | undefined) =>
  new Promise<void>((resolve) => {
    if (replica === undefined || replica.child.exitCode !== null) return resolve()
    replica.child.on("exit", () => resolve())
    replica.child.kill("SIGTERM")
  })

/** Waits until `check` answers true (polled every 50 ms), or fails after `ms`. */
const until = async (check: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting")
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A webhook endpoint that counts the deliveries of each message id. */
const webhookSink = async () => {
  const deliveries = new Map<string, number>()
  const server: Server = createServer((req, res) => {
    let body = ""
    req.on("data", (d) => (body += d))
    req.on("end", () => {
      const id = (JSON.parse(body) as { msg_id: string }).msg_id
      deliveries.set(id, (deliveries.get(id) ?? 0) + 1)
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return {
    deliveries,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => server.close()
  }
}

const TEMPLATE = `resources:
  - name: box
    type: machine
build:
  logs: ["Replica build of \${workspace.name}"]
`

/** Flags every replica shares: short intervals for every background loop under test. */
const common = (hook: string) => [
  "--provisioner-daemons",
  "2",
  "--notifications-fetch-interval",
  "200ms",
  "--notifications-method",
  "webhook",
  "--notifications-webhook-endpoint",
  hook,
  "--autobuild-poll-interval",
  "200ms"
]

describe.skipIf(url === null)("three server processes on one Postgres", () => {
  const replicas: Array<Replica> = []
  // A database of its own: the run's database is shared with the other files' tests (which may
  // run at the same time, in other workers) and its default schema with some of them.
  let database: Awaited<ReturnType<typeof freshDatabase>> | undefined
  let db: pg.Client
  let sink: Awaited<ReturnType<typeof webhookSink>>
  let token: string
  let orgId: string
  const rows = async <A = any>(text: string, values: Array<unknown> = []) =>
    (await db.query(text, values)).rows as Array<A>

  const call = async (r: Replica, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${r.url}/api/v2${path}`, {
      method,
      headers: { "content-type": "application/json", [SESSION_HEADER]: token },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {})
    })
    const text = await res.text()
    return { status: res.status, body: text === "" ? undefined : JSON.parse(text) }
  }

  beforeAll(async () => {
    sink = await webhookSink()
    // A first (it migrates the fresh database, and keeps audit entries forever).
    database = await freshDatabase(url!)
    replicas.push(await startReplica(database.url, common(sink.url)))
    db = new pg.Client({ connectionString: database.url })
    await db.connect()
    // Audit entries two hours old, then two replicas that keep them one hour, started together.
    for (let i = 0; i < 30; i++) {
      await db.query(
        `INSERT INTO audit_logs (id, time, action, resource_type, status_code) VALUES ($1, now() - interval '2 hours', 'write', 'user', 200)`,
        [randomUUID()]
      )
    }
    const retained = [...common(sink.url), "--audit-logs-retention", "1h", "--log-level", "info"]
    replicas.push(...(await Promise.all([startReplica(database.url, retained), startReplica(database.url, retained)])))
    token = await firstOwnerSession(replicas[0]!.url)
    orgId = (await call(replicas[0]!, "GET", "/users/me")).body.organization_ids[0]
  })
  afterAll(async () => {
    await Promise.all(replicas.map(stop))
    await db?.end()
    await database?.drop()
    sink?.close()
  })

  it("purges old audit entries once across the replicas that purge at start", async () => {
    expect(await rows(`SELECT id FROM audit_logs WHERE time < now() - interval '1 hour'`)).toEqual([])
    const reports = replicas.flatMap((r) =>
      [...r.output().matchAll(/Retention purge deleted (\d+) audit entries/g)].map((m) => Number(m[1]))
    )
    expect(reports).toEqual([30])
  })

  it("runs each provisioner job once, on the workers of every replica, with its logs once", async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica]
    // Template versions imported through each replica.
    const versions: Array<string> = []
    for (const [i, r] of [a, b, c, a, b, c].entries()) {
      const upload = await fetch(`${r.url}/api/v2/files`, {
        method: "POST",
        headers: { "content-type": "application/x-tar", [SESSION_HEADER]: token },
        body: tar([{ name: "template.yaml", content: TEMPLATE + `# ${i}\n` }]) as BodyInit
      })
      expect(upload.status).toBe(201)
      const hash = ((await upload.json()) as { hash: string }).hash
      const v = await call(r, "POST", `/organizations/${orgId}/templateversions`, {
        storage_method: "file",
        file_id: hash,
        provisioner: "workbay",
        tags: {}
      })
      expect(v.status, JSON.stringify(v.body)).toBe(201)
      versions.push(v.body.id)
    }
    await until(async () => {
      const jobs = await rows(`SELECT id FROM provisioner_jobs WHERE completed_at IS NULL`)
      return jobs.length === 0
    }, 30_000)
    const template = await call(a, "POST", `/organizations/${orgId}/templates`, {
      name: "replicated",
      template_version_id: versions[0]
    })
    expect(template.status, JSON.stringify(template.body)).toBe(201)
    // Workspaces (their first builds) created through each replica.
    for (const [i, r] of [a, b, c, a, b, c, a, b, c].entries()) {
      const w = await call(r, "POST", `/organizations/${orgId}/members/me/workspaces`, {
        name: `ws-${i}`,
        template_id: template.body.id
      })
      expect(w.status, JSON.stringify(w.body)).toBe(200)
    }
    await until(
      async () => (await rows(`SELECT id FROM provisioner_jobs WHERE completed_at IS NULL`)).length === 0,
      30_000
    )

    const jobs = await rows<{ id: string; type: string; worker_id: string | null; error: string; started_at: unknown }>(
      `SELECT id, type, worker_id, error, started_at FROM provisioner_jobs`
    )
    expect(jobs.length).toBe(15)
    const daemons = await rows<{ id: string; name: string }>(`SELECT id, name FROM provisioner_daemons`)
    // Two workers in each of the three processes, each with its own row.
    expect(new Set(daemons.map((d) => d.name)).size).toBe(6)
    const daemonIds = new Set(daemons.map((d) => d.id))
    for (const job of jobs) {
      expect(job.error, job.id).toBe("")
      expect(job.started_at, job.id).not.toBeNull()
      expect(daemonIds.has(job.worker_id!), `${job.id} ran on ${job.worker_id}, not a daemon row`).toBe(true)
    }
    // No log line twice, and each build said its one line once.
    const duplicated = await rows(
      `SELECT job_id, stage, output, count(*) AS n FROM provisioner_job_logs GROUP BY job_id, stage, output HAVING count(*) > 1`
    )
    expect(duplicated).toEqual([])
    // Imports and builds alike render the template's one build line: once per job.
    const lines = await rows<{ job_id: string; n: string }>(
      `SELECT job_id, count(*) AS n FROM provisioner_job_logs WHERE output LIKE 'Replica build of %' GROUP BY job_id`
    )
    expect(lines.map((l) => Number(l.n))).toEqual(jobs.map(() => 1))
    const listed = await call(b, "GET", `/organizations/${orgId}/provisionerdaemons`)
    expect(listed.status).toBe(200)
    expect(new Set((listed.body as Array<{ name: string }>).map((d) => d.name)).size).toBeGreaterThanOrEqual(6)
  })

  it("stops a workspace whose deadline passed once, though every replica's executor ticks", async () => {
    const [w] = await rows<{ id: string }>(`SELECT id FROM workspaces WHERE name = 'ws-0'`)
    // Two minutes ago: a tick decides at its minute (truncated), which must be past the deadline.
    await db.query(`UPDATE workspace_builds SET deadline = now() - interval '2 minutes' WHERE workspace_id = $1`, [
      w!.id
    ])
    await db.query(
      `UPDATE workspaces SET lifecycle_due_at = '1970-01-01T00:00:00.000Z', lifecycle_version = lifecycle_version + 1 WHERE id = $1`,
      [w!.id]
    )
    const builds = () =>
      rows<{ transition: string; reason: string; completed_at: unknown }>(
        `SELECT b.transition, b.reason, j.completed_at FROM workspace_builds b JOIN provisioner_jobs j ON j.id = b.job_id
       WHERE b.workspace_id = $1 ORDER BY b.build_number`,
        [w!.id]
      )
    await until(async () => (await builds()).length >= 2 && (await builds())[1]!.completed_at !== null, 20_000)
    // Every executor has looked again (the workspace is no longer due at once) with the stop done.
    await until(async () => {
      const [row] = await rows<{ due: Date | null }>(`SELECT lifecycle_due_at AS due FROM workspaces WHERE id = $1`, [
        w!.id
      ])
      return row!.due === null || row!.due.getTime() > 0
    }, 10_000)
    for (const r of replicas) await call(r, "GET", "/buildinfo")
    const all = await builds()
    expect(all.map((b) => `${b.transition}:${b.reason}`)).toEqual(["start:initiator", "stop:autostop"])
  })

  it("shows a watcher on one replica a build started through another", async () => {
    const [a, b] = replicas as [Replica, Replica]
    const [w] = await rows<{ id: string }>(`SELECT id FROM workspaces WHERE name = 'ws-1'`)
    const ws = await connect(`${b.url.replace(/^http/, "ws")}/api/v2/workspaces/${w!.id}/watch-ws`, {
      [SESSION_HEADER]: token
    })
    const data = () => ws.messages.map((m) => JSON.parse(m)).filter((m) => m.type === "data").map((m) => m.data)
    await eventually(() => data().length >= 1)
    const started = await call(a, "POST", `/workspaces/${w!.id}/builds`, { transition: "stop" })
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    await eventually(
      () => data().some((d) => d.latest_build.id === started.body.id && d.latest_build.status === "stopped"),
      20_000
    )
    ws.socket.close()
  })

  it("sends each notification once, by webhook, and reaches inbox watchers on every replica", async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica]
    const onB = await connect(`${b.url.replace(/^http/, "ws")}/api/v2/notifications/inbox/watch?format=plaintext`, {
      [SESSION_HEADER]: token
    })
    const onA = await connect(`${a.url.replace(/^http/, "ws")}/api/v2/notifications/inbox/watch`, {
      [SESSION_HEADER]: token
    })
    for (const [i, r] of [a, b, c, a, b, c].entries()) {
      const posted = await call(r, "POST", "/notifications/custom", {
        content: { title: `Deploy **${i}** done`, message: "All green." }
      })
      expect(posted.status).toBe(204)
    }
    await eventually(() => onB.messages.length >= 6 && onA.messages.length >= 6)
    // Three notifiers deliver concurrently: the order of arrival is theirs, the set is every message once.
    const titles = (messages: ReadonlyArray<string>) =>
      messages.map((m) => JSON.parse(m).notification.title as string).sort()
    expect(titles(onB.messages)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `Deploy ${i} done`))
    expect(titles(onA.messages)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `Deploy **${i}** done`))
    expect(JSON.parse(onB.messages[0]!).notification).toMatchObject({ content: "All green." })
    // Every webhook message leaves the queue; each went out exactly once.
    const open = () =>
      rows(
        `SELECT id FROM notification_messages WHERE method = 'webhook' AND status IN ('pending', 'leased', 'temporary_failure')`
      )
    await until(async () => (await open()).length === 0, 20_000)
    const sent = await rows<{ id: string }>(
      `SELECT id FROM notification_messages WHERE method = 'webhook' AND status = 'sent'`
    )
    expect(sent.length).toBeGreaterThanOrEqual(6)
    expect(Object.fromEntries(sent.map((m) => [m.id, sink.deliveries.get(m.id)]))).toEqual(
      Object.fromEntries(sent.map((m) => [m.id, 1]))
    )
    expect([...sink.deliveries.values()].every((n) => n === 1)).toBe(true)
    onA.socket.close()
    onB.socket.close()
  })
})
