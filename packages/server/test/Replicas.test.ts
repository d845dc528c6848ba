/**
 * Two standalone server processes on one fresh Postgres database, as an operator runs replicas:
 * a custom notification posted to process A is sent by A's notifier (B's waits an hour between
 * fetches) into the user's inbox, and reaches a watcher connected to process B through Postgres's
 * LISTEN/NOTIFY (the PubSub port), as well as one on A. Both processes read the same inbox.
 * Real processes (`node` on the server's entry point), real HTTP, real WebSockets.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { connect, eventually } from "../../http/test/websocket.js"
import { firstOwnerSession } from "./owner.js"

const url = inject("workbayPgUrl")
const SESSION_HEADER = "Service-Session-Token"
const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url))

interface Replica {
  readonly child: ChildProcess
  readonly url: string
  readonly output: () => string
}

/** Starts `node src/main.ts` on Postgres with `extra` flags; resolves with its URL once it says it is ready. */
const startReplica = (extra: ReadonlyArray<string>): Promise<Replica> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=@workbay/source", "--import", "tsx", MAIN, "--port", "0", ...extra], {
      env: { ...process.env, DATABASE_URL: url!, WORKBAY_LOG_LEVEL: "warning" },
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

describe.skipIf(url === null)("two server processes on one Postgres", () => {
  let a: Replica | undefined
  let b: Replica | undefined

  beforeAll(async () => {
    // A first (it migrates the fresh database), then B. Only A's notifier fetches soon.
    a = await startReplica(["--notifications-fetch-interval", "200ms"])
    b = await startReplica(["--notifications-fetch-interval", "1h"])
  }, 60_000)
  afterAll(async () => {
    await stop(a)
    await stop(b)
  })

  it("a notification sent by process A reaches inbox watchers on process B and on A", async () => {
    const token = await firstOwnerSession(a!.url)
    const ws = (r: Replica) => r.url.replace(/^http/, "ws")
    const onB = await connect(`${ws(b!)}/api/v2/notifications/inbox/watch?format=plaintext`, { [SESSION_HEADER]: token })
    const onA = await connect(`${ws(a!)}/api/v2/notifications/inbox/watch`, { [SESSION_HEADER]: token })
    const posted = await fetch(`${a!.url}/api/v2/notifications/custom`, {
      method: "POST",
      headers: { "content-type": "application/json", [SESSION_HEADER]: token },
      body: JSON.stringify({ content: { title: "Deploy **done**", message: "All green." } })
    })
    expect(posted.status).toBe(204)
    await eventually(() => onB.messages.length >= 1 && onA.messages.length >= 1, 15_000)
    const fromB = JSON.parse(onB.messages[0]!)
    expect(fromB.unread_count).toBe(1)
    expect(fromB.notification).toMatchObject({ title: "Deploy done", content: "All green." })
    expect(JSON.parse(onA.messages[0]!).notification).toMatchObject({ id: fromB.notification.id, title: "Deploy **done**" })
    // Process B's routes read the inbox A's notifier wrote.
    const listed = await fetch(`${b!.url}/api/v2/notifications/inbox`, { headers: { [SESSION_HEADER]: token } })
    const body = (await listed.json()) as { notifications: Array<{ id: string }>; unread_count: number }
    expect(body.notifications.map((n) => n.id)).toEqual([fromB.notification.id])
    expect(body.unread_count).toBe(1)
    onA.socket.close()
    onB.socket.close()
  }, 30_000)
})
