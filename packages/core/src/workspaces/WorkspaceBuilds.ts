/**
 * The WorkspaceBuilds service: queuing builds (start, stop, delete) with their provisioner job,
 * reading builds with their job, resources, parameters, logs and state, canceling them, and the
 * wire form of builds that the workspaces service reuses. Rules and messages follow the
 * described system's build routes; see docs/workspaces.md.
 *
 * Authorization: reading a build is reading its workspace (404 when refused); a start needs
 * `start`, a stop `stop`, a delete `delete` on the workspace (403); orphan deletes, the `debug`
 * log level and a non-active version of a template that requires the active one need `update`
 * on the template; the state needs `update` on the template too (404 otherwise); a cancel needs
 * `update` on the workspace, and `update` on the template unless the template lets users cancel.
 */
import { Clock, Effect, Either, Option } from "effect"
import { createHash } from "node:crypto"
import { allowed, authorize, authorizeRead, CurrentActor } from "../Actor.js"
import { auditAction, auditAdditional, auditResource } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NotFound, PreconditionFailed, ResponseBody, Validation } from "../Errors.js"
import { Events } from "../Events.js"
import { GroupRepo } from "../groups/Group.js"
import { IdGenerator } from "../Ids.js"
import { Placement } from "../provisioners/Placement.js"
import type { NameValue, WorkspaceTransition } from "../provisioners/Provisioner.js"
import { ProvisionerDaemons } from "../provisioners/ProvisionerDaemons.js"
import {
  jobStatus,
  mutateTags,
  type ProvisionerJob,
  type ProvisionerJobLogRecord,
  type ProvisionerJobRecord,
  ProvisionerJobRepo,
  type ProvisionerJobStatus,
  type TemplateVersionMetadata,
  type WorkspaceBuildMetadata
} from "../provisioners/ProvisionerJob.js"
import { ProvisionerJobs } from "../provisioners/ProvisionerJobs.js"
import { ProvisionerJobViews } from "../provisioners/ProvisionerJobViews.js"
import { Transactions } from "../Repositories.js"
import { givenFields } from "../Requests.js"
import { sideBySide } from "../SideBySide.js"
import { hasDynamicParameters, parametersForBuild } from "../templates/DynamicParameters.js"
import { FileRepo } from "../templates/File.js"
import { templateObject, type TemplateRecord, TemplateRepo } from "../templates/Template.js"
import { type TemplateVersionRecord, TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { templateDemand } from "../templates/WorkbayProvisioner.js"
import { workspaceOwnerData } from "../templates/WorkspaceOwners.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import type { UserRecord } from "../users/User.js"
import { putNonEmpty, wireMaker, type WireProps } from "../Wire.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import {
  agentConnectionTimings,
  agentScriptTimings,
  provisionerTimings,
  WorkspaceBuildTimings
} from "./BuildTimings.js"
import { WorkspaceManuallyUpdated } from "./Events.js"
import { keptParameters, resolveParameters } from "./Parameters.js"
import type { CreateWorkspaceBuildRequest, ListBuildsQuery } from "./Requests.js"
import { dormancyPatch } from "./Schedule.js"
import { WorkspaceSharing } from "./Sharing.js"
import { type WorkspaceRecord, WorkspaceRepo } from "./Workspace.js"
import {
  type BuildReason,
  buildStatus,
  newWorkspaceBuild,
  type StoredResource,
  type WorkspaceBuildRecord,
  WorkspaceBuildRepo,
  type WorkspaceBuildSummary,
  WorkspaceResourceRepo
} from "./WorkspaceBuild.js"
import { WorkspaceMoveRepo } from "./WorkspaceMove.js"
import { moveActive, moveAfter } from "./WorkspaceMoves.js"
import { toBuildResource, WorkspaceBuild, WorkspaceBuildParameter } from "./WorkspaceWire.js"

/** The default and the largest page of a workspace's builds. */
export const DEFAULT_BUILDS_PAGE = 25
export const MAX_BUILDS_PAGE = 100

/** The job error of a start build past its owner's quota, as the described system words it. */
export const INSUFFICIENT_QUOTA = "insufficient quota"

const makeBuild = wireMaker(WorkspaceBuild)

/**
 * What the wire records of builds read of their own: their versions' names, their jobs and their
 * resources (`WorkspaceBuilds.detailsOf`). A caller reading other things for the same records reads
 * these beside them, in the same round, and hands them to `toWires`.
 */
export interface BuildDetails {
  readonly versions: ReadonlyArray<TemplateVersionMetadata>
  readonly jobs: ReadonlyArray<ProvisionerJobRecord>
  readonly resources: ReadonlyArray<StoredResource>
}

/** What an audit diff shows of a provisioner state: its size and digest, not its bytes. */
const stateFacts = (state: Uint8Array) => ({
  provisioner_state_bytes: state.length,
  provisioner_state_sha256: createHash("sha256").update(state).digest("hex")
})

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
const buildNotFound = () => NotFound.resource("Workspace build")
const workspaceNotFound = () => NotFound.resource("Workspace")

/** How audit entries name a workspace. */
export const workspaceResource = (w: WorkspaceRecord) => ({
  type: "workspace",
  id: w.id,
  target: w.name,
  organizationId: w.organization_id
})

/** What a build queued for a workspace needs: the workspace, its template, the version and the caller. */
export interface QueueBuild {
  readonly workspace: WorkspaceRecord
  readonly template: TemplateRecord
  readonly version: TemplateVersionRecord
  readonly previous: WorkspaceBuildRecord | undefined
  readonly transition: WorkspaceTransition
  readonly parameters: ReadonlyArray<NameValue>
  readonly initiatorId: string
  readonly reason: BuildReason
  readonly presetId: string | null
  readonly orphan: boolean
  readonly importJob: ProvisionerJobRecord
  /** The provisioner state the build starts from (template administrators only); the previous build's otherwise. */
  readonly state?: Uint8Array | undefined
  /** `claim` for the build that claims a prebuilt workspace (docs/prebuilds.md, "Claiming"). */
  readonly prebuildStage?: "claim" | undefined
}

export class WorkspaceBuilds extends Effect.Service<WorkspaceBuilds>()("@workbay/core/WorkspaceBuilds", {
  effect: Effect.gen(function*() {
    const sharing = yield* WorkspaceSharing
    const workspaces = yield* WorkspaceRepo
    const builds = yield* WorkspaceBuildRepo
    const resources = yield* WorkspaceResourceRepo
    const templates = yield* TemplateRepo
    const versions = yield* TemplateVersionRepo
    const jobs = yield* ProvisionerJobs
    const jobRepo = yield* ProvisionerJobRepo
    const views = yield* ProvisionerJobViews
    const daemons = yield* ProvisionerDaemons
    const users = yield* UserRepo
    const groupRepo = yield* GroupRepo
    const ids = yield* IdGenerator
    const tx = yield* Transactions
    const events = yield* Events
    const placement = yield* Placement
    const files = yield* FileRepo
    const moveRepo = yield* WorkspaceMoveRepo

    const jobOf = (id: string) => Effect.orDie(jobs.get(id))

    /** The {@link BuildDetails} of builds, each kind in one read, side by side. */
    const detailsOf = (list: ReadonlyArray<WorkspaceBuildSummary>): Effect.Effect<BuildDetails> => {
      const jobIds = [...new Set(list.map((b) => b.job_id))]
      return Effect.map(
        sideBySide([
          jobRepo.versionMetadata([...new Set(list.map((b) => b.template_version_id))]),
          jobRepo.findByIds(jobIds),
          resources.listByJobs(jobIds)
        ]),
        ([versions, jobs, resources]) => ({ versions, jobs, resources })
      )
    }

    /**
     * The wire records of builds (of any workspaces), reading their jobs, resources, versions,
     * templates and users once each, in one read of each kind. `known` workspaces, the users and
     * templates in `also` (by id; `undefined` for one that does not exist) and its `details` (read
     * by {@link detailsOf} for these builds) are not read again.
     */
    const toWires = (
      list: ReadonlyArray<WorkspaceBuildSummary>,
      known: ReadonlyArray<WorkspaceRecord> = [],
      also: {
        readonly users?: ReadonlyMap<string, UserRecord | undefined>
        readonly templates?: ReadonlyMap<string, TemplateRecord | undefined>
        readonly details?: BuildDetails
      } = {}
    ) =>
      Effect.gen(function*() {
        if (list.length === 0) return []
        const at = yield* Clock.currentTimeMillis
        const wsById = new Map(known.map((w) => [w.id, w]))
        for (const id of new Set(list.map((b) => b.workspace_id))) {
          if (!wsById.has(id)) {
            const found = yield* workspaces.findById(id)
            if (Option.isSome(found)) wsById.set(id, found.value)
          }
        }
        const jobIds = [...new Set(list.map((b) => b.job_id))]
        const people = new Map(also.users)
        const unknownPeople = new Set<string>()
        for (const b of list) {
          const ownerId = wsById.get(b.workspace_id)?.owner_id
          if (ownerId !== undefined && !people.has(ownerId)) unknownPeople.add(ownerId)
          if (!people.has(b.initiator_id)) unknownPeople.add(b.initiator_id)
        }
        // The reads that need none of the others side by side (on Postgres, several of the pool's
        // connections at once, instead of one round trip after another).
        const [details, foundPeople] = yield* sideBySide([
          also.details === undefined ? detailsOf(list) : Effect.succeed(also.details),
          unknownPeople.size > 0 ? users.findByIds([...unknownPeople]) : Effect.succeed([])
        ])
        const { jobs: jobList, resources: stored } = details
        const versions = new Map(details.versions.map((v) => [v.version_id, v]))
        const foundById = new Map(foundPeople.map((u) => [u.id, u]))
        for (const id of unknownPeople) people.set(id, foundById.get(id))
        const templatesById = new Map(also.templates)
        const unknownTemplates = [...new Set([...wsById.values()].map((w) => w.template_id))].filter((id) =>
          !templatesById.has(id)
        )
        if (unknownTemplates.length > 0) {
          const found = new Map((yield* templates.findByIds(unknownTemplates)).map((t) => [t.id, t]))
          for (const id of unknownTemplates) templatesById.set(id, found.get(id))
        }
        // What a build job's metadata names, from the records in hand (the job views then read none):
        // the build's version, the workspace's template, the workspace and the transition.
        const buildMetadata = new Map<string, WorkspaceBuildMetadata | undefined>()
        for (const b of list) {
          const w = wsById.get(b.workspace_id)
          const v = versions.get(b.template_version_id)
          const t = w === undefined ? undefined : templatesById.get(w.template_id)
          buildMetadata.set(
            b.id,
            w === undefined ? undefined : {
              build_id: b.id,
              transition: b.transition,
              workspace_id: w.id,
              workspace_name: w.name,
              version_id: v?.version_id ?? "",
              version_name: v?.version_name ?? "",
              template_id: t?.id ?? null,
              template_name: t?.name ?? "",
              template_display_name: t?.display_name ?? "",
              template_icon: t?.icon ?? ""
            }
          )
        }
        const jobRecords = new Map(jobList.map((j) => [j.id, j]))
        // A build's job always exists; were one missing, the job's own lookup answers as before.
        for (const id of jobIds) if (!jobRecords.has(id)) jobRecords.set(id, yield* jobOf(id))
        const byOrg = new Map<string, Array<ProvisionerJobRecord>>()
        for (const j of jobRecords.values()) {
          const js = byOrg.get(j.organization_id)
          if (js === undefined) byOrg.set(j.organization_id, [j])
          else js.push(j)
        }
        const jobWires = new Map<string, ProvisionerJob>()
        for (const [orgId, js] of byOrg) {
          const described = yield* views.describeAll(orgId, js, buildMetadata)
          for (const d of described) jobWires.set(d.id, d)
        }
        const resourcesByJob = new Map<string, Array<StoredResource>>()
        for (const r of stored) {
          const rs = resourcesByJob.get(r.resource.job_id)
          if (rs === undefined) resourcesByJob.set(r.resource.job_id, [r])
          else rs.push(r)
        }
        // Builds whose job is unfinished name the provisioners that could run it (read once per organization).
        const matched = yield* daemons.matchedAll(list.flatMap((b) => {
          const status = jobStatus(jobRecords.get(b.job_id)!)
          return status === "pending" || status === "running" ? [jobRecords.get(b.job_id)!] : []
        }))
        const out: Array<WorkspaceBuild> = []
        for (const b of list) {
          const w = wsById.get(b.workspace_id)
          const job = jobRecords.get(b.job_id)!
          const owner = w === undefined ? undefined : people.get(w.owner_id)
          const initiator = people.get(b.initiator_id)
          const status = jobStatus(job)
          const props: WireProps<typeof WorkspaceBuild> = {
            id: b.id,
            created_at: b.created_at,
            updated_at: b.updated_at,
            workspace_id: b.workspace_id,
            workspace_name: w?.name ?? "",
            workspace_owner_id: w?.owner_id ?? b.initiator_id,
            template_version_id: b.template_version_id,
            template_version_name: versions.get(b.template_version_id)?.version_name ?? "",
            build_number: b.build_number,
            transition: b.transition,
            initiator_id: b.initiator_id,
            initiator_name: initiator?.username ?? "",
            job: jobWires.get(job.id)!,
            reason: b.reason,
            resources: (resourcesByJob.get(job.id) ?? []).map((r) =>
              toBuildResource(r, at, w === undefined ? undefined : { owner: owner?.username ?? "", workspace: w.name })
            ),
            status: buildStatus(b.transition, status),
            daily_cost: b.daily_cost,
            template_version_preset_id: b.template_version_preset_id
          }
          putNonEmpty(props, "workspace_owner_name", owner?.username)
          putNonEmpty(props, "workspace_owner_avatar_url", owner?.avatar_url)
          putNonEmpty(props, "deadline", b.deadline ?? undefined)
          putNonEmpty(props, "max_deadline", b.max_deadline ?? undefined)
          putNonEmpty(props, "has_ai_task", b.has_ai_task)
          putNonEmpty(props, "has_external_agent", b.has_external_agent)
          if (status === "pending" || status === "running") props.matched_provisioners = matched.get(job)!
          out.push(makeBuild(props))
        }
        return out
      }).pipe(span("WorkspaceBuilds.toWires"))

    /** A build, its workspace and its template, once the caller may read the workspace (404 otherwise). */
    const readable = (id: string) =>
      Effect.gen(function*() {
        const found = yield* builds.findById(id.toLowerCase())
        if (Option.isNone(found)) return yield* buildNotFound()
        const workspace = yield* workspaces.findById(found.value.workspace_id)
        if (Option.isNone(workspace)) return yield* buildNotFound()
        yield* authorizeRead("Workspace build", sharing.object(workspace.value))
        return { build: found.value, workspace: workspace.value }
      })

    const templateOf = (w: WorkspaceRecord) =>
      Effect.flatMap(
        templates.findById(w.template_id),
        Option.match({
          onNone: () => Effect.die(new Error(`The template of workspace ${w.id} is missing.`)),
          onSome: Effect.succeed
        })
      )

    /** The latest build of a workspace; every workspace has one from its creation. */
    const latestOf = (w: WorkspaceRecord) => Effect.map(builds.latestOf([w.id]), (bs) => bs[0])

    /**
     * Where the build's job runs (docs/provisioner-daemons.md, "Placement" and "Pinning"): a
     * workspace whose earlier build ran on a host stays there (its home volume is there); a first
     * start is placed by free capacity among the hosts that could run it; otherwise none (any
     * worker may take it).
     */
    const placementOf = (q: QueueBuild, moved: { readonly movedTo: string | undefined }) =>
      Effect.gen(function*() {
        // An orphan delete calls no provisioner: any worker may record it, the host's gone or not.
        if (q.orphan) return { _tag: "Unplaced" } as const
        if (q.transition !== "start" && q.previous === undefined) return { _tag: "Unplaced" } as const
        if (q.previous !== undefined) {
          // A workspace moved since its latest build is on the host it moved to.
          if (moved.movedTo !== undefined) return { _tag: "Placed", host: moved.movedTo, ask: undefined } as const
          const before = Option.getOrUndefined(yield* jobRepo.findById(q.previous.job_id))
          const host = before?.host ?? null
          if (host !== null) return { _tag: "Placed", host, ask: undefined } as const
          // A workspace that ran on a worker of no host (the server's own engine) stays with those
          // workers; one whose builds never ran anywhere (a start refused for room) is placed anew.
          if (q.transition !== "start" || before === undefined || before.started_at !== null) {
            return { _tag: "Unplaced" } as const
          }
        }
        const demand = Effect.gen(function*() {
          const file = yield* files.findById(q.importJob.file_id)
          if (Option.isNone(file)) return undefined
          const owner = yield* users.findById(q.workspace.owner_id)
          return yield* templateDemand({
            archive: file.value.data,
            content_type: file.value.mimetype,
            variable_values: q.version.user_variable_values,
            parameter_values: q.parameters,
            workspace: {
              id: q.workspace.id,
              name: q.workspace.name,
              owner: Option.match(owner, { onNone: () => "", onSome: (u) => u.username })
            }
          })
        })
        return yield* placement.place({
          organization_id: q.workspace.organization_id,
          provisioner: q.importJob.provisioner,
          tags: mutateTags(q.initiatorId, q.version.tags)
        }, demand)
      })

    /**
     * Queues a build and its job, in the caller's transaction: the next build number (two racing
     * builds clash on it: 409), the job on the version's file, provisioner and tags, and its host.
     */
    const queue = (q: QueueBuild) =>
      Effect.gen(function*() {
        const at = yield* now
        const buildId = yield* ids.uuid
        // No build while the workspace's volumes are being copied to another host.
        const moved = yield* moveAfter(moveRepo, jobRepo, q.workspace.id, q.previous)
        if (moved.unfinished) return yield* moveActive()
        const placed = yield* placementOf(q, moved)
        const job = yield* jobs.enqueue({
          ...(placed._tag === "Placed"
            ? {
              host: placed.host,
              ...(placed.ask === undefined
                ? {}
                : { placed_memory_bytes: placed.ask.memory_bytes, placed_cpus: placed.ask.cpus })
            }
            : {}),
          organization_id: q.workspace.organization_id,
          initiator_id: q.initiatorId,
          provisioner: q.importJob.provisioner,
          type: "workspace_build",
          file_id: q.importJob.file_id,
          input: {
            workspace_build_id: buildId,
            ...(q.prebuildStage === undefined ? {} : { prebuilt_workspace_build_stage: q.prebuildStage })
          },
          tags: q.version.tags
        })
        const build = newWorkspaceBuild({
          id: buildId,
          at,
          workspace_id: q.workspace.id,
          template_version_id: q.version.id,
          template_version_preset_id: q.presetId,
          build_number: (q.previous?.build_number ?? 0) + 1,
          transition: q.transition,
          initiator_id: q.initiatorId,
          job_id: job.id,
          // The build starts from the previous build's state (kept when this one fails), as the described system.
          ...givenFields({ provisioner_state: q.state ?? q.previous?.provisioner_state }),
          reason: q.reason,
          parameters: q.parameters,
          orphan: q.orphan
        })
        yield* builds.insert(build).pipe(
          Effect.catchTag("UniqueViolation", () => Effect.fail(buildActive()))
        )
        // No host has room: the build fails at once and says why (never a silent wait).
        if (placed._tag === "NoRoom") {
          const failed = yield* jobs.failPending(job.id, placed.message)
          return { build, job: Option.getOrElse(failed, () => job) }
        }
        return { build, job }
      })

    const buildActive = () =>
      new Conflict({
        message: "A workspace build is already active.",
        detail: "Wait for it to finish or cancel it first."
      })

    /**
     * The version's import job, once it succeeded; a version whose import did not succeed
     * cannot be built (400).
     */
    const importedVersion = (version: TemplateVersionRecord) =>
      Effect.gen(function*() {
        const job = yield* jobOf(version.job_id)
        if (jobStatus(job) !== "succeeded" || version.import_result === null) {
          return yield* new BadRequest({
            message: "The template version's import has not succeeded.",
            detail: `Its import job is ${jobStatus(job)}.`,
            validations: [
              new Validation({ field: "template_version_id", detail: "The template version must be imported." })
            ]
          })
        }
        return job
      })

    /**
     * Resolves the build's parameters (400 with one validation per bad parameter). A version with
     * dynamic parameters is checked against its parameters as evaluated with the values the build
     * would use and its owner (`ownerId`): hidden ones ignored, options and validation as computed.
     */
    const parametersFor = (
      version: TemplateVersionRecord,
      given: ReadonlyArray<NameValue>,
      previous: WorkspaceBuildRecord | undefined,
      preset: ReadonlyArray<NameValue> | undefined,
      ownerId: string
    ) =>
      Effect.gen(function*() {
        const declared = version.import_result?.parameters ?? []
        let parameters = declared
        if (hasDynamicParameters(declared)) {
          const kept = new Map(keptParameters(declared, previous?.parameters ?? []).map((v) => [v.name, v.value]))
          for (const v of given) kept.set(v.name, v.value)
          for (const v of preset ?? []) kept.set(v.name, v.value)
          const user = Option.getOrUndefined(yield* users.findById(ownerId))
          const owner = yield* workspaceOwnerData(
            user ?? { id: ownerId, username: "", name: "", email: "" },
            version.organization_id
          )
          parameters = parametersForBuild(declared, Object.fromEntries(kept), owner)
        }
        return yield* Either.match(
          resolveParameters(parameters, { given, previous: previous?.parameters, preset }),
          {
            onLeft: (validations) =>
              Effect.fail(new BadRequest({ message: "Unable to validate parameters.", validations: [...validations] })),
            onRight: (values) => Effect.succeed(values)
          }
        )
      }).pipe(Effect.provideService(GroupRepo, groupRepo))

    /** The preset `presetId` of `version` (400 when the version has no such preset). */
    const presetOf = (version: TemplateVersionRecord, presetId: string | undefined) => {
      if (presetId === undefined) return Effect.succeed(undefined)
      const preset = version.import_result?.presets.find((p) => p.id === presetId.toLowerCase())
      return preset === undefined
        ? Effect.fail(BadRequest.field("template_version_preset_id", "The template version has no such preset."))
        : Effect.succeed(preset)
    }

    /** Whether the template's latest state is one a new build may follow: its job finished. */
    const assertIdle = (latest: WorkspaceBuildRecord | undefined) =>
      Effect.gen(function*() {
        if (latest === undefined) return
        const job = yield* jobOf(latest.job_id)
        if (job.completed_at === null) return yield* buildActive()
      })

    const actionOf = (t: WorkspaceTransition) =>
      (t === "start" ? "start" : t === "stop" ? "stop" : "delete") as "start" | "stop" | "delete"

    /** `POST /workspaces/{workspace}/builds`. */
    const create = (
      workspaceId: string,
      input: typeof CreateWorkspaceBuildRequest.Type,
      options: { readonly reason?: BuildReason | undefined } = {}
    ) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const found = yield* workspaces.findById(workspaceId.toLowerCase())
        if (Option.isNone(found) || found.value.deleted) return yield* workspaceNotFound()
        const workspace = found.value
        yield* authorizeRead("Workspace", sharing.object(workspace))
        // A dormant workspace is woken by its start build, which needs `update` rather than
        // `start` (the described system's wsbuilder): a `use` share starts it only once active.
        const wakes = input.transition === "start" && workspace.dormant_at !== null
        yield* authorize(wakes ? "update" : actionOf(input.transition), sharing.object(workspace))
        const template = yield* templateOf(workspace)
        const templateAdmin = yield* allowed("update", templateObject(template))
        if (input.orphan === true) {
          if (input.transition !== "delete") {
            return yield* BadRequest.field("orphan", "Orphan is only permitted when deleting a workspace.")
          }
          if (input.state !== undefined && input.state.length > 0) {
            return yield* BadRequest.field(
              "orphan",
              "ProvisionerState cannot be set alongside Orphan since state intent is unclear."
            )
          }
          if (!templateAdmin) {
            return yield* new Forbidden({ message: "Only template administrators may orphan a workspace's resources." })
          }
        }
        const customState = input.state !== undefined && input.state.length > 0 && input.orphan !== true
          ? input.state
          : undefined
        if (customState !== undefined) {
          // A custom state could corrupt or leak the cloud's state: template administrators only.
          if (!templateAdmin) {
            return yield* new Forbidden({ message: "Only template managers may provide custom state." })
          }
          if (customState.some((b) => b < 0 || b > 255)) {
            return yield* BadRequest.field("state", "Every element must be a byte (0 to 255).")
          }
        }
        if (input.log_level === "debug" && !templateAdmin) {
          return yield* new BadRequest({
            message: "Workspace builds with a custom log level are restricted to administrators only.",
            validations: [
              new Validation({ field: "log_level", detail: "Only template administrators may set a log level." })
            ]
          })
        }
        if (input.dry_run === true) {
          return yield* BadRequest.field(
            "dry_run",
            "Dry runs of workspace builds are made with POST /templateversions/{id}/dry-run."
          )
        }
        const latest = yield* latestOf(workspace)
        yield* assertIdle(latest)
        let versionId = input.template_version_id?.toLowerCase() ?? latest?.template_version_id ??
          template.active_version_id
        const version = Option.getOrUndefined(yield* versions.findById(versionId))
        if (version === undefined || version.template_id !== template.id) {
          return yield* BadRequest.field(
            "template_version_id",
            "The template version does not belong to the workspace's template."
          )
        }
        versionId = version.id
        if (input.template_version_id !== undefined && version.archived) {
          return yield* BadRequest.field(
            "template_version_id",
            "Archived template versions cannot be used to build a workspace."
          )
        }
        if (
          input.transition === "start" && template.require_active_version &&
          version.id !== template.active_version_id &&
          !templateAdmin
        ) {
          return yield* new Forbidden({
            message: "cannot use non-active version: The template requires workspaces to use its active version.",
            validations: [
              new Validation({ field: "template_version_id", detail: "Must be the template's active version." })
            ]
          })
        }
        const importJob = yield* importedVersion(version)
        const preset = yield* presetOf(version, input.template_version_preset_id)
        // A version change starts over from the new version's parameters, with the values kept where names match.
        const parameters = yield* parametersFor(
          version,
          input.rich_parameter_values ?? [],
          latest,
          preset?.parameters,
          workspace.owner_id
        )
        const reason: BuildReason = options.reason ?? "initiator"
        const at = new Date(yield* Clock.currentTimeMillis)
        const queued = yield* tx.atomic(Effect.gen(function*() {
          // Starting a dormant workspace makes it active first (dormant_at and deleting_at cleared).
          if (wakes) {
            yield* Effect.orDie(
              workspaces.update(workspace.id, { ...dormancyPatch(false, template, at), updated_at: at })
            )
          }
          return yield* queue({
            workspace,
            template,
            version,
            previous: latest,
            transition: input.transition,
            parameters,
            initiatorId: actor.user.id,
            reason,
            presetId: preset?.id ?? latest?.template_version_preset_id ?? null,
            orphan: input.orphan === true,
            importJob,
            state: customState === undefined ? undefined : Uint8Array.from(customState)
          })
        }))
        // After the commit: watchers re-read and move to the new build's job.
        yield* publishWorkspaceChange(workspace.id)
        yield* auditResource(
          {
            type: "workspace_build",
            id: queued.build.id,
            target: workspace.name,
            organizationId: workspace.organization_id
          },
          undefined,
          {
            transition: queued.build.transition,
            build_number: queued.build.build_number,
            template_version_id: version.id
          }
        )
        yield* auditAction(actionOf(input.transition))
        yield* auditAdditional({
          build_number: String(queued.build.build_number),
          build_reason: reason,
          workspace_name: workspace.name,
          workspace_id: workspace.id
        })
        // Another version than the last build's: the template admins hear the workspace was updated by hand.
        if (
          input.template_version_id !== undefined && latest !== undefined && version.id !== latest.template_version_id
        ) {
          yield* events.publish(
            new WorkspaceManuallyUpdated({ workspace, template, version, initiatorId: actor.user.id })
          )
        }
        const [wire] = yield* toWires([queued.build], [workspace], {
          templates: new Map([[template.id, template]]),
          users: new Map([[actor.user.id, actor.user]])
        })
        return wire!
      }).pipe(span("WorkspaceBuilds.create"))

    const get = (id: string) =>
      Effect.gen(function*() {
        const { build, workspace } = yield* readable(id)
        const [wire] = yield* toWires([build], [workspace])
        return wire!
      }).pipe(span("WorkspaceBuilds.get"))

    /** A workspace's builds, newest first. */
    const listByWorkspace = (workspace: WorkspaceRecord, input: typeof ListBuildsQuery.Type) =>
      Effect.gen(function*() {
        yield* authorizeRead("Workspace", sharing.object(workspace))
        if (input.after_id !== undefined) {
          const after = yield* builds.findById(input.after_id.toLowerCase())
          if (Option.isNone(after) || after.value.workspace_id !== workspace.id) {
            return yield* new BadRequest({
              message: `Record at "after_id" (${JSON.stringify(input.after_id)}) does not exist.`
            })
          }
        }
        const limit = input.limit !== undefined && input.limit > 0
          ? Math.min(input.limit, MAX_BUILDS_PAGE)
          : DEFAULT_BUILDS_PAGE
        const list = yield* builds.list({
          workspaceId: workspace.id,
          limit,
          offset: input.offset,
          afterId: input.after_id?.toLowerCase(),
          since: input.since
        })
        return yield* toWires(list, [workspace])
      }).pipe(span("WorkspaceBuilds.listByWorkspace"))

    const byNumber = (workspace: WorkspaceRecord, buildNumber: number) =>
      Effect.gen(function*() {
        yield* authorizeRead("Workspace", sharing.object(workspace))
        const found = yield* builds.findByNumber(workspace.id, buildNumber)
        if (Option.isNone(found)) return yield* buildNotFound()
        const [wire] = yield* toWires([found.value], [workspace])
        return wire!
      }).pipe(span("WorkspaceBuilds.byNumber"))

    /** The build's job, once the caller may read the build (for logs, followed or not). */
    const logsJob = (id: string) =>
      Effect.flatMap(readable(id), ({ build }) => jobOf(build.job_id)).pipe(span("WorkspaceBuilds.logsJob"))

    const buildResources = (id: string) =>
      Effect.gen(function*() {
        const { build, workspace } = yield* readable(id)
        const at = yield* Clock.currentTimeMillis
        const owner = yield* users.findById(workspace.owner_id)
        const names = {
          owner: Option.match(owner, { onNone: () => "", onSome: (u) => u.username }),
          workspace: workspace.name
        }
        return (yield* resources.listByJobs([build.job_id])).map((r) => toBuildResource(r, at, names))
      }).pipe(span("WorkspaceBuilds.resources"))

    const parameters = (id: string) =>
      Effect.map(readable(id), ({ build }) => build.parameters.map((p) => new WorkspaceBuildParameter(p, true))).pipe(
        span("WorkspaceBuilds.parameters")
      )

    /** The provisioner's state after the build: template administrators only (404 for anyone else). */
    const state = (id: string) =>
      Effect.gen(function*() {
        const { build, workspace } = yield* readable(id)
        const template = yield* templateOf(workspace)
        if (!(yield* allowed("update", templateObject(template)))) return yield* buildNotFound()
        return build.provisioner_state
      }).pipe(span("WorkspaceBuilds.state"))

    /**
     * `PUT /workspacebuilds/{workspacebuild}/state`: overwrites the build's provisioner state, as
     * `state` reads it: template administrators only (404 for anyone else, as reading it). Audited
     * as a `write` of the build whose diff names the state's size and SHA-256, never its bytes.
     */
    const setState = (id: string, state: Uint8Array) =>
      Effect.gen(function*() {
        const { build, workspace } = yield* readable(id)
        const template = yield* templateOf(workspace)
        if (!(yield* allowed("update", templateObject(template)))) return yield* buildNotFound()
        yield* builds.setProvisionerState(build.id, state, yield* now)
        yield* auditResource(
          { type: "workspace_build", id: build.id, target: workspace.name, organizationId: workspace.organization_id },
          stateFacts(build.provisioner_state),
          stateFacts(state)
        )
        yield* auditAdditional({
          build_number: String(build.build_number),
          workspace_name: workspace.name,
          workspace_id: workspace.id
        })
      }).pipe(span("WorkspaceBuilds.setState"))

    /**
     * A build's timings (docs/workspaces.md, "Timings"): its job's stages from its log lines
     * (read a page at a time, at most the job's log cap), its agents' script runs and first
     * connections.
     */
    const timingsOf = (build: WorkspaceBuildRecord) =>
      Effect.gen(function*() {
        const job = yield* jobOf(build.job_id)
        const lines: Array<ProvisionerJobLogRecord> = []
        const PAGE = 1000
        let after = 0
        while (true) {
          const page = yield* jobs.logsAfter(job.id, after, PAGE)
          lines.push(...page)
          if (page.length < PAGE) break
          after = page[page.length - 1]!.id
        }
        const stored = yield* resources.listByJobs([build.job_id])
        return new WorkspaceBuildTimings({
          provisioner_timings: provisionerTimings(job, lines),
          agent_script_timings: agentScriptTimings(stored),
          agent_connection_timings: agentConnectionTimings(stored)
        }, true)
      })

    /** `GET /workspacebuilds/{workspacebuild}/timings`: who may read the build (404 otherwise). */
    const timings = (id: string) =>
      Effect.flatMap(readable(id), ({ build }) => timingsOf(build)).pipe(span("WorkspaceBuilds.timings"))

    /** `GET /workspaces/{workspace}/timings`: the latest build's; who may read the workspace (404 otherwise, a deleted one too). */
    const workspaceTimings = (workspaceId: string) =>
      Effect.gen(function*() {
        const found = yield* workspaces.findById(workspaceId.toLowerCase())
        if (Option.isNone(found) || found.value.deleted) return yield* workspaceNotFound()
        yield* authorizeRead("Workspace", sharing.object(found.value))
        const latest = yield* latestOf(found.value)
        if (latest === undefined) return yield* workspaceNotFound()
        return yield* timingsOf(latest)
      }).pipe(span("WorkspaceBuilds.workspaceTimings"))

    /**
     * Cancels the build's job. `expectStatus` (`pending` or `running`) refuses with 412 when the
     * job is in another state, so a client does not cancel a build that moved on meanwhile.
     */
    const cancel = (id: string, expectStatus: ProvisionerJobStatus | undefined) =>
      Effect.gen(function*() {
        const { build, workspace } = yield* readable(id)
        yield* authorize("update", sharing.object(workspace))
        const template = yield* templateOf(workspace)
        if (!template.allow_user_cancel_workspace_jobs && !(yield* allowed("update", templateObject(template)))) {
          return yield* new Forbidden({
            message: "User is not allowed to cancel workspace builds. Owner role is required."
          })
        }
        const job = yield* jobOf(build.job_id)
        if (job.completed_at !== null) return yield* new BadRequest({ message: "Job has already completed!" })
        if (job.canceled_at !== null) {
          return yield* new BadRequest({ message: "Job has already been marked as canceled!" })
        }
        if (expectStatus !== undefined && jobStatus(job) !== expectStatus) {
          return yield* new PreconditionFailed({
            message: "Job is not in the expected state.",
            detail: `Expected status "${expectStatus}", but job status is "${jobStatus(job)}".`
          })
        }
        yield* jobs.cancel(job.id).pipe(
          Effect.catchTag("NotFound", () => Effect.die("A build's job is missing.")),
          Effect.catchTag("BadRequest", () => Effect.fail(new BadRequest({ message: "Job has already completed!" })))
        )
        return new ResponseBody({ message: "Job has been marked as canceled..." }, true)
      }).pipe(span("WorkspaceBuilds.cancel"))

    return {
      toWires,
      detailsOf,
      readable,
      queue,
      importedVersion,
      parametersFor,
      presetOf,
      assertIdle,
      latestOf,
      templateOf,
      create,
      get,
      listByWorkspace,
      byNumber,
      logsJob,
      resources: buildResources,
      parameters,
      state,
      setState,
      cancel,
      timings,
      workspaceTimings
    } as const
  })
}) {}
