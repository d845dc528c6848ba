/**
 * The notifications the areas' events enqueue, with the described system's labels and
 * recipients, so the areas' services make one call each (docs/notifications.md, "Events").
 */
import { Effect, Option } from "effect"
import { TaskRepo } from "../tasks/Task.js"
import { TemplateRepo } from "../templates/Template.js"
import { TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { UserRepo } from "../users/Repositories.js"
import type { WorkspaceRecord } from "../workspaces/Workspace.js"
import type { WorkspaceBuildRecord } from "../workspaces/WorkspaceBuild.js"
import { NotificationQueue } from "./NotificationQueue.js"
import { TemplateIds } from "./NotificationTemplate.js"

/** Who hears of templates and of manual builds that failed (the described system's template admins). */
export const TEMPLATE_ADMIN_ROLES: ReadonlyArray<string> = ["owner", "template-admin"]

/** Build reasons of the lifecycle executor (the described system's autobuilds). */
const AUTOBUILD_REASONS: ReadonlySet<string> = new Set(["autostart", "autostop", "dormancy", "failedstop", "autodelete"])

const usernameOf = (id: string) =>
  Effect.flatMap(UserRepo, (users) => users.findById(id)).pipe(Effect.map(Option.match({ onNone: () => "", onSome: (u) => u.username })))

/**
 * A workspace build ended (`error` when it failed): a delete tells the owner (unless they deleted
 * it themselves); an automatic build that failed tells the owner; a manual one that failed tells
 * the template admins.
 */
export const notifyBuildEnded = (
  workspace: WorkspaceRecord,
  build: WorkspaceBuildRecord,
  error: string | undefined
): Effect.Effect<void, never, NotificationQueue | UserRepo | TemplateRepo | TemplateVersionRepo> =>
  Effect.gen(function*() {
    const queue = yield* NotificationQueue
    const targets = [workspace.id, workspace.template_id]
    if (error === undefined) {
      if (build.transition !== "delete") return
      if (build.reason === "initiator" && build.initiator_id === workspace.owner_id) return
      const autodeleted = build.reason === "autodelete" || build.reason === "dormancy"
      yield* queue.notify({
        templateId: TemplateIds.workspaceDeleted,
        userId: workspace.owner_id,
        labels: {
          name: workspace.name,
          reason: autodeleted ? "autodeleted due to dormancy" : "initiated by user",
          initiator: autodeleted ? "autobuild" : yield* usernameOf(build.initiator_id)
        },
        targets,
        createdBy: "workspace_builds"
      })
      return
    }
    if (AUTOBUILD_REASONS.has(build.reason)) {
      yield* queue.notify({
        templateId: TemplateIds.workspaceAutobuildFailed,
        userId: workspace.owner_id,
        labels: { name: workspace.name, reason: error },
        targets,
        createdBy: "lifecycle"
      })
      return
    }
    if (build.reason !== "initiator") return
    const template = Option.getOrUndefined(yield* Effect.flatMap(TemplateRepo, (r) => r.findById(workspace.template_id)))
    const version = Option.getOrUndefined(yield* Effect.flatMap(TemplateVersionRepo, (r) => r.findById(build.template_version_id)))
    yield* queue.notifyRoles(TEMPLATE_ADMIN_ROLES, {
      templateId: TemplateIds.workspaceManualBuildFailed,
      labels: {
        name: workspace.name,
        template_name: template?.name ?? "",
        template_version_name: version?.name ?? "",
        initiator: yield* usernameOf(build.initiator_id),
        workspace_owner_username: yield* usernameOf(workspace.owner_id),
        workspace_build_number: String(build.build_number)
      },
      targets,
      createdBy: "workspace_builds"
    })
  }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("Build notification not enqueued", cause)))

/** A span in the words the dormancy templates use: `24 hours`, `7 days`. */
export const humanDuration = (ms: number): string => {
  const hours = Math.round(ms / 3_600_000)
  if (hours < 48) return `${hours} ${hours === 1 ? "hour" : "hours"}`
  const days = Math.round(hours / 24)
  return `${days} days`
}

/** A workspace marked dormant by the lifecycle executor: its owner hears of it (and when it would be deleted). */
export const notifyDormant = (
  workspace: WorkspaceRecord,
  timeTilDeleteMs: number
): Effect.Effect<void, never, NotificationQueue> =>
  Effect.flatMap(NotificationQueue, (queue) =>
    queue.notify({
      templateId: TemplateIds.workspaceDormant,
      userId: workspace.owner_id,
      labels: {
        name: workspace.name,
        reason: "inactivity exceeding the dormancy threshold",
        initiator: "autobuild",
        ...(timeTilDeleteMs > 0 ? { timeTilDormant: humanDuration(timeTilDeleteMs), dormancyHours: String(Math.round(timeTilDeleteMs / 3_600_000)) } : {})
      },
      targets: [workspace.id, workspace.template_id],
      createdBy: "lifecycle"
    }))

/** The task template of an app state an AI agent reports. */
const taskTemplates: Readonly<Record<string, string>> = {
  working: TemplateIds.taskWorking,
  idle: TemplateIds.taskIdle,
  complete: TemplateIds.taskCompleted
}

/**
 * A task's app moved to another state (`working`, `idle`, `complete`): the task's owner hears
 * of it, as the described system tells them (Task Working is off unless they turn it on).
 */
export const notifyTaskState = (
  workspace: WorkspaceRecord,
  state: string
): Effect.Effect<void, never, NotificationQueue | TaskRepo> =>
  Effect.gen(function*() {
    const templateId = taskTemplates[state]
    if (templateId === undefined || workspace.task_id == null) return
    const task = Option.getOrUndefined(yield* Effect.flatMap(TaskRepo, (r) => r.findById(workspace.task_id!)))
    if (task === undefined) return
    yield* Effect.flatMap(NotificationQueue, (queue) =>
      queue.notify({
        templateId,
        userId: task.owner_id,
        labels: { task: task.name, workspace: workspace.name },
        targets: [task.id, workspace.id],
        createdBy: "tasks"
      }))
  }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("Task notification not enqueued", cause)))
