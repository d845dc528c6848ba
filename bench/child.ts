// The service in a child process, for the TypeScript benches: the child serves a Workbay on a random
// port of 127.0.0.1 and prints `LISTENING <port>`; the parent spawns it (this same Node, same loader
// flags) and reads its other stdout lines through `onLine`.
import type { Workbay } from "@workbay/http"
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { Session } from "node:inspector"
import type { AddressInfo } from "node:net"

/** In the child: serves `workbay` until SIGTERM or the parent leaves; never returns. */
export const serveInChild = async (workbay: Workbay): Promise<never> => {
  const server = createServer()
  workbay.attach(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  process.stdout.write(`LISTENING ${(server.address() as AddressInfo).port}\n`)
  const shutdown = async () => {
    server.closeAllConnections()
    server.close()
    await workbay.dispose()
    process.exit(0)
  }
  // The parent's window profile (`profileWindow`): a CPU profile of the load alone, not the seeding.
  let session: Session | undefined
  process.on("message", (m: unknown) => {
    if (m === "profile-start") {
      session = new Session()
      session.connect()
      session.post("Profiler.enable", () => session!.post("Profiler.start"))
    } else if (typeof m === "string" && m.startsWith("profile-stop ") && session !== undefined) {
      session.post("Profiler.stop", (err, result) => {
        if (err === null) writeFileSync(m.slice("profile-stop ".length), JSON.stringify(result.profile))
        process.send?.("profile-written")
      })
    }
  })
  process.on("SIGTERM", () => void shutdown())
  process.on("disconnect", () => void shutdown())
  return await new Promise<never>(() => {})
}

/** In the parent: runs `script` with `args` in a child; resolves with its port once it listens. */
export const startChild = async (script: string, args: ReadonlyArray<string>, options: {
  readonly nodeArgs?: ReadonlyArray<string>
  readonly onLine?: (line: string) => void
} = {}) => {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...process.execArgv, script, ...args], {
    stdio: ["ignore", "pipe", "inherit", "ipc"]
  })
  let out = ""
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start: ${out}`)), 60_000)
    child.stdout!.on("data", (d) => {
      out += d
      const lines = out.split("\n")
      out = lines.pop()!
      for (const line of lines) {
        const m = /^LISTENING (\d+)$/.exec(line)
        if (m) {
          clearTimeout(timer)
          resolve(Number(m[1]))
        } else options.onLine?.(line)
      }
    })
    child.once("exit", (code) => reject(new Error(`the service exited (${code}): ${out}`)))
  })
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
      child.once("exit", () => {
        clearTimeout(timer)
        resolve()
      })
      child.kill("SIGTERM")
    })
  /** Profiles the child's CPU while `run` runs (node:inspector), written to `file` (a .cpuprofile). */
  const profileWindow = async <A>(file: string | undefined, run: () => Promise<A>): Promise<A> => {
    if (file === undefined) return run()
    child.send("profile-start")
    try {
      return await run()
    } finally {
      const written = new Promise<void>((resolve) => child.once("message", () => resolve()))
      child.send(`profile-stop ${file}`)
      await written
    }
  }
  return { child, port, stop, profileWindow }
}
