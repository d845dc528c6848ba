/**
 * The notifications the areas' events enqueue, with the described system's labels and
 * recipients (docs/notifications.md, "Events"). The areas publish their events (core `Events.ts`,
 * each area's `Events.ts`); `NotificationListener` subscribes and turns each into its notifications,
 * so no area names notifications.
 */
import { Effect, Layer, Option } from "effect"
import { TaskAppStateChanged } from "../agents/Events.js"
import { type DomainEvent, Events } from "../Events.js"
import { PREBUILDS_USER_ID } from "../Identity.js"
import { OrganizationRepo } from "../organizations/Repositories.js"
import { ProvisionerJobsHung } from "../provisioners/Events.js"
import { TaskRepo } from "../tasks/Task.js"
import {
  DormantWorkspacesRedated,
  TemplateDeleted,
  TemplateDeprecated,
  TemplateVersionImportFailed
} from "../templates/Events.js"
import { type TemplateRecord, TemplateRepo } from "../templates/Template.js"
import { type TemplateVersionRecord, TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { OneTimePasscodeRequested, UserAccountCreated, UserAccountDeleted, UserStatusChanged } from "../users/Events.js"
import { UserRepo } from "../users/Repositories.js"
import type { UserRecord } from "../users/User.js"
import {
  PrebuildPresetHardLimited,
  WorkspaceAutoUpdated,
  WorkspaceBuildEnded,
  WorkspaceCreated,
  WorkspaceDormant,
  WorkspaceManuallyUpdated,
  WorkspaceOutOfQuota
} from "../workspaces/Events.js"
import { type WorkspaceRecord, WorkspaceRepo } from "../workspaces/Workspace.js"
import { type WorkspaceBuildRecord, WorkspaceBuildRepo } from "../workspaces/WorkspaceBuild.js"
import { NotificationQueue } from "./NotificationQueue.js"
import { TemplateIds } from "./NotificationTemplate.js"

/** Who hears of templates and of manual builds that failed (the described system's template admins). */
const TEMPLATE_ADMIN_ROLES: ReadonlyArray<string> = ["owner", "template-admin"]

/** Who hears of accounts created, deleted, suspended and activated (the described system's user admins). */
const USER_ADMIN_ROLES: ReadonlyArray<string> = ["owner", "user-admin"]

/** Build reasons of the lifecycle executor (the described system's autobuilds). */
const AUTOBUILD_REASONS: ReadonlySet<string> = new Set([
  "autostart",
  "autostop",
  "dormancy",
  "failedstop",
  "autodelete"
])

const usernameOf = (id: string) =>
  Effect.flatMap(UserRepo, (users) => users.findById(id)).pipe(
    Effect.map(Option.match({ onNone: () => "", onSome: (u) => u.username }))
  )

/** A user's name as the described system's labels give it: the display name, else the username. */
const displayNameOf = (id: string) =>
  Effect.flatMap(UserRepo, (users) => users.findById(id)).pipe(
    Effect.map(Option.match({ onNone: () => "", onSome: (u) => u.name || u.username }))
  )

const organizationNameOf = (id: string) =>
  Effect.flatMap(OrganizationRepo, (orgs) => orgs.findById(id)).pipe(
    Effect.map(Option.match({ onNone: () => "", onSome: (o) => o.name }))
  )

/** Logs instead of failing: a notification is never the event's failure. */
const logged = (what: string) => <R>(effect: Effect.Effect<void, unknown, R>): Effect.Effect<void, never, R> =>
  effect.pipe(Effect.catchAllCause((cause) => Effect.logWarning(`${what} notification not enqueued`, cause)))

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
      if (build.transition === "stop" && build.reason === "autostop") {
        yield* queue.notify({
          templateId: TemplateIds.workspaceAutostopped,
          userId: workspace.owner_id,
          labels: { name: workspace.name, reason: "its autostop schedule" },
          targets,
          createdBy: "lifecycle"
        })
        return
      }
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
    // The prebuilds reconciler's failed builds back off and are retried; template admins are not told each time.
    if (build.reason !== "initiator" || build.initiator_id === PREBUILDS_USER_ID) return
    const template = Option.getOrUndefined(
      yield* Effect.flatMap(TemplateRepo, (r) => r.findById(workspace.template_id))
    )
    const version = Option.getOrUndefined(
      yield* Effect.flatMap(TemplateVersionRepo, (r) => r.findById(build.template_version_id))
    )
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

/**
 * A preset reached the prebuilds' failure hard limit: the template admins hear of it (the described
 * system's "Prebuild Failure Limit Reached", its labels `org`, `template`, `template_version`,
 * `preset`). The reconciler publishes it once per preset.
 */
export const notifyPrebuildHardLimited = (
  template: TemplateRecord,
  version: TemplateVersionRecord,
  presetName: string
): Effect.Effect<void, never, NotificationQueue | OrganizationRepo> =>
  Effect.gen(function*() {
    const queue = yield* NotificationQueue
    yield* queue.notifyRoles(TEMPLATE_ADMIN_ROLES, {
      templateId: TemplateIds.prebuildFailureLimitReached,
      labels: {
        org: yield* organizationNameOf(template.organization_id),
        template: template.name,
        template_version: version.name,
        preset: presetName
      },
      targets: [template.id, version.id],
      createdBy: "prebuilds"
    })
  }).pipe(logged("Prebuild failure limit"))

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
        ...(timeTilDeleteMs > 0
          ? {
            timeTilDormant: humanDuration(timeTilDeleteMs),
            dormancyHours: String(Math.round(timeTilDeleteMs / 3_600_000))
          }
          : {})
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

/**
 * A start build was refused for quota (Workbay's own template): the workspace's owner hears what
 * it would cost and what remains of their budget.
 */
export const notifyOutOfQuota = (
  workspace: WorkspaceRecord,
  cost: number,
  remaining: number
): Effect.Effect<void, never, NotificationQueue | OrganizationRepo> =>
  Effect.gen(function*() {
    const queue = yield* NotificationQueue
    yield* queue.notify({
      templateId: TemplateIds.workspaceOutOfQuota,
      userId: workspace.owner_id,
      labels: {
        name: workspace.name,
        cost: String(cost),
        budget: String(Math.max(0, remaining)),
        organization: yield* organizationNameOf(workspace.organization_id)
      },
      targets: [workspace.id, workspace.template_id],
      createdBy: "workspace_builds"
    })
  }).pipe(logged("Out of quota"))

/**
 * Someone built a workspace with another template version than its last build's (POST
 * /workspaces/{workspace}/builds): the template admins hear of it, but the initiator, as the
 * described system tells them.
 */
export const notifyManuallyUpdated = (
  workspace: WorkspaceRecord,
  template: TemplateRecord,
  version: TemplateVersionRecord,
  initiatorId: string
): Effect.Effect<void, never, NotificationQueue | UserRepo | OrganizationRepo> =>
  Effect.gen(function*() {
    const queue = yield* NotificationQueue
    yield* queue.notifyRoles(TEMPLATE_ADMIN_ROLES, {
      templateId: TemplateIds.workspaceManuallyUpdated,
      labels: {
        organization: yield* organizationNameOf(workspace.organization_id),
        initiator: yield* displayNameOf(initiatorId),
        workspace: workspace.name,
        workspace_owner_username: yield* usernameOf(workspace.owner_id),
        template: template.name,
        version: version.name
      },
      data: {
        workspace: { id: workspace.id, name: workspace.name },
        template: { id: template.id, name: template.name },
        template_version: { id: version.id, name: version.name }
      },
      targets: [workspace.id, workspace.owner_id, template.id, workspace.organization_id],
      createdBy: "workspace_builds"
    }, initiatorId)
  }).pipe(logged("Workspace updated"))

/** An autostart moved the workspace to the template's active version: its owner hears of it. */
export const notifyAutoUpdated = (
  workspace: WorkspaceRecord,
  version: TemplateVersionRecord
): Effect.Effect<void, never, NotificationQueue> =>
  Effect.flatMap(NotificationQueue, (queue) =>
    queue.notify({
      templateId: TemplateIds.workspaceAutoUpdated,
      userId: workspace.owner_id,
      labels: { name: workspace.name, template_version_name: version.name, template_version_message: version.message },
      targets: [workspace.id, workspace.template_id],
      createdBy: "lifecycle"
    }))

/**
 * A template's autodelete time changed and its dormant workspaces got (new) deletion times: each
 * owner hears of it, as the described system tells them.
 */
export const notifyMarkedForDeletion = (
  workspaceIds: ReadonlyArray<string>,
  autodeleteMs: number
): Effect.Effect<void, never, NotificationQueue | WorkspaceRepo> =>
  Effect.gen(function*() {
    if (autodeleteMs <= 0 || workspaceIds.length === 0) return
    const queue = yield* NotificationQueue
    const found = yield* Effect.flatMap(WorkspaceRepo, (r) => r.findByIds(workspaceIds))
    yield* Effect.forEach(found, (workspace) =>
      queue.notify({
        templateId: TemplateIds.workspaceMarkedForDeletion,
        userId: workspace.owner_id,
        labels: {
          name: workspace.name,
          reason: "an update to the template's dormancy",
          timeTilDormant: humanDuration(autodeleteMs)
        },
        targets: [workspace.id, workspace.template_id],
        createdBy: "templates"
      }), { discard: true })
  }).pipe(logged("Marked for deletion"))

/** A template was deprecated: each owner of one of its workspaces hears of it, as the described system tells them. */
export const notifyTemplateDeprecated = (
  template: TemplateRecord,
  message: string
): Effect.Effect<void, never, NotificationQueue | WorkspaceRepo | OrganizationRepo> =>
  Effect.gen(function*() {
    const queue = yield* NotificationQueue
    const owners = yield* Effect.flatMap(WorkspaceRepo, (r) => r.ownerIdsByTemplate(template.id))
    const organization = yield* organizationNameOf(template.organization_id)
    yield* Effect.forEach(owners, (userId) =>
      queue.notify({
        templateId: TemplateIds.templateDeprecated,
        userId,
        labels: { template: template.name, message, organization },
        targets: [template.id],
        createdBy: "templates"
      }), { discard: true })
  }).pipe(logged("Template deprecated"))

/** A template version's import failed (Workbay's own template): who created the version hears of it. */
export const notifyVersionImportFailed = (
  jobId: string,
  error: string
): Effect.Effect<void, never, NotificationQueue | TemplateVersionRepo | TemplateRepo | OrganizationRepo> =>
  Effect.gen(function*() {
    const version = Option.getOrUndefined(yield* Effect.flatMap(TemplateVersionRepo, (r) => r.findByJobId(jobId)))
    if (version === undefined) return
    const template = version.template_id === null
      ? undefined
      : Option.getOrUndefined(yield* Effect.flatMap(TemplateRepo, (r) => r.findById(version.template_id!)))
    const organization = yield* organizationNameOf(version.organization_id)
    yield* Effect.flatMap(NotificationQueue, (queue) =>
      queue.notify({
        templateId: TemplateIds.templateVersionBuildFailed,
        userId: version.created_by,
        labels: {
          template_version_name: version.name,
          template_name: template?.name ?? "",
          organization,
          reason: error
        },
        targets: template === undefined ? [version.id] : [version.id, template.id],
        createdBy: "template_versions"
      }))
  }).pipe(logged("Template version build failed"))

/**
 * Jobs the hang detector failed: a workspace build among them is notified as a build that failed
 * with the detector's error (its owner hears of a failed autobuild, the template admins of a
 * failed manual one).
 */
export const notifyJobsFailed = (
  jobIds: ReadonlyArray<string>,
  error: string
): Effect.Effect<
  void,
  never,
  | NotificationQueue
  | UserRepo
  | TemplateRepo
  | TemplateVersionRepo
  | WorkspaceRepo
  | WorkspaceBuildRepo
  | OrganizationRepo
> =>
  Effect.forEach(jobIds, (jobId) =>
    Effect.gen(function*() {
      const build = Option.getOrUndefined(yield* Effect.flatMap(WorkspaceBuildRepo, (r) => r.findByJobId(jobId)))
      if (build === undefined) return yield* notifyVersionImportFailed(jobId, error)
      const workspace = Option.getOrUndefined(
        yield* Effect.flatMap(WorkspaceRepo, (r) => r.findById(build.workspace_id))
      )
      if (workspace !== undefined) yield* notifyBuildEnded(workspace, build, error)
    }).pipe(logged("Failed job")), { discard: true })

/** A workspace created: the template admins hear of it (as the described system's). */
const notifyWorkspaceCreated = (
  w: WorkspaceRecord,
  templateName: string,
  versionName: string
): Effect.Effect<void, never, NotificationQueue | UserRepo> =>
  Effect.gen(function*() {
    const owner = Option.getOrUndefined(yield* Effect.flatMap(UserRepo, (users) => users.findById(w.owner_id)))
    const queue = yield* NotificationQueue
    yield* queue.notifyRoles(TEMPLATE_ADMIN_ROLES, {
      templateId: TemplateIds.workspaceCreated,
      labels: {
        workspace: w.name,
        template: templateName,
        version: versionName,
        workspace_owner_username: owner?.username ?? ""
      },
      targets: [w.id, w.template_id],
      createdBy: "workspaces"
    })
  })

/** A template deleted: the template admins hear of it, but who deleted it. */
const notifyTemplateDeleted = (
  template: TemplateRecord,
  initiatorId: string,
  initiator: string
): Effect.Effect<void, never, NotificationQueue> =>
  Effect.flatMap(NotificationQueue, (queue) =>
    queue.notifyRoles(TEMPLATE_ADMIN_ROLES, {
      templateId: TemplateIds.templateDeleted,
      labels: { name: template.name, initiator },
      targets: [template.id],
      createdBy: "templates"
    }, initiatorId))

/** An account created or deleted: its user admins hear of it, but the account itself. */
const notifyAccount = (
  templateId: string,
  prefix: "created" | "deleted",
  user: UserRecord,
  initiator: string
): Effect.Effect<void, never, NotificationQueue> =>
  Effect.flatMap(NotificationQueue, (queue) =>
    queue.notifyRoles(USER_ADMIN_ROLES, {
      templateId,
      labels: {
        [`${prefix}_account_name`]: user.username,
        [`${prefix}_account_user_name`]: user.name,
        initiator
      },
      targets: [user.id],
      createdBy: "users"
    }, user.id))

/** An account suspended or activated: its user admins are told, and the user. */
const notifyStatus = (user: UserRecord, by: string): Effect.Effect<void, never, NotificationQueue> =>
  Effect.flatMap(NotificationQueue, (queue) => {
    const suspended = user.status === "suspended"
    const prefix = suspended ? "suspended" : "activated"
    return Effect.zipRight(
      queue.notifyRoles(USER_ADMIN_ROLES, {
        templateId: suspended ? TemplateIds.userAccountSuspended : TemplateIds.userAccountActivated,
        labels: {
          [`${prefix}_account_name`]: user.username,
          [`${prefix}_account_user_name`]: user.name,
          initiator: by
        },
        targets: [user.id],
        createdBy: "users"
      }, user.id),
      queue.notify({
        templateId: suspended ? TemplateIds.yourAccountSuspended : TemplateIds.yourAccountActivated,
        userId: user.id,
        labels: { [`${prefix}_account_name`]: user.username, initiator: by },
        targets: [user.id],
        createdBy: "users"
      })
    )
  })

/** What the listener needs: the queue and the records its labels name. */
type ListenerServices =
  | NotificationQueue
  | UserRepo
  | TemplateRepo
  | TemplateVersionRepo
  | WorkspaceRepo
  | WorkspaceBuildRepo
  | OrganizationRepo
  | TaskRepo

/** The notifications of one event of an area (none for events it does not know). */
export const notificationsOf = (event: DomainEvent): Effect.Effect<void, never, ListenerServices> => {
  if (event instanceof WorkspaceCreated) {
    return notifyWorkspaceCreated(event.workspace, event.templateName, event.versionName)
  }
  if (event instanceof WorkspaceBuildEnded) return notifyBuildEnded(event.workspace, event.build, event.error)
  if (event instanceof WorkspaceOutOfQuota) return notifyOutOfQuota(event.workspace, event.cost, event.remaining)
  if (event instanceof WorkspaceManuallyUpdated) {
    return notifyManuallyUpdated(event.workspace, event.template, event.version, event.initiatorId)
  }
  if (event instanceof WorkspaceAutoUpdated) return notifyAutoUpdated(event.workspace, event.version)
  if (event instanceof WorkspaceDormant) return notifyDormant(event.workspace, event.timeTilDeleteMs)
  if (event instanceof PrebuildPresetHardLimited) {
    return notifyPrebuildHardLimited(event.template, event.version, event.presetName)
  }
  if (event instanceof ProvisionerJobsHung) return notifyJobsFailed(event.jobIds, event.error)
  if (event instanceof TemplateVersionImportFailed) return notifyVersionImportFailed(event.jobId, event.error)
  if (event instanceof DormantWorkspacesRedated) {
    return notifyMarkedForDeletion(event.workspaceIds, event.autodeleteMs)
  }
  if (event instanceof TemplateDeprecated) return notifyTemplateDeprecated(event.template, event.message)
  if (event instanceof TemplateDeleted) return notifyTemplateDeleted(event.template, event.initiatorId, event.initiator)
  if (event instanceof TaskAppStateChanged) return notifyTaskState(event.workspace, event.state)
  if (event instanceof UserAccountCreated) {
    return notifyAccount(TemplateIds.userAccountCreated, "created", event.user, event.initiator)
  }
  if (event instanceof UserAccountDeleted) {
    return notifyAccount(TemplateIds.userAccountDeleted, "deleted", event.user, event.initiator)
  }
  if (event instanceof UserStatusChanged) return notifyStatus(event.user, event.initiator)
  if (event instanceof OneTimePasscodeRequested) {
    return Effect.flatMap(NotificationQueue, (queue) =>
      queue.notify({
        templateId: TemplateIds.oneTimePasscode,
        userId: event.userId,
        labels: { one_time_passcode: event.passcode, expires_in: event.expiresIn },
        createdBy: "auth"
      }))
  }
  return Effect.void
}

/** Subscribes the notifications to the areas' events, with the services it was built with. */
export const NotificationListener: Layer.Layer<never, never, Events | ListenerServices> = Layer.effectDiscard(
  Effect.gen(function*() {
    const events = yield* Events
    const context = yield* Effect.context<ListenerServices>()
    yield* events.subscribe((event) => Effect.provide(notificationsOf(event), context))
  })
)
