/**
 * Metrics on Postgres: with the Metrics port given, every statement of the pool's connections is
 * timed (the client's path and the pool reads), and the gauges' snapshot reads the queue and the
 * workspaces of the schema. A sink that counts stands in for prom-client (the port is its seam).
 */
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
})
