/**
 * The prebuilds user's workspaces as the reconciler and a claim read them (docs/prebuilds.md):
 * the undeleted ones (of one template, or all), each with its latest build and that build's job,
 * in three reads.
 */
import { Effect } from "effect"
import { type ProvisionerJobRecord, ProvisionerJobRepo } from "../provisioners/ProvisionerJob.js"
import { PREBUILDS_USER_ID, type WorkspaceRecord, WorkspaceRepo } from "./Workspace.js"
import type { WorkspaceBuildSummary } from "./WorkspaceBuild.js"

/** At most this many prebuilt workspaces are read at once. */
export const PREBUILDS_BATCH = 10_000

export interface PrebuiltWorkspaces<B extends WorkspaceBuildSummary> {
  readonly owned: ReadonlyArray<WorkspaceRecord>
  readonly latest: ReadonlyArray<B>
  readonly jobsById: ReadonlyMap<string, ProvisionerJobRecord>
}

/**
 * The reader, over the repositories: `latestOf` reads the latest builds (summaries, or whole
 * records when their parameter values matter).
 */
export const makePrebuiltWorkspaces = Effect.gen(function*() {
  const workspaces = yield* WorkspaceRepo
  const jobs = yield* ProvisionerJobRepo
  return <B extends WorkspaceBuildSummary>(
    latestOf: (workspaceIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<B>>,
    templateId?: string
  ): Effect.Effect<PrebuiltWorkspaces<B>> =>
    Effect.gen(function*() {
      const { workspaces: owned } = yield* workspaces.list({
        visibility: { all: true, organizationIds: [], userId: PREBUILDS_USER_ID, groupIds: [] },
        requesterId: PREBUILDS_USER_ID,
        ownerIds: [PREBUILDS_USER_ID],
        ...(templateId === undefined ? {} : { templateIds: [templateId] }),
        deleted: false,
        limit: PREBUILDS_BATCH,
        offset: 0
      })
      const latest = owned.length === 0 ? [] : yield* latestOf(owned.map((w) => w.id))
      const jobsById = new Map((yield* jobs.findByIds(latest.map((b) => b.job_id))).map((j) => [j.id, j]))
      return { owned, latest, jobsById }
    })
})
