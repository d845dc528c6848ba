/**
 * The lifecycle executor's `LifecycleActions` on the workspace services, and the executor as
 * background work (`lifecycleExecutorPeriodic`). Applying a decision stores its patch on the
 * workspace and queues its build (`WorkspaceBuilds.queue`) in one transaction, initiated by the
 * workspace's owner with the decision's reason: an autostart builds the template's active
 * version when the decision says so, else the latest build's version, with the latest build's
 * parameters. After an autostart the workspace's `next_start_at` moves to the next one. Each
 * applied decision writes an audit entry (user: the owner; `build_reason` the decision's).
 */
import { type Duration, Effect, Layer, Option } from "effect"
import {
  auditAdditional,
  AuditEntries,
  AuditRequest,
  auditResource,
  newAuditRequest,
  writeAuditEntry
} from "../Audit.js"
import { Events } from "../Events.js"
import { IdGenerator } from "../Ids.js"
import { PubSub } from "../PubSub.js"
import { Transactions } from "../Repositories.js"
import { type TemplateVersionRecord, TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import { WorkspaceAutoUpdated, WorkspaceDormant } from "./Events.js"
import { DEFAULT_LIFECYCLE_INTERVAL, LifecycleActions, LifecycleExecutor } from "./Lifecycle.js"
import { nextStartAt } from "./Schedule.js"
import { type WorkspacePatch, WorkspaceRepo } from "./Workspace.js"
import { WorkspaceBuilds, workspaceResource } from "./WorkspaceBuilds.js"
import { auditedWorkspace } from "./Workspaces.js"

export const lifecycleActionsLayer = Layer.effect(
  LifecycleActions,
  Effect.gen(function*() {
    const workspaces = yield* WorkspaceRepo
    const buildService = yield* WorkspaceBuilds
    const versions = yield* TemplateVersionRepo
    const tx = yield* Transactions
    const auditEntries = yield* AuditEntries
    const ids = yield* IdGenerator
    const pubsub = yield* PubSub
    const events = yield* Events

    return LifecycleActions.of({
      apply: (candidate, decision, now) =>
        Effect.gen(function*() {
          const { latestBuild, template, workspace } = candidate
          const audit = newAuditRequest(decision.build === null ? "workspace" : "workspace_build", "write")
          audit.userId = workspace.owner_id
          const patch: WorkspacePatch = {
            ...decision.patch,
            ...(decision.rule === "autostart" ? { next_start_at: nextStartAt(workspace, template, now) } : {}),
            updated_at: now
          }
          // An autostart onto the template's active version, when the workspace was on another one.
          let updatedTo: TemplateVersionRecord | undefined
          const work = Effect.gen(function*() {
            if (decision.build === null) {
              const updated = yield* Effect.orDie(workspaces.update(workspace.id, patch))
              if (Option.isSome(updated)) {
                yield* auditResource(
                  workspaceResource(updated.value),
                  auditedWorkspace(workspace),
                  auditedWorkspace(updated.value)
                )
              }
              return
            }
            const build = decision.build
            const versionId = build.activeVersion ? template.active_version_id : latestBuild.template_version_id
            const version = Option.getOrUndefined(yield* versions.findById(versionId))
            if (version === undefined) return yield* Effect.fail(`template version ${versionId} is missing`)
            if (build.activeVersion && version.id !== latestBuild.template_version_id) updatedTo = version
            const importJob = yield* buildService.importedVersion(version)
            const parameters = yield* buildService.parametersFor(
              version,
              [],
              latestBuild,
              undefined,
              workspace.owner_id
            )
            const queued = yield* tx.atomic(Effect.gen(function*() {
              yield* Effect.orDie(workspaces.update(workspace.id, patch))
              return yield* buildService.queue({
                workspace,
                template,
                version,
                previous: latestBuild,
                transition: build.transition,
                parameters,
                initiatorId: workspace.owner_id,
                reason: build.reason,
                presetId: latestBuild.template_version_preset_id,
                orphan: false,
                importJob
              })
            }))
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
            audit.action = build.transition
            yield* auditAdditional({
              build_number: String(queued.build.build_number),
              build_reason: build.reason,
              workspace_name: workspace.name,
              workspace_id: workspace.id
            })
          })
          yield* Effect.provideService(work, AuditRequest, audit)
          yield* Effect.provideService(publishWorkspaceChange(workspace.id), PubSub, pubsub)
          yield* writeAuditEntry(audit, {
            requestId: yield* ids.uuid,
            ip: "",
            userAgent: "lifecycle-executor",
            statusCode: 200
          })
            .pipe(Effect.provideService(AuditEntries, auditEntries), Effect.provideService(IdGenerator, ids))
          if (decision.rule === "dormancy") {
            yield* events.publish(
              new WorkspaceDormant({ workspace, timeTilDeleteMs: template.time_til_dormant_autodelete_ms })
            )
          }
          if (updatedTo !== undefined) {
            yield* events.publish(new WorkspaceAutoUpdated({ workspace, version: updatedTo }))
          }
        })
    })
  })
)

/** Options of the lifecycle executor's background work. */
export interface LifecycleOptions {
  /** Time between ticks. Default one minute (the described system's `autobuild_poll_interval`). */
  readonly interval?: Duration.DurationInput | undefined
}

/** A layer whose fiber ticks the lifecycle executor every `interval` until its scope closes; a failed tick is logged. */
export const lifecycleExecutorPeriodic = (
  options: LifecycleOptions = {}
): Layer.Layer<never, never, LifecycleExecutor> =>
  Layer.scopedDiscard(
    Effect.flatMap(LifecycleExecutor, (executor) =>
      Effect.forkScoped(executor.run(options.interval ?? DEFAULT_LIFECYCLE_INTERVAL, (stats) =>
        Object.keys(stats.errors).length > 0
          ? Effect.logWarning("lifecycle tick: some transitions failed", stats.errors)
          : Effect.void)))
  )
