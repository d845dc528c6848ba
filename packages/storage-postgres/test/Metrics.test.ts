/**
 * Metrics on Postgres: with the Metrics port given, every statement of the pool's connections is
 * timed (the client's path and the pool reads), and the gauges' snapshot reads the queue and the
 * workspaces of the schema. A sink that counts stands in for prom-client (the port is its seam).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, inject, it } from "@effect/vitest"
import {
  IdGenerator,
  MailSender,
  Metrics,
  type MetricsShape,
  MetricsSnapshotRepo,
  noopMetrics,
  PasswordHasher,
  ProvisionerJobs,
  Provisioners,
  ServicesLive,
  Settings,
  ThisReplica,
  workbayProvisioner,
  workspaceStatuses
} from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect, Layer } from "effect"
import { randomBytes, randomUUID } from "node:crypto"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("metrics on Postgres", () => {
  it.scopedLive("times every statement and reads the gauges' snapshot", () =>
    Effect.gen(function*() {
      const timed: Array<number> = []
      const sink: MetricsShape = { ...noopMetrics, enabled: true, databaseQuery: (s) => void timed.push(s) }
      const layer = ServicesLive.pipe(
        Layer.provideMerge(Layer.mergeAll(
          Postgres.layer({ url: url ?? "", schema: `t_${randomBytes(8).toString("hex")}`, maxConnections: 3 }),
          Settings.layer({}),
          PasswordHasher.scrypt(4),
          Layer.succeed(MailSender, { send: () => Effect.void }),
          IdGenerator.layer,
          Provisioners.layer([workbayProvisioner]),
          Layer.succeed(ThisReplica, { id: randomUUID(), relayAddress: "", relaySecret: "test" })
        )),
        Layer.provide(Metrics.layer(sink))
      )
      const context = yield* Layer.build(layer)
      // The migrations ran on the pool's connections: timed.
      expect(timed.length).toBeGreaterThan(10)
      const before = timed.length
      const empty = yield* Effect.flatMap(MetricsSnapshotRepo, (r) => r.snapshot).pipe(Effect.provide(context))
      expect(empty).toEqual({
        pendingJobs: [],
        buildsInFlight: [{ status: "pending", count: 0 }, { status: "running", count: 0 }, {
          status: "canceling",
          count: 0
        }],
        workspaces: workspaceStatuses.map((status) => ({ status, count: 0 })),
        connectedAgents: 0
      })
      expect(timed.length).toBe(before + 5)
      yield* Effect.flatMap(ProvisionerJobs, (q) =>
        q.enqueue({
          organization_id: randomUUID(),
          initiator_id: randomUUID(),
          provisioner: "workbay",
          type: "template_version_import",
          file_id: randomUUID(),
          input: {},
          tags: {}
        })).pipe(Effect.provide(context))
      const queued = yield* Effect.flatMap(MetricsSnapshotRepo, (r) => r.snapshot).pipe(Effect.provide(context))
      expect(queued.pendingJobs).toEqual([{ provisioner: "workbay", count: 1 }])
      // A template import is not a workspace build.
      expect(queued.buildsInFlight.find((b) => b.status === "pending")?.count).toBe(0)
      for (const t of timed) expect(t).toBeGreaterThanOrEqual(0)
    }))

  it.scopedLive("times each wait for one of the pool's connections", () =>
    Effect.gen(function*() {
      const waits: Array<number> = []
      const sink: MetricsShape = { ...noopMetrics, enabled: true, databaseConnectionWait: (s) => void waits.push(s) }
      const layer = Postgres.layer({ url: url ?? "", schema: `t_${randomBytes(8).toString("hex")}`, maxConnections: 2 })
        .pipe(Layer.provide(Metrics.layer(sink)))
      const sql = yield* Effect.provide(SqlClient.SqlClient, yield* Layer.build(layer))
      waits.length = 0
      // Four statements of 300 ms on two connections: two wait for the first two to end.
      yield* Effect.all(Array.from({ length: 4 }, () => sql`SELECT pg_sleep(0.3)`), { concurrency: "unbounded" })
      expect(waits.length).toBeGreaterThanOrEqual(4)
      const sorted = [...waits].sort((a, b) => a - b)
      expect(sorted[sorted.length - 2]!).toBeGreaterThan(0.2)
      expect(sorted[0]!).toBeLessThan(0.2)
    }))
})
