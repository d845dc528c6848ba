/**
 * The ProvisionerDaemons service: the registry of workers (register, seen, current and previous
 * job), their listing as the described system shows it, and the matching of a job to the live
 * workers that could run it (`matched_provisioners`, `available_workers`, queue standing).
 */
import { Clock, Duration, Effect, Option } from "effect"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import {
  BUILT_IN_KEY_NAME,
  DAEMON_STALE_INTERVAL,
  daemonStatus,
  MatchedProvisioners,
  ProvisionerDaemonJob,
  type ProvisionerDaemonRecord,
  ProvisionerDaemonRepo,
  type ProvisionerDaemonStatus,
  toProvisionerDaemon
} from "./ProvisionerDaemon.js"
import {
  jobStatus,
  type ProvisionerJobRecord,
  ProvisionerJobRepo,
  type ProvisionerTags,
  type ProvisionerWorker,
  workerServes
} from "./ProvisionerJob.js"

/** The provisioner daemon API version, reported by build info and by the daemons we run. */
export const PROVISIONER_API_VERSION = "1.0"

/** A seen daemon's row is written at most this often (a poll every second would otherwise write every second). */
export const DAEMON_SEEN_WRITE_INTERVAL: Duration.Duration = Duration.seconds(5)
/** Daemon rows not seen for this long are deleted when a worker registers (the described system purges after 7 days). */
export const DAEMON_PURGE_AGE: Duration.Duration = Duration.days(7)

/** What the matching of a job reads. */
export interface JobToMatch {
  readonly organization_id: string
  readonly provisioner: string
  readonly tags: ProvisionerTags
  /** A job bound to a host (placed or pinned) is matched only by that host's daemons. */
  readonly host?: string | null | undefined
}

/** What an external daemon's row carries beside its worker. */
export interface ExternalDaemonDetails {
  readonly organization_id: string
  readonly key_id: string
  readonly key_name: string
  readonly version: string
  readonly api_version: string
  readonly host?: string | undefined
}

export interface DaemonListOptions {
  readonly organizationId: string
  readonly limit: number
  readonly ids?: ReadonlyArray<string> | undefined
  readonly tags?: ProvisionerTags | undefined
  readonly statuses?: ReadonlyArray<ProvisionerDaemonStatus> | undefined
}

export class ProvisionerDaemons extends Effect.Service<ProvisionerDaemons>()("@workbay/core/ProvisionerDaemons", {
  effect: Effect.gen(function*() {
    const daemons = yield* ProvisionerDaemonRepo
    const jobs = yield* ProvisionerJobRepo
    const settings = yield* Settings
    const lastWrite = new Map<string, number>()
    const now = Clock.currentTimeMillis
    const staleBefore = (at: number) => new Date(at - Duration.toMillis(DAEMON_STALE_INTERVAL))

    /**
     * Registers a starting worker (built-in: every organization; an external daemon: its
     * organization, key and version), and drops rows long unseen.
     */
    const register = (worker: ProvisionerWorker, external?: ExternalDaemonDetails) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* daemons.purge(new Date(at - Duration.toMillis(DAEMON_PURGE_AGE)))
        yield* daemons.register({
          id: worker.id,
          organization_id: external?.organization_id ?? null,
          name: worker.name,
          provisioners: worker.provisioners,
          tags: worker.tags,
          created_at: new Date(at),
          last_seen_at: new Date(at),
          version: external?.version ?? settings.version,
          api_version: external?.api_version ?? PROVISIONER_API_VERSION,
          key_name: external?.key_name ?? BUILT_IN_KEY_NAME,
          key_id: external?.key_id ?? null,
          host: external?.host ?? null
        })
        lastWrite.set(worker.id, at)
      }).pipe(span("ProvisionerDaemons.register"))

    /** The worker is alive (it polled or heartbeat); written at most every few seconds. */
    const seen = (id: string) =>
      Effect.flatMap(now, (at) => {
        if (at - (lastWrite.get(id) ?? -Infinity) < Duration.toMillis(DAEMON_SEEN_WRITE_INTERVAL)) return Effect.void
        lastWrite.set(id, at)
        return daemons.seen(id, new Date(at))
      })

    const started = (id: string, jobId: string) =>
      Effect.flatMap(now, (at) => {
        lastWrite.set(id, at)
        return daemons.started(id, jobId, new Date(at))
      })

    const finished = (id: string, jobId: string) =>
      Effect.flatMap(now, (at) => {
        lastWrite.set(id, at)
        return daemons.finished(id, jobId, new Date(at))
      })

    const daemonJob = (id: string | null) =>
      id === null
        ? Effect.succeed(null)
        : Effect.gen(function*() {
          const found = yield* jobs.findById(id)
          if (Option.isNone(found)) return null
          const j = found.value
          const version = j.input.template_version_id === undefined
            ? undefined
            : (yield* jobs.versionMetadata([j.input.template_version_id]))[0]
          return new ProvisionerDaemonJob({
            id: j.id,
            status: jobStatus(j),
            template_name: version?.template_name ?? "",
            template_icon: version?.template_icon ?? "",
            template_display_name: version?.template_display_name ?? ""
          }, true)
        })

    /** The daemons serving the organization (its own and the built-in ones), as the described system lists them. */
    const list = (options: DaemonListOptions) =>
      Effect.gen(function*() {
        const at = yield* now
        const rows = yield* daemons.list({ ...options, staleBefore: staleBefore(at) })
        return yield* Effect.forEach(rows, (d) =>
          Effect.gen(function*() {
            const status = daemonStatus(d, at)
            return toProvisionerDaemon(d, {
              organizationId: options.organizationId,
              status,
              currentJob: status === "busy" ? yield* daemonJob(d.current_job_id) : null,
              previousJob: yield* daemonJob(d.previous_job_id)
            })
          }))
      }).pipe(span("ProvisionerDaemons.list"))

    /** Daemons (live or not) whose provisioner types and tags fit `job`, with whether each is live. */
    const fitIn = (all: ReadonlyArray<ProvisionerDaemonRecord>, job: JobToMatch, at: number) =>
      all.filter((d) => workerServes(d, job) && (job.host === null || job.host === undefined || d.host === job.host))
        .map((d) => ({ daemon: d, live: daemonStatus(d, at) !== "offline" }))

    const fitting = (job: JobToMatch) =>
      Effect.gen(function*() {
        const at = yield* now
        return fitIn(yield* daemons.serving(job.organization_id), job, at)
      })

    const matchedOf = (fit: ReturnType<typeof fitIn>) => {
      const seenAt = fit.flatMap(({ daemon }) => daemon.last_seen_at === null ? [] : [daemon.last_seen_at.getTime()])
      return new MatchedProvisioners(
        seenAt.length === 0
          ? { count: fit.length, available: fit.filter((f) => f.live).length }
          : {
            count: fit.length,
            available: fit.filter((f) => f.live).length,
            most_recently_seen: new Date(Math.max(...seenAt))
          },
        true
      )
    }

    /** `matched_provisioners` of a job: fitting daemons, the live ones among them, and when one was last seen. */
    const matched = (job: JobToMatch) => Effect.map(fitting(job), matchedOf).pipe(span("ProvisionerDaemons.matched"))

    /** `matched` of each of `jobs` (keyed by the job), the daemons of each organization read once. */
    const matchedAll = <J extends JobToMatch>(jobs: ReadonlyArray<J>) =>
      Effect.gen(function*() {
        const out = new Map<J, MatchedProvisioners>()
        if (jobs.length === 0) return out
        const at = yield* now
        const serving = new Map<string, ReadonlyArray<ProvisionerDaemonRecord>>()
        for (const job of jobs) {
          let all = serving.get(job.organization_id)
          if (all === undefined) {
            all = yield* daemons.serving(job.organization_id)
            serving.set(job.organization_id, all)
          }
          out.set(job, matchedOf(fitIn(all, job, at)))
        }
        return out
      }).pipe(span("ProvisionerDaemons.matchedAll"))

    /** Ids of the live daemons that could run `job` (`available_workers`), for a pending job; none otherwise. */
    const availableWorkers = (
      job: JobToMatch & Pick<ProvisionerJobRecord, "started_at" | "canceled_at" | "completed_at" | "error">
    ) =>
      jobStatus(job) !== "pending"
        ? Effect.succeed<ReadonlyArray<string>>([])
        : Effect.map(fitting(job), (fit) => fit.filter((f) => f.live).map((f) => f.daemon.id))

    /** The live daemons serving an organization, as workers (for queue standing). */
    const liveWorkers = (organizationId: string) =>
      Effect.gen(function*() {
        const at = yield* now
        const all = yield* daemons.serving(organizationId)
        return all.filter((d) => daemonStatus(d, at) !== "offline") satisfies ReadonlyArray<
          Pick<ProvisionerDaemonRecord, "id" | "provisioners" | "tags">
        >
      })

    return { register, seen, started, finished, list, matched, matchedAll, availableWorkers, liveWorkers } as const
  })
}) {}
