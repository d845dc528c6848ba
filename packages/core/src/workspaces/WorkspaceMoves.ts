/**
 * The WorkspaceMoves service (docs/provisioner-daemons.md, "Moving a workspace"): moving a stopped
 * workspace's volumes from the host it is on to another, and the executor of the moves' jobs.
 *
 *   POST /workspaces/{id}/moves {host}
 *     ──> export job (old host) ─┐ both open the link `/organizations/{org}/workspacemoves/{move}/stream`
 *     ──> import job (new host) ─┘ with their one-time tokens; the service joins the two sockets
 *   import verified ──> cleanup job (old host) removes the old volumes
 *
 * Who may: whoever may update the workspace and manage the organization's provisioner daemons
 * (an operator moves workspaces; the owner alone cannot pick hosts). Only a stopped workspace
 * whose last stop succeeded moves, one move at a time, and no build starts while one runs
 * (WorkspaceBuilds refuses it: 409).
 */
import { Cause, Clock, Duration, Effect, Exit, Option } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { authorize, authorizeVisible, CurrentActor } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { BadRequest, Conflict, NotFound, Unauthorized, Validation } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import type { Provisioner, ProvisionerFailure, ProvisionerLogSink } from "../provisioners/Provisioner.js"
import { hostStatus } from "../provisioners/ProvisionerHost.js"
import { ProvisionerHosts } from "../provisioners/ProvisionerHosts.js"
import {
  type JobCompletion,
  jobStatus,
  type ProvisionerJobRecord,
  ProvisionerJobRepo,
  tagsMatch
} from "../provisioners/ProvisionerJob.js"
import { ProvisionerJobs } from "../provisioners/ProvisionerJobs.js"
import { Transactions } from "../Repositories.js"
import { Settings } from "../Settings.js"
import { TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { span } from "../Tracing.js"
import type { CreateWorkspaceMoveRequest } from "./Requests.js"
import { WorkspaceSharing } from "./Sharing.js"
import { type WorkspaceRecord, WorkspaceRepo } from "./Workspace.js"
import { type WorkspaceBuildRecord, WorkspaceBuildRepo, WorkspaceResourceRepo } from "./WorkspaceBuild.js"
import {
  type MoveJobs,
  moveSideOf,
  moveStatus,
  toWorkspaceMove,
  type WorkspaceMoveRecord,
  WorkspaceMoveRepo
} from "./WorkspaceMove.js"

/** How long a cleanup waits for its import's completion to be written (it is queued just before). */
const CLEANUP_WAIT: Duration.Duration = Duration.minutes(1)

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")
const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The path of a move's link, as a daemon opens it (with `?side=`). */
export const moveStreamPath = (organizationId: string, moveId: string) =>
  `/api/v2/organizations/${organizationId}/workspacemoves/${moveId}/stream`

/** A move's jobs, read. */
const jobsOf = (jobs: ProvisionerJobRepo["Type"], move: WorkspaceMoveRecord) =>
  Effect.map(
    jobs.findByIds([
      move.export_job_id,
      move.import_job_id,
      ...(move.cleanup_job_id === null ? [] : [move.cleanup_job_id])
    ]),
    (found): MoveJobs => {
      const byId = new Map(found.map((j) => [j.id, j]))
      return {
        export: byId.get(move.export_job_id),
        import: byId.get(move.import_job_id),
        cleanup: move.cleanup_job_id === null ? undefined : byId.get(move.cleanup_job_id)
      }
    }
  )

/**
 * Where a workspace's latest move leaves it after `latest` (its latest build): the host it moved
 * to when it succeeded after that build, and whether one is unfinished. WorkspaceBuilds pins a
 * build there and refuses one while a move runs.
 */
export const moveAfter = (
  moves: WorkspaceMoveRepo["Type"],
  jobs: ProvisionerJobRepo["Type"],
  workspaceId: string,
  latest: Pick<WorkspaceBuildRecord, "created_at"> | undefined
) =>
  Effect.gen(function*() {
    const found = yield* moves.latestOf(workspaceId)
    if (Option.isNone(found)) return { movedTo: undefined, unfinished: false }
    const move = found.value
    const { status } = moveStatus(yield* jobsOf(jobs, move))
    const after = latest === undefined || move.created_at.getTime() >= latest.created_at.getTime()
    return {
      movedTo: status === "succeeded" && after ? move.to_host : undefined,
      unfinished: status === "pending" || status === "running"
    }
  })

/** The 409 of a build or a move while a move runs. */
export const moveActive = () =>
  new Conflict({
    message: "The workspace is being moved to another host.",
    detail: "Wait for the move to finish (GET /workspaces/{workspace}/moves)."
  })

export class WorkspaceMoves extends Effect.Service<WorkspaceMoves>()("@workbay/core/WorkspaceMoves", {
  effect: Effect.gen(function*() {
    const sharing = yield* WorkspaceSharing
    const workspaces = yield* WorkspaceRepo
    const builds = yield* WorkspaceBuildRepo
    const resources = yield* WorkspaceResourceRepo
    const versions = yield* TemplateVersionRepo
    const moves = yield* WorkspaceMoveRepo
    const jobRepo = yield* ProvisionerJobRepo
    const jobs = yield* ProvisionerJobs
    const hosts = yield* ProvisionerHosts
    const ids = yield* IdGenerator
    const tx = yield* Transactions

    /** `{workspace}` (an id), once the caller may see it (404 otherwise). */
    const resolve = (ref: string) =>
      Effect.gen(function*() {
        const found = isUuid(ref) ? yield* workspaces.findById(ref.toLowerCase()) : Option.none()
        if (Option.isNone(found) || found.value.deleted) return yield* NotFound.resource("Workspace")
        yield* authorizeVisible("Workspace", sharing.object(found.value))
        return found.value
      })

    const wire = (move: WorkspaceMoveRecord) => Effect.map(jobsOf(jobRepo, move), (js) => toWorkspaceMove(move, js))

    /** The images the workspace's containers last ran (its latest start's resources' `image`). */
    const imagesOf = (w: WorkspaceRecord) =>
      Effect.gen(function*() {
        const recent = yield* builds.list({ workspaceId: w.id, limit: 50 })
        const start = recent.find((b) => b.transition === "start")
        if (start === undefined) return []
        const made = yield* resources.listByJobs([start.job_id])
        return [
          ...new Set(made.flatMap((r) => r.resource.metadata.filter((m) => m.key === "image").map((m) => m.value)))
        ]
      })

    /** `POST /workspaces/{workspace}/moves`. */
    const create = (ref: string, input: typeof CreateWorkspaceMoveRequest.Type) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const w = yield* resolve(ref)
        yield* authorize("update", sharing.object(w))
        yield* authorize("update", { type: "provisioner_daemon", orgId: w.organization_id })
        const latest = (yield* builds.latestOf([w.id]))[0]
        const latestJob = latest === undefined
          ? undefined
          : Option.getOrUndefined(yield* jobRepo.findById(latest.job_id))
        if (latest === undefined || latestJob === undefined) {
          return yield* new Conflict({ message: "The workspace has no build to move." })
        }
        const state = yield* moveAfter(moves, jobRepo, w.id, latest)
        if (state.unfinished) return yield* moveActive()
        const status = jobStatus(latestJob)
        if (status === "pending" || status === "running" || status === "canceling") {
          return yield* new Conflict({
            message: "A workspace build is active.",
            detail: "Wait for it to finish: only a stopped workspace moves."
          })
        }
        if (latest.transition !== "stop" || status !== "succeeded") {
          return yield* new Conflict({
            message: "Only a stopped workspace can be moved.",
            detail: `Its latest build is a ${latest.transition} that ${
              status === "succeeded" ? "succeeded" : `is ${status}`
            }; stop it first.`
          })
        }
        const from = state.movedTo ?? latestJob.host ?? null
        if (from === null) {
          return yield* new Conflict({
            message: "The workspace is on no provisioner host.",
            detail: "Its builds ran on the server's own workers; only a workspace on a daemon's host moves."
          })
        }
        const hostProblem = (detail: string) =>
          new BadRequest({
            message: "The workspace cannot move there.",
            validations: [new Validation({ field: "host", detail })]
          })
        if (input.host === from) return yield* hostProblem(`The workspace is on ${from} already.`)
        const at = yield* Clock.currentTimeMillis
        const target = (yield* hosts.records(w.organization_id)).find((h) => h.name === input.host)
        if (target === undefined) return yield* hostProblem(`No provisioner host is named ${input.host}.`)
        if (target.draining === true) return yield* hostProblem(`${input.host} is draining: it takes no workspace.`)
        if (hostStatus(target, at) !== "connected") return yield* hostProblem(`${input.host} is not connected.`)
        const version = Option.getOrUndefined(yield* versions.findById(latest.template_version_id))
        const importJob = version === undefined
          ? undefined
          : Option.getOrUndefined(yield* jobRepo.findById(version.job_id))
        if (version === undefined || importJob === undefined) {
          return yield* new Conflict({ message: "The workspace's template version is gone." })
        }
        if (!target.provisioners.includes(importJob.provisioner) || !tagsMatch(latestJob.tags, target.tags)) {
          return yield* hostProblem(
            `${input.host} does not run ${importJob.provisioner} workspaces with the tags ${
              JSON.stringify(latestJob.tags)
            }.`
          )
        }
        const images = yield* imagesOf(w)
        const moveId = yield* ids.uuid
        const created = yield* now
        const record = yield* tx.atomic(Effect.gen(function*() {
          const job = (host: string, side: "export" | "import") =>
            jobs.enqueue({
              host,
              organization_id: w.organization_id,
              initiator_id: actor.user.id,
              provisioner: importJob.provisioner,
              type: "workspace_move",
              file_id: importJob.file_id,
              input: {
                template_version_id: version.id,
                workspace_move_id: moveId,
                move_side: side,
                move_images: images
              },
              tags: latestJob.tags
            })
          const exportJob = yield* job(from, "export")
          const importJobRecord = yield* job(input.host, "import")
          const move: WorkspaceMoveRecord = {
            id: moveId,
            organization_id: w.organization_id,
            workspace_id: w.id,
            from_host: from,
            to_host: input.host,
            initiator_id: actor.user.id,
            created_at: created,
            export_job_id: exportJob.id,
            import_job_id: importJobRecord.id,
            cleanup_job_id: null,
            export_token_hash: "",
            import_token_hash: "",
            relay_replica: "",
            volumes: []
          }
          yield* moves.insert(move)
          return move
        }))
        yield* auditResource(
          { type: "workspace", id: w.id, target: w.name, organizationId: w.organization_id },
          { host: from },
          { host: input.host, move_id: moveId }
        )
        return yield* wire(record)
      }).pipe(span("WorkspaceMoves.create"))

    /** `GET /workspaces/{workspace}/moves`: newest first. */
    const list = (ref: string) =>
      Effect.gen(function*() {
        const w = yield* resolve(ref)
        const found = yield* moves.listByWorkspace(w.id)
        return yield* Effect.forEach(found, wire)
      }).pipe(span("WorkspaceMoves.list"))

    /**
     * A daemon opening its side of a move's link: the move of the organization, its side's job
     * running, and the token that job was handed (401 otherwise; 404 for no such move).
     */
    const authenticateLink = (organizationId: string, moveId: string, side: "export" | "import", token: string) =>
      Effect.gen(function*() {
        const found = isUuid(moveId) ? yield* moves.findById(moveId.toLowerCase()) : Option.none()
        if (Option.isNone(found) || found.value.organization_id !== organizationId) {
          return yield* NotFound.resource("Workspace move")
        }
        const move = found.value
        const hash = side === "export" ? move.export_token_hash : move.import_token_hash
        if (hash === "" || token === "" || sha256(token) !== hash) {
          return yield* new Unauthorized({ message: "The move's link token is not valid." })
        }
        const job = yield* jobRepo.findById(side === "export" ? move.export_job_id : move.import_job_id)
        if (Option.isNone(job) || jobStatus(job.value) !== "running") {
          return yield* new Unauthorized({ message: `The move's ${side} is not running.` })
        }
        return move
      })

    /** The replica a move's links meet on: this one when none is yet. */
    const meetingReplica = (moveId: string, replicaId: string) =>
      Effect.flatMap(
        moves.claimRelay(moveId, replicaId),
        Option.match({ onNone: () => NotFound.resource("Workspace move"), onSome: Effect.succeed })
      )

    return { create, list, authenticateLink, meetingReplica } as const
  })
}) {}

export type WorkspaceMoveExecutorServices = WorkspaceMoveRepo | ProvisionerJobRepo | ProvisionerJobs | Settings

/**
 * What a worker does with a `workspace_move` job: one side of its move with the provisioner's
 * `moveVolumes`. The export and the import are each handed a one-time token for the link (its
 * hash stored); a failure of either cancels the other. An import that succeeded stores the
 * volumes it verified and queues the cleanup on the old host, which removes them once the
 * import's success is written (and keeps them if it is not). Never fails: every problem is the
 * job's `{error}`.
 */
export const workspaceMoveExecutor = (
  job: ProvisionerJobRecord,
  ctx: { readonly provisioner: Provisioner; readonly onLog: ProvisionerLogSink }
): Effect.Effect<JobCompletion, never, WorkspaceMoveExecutorServices> =>
  Effect.gen(function*() {
    const moves = yield* WorkspaceMoveRepo
    const jobRepo = yield* ProvisionerJobRepo
    const jobs = yield* ProvisionerJobs
    const settings = yield* Settings
    const found = yield* moves.findById(job.input.workspace_move_id ?? "")
    if (Option.isNone(found)) return { error: "The job's workspace move is gone." }
    const move = found.value
    const side = job.input.move_side
    if (side === undefined || (side !== "cleanup" && moveSideOf(move, job.id) !== side)) {
      return { error: "The job is not a side of its workspace move." }
    }
    const moveVolumes = ctx.provisioner.moveVolumes
    if (moveVolumes === undefined) {
      return { error: `The ${ctx.provisioner.type} provisioner cannot move workspaces between hosts.` }
    }
    const input = {
      side,
      deployment_id: settings.deploymentId,
      workspace_id: move.workspace_id,
      images: job.input.move_images ?? [],
      onLog: ctx.onLog
    }
    const fail = (e: ProvisionerFailure): JobCompletion => ({ error: e.message })

    if (side === "cleanup") {
      // The import's success is written just after it queued this job: wait for it, bounded.
      const importStatus = yield* Effect.gen(function*() {
        const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(CLEANUP_WAIT)
        while (true) {
          const imported = yield* jobRepo.findById(move.import_job_id)
          const status = Option.match(imported, { onNone: () => "unknown" as const, onSome: jobStatus })
          if (status !== "running" && status !== "pending") return status
          if ((yield* Clock.currentTimeMillis) >= deadline) return status
          yield* Effect.sleep(Duration.seconds(1))
        }
      })
      if (importStatus !== "succeeded") {
        return { error: `The import is ${importStatus}: the old volumes are kept.` }
      }
      return yield* moveVolumes({ ...input, stream: { path: "", token: "" } }).pipe(
        Effect.match({ onFailure: fail, onSuccess: () => ({}) })
      )
    }

    const token = randomBytes(32).toString("base64url")
    yield* moves.setTokenHash(move.id, side, sha256(token))
    const other = side === "export" ? move.import_job_id : move.export_job_id
    const exit = yield* Effect.exit(
      moveVolumes({
        ...input,
        stream: { path: `${moveStreamPath(move.organization_id, move.id)}?side=${side}`, token }
      }).pipe(Effect.onInterrupt(() => Effect.ignore(jobs.cancel(other))))
    )
    if (Exit.isFailure(exit)) {
      // The other side has nobody to copy with: it stops too.
      yield* Effect.ignore(jobs.cancel(other))
      return Option.match(Cause.failureOption(exit.cause), {
        onNone: () => ({ error: "The move was interrupted." }),
        onSome: fail
      })
    }
    if (side === "import") {
      const cleanup = yield* jobs.enqueue({
        host: move.from_host,
        organization_id: move.organization_id,
        initiator_id: move.initiator_id,
        provisioner: job.provisioner,
        type: "workspace_move",
        file_id: job.file_id,
        input: { ...job.input, move_side: "cleanup" },
        tags: job.tags
      })
      yield* moves.setResult(move.id, exit.value.volumes, cleanup.id)
    }
    return {}
  }).pipe(
    Effect.catchAllDefect((defect) => Effect.succeed({ error: `The move failed: ${String(defect)}` })),
    Effect.withSpan("workspaceMoveExecutor")
  )
