/**
 * Replicas started together on a fresh Postgres database, as an orchestrator starts them: both
 * migrate at once (the migrator makes the second wait or skip), both come up and serve the same
 * data. Real processes on a database of its own, dropped afterwards.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, describe, expect, inject, it } from "vitest"
import { firstOwnerSession } from "./owner.js"
import { SERVER } from "./process.js"

const url = inject("workbayPgUrl")

const start = (databaseUrl: string): Promise<{ child: ChildProcess; url: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SERVER, "--port", "0"], {
      env: { ...process.env, DATABASE_URL: databaseUrl, WORKBAY_LOG_LEVEL: "warning" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const onData = (d: Buffer) => {
      output += d.toString()
      const ready = output.match(/Workbay (http:\/\/\S+)\/api\/v2 ready/)
      if (ready) resolve({ child, url: ready[1]! })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`replica exited (${code}) before it was ready:\n${output}`)))
  })

describe.skipIf(url === null)("replicas started together on a fresh database", () => {
  const children: Array<ChildProcess> = []
  const database = `workbay_start_${randomBytes(4).toString("hex")}`
  const admin = () => new pg.Client({ connectionString: url! })
  afterAll(async () => {
    await Promise.all(children.map((c) =>
      new Promise<void>((resolve) => {
        if (c.exitCode !== null) return resolve()
        c.on("exit", () => resolve())
        c.kill("SIGTERM")
      })
    ))
    const client = admin()
    await client.connect()
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
    await client.end()
  })

  it("migrates once and serves the same data from both", async () => {
    const client = admin()
    await client.connect()
    await client.query(`CREATE DATABASE "${database}"`)
    await client.end()
    const target = new URL(url!)
    target.pathname = `/${database}`
    const [a, b] = await Promise.all([start(target.toString()), start(target.toString())])
    children.push(a.child, b.child)
    const token = await firstOwnerSession(a.url)
    const me = await fetch(`${b.url}/api/v2/users/me`, { headers: { "Service-Session-Token": token } })
    expect(me.status).toBe(200)
    expect(((await me.json()) as { username: string }).username).toBe("admin")
    // One deployment: both answer the id the first of them stored (not a constant, not one each).
    const ids = await Promise.all(
      [a, b].map(async (s) =>
        ((await (await fetch(`${s.url}/api/v2/buildinfo`)).json()) as { deployment_id: string }).deployment_id
      )
    )
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(ids[0]).not.toBe("00000000-0000-4000-8000-000000000000")
    expect(ids[1]).toBe(ids[0])
  })
})
