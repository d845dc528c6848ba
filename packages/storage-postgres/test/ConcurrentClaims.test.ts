/**
 * Several server processes share one queue: four storage layers (four connection pools, as
 * four replicas would have) on one Postgres schema, each running four claiming fibers, drain
 * 300 jobs. Every job is claimed exactly once.
 */
import { describe, expect, inject, it } from "@effect/vitest"
import { ProvisionerJobRepo } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect, Layer, Option } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { newJob } from "../../storage-sql/test/provisioners/JobRepositorySuite.js"

const url = inject("workbayPgUrl")

const JOBS = 300
const REPLICAS = 4
const FIBERS_PER_REPLICA = 4

describe.skipIf(url === null)("provisioner job claims across replicas on Postgres", () => {
  it.scopedLive(
    `${REPLICAS} replicas x ${FIBERS_PER_REPLICA} workers claim ${JOBS} jobs, each exactly once`,
    () =>
      Effect.gen(function*() {
        const schema = `t_${randomBytes(8).toString("hex")}`
        const replica = () => Postgres.layer({ url: url ?? "", schema, maxConnections: FIBERS_PER_REPLICA })
        const scope = yield* Effect.scope
        // The first replica migrates and queues; the others start on the migrated schema.
        const first = yield* Layer.buildWithScope(replica(), scope)
        const queued = yield* Effect.forEach(
          Array.from({ length: JOBS }, (_, i) => newJob(i)),
          (j) => Effect.flatMap(ProvisionerJobRepo, (repo) => repo.enqueue(j)),
          { concurrency: 8 }
        ).pipe(Effect.provide(first))
        const replicas = [first]
        for (let i = 1; i < REPLICAS; i++) replicas.push(yield* Layer.buildWithScope(replica(), scope))

        const claims: Array<{ readonly job: string; readonly worker: string }> = []
        const workerLoop = (context: typeof first, r: number, n: number) =>
          Effect.gen(function*() {
            const repo = yield* ProvisionerJobRepo
            const worker = {
              id: randomUUID(),
              name: `replica-${r}-worker-${n}`,
              provisioners: ["terraform"],
              tags: { scope: "organization" }
            }
            while (true) {
              const job = yield* repo.acquire(worker, new Date())
              if (Option.isNone(job)) return
              claims.push({ job: job.value.id, worker: worker.name })
              yield* repo.complete(job.value.id, worker.id, {}, new Date())
            }
          }).pipe(Effect.provide(context))
        yield* Effect.all(
          replicas.flatMap((context, r) =>
            Array.from({ length: FIBERS_PER_REPLICA }, (_, n) => workerLoop(context, r, n))
          ),
          { concurrency: "unbounded" }
        )

        expect(claims).toHaveLength(JOBS)
        expect(new Set(claims.map((c) => c.job))).toEqual(new Set(queued.map((j) => j.id)))
        const perReplica = new Map<string, number>()
        for (const c of claims) {
          const r = c.worker.split("-worker")[0]!
          perReplica.set(r, (perReplica.get(r) ?? 0) + 1)
        }
        // Every replica took part (the claim does not serialize on one process).
        expect(perReplica.size).toBe(REPLICAS)
        console.log(`claims per replica: ${JSON.stringify(Object.fromEntries(perReplica))}`)
        const left = yield* Effect.flatMap(ProvisionerJobRepo, (repo) => repo.pending(["terraform"])).pipe(
          Effect.provide(first)
        )
        expect(left).toEqual([])
      }),
    60_000
  )
})
