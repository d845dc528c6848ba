/**
 * Workspaces used through their agents (docs/workspaces.md, "Extend, ttl, activity"): an agent
 * whose stats report open sessions (the described system's ActivityBumpWorkspace) moves its
 * workspace's `last_used_at` and bumps its running build's deadline by the `activityBump` rule.
 * Many workspaces are taken at once (the agents' reports of one flush, agents/ReportBatch.ts):
 * one read of them all, one write of them all, and one change signal naming the bumped ones.
 */
import { Context, Effect } from "effect"
import { PubSub } from "../PubSub.js"
import type { TemplateRecord } from "../templates/Template.js"
import { span } from "../Tracing.js"
import { publishWorkspaceChanges } from "../WorkspaceChannel.js"
import { activityBump } from "./Schedule.js"
import type { WorkspaceRecord } from "./Workspace.js"
import type { WorkspaceBuildRecord } from "./WorkspaceBuild.js"

/** What the bump rule reads of a used workspace: the workspace, its template and its latest build. */
export interface ActivityCandidate {
  readonly workspace: Pick<WorkspaceRecord, "id" | "ttl_ms" | "autostart_schedule">
  readonly template: Pick<
    TemplateRecord,
    "activity_bump_ms" | "allow_user_autostop" | "default_ttl_ms" | "autostart_requirement_days_of_week"
  >
  readonly build: Pick<WorkspaceBuildRecord, "id" | "transition" | "deadline" | "max_deadline">
  /** Whether the latest build's job succeeded. */
  readonly jobCompleted: boolean
}

/** A bumped deadline: the build's new one. */
export interface DeadlineBump {
  readonly workspace_id: string
  readonly build_id: string
  readonly deadline: Date
}

export class WorkspaceActivityRepo extends Context.Tag("@workbay/core/WorkspaceActivityRepo")<WorkspaceActivityRepo, {
  /** The undeleted workspaces among `workspaceIds`, each with its template and latest build (one read). */
  readonly candidates: (workspaceIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ActivityCandidate>>
  /**
   * In one transaction: `last_used_at` = `at` on each of `workspaceIds` (never earlier than it
   * was), and each bump's deadline when it is later than the build's (a deadline moved meanwhile
   * by someone else is kept when later), with the lifecycle mark a deadline change takes.
   * Answers the workspaces whose deadline moved. A bounded number of statements, not one per
   * workspace.
   */
  readonly recordUse: (
    workspaceIds: ReadonlyArray<string>,
    bumps: ReadonlyArray<DeadlineBump>,
    at: Date
  ) => Effect.Effect<ReadonlyArray<string>>
}>() {}

/** The deadline bumps of `candidates` used at `now` (the `activityBump` rule, workspace by workspace). */
export const deadlineBumps = (candidates: ReadonlyArray<ActivityCandidate>, now: Date): Array<DeadlineBump> => {
  const bumps: Array<DeadlineBump> = []
  for (const c of candidates) {
    const deadline = activityBump({
      now,
      build: c.build,
      jobCompleted: c.jobCompleted,
      workspace: c.workspace,
      template: c.template
    })
    if (deadline !== null) bumps.push({ workspace_id: c.workspace.id, build_id: c.build.id, deadline })
  }
  return bumps
}

export class WorkspaceActivity extends Effect.Service<WorkspaceActivity>()("@workbay/core/WorkspaceActivity", {
  effect: Effect.gen(function*() {
    const repo = yield* WorkspaceActivityRepo
    const pubsub = yield* PubSub

    /**
     * The workspaces `workspaceIds` were used at `at`: their `last_used_at` moves, their running
     * builds' deadlines are bumped, and the watchers of the bumped ones are told (one signal).
     * Answers the bumped workspaces.
     */
    const used = (workspaceIds: ReadonlyArray<string>, at: Date) =>
      Effect.gen(function*() {
        if (workspaceIds.length === 0) return []
        const candidates = yield* repo.candidates(workspaceIds)
        if (candidates.length === 0) return []
        const bumped = yield* repo.recordUse(
          candidates.map((c) => c.workspace.id),
          deadlineBumps(candidates, at),
          at
        )
        yield* Effect.provideService(publishWorkspaceChanges(bumped), PubSub, pubsub)
        return bumped
      }).pipe(span("WorkspaceActivity.used"))

    return { used } as const
  })
}) {}
