/**
 * The built-in provisioner workers (the described system's in-process "provisioner daemons"):
 * each repeatedly claims a job it serves, runs it with the executor of the job's type, and
 * completes it, with a heartbeat while it runs (which also notices cancel requests and jobs the
 * hang detector failed) and its logs batched into the job's log.
 *
 *   idle ──claim──> running ──executor answers──> complete (succeeded | failed)
 *                      │ heartbeat sees canceled_at ──> interrupt executor ──> complete (canceled)
 *                      │ heartbeat answers 409 (failed as hung) ──> interrupt executor, leave the job
 *
 * Everything runs on Effect's Clock, so tests drive it with the TestClock.
 */
import { Cause, Deferred, Duration, Effect, Exit, Fiber, Layer, Option, Queue, type Scope } from "effect"
import { IdGenerator } from "../Ids.js"
import { Metrics } from "../Metrics.js"
import { span } from "../Tracing.js"
import { JobSignal } from "./JobSignal.js"
import { type Provisioner, type ProvisionerLogSink, Provisioners } from "./Provisioner.js"
import { ProvisionerDaemons } from "./ProvisionerDaemons.js"
import type {
  JobCompletion,
  NewProvisionerJobLog,
  ProvisionerJobRecord,
  ProvisionerJobType,
  ProvisionerTags,
  ProvisionerWorker
} from "./ProvisionerJob.js"
import { jobStatus } from "./ProvisionerJob.js"
import { ProvisionerJobs } from "./ProvisionerJobs.js"

export { JobSignal } from "./JobSignal.js"

/** What an executor gets beside the job: the provisioner that must run it, a log sink, and the worker. */
export interface JobContext {
  /** The registered provisioner of `job.provisioner`. */
  readonly provisioner: Provisioner
  /** Stores log lines (source `provisioner`) in the job's log, batched; pass it as `onLog` to the provisioner. */
  readonly log: ProvisionerLogSink
  readonly worker: ProvisionerWorker
}

/**
 * Runs one job of one type and answers its result (an error makes it failed). A failure (its
 * `message` and `error_code`, e.g. a `ProvisionerFailure`) or a defect fails the job with that
 * message; the worker completes the job in every case, so an executor never leaves it running.
 */
export type JobExecutor = (job: ProvisionerJobRecord, ctx: JobContext) => Effect.Effect<JobCompletion, unknown>

/**
 * The executors by job type. Areas register theirs with the services they need:
 * `JobExecutors.register({ template_version_import: ... })`, or
 * `JobExecutors.registerEffect(Effect.gen(...))` when building them needs services; each is a
 * layer that requires `JobExecutors`, so several merge. A later registration of a type
 * replaces an earlier one. A job whose type has no executor fails with a message saying so.
 */
export class JobExecutors extends Effect.Service<JobExecutors>()("@workbay/core/JobExecutors", {
  sync: () => {
    const byType = new Map<ProvisionerJobType, JobExecutor>()
    return {
      register: (type: ProvisionerJobType, executor: JobExecutor) => Effect.sync(() => void byType.set(type, executor)),
      get: (type: ProvisionerJobType): Option.Option<JobExecutor> => Option.fromNullable(byType.get(type)),
      types: (): ReadonlyArray<ProvisionerJobType> => [...byType.keys()]
    } as const
  }
}) {
  /** A layer registering `executors` (by job type) when it is built. */
  static readonly register = (
    executors: Partial<Record<ProvisionerJobType, JobExecutor>>
  ): Layer.Layer<never, never, JobExecutors> => JobExecutors.registerEffect(Effect.succeed(executors))

  /** A layer registering the executors `make` builds (with the services it needs). */
  static readonly registerEffect = <E, R>(
    make: Effect.Effect<Partial<Record<ProvisionerJobType, JobExecutor>>, E, R>
  ): Layer.Layer<never, E, R | JobExecutors> =>
    Layer.effectDiscard(Effect.gen(function*() {
      const registry = yield* JobExecutors
      const executors = yield* make
      for (const [type, executor] of Object.entries(executors)) {
        if (executor !== undefined) yield* registry.register(type as ProvisionerJobType, executor)
      }
    }))
}

export interface WorkerOptions {
  /** Workers in this process, each claiming one job at a time. Default 2 (see docs/provisioning.md). */
  readonly count?: number | undefined
  /** How often an idle worker looks for a job (jobs queued by this process wake it at once). Default 1 s. */
  readonly pollInterval?: Duration.DurationInput | undefined
  /** How often a running job's worker reports it alive and checks for a cancel request. Default 10 s; keep it well under the hang timeout (5 minutes). */
  readonly heartbeatInterval?: Duration.DurationInput | undefined
  /** The longest a log line waits before it is stored. Default 250 ms. */
  readonly logFlushInterval?: Duration.DurationInput | undefined
  /** The workers' tags. Default `{ scope: "organization" }`: every job not scoped to a user or other tags. */
  readonly tags?: ProvisionerTags | undefined
  /** The workers' name prefix: names are `<name>-<n>`. Default `built-in`; give each replica its own (the server uses the host name). */
  readonly name?: string | undefined
  /**
   * Runs every job with this provisioner instead of the registered one of the job's type: an
   * external daemon's connection (docs/provisioner-daemons.md).
   */
  readonly provisioner?: Provisioner | undefined
  /**
   * The running job's heartbeat happens each time this completes instead of every
   * `heartbeatInterval`: an external daemon beats for itself, so a silent one is found hung.
   */
  readonly heartbeat?: Effect.Effect<void> | undefined
}

export const DEFAULT_WORKER_COUNT = 2
export const DEFAULT_POLL_INTERVAL: Duration.Duration = Duration.seconds(1)
export const DEFAULT_HEARTBEAT_INTERVAL: Duration.Duration = Duration.seconds(10)
export const DEFAULT_LOG_FLUSH_INTERVAL: Duration.Duration = Duration.millis(250)
export const DEFAULT_WORKER_TAGS: ProvisionerTags = { scope: "organization" }

/** Lines a log sink holds before it stores them without waiting for the flush interval. */
const MAX_LOG_BATCH = 500

/** The message and code a failed or dead executor's job is failed with. */
export const executorFailure = (cause: Cause.Cause<unknown>): JobCompletion => {
  const failure = Cause.failureOption(cause)
  const describe = (e: unknown) =>
    typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string" &&
      (e as { message: string }).message !== ""
      ? (e as { message: string }).message
      : String(e)
  if (Option.isSome(failure)) {
    const e = failure.value as { error_code?: unknown }
    const code = typeof e === "object" && e !== null && typeof e.error_code === "string" ? e.error_code : undefined
    return code === undefined
      ? { error: describe(failure.value) }
      : { error: describe(failure.value), error_code: code }
  }
  return { error: `The provisioner job failed unexpectedly: ${describe(Cause.squash(cause))}` }
}

/**
 * Stores a job's log lines in batches: a line waits at most `interval` (the flusher sleeps only
 * while lines wait), a large batch is stored at once, and `flush` stores what is left.
 */
const makeLogSink = (jobs: ProvisionerJobs, jobId: string, interval: Duration.DurationInput) =>
  Effect.gen(function*() {
    let buffer: Array<NewProvisionerJobLog> = []
    const lock = yield* Effect.makeSemaphore(1)
    const waiting = yield* Queue.sliding<void>(1)
    const flush = lock.withPermits(1)(Effect.suspend(() => {
      if (buffer.length === 0) return Effect.void
      const batch = buffer
      buffer = []
      return jobs.appendLogs(jobId, batch).pipe(
        Effect.asVoid,
        Effect.catchAllCause((cause) => Effect.logWarning("Storing provisioner job logs failed", cause))
      )
    })).pipe(Effect.uninterruptible)
    const log: ProvisionerLogSink = (line) =>
      Effect.suspend(() => {
        buffer.push({
          created_at: line.created_at,
          log_source: "provisioner",
          log_level: line.level,
          stage: line.stage,
          output: line.output
        })
        if (buffer.length >= MAX_LOG_BATCH) return flush
        return buffer.length === 1 ? Queue.offer(waiting, undefined) : Effect.void
      })
    yield* Effect.forkScoped(
      Effect.forever(Queue.take(waiting).pipe(Effect.zipRight(Effect.sleep(interval)), Effect.zipRight(flush)))
    )
    return { log, flush } as const
  })

/** How a running job ended: its executor answered, or the heartbeat said stop. */
type Outcome =
  | { readonly _tag: "done"; readonly exit: Exit.Exit<JobCompletion, unknown> }
  | { readonly _tag: "stop"; readonly reason: "canceled" | "lost" }

/**
 * The workers of this process. `ProvisionerWorkers.layer(options)` runs them in the
 * background until its scope closes; `runOne` runs one worker's loop (for tests and embedders); `drain`
 * runs what is queued and returns.
 */
export class ProvisionerWorkers extends Effect.Service<ProvisionerWorkers>()("@workbay/core/ProvisionerWorkers", {
  effect: Effect.gen(function*() {
    const jobs = yield* ProvisionerJobs
    const signal = yield* JobSignal
    const executors = yield* JobExecutors
    const provisioners = yield* Provisioners
    const daemons = yield* ProvisionerDaemons
    const ids = yield* IdGenerator
    const metrics = yield* Metrics

    const resolved = (options: WorkerOptions) => ({
      pollInterval: options.pollInterval ?? DEFAULT_POLL_INTERVAL,
      heartbeatInterval: options.heartbeatInterval ?? DEFAULT_HEARTBEAT_INTERVAL,
      logFlushInterval: options.logFlushInterval ?? DEFAULT_LOG_FLUSH_INTERVAL
    })

    /** Completes the worker's job; a lost race (the job was failed as hung meanwhile) is only logged. */
    const finish = (worker: ProvisionerWorker, job: ProvisionerJobRecord, result: JobCompletion) =>
      jobs.complete(job.id, worker.id, result).pipe(
        Effect.tap((done) => {
          if (metrics.enabled && job.started_at !== null) {
            const ended = done.completed_at ?? done.canceled_at ?? new Date()
            metrics.jobFinished(
              job.provisioner,
              jobStatus(done),
              Math.max(0, ended.getTime() - job.started_at.getTime()) / 1000
            )
          }
        }),
        Effect.tap((done) => Effect.annotateCurrentSpan("provisioner.job.status", jobStatus(done))),
        Effect.asVoid,
        Effect.catchAllCause((cause) => Effect.logWarning(`Completing provisioner job ${job.id} failed`, cause))
      )

    /** Runs one claimed job to its end; never leaves it running unless the worker itself is stopped mid-way (then it is failed). */
    const runJob = (worker: ProvisionerWorker, job: ProvisionerJobRecord, options: WorkerOptions) =>
      Effect.gen(function*() {
        const { heartbeatInterval, logFlushInterval } = resolved(options)
        const executor = executors.get(job.type)
        if (Option.isNone(executor)) {
          return yield* finish(worker, job, {
            error: `No executor is registered for provisioner jobs of type "${job.type}".`
          })
        }
        const provisioner = options.provisioner !== undefined
          ? Option.some(options.provisioner)
          : provisioners.get(job.provisioner)
        if (Option.isNone(provisioner)) {
          return yield* finish(worker, job, { error: `The provisioner "${job.provisioner}" is not registered.` })
        }
        const sink = yield* makeLogSink(jobs, job.id, logFlushInterval)
        const stop = yield* Deferred.make<"canceled" | "lost">()
        const beat = jobs.heartbeat(job.id, worker.id).pipe(
          Effect.flatMap((now) => now.canceled_at !== null ? Deferred.succeed(stop, "canceled") : Effect.void),
          Effect.catchTag("Conflict", () => Deferred.succeed(stop, "lost")),
          Effect.zipRight(daemons.seen(worker.id)),
          Effect.catchAllCause((cause) => Effect.logWarning(`Heartbeat of provisioner job ${job.id} failed`, cause))
        )
        yield* Effect.forkScoped(
          Effect.forever(Effect.zipRight(options.heartbeat ?? Effect.sleep(heartbeatInterval), beat))
        )

        const execution = yield* Effect.fork(
          Effect.suspend(() => executor.value(job, { provisioner: provisioner.value, log: sink.log, worker }))
        )
        const outcome: Outcome = yield* Effect.raceFirst(
          Effect.map(Fiber.await(execution), (exit): Outcome => ({ _tag: "done", exit })),
          Effect.map(Deferred.await(stop), (reason): Outcome => ({ _tag: "stop", reason }))
        )
        if (outcome._tag === "stop") yield* Fiber.interrupt(execution)
        yield* sink.flush
        if (outcome._tag === "stop") {
          // A canceling job completed without an error finishes canceled; a job failed as hung is left as it is.
          if (outcome.reason === "canceled") yield* finish(worker, job, {})
          return
        }
        yield* finish(
          worker,
          job,
          Exit.isSuccess(outcome.exit) ? outcome.exit.value : executorFailure(outcome.exit.cause)
        )
      }).pipe(
        Effect.scoped,
        Effect.onInterrupt(() =>
          finish(worker, job, { error: "The provisioner worker stopped before the job finished." })
        ),
        // One span per job run (docs/tracing.md): its name is bounded (the job types), the job in its attributes.
        span(`provisioner.job ${job.type}`, {
          "provisioner.job.id": job.id,
          "provisioner.job.type": job.type,
          "provisioner.name": job.provisioner,
          "provisioner.worker": worker.name,
          "organization.id": job.organization_id
        })
      )

    /**
     * The worker's own bookkeeping, left out of traces: a claim is tried every poll interval by
     * every worker, and its spans would bury the jobs' (each job run is traced, `runJob`).
     */
    const untraced = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.withTracerEnabled(self, false)

    /** One worker's loop: claim, run, complete; when idle, wait for this process's next enqueue or the poll interval. */
    const runOne = (worker: ProvisionerWorker, options: WorkerOptions = {}): Effect.Effect<never, never, Scope.Scope> =>
      Effect.gen(function*() {
        const { pollInterval } = resolved(options)
        const wake = yield* signal.subscribe
        yield* daemons.register(worker)
        const step = Effect.gen(function*() {
          yield* Queue.takeAll(wake)
          const claimed = yield* untraced(Effect.zipRight(daemons.seen(worker.id), jobs.acquire(worker)))
          if (Option.isSome(claimed)) {
            const provisioner = claimed.value.provisioner
            if (metrics.enabled) metrics.jobRunning(provisioner, 1)
            yield* untraced(daemons.started(worker.id, claimed.value.id))
            yield* runJob(worker, claimed.value, options).pipe(
              Effect.ensuring(Effect.sync(() => metrics.enabled && metrics.jobRunning(provisioner, -1)))
            )
            yield* untraced(daemons.finished(worker.id, claimed.value.id))
            return
          }
          yield* Effect.timeoutOption(Queue.take(wake), pollInterval)
        })
        return yield* step.pipe(
          Effect.catchAllCause((cause) =>
            Cause.isInterruptedOnly(cause)
              ? Effect.failCause(cause)
              : Effect.zipRight(Effect.logError("Provisioner worker step failed", cause), Effect.sleep(pollInterval))
          ),
          Effect.forever
        )
      })

    /** The workers `options` describe, with fresh ids: they serve every registered provisioner type. */
    const workers = (options: WorkerOptions = {}) =>
      Effect.forEach(
        Array.from({ length: options.count ?? DEFAULT_WORKER_COUNT }, (_, i) => i),
        (i) =>
          Effect.map(ids.uuid, (id): ProvisionerWorker => ({
            id,
            name: `${options.name ?? "built-in"}-${i + 1}`,
            provisioners: provisioners.types,
            tags: options.tags ?? DEFAULT_WORKER_TAGS
          }))
      )

    /** Starts the workers in the current scope; they stop (a running job is failed) when it closes. */
    const start = (options: WorkerOptions = {}) =>
      Effect.flatMap(
        workers(options),
        (ws) => Effect.forEach(ws, (w) => Effect.forkScoped(runOne(w, options)), { discard: true }).pipe(Effect.as(ws))
      )

    /**
     * Runs queued jobs with one worker until none it serves is pending, and answers them as they
     * ended, in order: for tests, benchmarks and one-shot tools (the service runs `start`).
     */
    const drain = (options: WorkerOptions = {}) =>
      Effect.gen(function*() {
        const [worker] = yield* workers({ ...options, count: 1, name: options.name ?? "drain" })
        const done: Array<ProvisionerJobRecord> = []
        while (true) {
          const claimed = yield* jobs.acquire(worker!)
          if (Option.isNone(claimed)) return done
          yield* runJob(worker!, claimed.value, options)
          done.push(yield* Effect.orDie(jobs.get(claimed.value.id)))
        }
      }).pipe(span("ProvisionerWorkers.drain"))

    return { runOne, runJob, workers, start, drain } as const
  })
}) {
  /** A layer running `options.count` workers in the background until its scope closes. */
  static readonly layer = (options: WorkerOptions = {}): Layer.Layer<never, never, ProvisionerWorkers> =>
    Layer.scopedDiscard(Effect.flatMap(ProvisionerWorkers, (w) => w.start(options)))
}
