/**
 * Graceful shutdown of the real server process, on SQLite and on Postgres (a fresh database; skipped
 * without the run's Postgres): SIGTERM while requests are in flight
 * (slow uploads whose bodies are still arriving, a burst of reads), a WebSocket open, a
 * provisioner job running and a notification being sent (to an SMTP server that never answers).
 * Every request sent before the signal gets its full answer (a connection opened before it may
 * send its first request during a short grace; an idle keep-alive connection is closed at once),
 * new connections are refused, the
 * WebSocket is closed with 1001, the process exits 0, the running job is failed (as the described
 * system's provisioner daemons fail their job when stopped) and the notification is back to pending.
 */
import Database from "better-sqlite3"
import { mkdtempSync } from "node:fs"
import { request } from "node:http"
import { createConnection, createServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import { tar } from "../../http/test/templates/archives.js"
import { connect, eventually } from "../../http/test/websocket.js"
import { firstOwnerSession } from "./owner.js"
import { freshDatabase, startServerProcess } from "./process.js"
import { runningBuild, SESSION_HEADER, slowTemplate } from "./workload.js"

/**
 * A request on a connection of its own whose body is sent in two halves: the first once the
 * server has read the headers (its `100 Continue`: `started`), the second by `rest`.
 */
const slowUpload = (url: string, token: string, bytes: Uint8Array) => {
  const u = new URL(`${url}/api/v2/files`)
  let rest!: () => void
  let started!: () => void
  const headersRead = new Promise<void>((resolve) => (started = resolve))
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: "POST",
      agent: false,
      headers: {
        "content-type": "application/x-tar",
        "content-length": bytes.length,
        expect: "100-continue",
        [SESSION_HEADER]: token
      }
    }, (res) => {
      let body = ""
      res.on("data", (d) => (body += d))
      res.on("end", () => resolve({ status: res.statusCode!, body }))
      res.on("error", reject)
    })
    req.on("error", reject)
    const half = Math.floor(bytes.length / 2)
    req.on("continue", () => {
      req.write(bytes.subarray(0, half))
      started()
    })
    req.flushHeaders()
    rest = () => req.end(bytes.subarray(half))
  })
  return { answer, started: headersRead, rest: () => rest() }
}

/** A plain GET on a connection of its own: its status and body, or the error's code. */
const get = (url: string, path: string, token: string) =>
  new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    const u = new URL(`${url}/api/v2${path}`)
    const req = request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      agent: false,
      headers: { [SESSION_HEADER]: token }
    }, (res) => {
      let body = ""
      res.on("data", (d) => (body += d))
      res.on("end", () => resolve({ status: res.statusCode!, body }))
      res.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }))
    })
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }))
    req.end()
  })

/** A raw connection: what it received, and whether it closed. */
const rawConnection = async (url: string) => {
  const u = new URL(url)
  const socket = createConnection({ host: u.hostname, port: Number(u.port) })
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject))
  let received = ""
  socket.on("data", (d) => (received += d))
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()))
  socket.on("error", () => {})
  return { socket, received: () => received, closed }
}

const rawGet = (token: string, keepAlive: boolean) =>
  `GET /api/v2/users/me HTTP/1.1\r\nHost: workbay\r\n${SESSION_HEADER}: ${token}\r\n` +
  `Connection: ${keepAlive ? "keep-alive" : "close"}\r\n\r\n`

const pgUrl = inject("workbayPgUrl")

/** Where the server keeps its data: its flags, and a read of the database once it stopped. */
interface Storage {
  readonly args: ReadonlyArray<string>
  readonly query: (text: string) => Promise<Array<Record<string, unknown>>>
  readonly close: () => Promise<void>
}

const sqlite = (): Storage => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-shutdown-"))
  return {
    args: ["--data-dir", dir],
    query: async (text) => {
      const db = new Database(join(dir, "workbay.db"), { readonly: true })
      try {
        return db.prepare(text).all() as Array<Record<string, unknown>>
      } finally {
        db.close()
      }
    },
    close: async () => {}
  }
}

const postgres = async (url: string): Promise<Storage> => {
  const fresh = await freshDatabase(url)
  return {
    args: ["--database-url", fresh.url],
    query: async (text) => {
      const pg = (await import("pg")).default
      const client = new pg.Client({ connectionString: fresh.url })
      await client.connect()
      try {
        return (await client.query(text)).rows
      } finally {
        await client.end()
      }
    },
    close: fresh.drop
  }
}

const TITLE =
  "answers every in-flight request, refuses new ones, closes WebSockets with 1001 and hands back jobs and notifications"

describe("graceful shutdown", () => {
  it(`${TITLE} (SQLite)`, () => scenario(sqlite()))
  it.skipIf(pgUrl === null)(`${TITLE} (Postgres)`, async () => scenario(await postgres(pgUrl!)))
})

const scenario = async (storage: Storage) => {
  // An SMTP server that accepts connections and never says a word: a send stays in flight.
  const sockets = new Set<Socket>()
  const silent = createServer((s) => void sockets.add(s))
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
  const smarthost = `127.0.0.1:${(silent.address() as { port: number }).port}`
  const server = await startServerProcess([
    ...storage.args,
    "--email-smarthost",
    smarthost,
    "--email-from",
    "workbay@example.com",
    "--notifications-fetch-interval",
    "100ms",
    "--shutdown-timeout",
    "20s"
  ]).catch(async (e) => {
    silent.close()
    await storage.close()
    throw e
  })
  try {
    const token = await firstOwnerSession(server.url)
    const { orgId, templateId } = await slowTemplate(server.url, token, 600_000)
    const ws = await runningBuild(server.url, token, orgId, templateId)
    // A passcode mail to the silent server: leased, being sent.
    expect(
      (await fetch(`${server.url}/api/v2/users/otp/request`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@example.com" })
      })).status
    ).toBe(204)
    await eventually(() => sockets.size > 0)
    const socket = await connect(`${server.url.replace(/^http/, "ws")}/api/v2/notifications/inbox/watch`, {
      [SESSION_HEADER]: token
    })

    const uploads = Array.from(
      { length: 4 },
      (_, i) => slowUpload(server.url, token, tar([{ name: "big.txt", content: `${i}`.repeat(2 * 1024 * 1024) }]))
    )
    const reads = Array.from({ length: 40 }, () => get(server.url, "/users/me", token))
    // A connection that has sent nothing yet, and a keep-alive connection idle after one answer.
    const fresh = await rawConnection(server.url)
    const idle = await rawConnection(server.url)
    idle.socket.write(rawGet(token, true))
    await eventually(() => idle.received().includes("\r\n\r\n{"))
    // The uploads are the server's requests (their headers read: a connection still in the
    // listener's backlog would be reset when it closes); let their first halves and the reads
    // arrive, then stop the server with everything in flight.
    await Promise.all(uploads.map((u) => u.started))
    await new Promise((r) => setTimeout(r, 300))
    server.child.kill("SIGTERM")
    await new Promise((r) => setTimeout(r, 500))
    for (const u of uploads) u.rest()
    // Once the server stopped listening (new connections refused), the fresh connection's first
    // request, within its grace: answered, then closed. The idle keep-alive connection was closed
    // without an answer to wait for.
    while (!("error" in (await get(server.url, "/users/me", token)))) await new Promise((r) => setTimeout(r, 50))
    fresh.socket.write(rawGet(token, true))
    await fresh.closed
    expect(fresh.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(fresh.received().toLowerCase()).toContain("connection: close")
    await idle.closed

    for (const r of await Promise.all(reads)) expect(r).toMatchObject({ status: 200 })
    for (const u of await Promise.all(uploads.map((u) => u.answer))) {
      expect(u.status, u.body).toBe(201)
      expect(JSON.parse(u.body).hash).toMatch(/^[0-9a-f-]{36}$/)
    }
    expect(await get(server.url, "/users/me", token)).toEqual({ error: "ECONNREFUSED" })
    expect((await socket.closed).code).toBe(1001)
    expect(await server.exited).toBe(0)

    // The id is a UUID the server made: quoted as it is, the same statement reads both storages.
    const [job] = await storage.query(
      `SELECT error, completed_at FROM provisioner_jobs WHERE id = '${ws.latest_build.job.id}'`
    )
    expect(job?.completed_at).not.toBeNull()
    expect(job?.error).toContain("stopped before the job finished")
    // The mail the silent server held (inbox messages beside it were delivered).
    const messages = await storage.query("SELECT status, leased_until FROM notification_messages WHERE method = 'smtp'")
    expect(messages.length).toBeGreaterThan(0)
    for (const m of messages) expect(m).toEqual({ status: "pending", leased_until: null })
    expect(server.stderr()).toContain("SIGTERM received: shutting down")
  } finally {
    await server.stop("SIGKILL")
    for (const s of sockets) s.destroy()
    silent.close()
    await storage.close()
  }
}
