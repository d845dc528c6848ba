/**
 * Graceful shutdown of the real server process (SQLite): SIGTERM while requests are in flight
 * (slow uploads whose bodies are still arriving, a burst of reads), a WebSocket open, a
 * provisioner job running and a notification being sent (to an SMTP server that never answers).
 * Every request sent before the signal gets its full answer, new connections are refused, the
 * WebSocket is closed with 1001, the process exits 0, the running job is failed (as the described
 * system's provisioner daemons fail their job when stopped) and the notification is back to pending.
 */
import Database from "better-sqlite3"
import { request } from "node:http"
import { createServer, type Socket } from "node:net"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { connect, eventually } from "../../http/test/websocket.js"
import { tar } from "../../http/test/templates/archives.js"
import { firstOwnerSession } from "./owner.js"
import { startServerProcess } from "./process.js"
import { runningBuild, SESSION_HEADER, slowTemplate } from "./workload.js"

/** A request on a connection of its own whose body is sent in two halves; `rest` sends the second. */
const slowUpload = (url: string, token: string, bytes: Uint8Array) => {
  const u = new URL(`${url}/api/v2/files`)
  let rest!: () => void
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({
      host: u.hostname, port: u.port, path: u.pathname, method: "POST", agent: false,
      headers: { "content-type": "application/x-tar", "content-length": bytes.length, [SESSION_HEADER]: token }
    }, (res) => {
      let body = ""
      res.on("data", (d) => (body += d))
      res.on("end", () => resolve({ status: res.statusCode!, body }))
      res.on("error", reject)
    })
    req.on("error", reject)
    const half = Math.floor(bytes.length / 2)
    req.write(bytes.subarray(0, half))
    rest = () => req.end(bytes.subarray(half))
  })
  return { answer, rest: () => rest() }
}

/** A plain GET on a connection of its own: its status and body, or the error's code. */
const get = (url: string, path: string, token: string) =>
  new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    const u = new URL(`${url}/api/v2${path}`)
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, agent: false, headers: { [SESSION_HEADER]: token } }, (res) => {
      let body = ""
      res.on("data", (d) => (body += d))
      res.on("end", () => resolve({ status: res.statusCode!, body }))
      res.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }))
    })
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }))
    req.end()
  })

describe("graceful shutdown", () => {
  it("answers every in-flight request, refuses new ones, closes WebSockets with 1001 and hands back jobs and notifications", async () => {
    // An SMTP server that accepts connections and never says a word: a send stays in flight.
    const sockets = new Set<Socket>()
    const silent = createServer((s) => void sockets.add(s))
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    const smarthost = `127.0.0.1:${(silent.address() as { port: number }).port}`
    const dir = mkdtempSync(join(tmpdir(), "workbay-shutdown-"))
    const server = await startServerProcess([
      "--data-dir", dir, "--email-smarthost", smarthost, "--email-from", "workbay@example.com",
      "--notifications-fetch-interval", "100ms", "--shutdown-timeout", "20s"
    ])
    try {
      const token = await firstOwnerSession(server.url)
      const { orgId, templateId } = await slowTemplate(server.url, token, 600_000)
      const ws = await runningBuild(server.url, token, orgId, templateId)
      // A passcode mail to the silent server: leased, being sent.
      expect((await fetch(`${server.url}/api/v2/users/otp/request`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "admin@example.com" })
      })).status).toBe(204)
      await eventually(() => sockets.size > 0, 15_000)
      const socket = await connect(`${server.url.replace(/^http/, "ws")}/api/v2/notifications/inbox/watch`, { [SESSION_HEADER]: token })

      const uploads = Array.from({ length: 4 }, (_, i) => slowUpload(server.url, token, tar([{ name: "big.txt", content: `${i}`.repeat(2 * 1024 * 1024) }])))
      const reads = Array.from({ length: 40 }, () => get(server.url, "/users/me", token))
      // Let the uploads' first halves arrive, then stop the server with everything in flight.
      await new Promise((r) => setTimeout(r, 300))
      server.child.kill("SIGTERM")
      await new Promise((r) => setTimeout(r, 500))
      for (const u of uploads) u.rest()

      for (const r of await Promise.all(reads)) expect(r).toMatchObject({ status: 200 })
      for (const u of await Promise.all(uploads.map((u) => u.answer))) {
        expect(u.status, u.body).toBe(201)
        expect(JSON.parse(u.body).hash).toMatch(/^[0-9a-f-]{36}$/)
      }
      expect(await get(server.url, "/users/me", token)).toEqual({ error: "ECONNREFUSED" })
      expect((await socket.closed).code).toBe(1001)
      expect(await server.exited).toBe(0)

      const db = new Database(join(dir, "workbay.db"), { readonly: true })
      try {
        const job = db.prepare("SELECT error, completed_at FROM provisioner_jobs WHERE id = ?").get(ws.latest_build.job.id) as any
        expect(job.completed_at).not.toBeNull()
        expect(job.error).toContain("stopped before the job finished")
        // The mail the silent server held (inbox messages beside it were delivered).
        const messages = db.prepare("SELECT status, leased_until FROM notification_messages WHERE method = 'smtp'").all() as Array<any>
        expect(messages.length).toBeGreaterThan(0)
        for (const m of messages) expect(m).toEqual({ status: "pending", leased_until: null })
      } finally {
        db.close()
      }
      expect(server.stderr()).toContain("SIGTERM received: shutting down")
    } finally {
      await server.stop("SIGKILL")
      for (const s of sockets) s.destroy()
      silent.close()
    }
  }, 120_000)
})
