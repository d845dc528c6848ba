/**
 * The built-in workers of three server processes (three storage layers, three pools, three sets
 * of services, as three replicas would have) on one Postgres schema drain 200 jobs: every job
 * runs exactly once and succeeds. The jobs are queued through the first process, so its
 * workers wake at once and the others find work by polling.
 */
import { describe, expect, inject, it } from "@effect/vitest"
import {
  IdGenerator,
  type JobExecutor,
  JobExecutors,
  jobStatus,
  MailSender,
  PasswordHasher,
  ProvisionerJobs,
  Provisioners,
  ProvisionerWorkers,
  ServicesLive,
  Settings,
  ThisReplica,
  workbayProvisioner
} from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect, Layer } from "effect"
import { randomBytes, randomUUID } from "node:crypto"

const url = inject("workbayPgUrl")

const JOBS = 200
const PROCESSES = 3
const WORKERS_PER_PROCESS = 3

describe.skipIf(url === null)("built-in workers of several processes on Postgres", () => {
  it.scopedLive(
    `${PROCESSES} processes x ${WORKERS_PER_PROCESS} workers run ${JOBS} jobs, each exactly once`,
    () =>
      Effect.gen(function*() {
        const schema = `t_${randomBytes(8).toString("hex")}`
        const runs = new Map<string, Array<string>>()
        const executor = (process: number): JobExecutor => (job) =>
          Effect.sync(() => {
            runs.set(job.id, [...(runs.get(job.id) ?? []), `p${process}`])
            return {}
          }).pipe(Effect.zipLeft(Effect.sleep("2 millis")))
        const processLayer = (n: number) =>
          Layer.mergeAll(ProvisionerWorkers.Default, JobExecutors.register({ template_version_import: executor(n) }))
            .pipe(
              Layer.provideMerge(ServicesLive),
              Layer.provideMerge(Layer.mergeAll(
                Postgres.layer({ url: url ?? "", schema, maxConnections: WORKERS_PER_PROCESS + 2 }),
                Settings.layer({}),
                PasswordHasher.scrypt(4),
                Layer.succeed(MailSender, { send: () => Effect.void }),
                IdGenerator.layer,
                Provisioners.layer([workbayProvisioner]),
                Layer.succeed(ThisReplica, { id: randomUUID(), relayAddress: "", relaySecret: "test" })
              ))
            )
        const scope = yield* Effect.scope
        const processes = []
        for (let n = 0; n < PROCESSES; n++) processes.push(yield* Layer.buildWithScope(processLayer(n), scope))
        for (const [n, context] of processes.entries()) {
          yield* Effect.flatMap(
            ProvisionerWorkers,
            (w) => w.start({ count: WORKERS_PER_PROCESS, pollInterval: "50 millis", name: `p${n}` })
          ).pipe(Effect.provide(context))
        }
        const organization = randomUUID()
        const initiator = randomUUID()
        const jobs = yield* Effect.forEach(Array.from({ length: JOBS }), () =>
          Effect.flatMap(ProvisionerJobs, (q) =>
            q.enqueue({
              organization_id: organization,
              initiator_id: initiator,
              provisioner: "workbay",
              type: "template_version_import",
              file_id: randomUUID(),
              input: {},
              tags: {}
            })), { concurrency: 4 }).pipe(Effect.provide(processes[0]!))

        const allDone = Effect.flatMap(
          ProvisionerJobs,
          (q) =>
            q.list({ organizationId: organization, limit: JOBS + 1 })
        ).pipe(
          Effect.provide(processes[0]!),
          Effect.map((listed) =>
            listed.every((j) =>
              jobStatus(j) === "succeeded"
            )
          )
        )
        const started = Date.now()
        while (!(yield* allDone)) {
          if (Date.now() - started > 50_000) {
            throw new Error("the jobs were not drained in time")
          }
          yield* Effect.sleep("50 millis")
        }
        expect(runs.size).toBe(JOBS)
        expect(new Set(runs.keys())).toEqual(new Set(jobs.map((j) => j.id)))
        expect([...runs.values()].filter((r) => r.length !== 1)).toEqual([])
        const perProcess = new Map<string, number>()
        for (const [p] of runs.values()) perProcess.set(p!, (perProcess.get(p!) ?? 0) + 1)
        console.log(`jobs run per process: ${JSON.stringify(Object.fromEntries(perProcess))}`)
        expect(perProcess.size).toBeGreaterThan(1)
      }),
    60_000
  )
})
