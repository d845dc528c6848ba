/**
 * The ProvisionerJobs service: the queue's state moves and their rules, and the hang detector.
 *
 *   pending -> running -> succeeded | failed
 *   pending -> canceled (at once)         running -> canceling -> canceled | failed
 *
 * Every move is one conditional UPDATE in the repository, so racing callers (two workers, a
 * cancel and a claim, several replicas' hang detectors) see exactly one of them win; the
 * service only turns a lost race or an illegal move into the answer the described system gives.
 * Authorization is the callers' (the HTTP handlers and the worker connection), next step.
 *
 * Every move and every stored batch of log lines is signalled on the job's PubSub channel
 * (`jobLogsChannel`), so that `followLogs` on any replica reads the new lines at once.
 */
import { Clock, Duration, Effect, Layer, Option, Stream } from "effect"
import { BadRequest, Conflict, NotFound } from "../Errors.js"
import { Events } from "../Events.js"
import { followById } from "../Follow.js"
import { IdGenerator, isUuid } from "../Ids.js"
import { everyInterval } from "../Periodic.js"
import { PubSub } from "../PubSub.js"
import { span } from "../Tracing.js"
import { ProvisionerJobsHung } from "./Events.js"
import { JobSignal } from "./JobSignal.js"
import { daemonStatus, ProvisionerDaemonRepo } from "./ProvisionerDaemon.js"
import { hostStatus, ProvisionerHostRepo } from "./ProvisionerHost.js"
import {
  type AppendLogsResult,
  DEFAULT_MAX_JOB_LOG_BYTES,
  type JobCompletion,
  jobStatus,
  mutateTags,
  type NewProvisionerJob,
  type NewProvisionerJobLog,
  type ProvisionerJobFilter,
  type ProvisionerJobLogRecord,
  type ProvisionerJobRecord,
  ProvisionerJobRepo,
  type ProvisionerWorker,
  type QueueStanding,
  queueStanding,
  workerServes
} from "./ProvisionerJob.js"

/** A job to queue; the service gives it its id, time and effective tags. */
export type EnqueueJob = Omit<NewProvisionerJob, "id" | "created_at">

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
const jobNotFound = () => NotFound.resource("Provisioner job")

/** The PubSub channel of a job's signals: `job_logs_` and the id's 32 hex digits. */
export const jobLogsChannel = (jobId: string): string => `job_logs_${jobId.replaceAll("-", "").toLowerCase()}`

/** The signals on a job's channel: lines were stored; the job moved (finished, canceling). */
export const JOB_SIGNAL_LOGS = "logs"
export const JOB_SIGNAL_JOB = "job"

/** Whether a job is over: its logs are complete. */
export const jobFinished = (job: ProvisionerJobRecord): boolean => {
  const status = jobStatus(job)
  return status === "succeeded" || status === "failed" || status === "canceled"
}

/** How often a follower re-reads without a signal (a lost signal costs at most this). */
export const DEFAULT_FOLLOW_FALLBACK: Duration.Duration = Duration.seconds(10)

/** Lines a follower reads per query. */
export const FOLLOW_PAGE = 500

export interface FollowLogsOptions {
  /** Re-read without a signal this often. Default 10 seconds. */
  readonly fallback?: Duration.DurationInput | undefined
}

export class ProvisionerJobs extends Effect.Service<ProvisionerJobs>()("@workbay/core/ProvisionerJobs", {
  dependencies: [JobSignal.Default],
  effect: Effect.gen(function*() {
    const jobs = yield* ProvisionerJobRepo
    const ids = yield* IdGenerator
    const signal = yield* JobSignal
    const pubsub = yield* PubSub

    const find = (id: string) =>
      Effect.flatMap(
        jobs.findById(id),
        Option.match({ onNone: () => Effect.fail(jobNotFound()), onSome: Effect.succeed })
      )

    const signalLogs = (jobId: string, message: string) => pubsub.publish(jobLogsChannel(jobId), message)

    /**
     * Queues a job for `initiator_id`; its tags are mutated as the described system's (`scope`,
     * `owner`). Idle workers of this process wake at once; other processes' find it by polling.
     * Called inside a transaction, the workers may look before it commits: they find the job at
     * their next poll.
     */
    const enqueue = (job: EnqueueJob) =>
      Effect.gen(function*() {
        const queued = yield* jobs.enqueue({
          ...job,
          id: yield* ids.uuid,
          created_at: yield* now,
          tags: mutateTags(job.initiator_id, job.tags)
        })
        yield* signal.notify
        return queued
      }).pipe(span("ProvisionerJobs.enqueue"))

    /** Fails a job no worker took yet (a start no host has room for): the job, or none when it was taken or ended. */
    const failPending = (jobId: string, error: string) =>
      Effect.flatMap(now, (at) => jobs.failPending(jobId, error, at)).pipe(
        Effect.tap(Option.match({ onNone: () => Effect.void, onSome: (job) => signalLogs(job.id, JOB_SIGNAL_JOB) })),
        span("ProvisionerJobs.failPending")
      )

    /**
     * The oldest pending job `worker` serves, now running on it; none when there is none. The
     * move (started) is signalled on the job's channel.
     */
    const acquire = (worker: ProvisionerWorker) =>
      Effect.flatMap(now, (at) => worker.provisioners.length === 0 ? Effect.succeedNone : jobs.acquire(worker, at))
        .pipe(
          Effect.tap(Option.match({ onNone: () => Effect.void, onSome: (job) => signalLogs(job.id, JOB_SIGNAL_JOB) })),
          span("ProvisionerJobs.acquire")
        )

    /**
     * The worker's heartbeat: the job as it stands (a `canceled_at` tells the worker to stop).
     * 409 when the job is not this worker's unfinished job (it was failed as hung, or finished).
     */
    const heartbeat = (jobId: string, workerId: string) =>
      Effect.flatMap(now, (at) => jobs.heartbeat(jobId, workerId, at)).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new Conflict({ message: "The job is not running on this worker." })),
          onSome: Effect.succeed
        })),
        span("ProvisionerJobs.heartbeat")
      )

    /**
     * The worker finishes its job: succeeded, or failed when `result` has an error. A canceling
     * job finishes canceled. A finished job (completed, canceled, failed as hung) cannot be
     * completed again: 409.
     */
    const complete = (jobId: string, workerId: string, result: JobCompletion = {}) =>
      Effect.gen(function*() {
        const done = yield* jobs.complete(jobId, workerId, result, yield* now)
        if (Option.isSome(done)) {
          yield* signalLogs(jobId, JOB_SIGNAL_JOB)
          return done.value
        }
        const job = yield* find(jobId)
        const status = jobStatus(job)
        return yield* new Conflict({
          message: job.worker_id !== workerId && job.started_at !== null
            ? "The job is running on another worker."
            : `The job cannot be completed: it is ${status}.`
        })
      }).pipe(span("ProvisionerJobs.complete"))

    /**
     * Cancels a job: a pending one is canceled at once, a running one becomes canceling until
     * its worker stops. A finished or already canceled job answers 400, as in the described system.
     */
    const cancel = (jobId: string) =>
      Effect.gen(function*() {
        const done = yield* jobs.requestCancel(jobId, yield* now)
        if (Option.isSome(done)) {
          yield* signalLogs(jobId, JOB_SIGNAL_JOB)
          return done.value
        }
        const job = yield* find(jobId)
        if (job.canceled_at !== null) {
          return yield* new BadRequest({ message: "Job has already been marked as canceled!" })
        }
        return yield* new BadRequest({ message: "Job has already completed!" })
      }).pipe(span("ProvisionerJobs.cancel"))

    /** Stores the worker's log lines, up to the per-job cap (past it `logs_overflowed` is set and lines are dropped). */
    const appendLogs = (
      jobId: string,
      logs: ReadonlyArray<NewProvisionerJobLog>,
      maxBytes = DEFAULT_MAX_JOB_LOG_BYTES
    ) =>
      (logs.length === 0
        ? Effect.succeed<AppendLogsResult>({ appended: 0, overflowed: false })
        : Effect.tap(jobs.appendLogs(jobId, logs, maxBytes), (r) =>
          r.appended > 0 ? signalLogs(jobId, JOB_SIGNAL_LOGS) : Effect.void))
        .pipe(span("ProvisionerJobs.appendLogs"))

    /**
     * The job's log lines after `after`: first those stored, then each batch as it is stored
     * (on this replica or another), ending once the job is finished and its last lines are
     * read. Fails with 404 when the job does not exist; ends if it disappears.
     *
     * It subscribes to the job's channel before its first read, so no line stored meanwhile is
     * missed; on each signal it reads the lines after the last one it gave (a signal that the
     * job moved also re-reads the job); without signals it re-reads every `fallback`. The job
     * is read before the lines, so once it is seen finished, the read that follows has every
     * line. Lines are read FOLLOW_PAGE at a time, only as fast as the stream is consumed.
     */
    const followLogs = (
      jobId: string,
      after = 0,
      options: FollowLogsOptions = {}
    ): Stream.Stream<ProvisionerJobLogRecord, NotFound> =>
      isUuid(jobId)
        ? followById({
          channel: jobLogsChannel(jobId),
          rowsSignal: JOB_SIGNAL_LOGS,
          after,
          fallback: options.fallback ?? DEFAULT_FOLLOW_FALLBACK,
          page: FOLLOW_PAGE,
          read: (cursor, limit) => jobs.logsAfter(jobId, cursor, limit),
          idOf: (log) => log.id,
          start: Effect.map(find(jobId), jobFinished),
          finished: Effect.map(jobs.findById(jobId), (job) => Option.isNone(job) || jobFinished(job.value))
        }).pipe(Stream.provideService(PubSub, pubsub))
        : Stream.fail(jobNotFound())

    const logsAfter = (jobId: string, afterId = 0, limit = 1000) =>
      jobs.logsAfter(jobId, afterId, limit).pipe(span("ProvisionerJobs.logsAfter"))

    const get = (id: string) => find(id).pipe(span("ProvisionerJobs.get"))

    const list = (filter: ProvisionerJobFilter) => jobs.listByOrganization(filter).pipe(span("ProvisionerJobs.list"))

    /**
     * Where `job` stands among the pending jobs `workers` could run (all their provisioner
     * types). Position 0 when it is not pending or no worker serves it.
     */
    const queue = (
      job: ProvisionerJobRecord,
      workers: ReadonlyArray<Pick<ProvisionerWorker, "provisioners" | "tags">>
    ) =>
      Effect.gen(function*() {
        const types = [...new Set(workers.flatMap((w) => w.provisioners))]
        const pending = types.length === 0 ? [] : yield* jobs.pending(types)
        return queueStanding(job, pending, workers) satisfies QueueStanding
      }).pipe(span("ProvisionerJobs.queue"))

    /** Workers that could run `job` (ids), for `matched_provisioners` and `available_workers`. */
    const matching = <W extends Pick<ProvisionerWorker, "id" | "provisioners" | "tags">>(
      job: Pick<ProvisionerJobRecord, "provisioner" | "tags">,
      workers: ReadonlyArray<W>
    ): ReadonlyArray<W> => workers.filter((w) => workerServes(w, job))

    return {
      enqueue,
      acquire,
      failPending,
      heartbeat,
      complete,
      cancel,
      appendLogs,
      followLogs,
      logsAfter,
      get,
      list,
      queue,
      matching
    } as const
  })
}) {}

export interface HangDetectorOptions {
  /** Time between sweeps. Default 1 minute. */
  readonly interval?: Duration.DurationInput | undefined
  /** How long a running job may go without an update before it is failed. Default 5 minutes, as the described system. */
  readonly timeout?: Duration.DurationInput | undefined
  /**
   * How long a job bound to a host (placed or pinned) waits for a daemon of that host before it
   * is failed (checked at each sweep). Default 2 minutes.
   */
  readonly hostWait?: Duration.DurationInput | undefined
}

export const DEFAULT_HANG_INTERVAL: Duration.Duration = Duration.minutes(1)
export const DEFAULT_HANG_TIMEOUT: Duration.Duration = Duration.minutes(5)

/** How long a job bound to a host waits for a daemon of that host before it fails (checked at each sweep). */
export const DEFAULT_HOST_WAIT: Duration.Duration = Duration.minutes(2)

const SPOKEN_UNITS: ReadonlyArray<readonly [string, number]> = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1_000],
  ["millisecond", 1]
]

/** A duration in words, largest units first: `2 minutes`, `10 seconds`, `1 hour 30 minutes`. */
export const spokenDuration = (duration: Duration.DurationInput): string => {
  let rest = Math.round(Duration.toMillis(Duration.decode(duration)))
  if (!Number.isFinite(rest)) return "forever"
  const parts: Array<string> = []
  for (const [unit, ms] of SPOKEN_UNITS) {
    const n = Math.floor(rest / ms)
    rest -= n * ms
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? "" : "s"}`)
  }
  return parts.length === 0 ? "0 seconds" : parts.join(" ")
}

/** The error of a job whose host had no connected daemon for the wait. */
export const hostNotConnectedError = (host: string, wait: Duration.Duration) =>
  `host ${host} is not connected: no provisioner daemon of it took this job within ${
    spokenDuration(wait)
  }. The workspace's home volume is on that host; start its daemon (workbay provisioner start --name ${host}) and build again.`

/** The error a hung job is failed with. */
export const hungJobError = (timeout: Duration.Duration) =>
  `Build has been detected as hung for ${Math.round(Duration.toMinutes(timeout))} minutes and will be terminated.`

/**
 * The hang detector: fails running (and canceling) jobs whose worker stopped reporting. Each
 * replica may run it: the failing UPDATE only takes jobs still unfinished and still stale, so
 * a job is failed once.
 */
export class HangDetector extends Effect.Service<HangDetector>()("@workbay/core/HangDetector", {
  effect: Effect.gen(function*() {
    const jobs = yield* ProvisionerJobRepo
    const daemons = yield* ProvisionerDaemonRepo
    const hostRepo = yield* ProvisionerHostRepo
    const pubsub = yield* PubSub
    const events = yield* Events

    /**
     * One sweep at the clock's now; answers how many jobs it failed (and signals each one's
     * followers; a failed build or import is notified as any failed one).
     */
    /**
     * Fails jobs bound to a host (placed or pinned) that waited `wait` with no live daemon of
     * that host to take them: a build never waits silently for a machine that is gone.
     */
    const strandedOnce = (wait: Duration.Duration) =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        const waiting = yield* jobs.pendingOnHosts(new Date(at - Duration.toMillis(wait)))
        const live = new Map<string, ReadonlySet<string>>()
        let failed = 0
        for (const job of waiting) {
          let hosts = live.get(job.organization_id)
          if (hosts === undefined) {
            hosts = new Set(
              (yield* daemons.serving(job.organization_id)).filter((d) => daemonStatus(d, at) !== "offline").flatMap((
                d
              ) => d.host === null || d.host === undefined ? [] : [d.host])
            )
            live.set(job.organization_id, hosts)
          }
          // A live daemon row is not enough: a daemon killed outright stays "seen" for 90 s, but its
          // host's capacity reports stop at once (offline after 30 s).
          if (hosts.has(job.host!)) {
            const record = yield* hostRepo.find(job.organization_id, job.host!)
            if (Option.isNone(record) || hostStatus(record.value, at) === "connected") continue
          }
          const error = hostNotConnectedError(job.host!, wait)
          const done = yield* jobs.failPending(job.id, error, new Date(at))
          if (done._tag === "None") continue
          failed++
          yield* pubsub.publish(jobLogsChannel(job.id), JOB_SIGNAL_JOB)
          yield* events.publish(new ProvisionerJobsHung({ jobIds: [job.id], error }))
        }
        return failed
      })

    const detectOnce = (
      timeout: Duration.DurationInput = DEFAULT_HANG_TIMEOUT,
      hostWait: Duration.DurationInput = DEFAULT_HOST_WAIT
    ) =>
      Effect.gen(function*() {
        const d = Duration.decode(timeout)
        const at = yield* Clock.currentTimeMillis
        const failed = yield* jobs.failHung(new Date(at - Duration.toMillis(d)), hungJobError(d), new Date(at))
        yield* Effect.forEach(failed, (id) => pubsub.publish(jobLogsChannel(id), JOB_SIGNAL_JOB), { discard: true })
        yield* events.publish(new ProvisionerJobsHung({ jobIds: failed, error: hungJobError(d) }))
        const stranded = yield* strandedOnce(Duration.decode(hostWait))
        if (stranded > 0) {
          yield* Effect.logWarning(`Failed ${stranded} provisioner job(s) whose host has no connected daemon.`)
        }
        return failed.length
      }).pipe(span("HangDetector.detectOnce"))

    return { detectOnce } as const
  })
}) {
  /** A layer whose fiber sweeps at start and then every `interval`, until its scope closes. A failed sweep is logged. */
  static readonly periodic = (options: HangDetectorOptions = {}): Layer.Layer<never, never, HangDetector> =>
    Layer.scopedDiscard(
      Effect.flatMap(
        HangDetector,
        (detector) =>
          detector.detectOnce(options.timeout ?? DEFAULT_HANG_TIMEOUT, options.hostWait ?? DEFAULT_HOST_WAIT).pipe(
            Effect.tap((n) =>
              n > 0
                ? Effect.logWarning(`Hang detector failed ${n} provisioner job(s) whose worker stopped reporting.`)
                : Effect.void
            ),
            (sweep) => everyInterval(sweep, options.interval ?? DEFAULT_HANG_INTERVAL, "Hang detector sweep"),
            Effect.forkScoped
          )
      )
    )
}
