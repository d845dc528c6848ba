/**
 * Test support: the standalone server as a real child process (src/main.ts, bundled once per
 * change by bundles.ts), its output kept, stopped by a signal.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { inject } from "vitest"

/** The arguments before the server's own that start it with `process.execPath` (`node <bundle of src/main.ts>`). */
export const SERVER = [inject("workbayServerBundle")] as const

export interface ServerProcess {
  readonly child: ChildProcess
  /** The server's root URL (its API is under `/api/v2`). */
  readonly url: string
  readonly port: number
  /** Standard output (the banner). */
  readonly stdout: () => string
  /** Standard error (the log). */
  readonly stderr: () => string
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  readonly exited: Promise<number | string>
  /** Sends `signal` and waits for the exit. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | string>
}

/** A port free right now on 127.0.0.1. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

/** Starts the server with `args` (and `env` on top of this process's), on `port` (default a free one); resolves once it is ready. */
export const startServerProcess = async (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  port?: number
): Promise<ServerProcess> => {
  const p = port ?? (await freePort())
  const url = `http://127.0.0.1:${p}`
  const child = spawn(
    process.execPath,
    [
      ...SERVER,
      "--port",
      String(p),
      "--host",
      "127.0.0.1",
      "--access-url",
      url,
      ...args
    ],
    { env: { ...process.env, WORKBAY_LOG_LEVEL: "info", ...env }, stdio: ["ignore", "pipe", "pipe"] }
  )
  let stdout = ""
  let stderr = ""
  const exited = new Promise<number | string>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal ?? -1))
  )
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString()
      if (/ready in \d+ ms/.test(stdout)) resolve()
    })
    child.stderr!.on("data", (d: Buffer) => void (stderr += d.toString()))
    void exited.then((code) =>
      reject(new Error(`the server exited (${code}) before it was ready:\n${stdout}\n${stderr}`))
    )
  })
  return {
    child,
    url,
    port: p,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    }
  }
}

/** A fresh database on the Postgres server of `url` (the run's database): its URL, and a drop. */
export const freshDatabase = async (url: string) => {
  const pg = (await import("pg")).default
  const name = `workbay_h_${Math.random().toString(16).slice(2, 10)}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE "${name}"`)
  await admin.end()
  const fresh = new URL(url)
  fresh.pathname = `/${name}`
  return {
    url: fresh.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await c.end()
    }
  }
}
