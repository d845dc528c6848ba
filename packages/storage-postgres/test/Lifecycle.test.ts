/**
 * The lifecycle executor of two server processes on one Postgres schema: two services, each with
 * its executor (ticked directly, no interval), its workers and its pool. A workspace past its
 * deadline is stopped exactly once (one build with reason autostop) whether the two replicas
 * tick at the same moment or one after the other; while one replica's tick runs, the other's is
 * skipped (`ran: false`), through the advisory lock.
 */
import { LifecycleExecutor, type TickStats, WorkspaceBuildRepo } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { bootstrapOwner, type Client, type ServiceTestServer, startServiceTestServer } from "../../http/test/support.js"
import { runJobs } from "../../http/test/templates/versions.js"
import { FREE_TEMPLATE, makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"

const url = inject("workbayPgUrl")
const HOUR = 3_600_000

/** Polls `check` until it holds (10 s at most). */
const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error("timed out waiting")
}

describe.skipIf(url === null)("the lifecycle executors of two replicas on Postgres", () => {
  const schema = `l_${randomBytes(6).toString("hex")}`
  let a: ServiceTestServer
  let b: ServiceTestServer
  let client: Client
  let organizationId: string
  let template: { id: string }

  beforeAll(async () => {
    // No background ticks: the tests tick each replica themselves.
    const options = { hangDetector: false, retention: false, lifecycle: false } as const
    a = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 5 }), ...options })
    b = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 5 }), ...options })
    ;({ client, organizationId } = await bootstrapOwner(a))
    template = await makeTemplate(a, client, organizationId, FREE_TEMPLATE)
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  const tick = (srv: ServiceTestServer): Promise<TickStats> => srv.run(Effect.flatMap(LifecycleExecutor, (e) => e.tick))

  /** A running workspace whose deadline passed two minutes ago (moved as the schedule routes move it). */
  const pastDeadline = async () => {
    const w = await makeWorkspace(a, client, organizationId, template.id, { ttl_ms: HOUR })
    expect(w.latest_build.status).toBe("running")
    await a.run(
      Effect.flatMap(
        WorkspaceBuildRepo,
        (repo) => repo.setDeadline(w.latest_build.id, { deadline: new Date(Date.now() - 120_000) }, new Date())
      )
    )
    return w
  }

  const autostops = async (id: string) => {
    const r = await client.get(`/workspaces/${id}/builds`)
    expect(r.status).toBe(200)
    return (r.body as Array<{ transition: string; reason: string }>).filter((x) =>
      x.transition === "stop" && x.reason === "autostop"
    )
  }

  it("both replicas ticking at once stop the workspace once", async () => {
    const w = await pastDeadline()
    const stats = await Promise.all([tick(a), tick(b)])
    expect(stats.some((s) => s.ran)).toBe(true)
    expect(stats.flatMap((s) => Object.entries(s.transitions))).toEqual([[w.id, "autostop"]])
    expect(stats.flatMap((s) => Object.keys(s.errors))).toEqual([])
    await runJobs(a)
    // Later ticks of either replica find nothing more to do.
    expect((await tick(b)).transitions).toEqual({})
    expect((await tick(a)).transitions).toEqual({})
    expect(await autostops(w.id)).toHaveLength(1)
    const got = (await client.get(`/workspaces/${w.id}`)).body
    expect([got.latest_build.transition, got.latest_build.reason, got.latest_build.status]).toEqual([
      "stop",
      "autostop",
      "stopped"
    ])
  })

  it("while one replica's tick runs, the other's does not", async () => {
    const w = await pastDeadline()
    // Hold the workspace's row: replica A's tick, holding the tick lock, waits on it to apply its decision.
    const blocker = new pg.Client({ connectionString: url!, options: `-c search_path=${schema}` })
    await blocker.connect()
    try {
      await blocker.query("BEGIN")
      await blocker.query("SELECT id FROM workspaces WHERE id = $1 FOR UPDATE", [w.id])
      const pid = (await blocker.query("SELECT pg_backend_pid() AS pid")).rows[0].pid as number
      const ticking = tick(a)
      await until(async () => {
        const r = await blocker.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
          [pid]
        )
        return r.rows[0].n > 0
      })
      // A is mid-tick: B's tick is skipped.
      const skipped = await tick(b)
      expect(skipped.ran).toBe(false)
      expect(skipped.transitions).toEqual({})
      await blocker.query("COMMIT")
      const ran = await ticking
      expect(ran.ran).toBe(true)
      expect(ran.transitions).toEqual({ [w.id]: "autostop" })
    } finally {
      await blocker.end()
    }
    await runJobs(a)
    // Now free, B's tick runs and has nothing to do.
    const after = await tick(b)
    expect(after.ran).toBe(true)
    expect(after.transitions).toEqual({})
    expect(await autostops(w.id)).toHaveLength(1)
  })
})
