/**
 * A workspace whose machine vanished outside any build: a Docker container removed by hand, say.
 * A provisioner's watcher reports it (`@workbay/docker`'s `containerRemovals`, which the standalone
 * server runs), and when the workspace's latest build is a succeeded start whose resources name
 * that machine (a resource metadata item, `container_id` for Docker), the workspace is stopped
 * with a stop build, as the lifecycle executor stops one (initiated as its owner, reason
 * `autostop`, audited): it shows `stopped` until its next start makes the machine again, instead
 * of `running` with an agent that never comes back. A removal by a build of Workbay's own (a stop,
 * a delete, a start replacing a left-over container) is never taken for one: then the latest
 * build is not a succeeded start naming that machine. Several replicas hearing the same removal
 * queue one stop: the builds service refuses a second build while one runs.
 */
import { Clock, Effect, Option } from "effect"
import { jobStatus, ProvisionerJobRepo } from "../provisioners/ProvisionerJob.js"
import { TemplateRepo } from "../templates/Template.js"
import { UserRepo } from "../users/Repositories.js"
import { LifecycleActions } from "./Lifecycle.js"
import { WorkspaceRepo } from "./Workspace.js"
import { WorkspaceBuildRepo, WorkspaceResourceRepo } from "./WorkspaceBuild.js"

/** What vanished: the workspace and the metadata item that names its machine in the build's resources. */
export interface VanishedMachine {
  readonly workspaceId: string
  /** `container_id` */
  readonly key: string
  /** The machine's id as the resource's metadata shows it (a container's first 12 hex digits). */
  readonly value: string
}

/** Stops the workspace when its running build's machine is the one that vanished: `true` when a stop was queued. */
export const stopVanishedMachine = (gone: VanishedMachine) =>
  Effect.gen(function*() {
    const workspaces = yield* WorkspaceRepo
    const builds = yield* WorkspaceBuildRepo
    const resources = yield* WorkspaceResourceRepo
    const jobs = yield* ProvisionerJobRepo
    const workspace = Option.getOrUndefined(yield* workspaces.findById(gone.workspaceId))
    if (workspace === undefined || workspace.deleted) return false
    const [latestBuild] = yield* builds.latestOf([workspace.id])
    if (latestBuild === undefined || latestBuild.transition !== "start") return false
    const job = Option.getOrUndefined(yield* jobs.findById(latestBuild.job_id))
    if (job === undefined || jobStatus(job) !== "succeeded") return false
    const made = yield* resources.listByJobs([job.id])
    const named = made.some((r) => r.resource.metadata.some((m) => m.key === gone.key && m.value === gone.value))
    if (!named) return false
    const template = Option.getOrUndefined(yield* (yield* TemplateRepo).findById(workspace.template_id))
    const owner = Option.getOrUndefined(yield* (yield* UserRepo).findById(workspace.owner_id))
    if (template === undefined || owner === undefined) return false
    const now = new Date(yield* Clock.currentTimeMillis)
    yield* Effect.logWarning(
      `workspace ${workspace.id}: its machine (${gone.key} ${gone.value}) was removed outside Workbay; stopping it`
    )
    yield* (yield* LifecycleActions).apply(
      { workspace, latestBuild, job, template, ownerStatus: owner.status, version: 0 },
      { rule: "autostop", build: { transition: "stop", reason: "autostop", activeVersion: false }, patch: {} },
      now
    )
    return true
  }).pipe(
    // Another build got there first (a replica heard it too, the owner stopped it): nothing to do.
    Effect.catchAll((e) => Effect.as(Effect.logDebug("vanished machine: not stopped", e), false)),
    Effect.withSpan("VanishedMachines.stop")
  )
