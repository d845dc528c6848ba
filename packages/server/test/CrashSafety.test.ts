/**
 * Crash safety: the real server process under a write load (users, API tokens, groups) with a
 * provisioner job running is killed with SIGKILL, then started again on the same storage. Every
 * write that was acknowledged (a 2xx answer) is there, the storage is sound (SQLite's integrity
 * check), and the hang detector fails the job the dead process was running. On SQLite and on a
 * fresh Postgres database.
 */
import Database from "better-sqlite3"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import { firstOwnerSession } from "./owner.js"
import { freshDatabase, type ServerProcess, startServerProcess } from "./process.js"
import { call, runningBuild, slowTemplate, until } from "./workload.js"

const pgUrl = inject("workbayPgUrl")

/** The restarted server sweeps for hung jobs quickly. */
const HANG_FLAGS = ["--provisioner-hang-detector-interval", "300ms", "--provisioner-hang-timeout", "2s"]

interface Acknowledged {
  readonly users: Array<string>
  readonly tokens: Array<string>
  readonly groups: Array<string>
}

/** Writes from `workers` concurrent loops until `stop()`; answers what was acknowledged. */
const writeLoad = (server: ServerProcess, token: string, orgId: string, workers = 6) => {
  const acked: Acknowledged = { users: [], tokens: [], groups: [] }
  let running = true
  let n = 0
  const loop = async (w: number) => {
    while (running) {
      const i = n++
      const kind = i % 3
      try {
        if (kind === 0) {
          const name = `tok-${w}-${i}`
          const r = await call(server.url, token, "POST", "/users/me/keys/tokens", { token_name: name })
          if (r.status === 201) acked.tokens.push(name)
        } else if (kind === 1) {
          const name = `grp-${w}-${i}`
          const r = await call(server.url, token, "POST", `/organizations/${orgId}/groups`, { name })
          if (r.status === 201) acked.groups.push(name)
        } else {
          const name = `crash-${w}-${i}`
          const r = await call(server.url, token, "POST", "/users", {
            email: `${name}@example.com`,
            username: name,
            login_type: "none",
            organization_ids: [orgId]
          })
          if (r.status === 201) acked.users.push(name)
        }
      } catch {
        // Refused or cut by the kill: not acknowledged.
      }
    }
  }
  const loops = Array.from({ length: workers }, (_, w) => loop(w))
  return {
    acked,
    stop: async () => {
      running = false
      await Promise.all(loops)
    }
  }
}

/** Runs the scenario on the storage `args`/`env` name; `check` inspects it after the final stop. */
const crashAndRestart = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const first = await startServerProcess(args, env)
  const port = first.port
  let second: ServerProcess | undefined
  try {
    const token = await firstOwnerSession(first.url)
    const { orgId, templateId } = await slowTemplate(first.url, token, 600_000)
    const ws = await runningBuild(first.url, token, orgId, templateId)
    const load = writeLoad(first, token, orgId)
    await until(
      async () => load.acked.tokens.length + load.acked.groups.length + load.acked.users.length,
      (c) => c >= 30,
      60_000
    )
    first.child.kill("SIGKILL")
    expect(await first.exited).toBe("SIGKILL")
    await load.stop()
    const { acked } = load
    expect(acked.tokens.length + acked.groups.length + acked.users.length).toBeGreaterThanOrEqual(30)
    for (const kind of [acked.tokens, acked.groups, acked.users]) expect(kind.length).toBeGreaterThan(0)

    second = await startServerProcess([...args, ...HANG_FLAGS], env, port)
    const tokens = await call(second.url, token, "GET", "/users/me/keys/tokens")
    expect(tokens.status).toBe(200)
    const tokenNames = new Set((tokens.body as Array<{ token_name: string }>).map((t) => t.token_name))
    expect(acked.tokens.filter((t) => !tokenNames.has(t))).toEqual([])
    const groups = await call(second.url, token, "GET", `/organizations/${orgId}/groups`)
    const groupNames = new Set((groups.body as Array<{ name: string }>).map((g) => g.name))
    expect(acked.groups.filter((g) => !groupNames.has(g))).toEqual([])
    for (const u of acked.users) expect((await call(second.url, token, "GET", `/users/${u}`)).status, u).toBe(200)

    const failed = await until(
      () => call(second!.url, token, "GET", `/workspaces/${ws.id}`),
      (r) => r.body.latest_build.job.status === "failed",
      30_000
    )
    expect(failed.body.latest_build.job.status).toBe("failed")
    expect(failed.body.latest_build.job.error).toMatch(/hung/)
    expect(await second.stop()).toBe(0)
    return acked
  } finally {
    first.child.kill("SIGKILL")
    await second?.stop("SIGKILL")
  }
}

describe("crash safety", () => {
  it(
    "keeps every acknowledged write on SQLite through kill -9, and the database passes its integrity check",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "workbay-crash-"))
      await crashAndRestart(["--data-dir", dir], {})
      const db = new Database(join(dir, "workbay.db"), { readonly: true })
      try {
        expect(db.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }])
      } finally {
        db.close()
      }
    },
    180_000
  )

  it.skipIf(pgUrl === null)("keeps every acknowledged write on Postgres through kill -9", async () => {
    const db = await freshDatabase(pgUrl!)
    try {
      await crashAndRestart([], { DATABASE_URL: db.url })
    } finally {
      await db.drop()
    }
  })
})
