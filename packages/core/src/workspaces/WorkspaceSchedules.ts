/**
 * The schedule routes of a workspace: autostart, time to live, extending the deadline,
 * automatic updates, dormancy and usage reports (`/workspaces/{workspace}/autostart`, `/ttl`,
 * `/extend`, `/autoupdates`, `/dormant`, `/usage`). The rules are the pure ones of Schedule.ts;
 * this service reads the workspace, its template and latest build, checks the caller and
 * stores and audits the change. See docs/workspaces.md "Schedules".
 *
 * Authorization: each route needs `update` on the workspace (through `WorkspaceSharing.object`,
 * so a sharing `admin` may and a `use` may not); a workspace the caller may not read is 404.
 */
import { Clock, Effect, Either, Option, Schema } from "effect"
import { authorize, authorizeRead } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { BadRequest, NotFound, ResponseBody, Validation } from "../Errors.js"
import { isUuid } from "../Ids.js"
import { jobStatus, ProvisionerJobRepo } from "../provisioners/ProvisionerJob.js"
import { Transactions } from "../Repositories.js"
import type { SettingsShape } from "../Settings.js"
import { TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { span } from "../Tracing.js"
import type { UserRecord } from "../users/User.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import type { PostWorkspaceUsageRequest } from "./Requests.js"
import { activityBump, autostartUpdate, dormancyPatch, extendDeadline, ttlUpdate } from "./Schedule.js"
import { WorkspaceSharing } from "./Sharing.js"
import { type AutomaticUpdates, type WorkspacePatch, type WorkspaceRecord, WorkspaceRepo } from "./Workspace.js"
import { WorkspaceBuildRepo } from "./WorkspaceBuild.js"
import { WorkspaceBuilds, workspaceResource } from "./WorkspaceBuilds.js"
import { auditedWorkspace, Workspaces } from "./Workspaces.js"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/**
 * The quiet-hours schedule that bounds a user's builds: their own when the deployment lets users
 * set one and they did, else the deployment's default (`""`: none).
 */
export const ownerQuietHours = (
  user: Pick<UserRecord, "quiet_hours_schedule"> | undefined,
  settings: Pick<SettingsShape, "allowCustomQuietHours" | "defaultQuietHoursSchedule">
): string =>
  settings.allowCustomQuietHours && user !== undefined && user.quiet_hours_schedule !== ""
    ? user.quiet_hours_schedule
    : settings.defaultQuietHoursSchedule

/** The fields of a workspace the schedule routes' audit entries diff. */
const audited = (w: WorkspaceRecord) => ({
  ...auditedWorkspace(w),
  dormant_at: w.dormant_at?.toISOString() ?? null,
  deleting_at: w.deleting_at?.toISOString() ?? null
})

/** `ResolveAutostartResponse`: whether the active version's parameters would make an autostart fail. */
export class ResolveAutostartResponse extends Schema.Class<ResolveAutostartResponse>("ResolveAutostartResponse")({
  parameter_mismatch: Schema.Boolean
}) {}

export class WorkspaceSchedules extends Effect.Service<WorkspaceSchedules>()("@workbay/core/WorkspaceSchedules", {
  effect: Effect.gen(function*() {
    const sharing = yield* WorkspaceSharing
    const workspaces = yield* WorkspaceRepo
    const builds = yield* WorkspaceBuildRepo
    const jobs = yield* ProvisionerJobRepo
    const buildService = yield* WorkspaceBuilds
    const workspaceService = yield* Workspaces
    const tx = yield* Transactions
    const versions = yield* TemplateVersionRepo

    /** The workspace `ref` once the caller may read it (404) and update it (403), with its template. */
    const updatable = (ref: string) =>
      Effect.gen(function*() {
        const found = isUuid(ref) ? yield* workspaces.findById(ref.toLowerCase()) : Option.none()
        if (Option.isNone(found) || found.value.deleted) return yield* NotFound.resource("Workspace")
        const w = found.value
        yield* authorizeRead("Workspace", sharing.object(w))
        yield* authorize("update", sharing.object(w))
        return { workspace: w, template: yield* buildService.templateOf(w) }
      })

    /** Stores `patch` and audits the change; the updated record. */
    const store = (w: WorkspaceRecord, patch: WorkspacePatch) =>
      Effect.gen(function*() {
        const updated = yield* workspaces.update(w.id, patch).pipe(
          Effect.orDie,
          Effect.flatMap(
            Option.match({ onNone: () => Effect.fail(NotFound.resource("Workspace")), onSome: Effect.succeed })
          )
        )
        yield* auditResource(workspaceResource(updated), audited(w), audited(updated))
        return updated
      })

    /** The latest build of `w` and its job. */
    const latest = (w: WorkspaceRecord) =>
      Effect.gen(function*() {
        const build = yield* buildService.latestOf(w)
        if (build === undefined) return undefined
        const job = yield* Effect.map(jobs.findById(build.job_id), Option.getOrUndefined)
        return job === undefined ? undefined : { build, job }
      })

    /** `PUT /workspaces/{workspace}/autostart`: stores the schedule (`""` or absent: none) and the next start. */
    const setAutostart = (ref: string, schedule: string | undefined) =>
      Effect.gen(function*() {
        const { template, workspace } = yield* updatable(ref)
        const update = yield* Either.match(autostartUpdate(template, schedule, yield* now), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        })
        yield* store(workspace, { ...update, updated_at: yield* now })
        yield* publishWorkspaceChange(workspace.id)
      }).pipe(span("WorkspaceSchedules.setAutostart"))

    /** `PUT /workspaces/{workspace}/ttl`: the time to live; clearing it takes the deadline off a running build. */
    const setTtl = (ref: string, ttlMs: number | null | undefined) =>
      Effect.gen(function*() {
        const { template, workspace } = yield* updatable(ref)
        const ttl = yield* Either.match(ttlUpdate(template, ttlMs), { onLeft: Effect.fail, onRight: Effect.succeed })
        const at = yield* now
        yield* tx.atomic(Effect.gen(function*() {
          yield* store(workspace, { ttl_ms: ttl, updated_at: at })
          if (ttl === null) {
            const last = yield* buildService.latestOf(workspace)
            if (last !== undefined && last.transition === "start" && last.deadline !== null) {
              yield* builds.setDeadline(last.id, { deadline: null }, at)
            }
          }
        }))
        yield* publishWorkspaceChange(workspace.id)
      }).pipe(span("WorkspaceSchedules.setTtl"))

    /** `PUT /workspaces/{workspace}/extend`: moves the running build's deadline within its max deadline. */
    const extend = (ref: string, deadline: Date) =>
      Effect.gen(function*() {
        const { workspace } = yield* updatable(ref)
        const last = yield* latest(workspace)
        if (last === undefined) return yield* NotFound.resource("Workspace build")
        const at = yield* now
        const result = yield* Either.match(
          extendDeadline({ now: at, build: last.build, jobCompletedAt: last.job.completed_at, requested: deadline }),
          { onLeft: Effect.fail, onRight: Effect.succeed }
        )
        yield* builds.setDeadline(last.build.id, { deadline: result.deadline }, at)
        yield* auditResource(
          workspaceResource(workspace),
          { deadline: last.build.deadline?.toISOString() ?? null },
          { deadline: result.deadline.toISOString() }
        )
        yield* publishWorkspaceChange(workspace.id)
        return new ResponseBody({ message: result.message }, true)
      }).pipe(span("WorkspaceSchedules.extend"))

    /** `PUT /workspaces/{workspace}/autoupdates`: whether autostart builds the template's active version. */
    const setAutomaticUpdates = (ref: string, value: AutomaticUpdates) =>
      Effect.gen(function*() {
        const { workspace } = yield* updatable(ref)
        if (workspace.automatic_updates === value) return
        yield* store(workspace, { automatic_updates: value, updated_at: yield* now })
        yield* publishWorkspaceChange(workspace.id)
      }).pipe(span("WorkspaceSchedules.setAutomaticUpdates"))

    /** `PUT /workspaces/{workspace}/dormant`: makes the workspace dormant (with its deletion time) or active again; the workspace. */
    const setDormant = (ref: string, dormant: boolean) =>
      Effect.gen(function*() {
        const { template, workspace } = yield* updatable(ref)
        const at = yield* now
        let record = workspace
        // Already in the asked state: nothing moves (a dormant workspace keeps its deletion time).
        if ((workspace.dormant_at !== null) !== dormant) {
          record = yield* store(workspace, { ...dormancyPatch(dormant, template, at), updated_at: at })
          yield* publishWorkspaceChange(workspace.id)
        }
        return yield* workspaceService.toWire(record)
      }).pipe(span("WorkspaceSchedules.setDormant"))

    /**
     * `POST /workspaces/{workspace}/usage`: the workspace was used now: `last_used_at` moves and
     * a running build's deadline is bumped by the template's activity bump.
     */
    const reportUsage = (ref: string, input: typeof PostWorkspaceUsageRequest.Type) =>
      Effect.gen(function*() {
        const { template, workspace } = yield* updatable(ref)
        if (input.app_name !== undefined && input.app_name !== "" && input.agent_id === undefined) {
          return yield* new BadRequest({
            message: "Invalid request.",
            validations: [new Validation({ field: "agent_id", detail: "An agent id is required with an app name." })]
          })
        }
        const at = yield* now
        const last = yield* latest(workspace)
        yield* tx.atomic(Effect.gen(function*() {
          yield* store(workspace, { last_used_at: at })
          if (last === undefined) return
          const bumped = activityBump({
            now: at,
            build: last.build,
            jobCompleted: jobStatus(last.job) === "succeeded",
            workspace,
            template
          })
          if (bumped !== null) yield* builds.setDeadline(last.build.id, { deadline: bumped }, at)
        }))
        yield* publishWorkspaceChange(workspace.id)
      }).pipe(span("WorkspaceSchedules.reportUsage"))

    /**
     * `GET /workspaces/{workspace}/resolve-autostart`: whether the next autostart would fail on
     * parameters. Only an autostart onto the template's active version (the template requires it,
     * or the workspace updates automatically) that the latest build is not on can: its parameters
     * are resolved as the autostart resolves them (no new values; the latest build's, else the
     * defaults) and any failure is a mismatch. Who may read the workspace may ask (404 otherwise).
     */
    const resolveAutostart = (ref: string) =>
      Effect.gen(function*() {
        const found = isUuid(ref) ? yield* workspaces.findById(ref.toLowerCase()) : Option.none()
        if (Option.isNone(found) || found.value.deleted) return yield* NotFound.resource("Workspace")
        const w = found.value
        yield* authorizeRead("Workspace", sharing.object(w))
        const template = yield* buildService.templateOf(w)
        const none = new ResolveAutostartResponse({ parameter_mismatch: false }, true)
        if (!template.require_active_version && w.automatic_updates !== "always") return none
        const latest = yield* buildService.latestOf(w)
        if (latest === undefined || latest.template_version_id === template.active_version_id) return none
        const version = Option.getOrUndefined(yield* versions.findById(template.active_version_id))
        if (version === undefined) return none
        const resolved = yield* Effect.either(buildService.parametersFor(version, [], latest, undefined, w.owner_id))
        return new ResolveAutostartResponse({ parameter_mismatch: Either.isLeft(resolved) }, true)
      }).pipe(span("WorkspaceSchedules.resolveAutostart"))

    return { setAutostart, setTtl, extend, setAutomaticUpdates, setDormant, reportUsage, resolveAutostart } as const
  })
}) {}
