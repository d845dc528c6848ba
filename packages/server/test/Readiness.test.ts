/**
 * Readiness of the standalone server on Postgres, through a TCP proxy in front of the database
 * that the test can hold: while the server starts (its storage cannot connect, so migrations
 * wait) it already listens, alive at /healthz and 503 elsewhere; once started it is ready; when
 * the database stops answering, /readyz answers 503 with the Response object, and it recovers.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { connect as tcpConnect, createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, inject, it } from "vitest"
import { loadConfig, type RunningServer, startServer } from "../src/index.js"

const url = inject("workbayPgUrl")

/** A TCP proxy to `target` that forwards while open and holds new connections (and drops live ones) while held. */
const holdableProxy = async (target: { host: string; port: number }) => {
  let holding = true
  const live = new Set<Socket>()
  const waiting: Array<Socket> = []
  const forward = (client: Socket) => {
    const upstream = tcpConnect(target.port, target.host)
    live.add(client).add(upstream)
    const drop = () => {
      client.destroy()
      upstream.destroy()
      live.delete(client)
      live.delete(upstream)
    }
    client.on("error", drop).on("close", drop)
    upstream.on("error", drop).on("close", drop)
    client.pipe(upstream).pipe(client)
  }
  const server: TcpServer = createTcpServer((client) => {
    client.on("error", () => client.destroy())
    if (holding) waiting.push(client)
    else forward(client)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return {
    port: (server.address() as { port: number }).port,
    open: () => {
      holding = false
      for (const c of waiting.splice(0)) if (!c.destroyed) forward(c)
    },
    hold: () => {
      holding = true
      for (const s of live) s.destroy()
      live.clear()
    },
    close: async () => {
      for (const s of [...live, ...waiting]) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

const freePort = async () => {
  const s = createTcpServer()
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", () => resolve()))
  const port = (s.address() as { port: number }).port
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

/** Polls `check` every 50 ms until it holds (at most `ms`). */
const until = async (check: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error("timed out")
    await new Promise((r) => setTimeout(r, 50))
  }
}

const dirs: Array<string> = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe.skipIf(url === null)("readiness", () => {
  it(
    "is not ready while starting or while the database does not answer, and recovers",
    { timeout: 60_000 },
    async () => {
      const pg = new URL(url!)
      const proxy = await holdableProxy({ host: pg.hostname, port: Number(pg.port || 5432) })
      const through = new URL(url!)
      through.hostname = "127.0.0.1"
      through.port = String(proxy.port)
      const port = await freePort()
      const base = `http://127.0.0.1:${port}`
      const dataDir = mkdtempSync(join(tmpdir(), "workbay-ready-"))
      dirs.push(dataDir)
      let running: RunningServer | undefined
      try {
        const starting = startServer(
          loadConfig([
            "--port",
            String(port),
            "--host",
            "127.0.0.1",
            "--data-dir",
            dataDir,
            "--provisioner-daemons",
            "0"
          ], {
            DATABASE_URL: through.href
          })
        )
        starting.catch(() => {})
        // Listening before the storage connects: alive, not ready, and the API says so.
        await until(async () => (await fetch(`${base}/readyz`)).status === 503)
        const live = await fetch(`${base}/healthz`)
        expect(live.status).toBe(200)
        expect(await live.text()).toBe("OK")
        const api = await fetch(`${base}/api/v2/buildinfo`)
        expect(api.status).toBe(503)
        expect(await api.json()).toMatchObject({ message: "Not ready.", detail: expect.stringContaining("starting") })

        proxy.open()
        running = await starting
        const ready = await fetch(`${base}/readyz`)
        expect(ready.status).toBe(200)
        expect(await ready.json()).toEqual({ message: "Ready." })
        expect((await fetch(`${base}/api/v2/buildinfo`)).status).toBe(200)

        // The database stops answering: connections dropped, new ones held.
        proxy.hold()
        await until(async () => (await fetch(`${base}/readyz`)).status === 503)
        const down = await fetch(`${base}/readyz`)
        expect(down.status).toBe(503)
        const body = await down.json()
        expect(body.message).toBe("Not ready.")
        expect(typeof body.detail).toBe("string")
        expect((await fetch(`${base}/healthz`)).status).toBe(200)

        proxy.open()
        await until(async () => (await fetch(`${base}/readyz`)).status === 200)
      } finally {
        proxy.open()
        await running?.close()
        await proxy.close()
      }
    }
  )
})
