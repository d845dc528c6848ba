/**
 * Workspace agents as the agents routes see them: the agent with what it belongs to (its
 * resource, build and workspace), its token, and the repository port. The stored agent record
 * itself is made with its build (`WorkspaceAgentRecord` in workspaces/WorkspaceBuild.ts).
 */
import { Context, Effect, Option } from "effect"
import { type ProvisionerJobRecord, ProvisionerJobRepo } from "../provisioners/ProvisionerJob.js"
import type { SecretDecryptFailed } from "../SecretBox.js"
import type { WorkspaceRecord } from "../workspaces/Workspace.js"
import {
  type WorkspaceAgentRecord,
  WorkspaceBuildRepo,
  type WorkspaceBuildSummary,
  type WorkspaceResourceRecord
} from "../workspaces/WorkspaceBuild.js"

/** An agent with the resource, build and workspace it belongs to. */
export interface AgentInBuild {
  readonly agent: WorkspaceAgentRecord
  readonly resource: WorkspaceResourceRecord
  readonly build: WorkspaceBuildSummary
  readonly workspace: WorkspaceRecord
  /** The number of the workspace's latest build: the agent's token works only while it is `build`'s. */
  readonly latest_build_number: number
}

export class AgentRepo extends Context.Tag("@workbay/core/AgentRepo")<AgentRepo, {
  /** The agent whose token has this hash, with what it belongs to. */
  readonly findByTokenHash: (hash: string) => Effect.Effect<Option.Option<AgentInBuild>>
  /** The agent with this id, with what it belongs to. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<AgentInBuild>>
  /**
   * The agents running on a cloud instance: those with this `instance_id` in the latest build of
   * a non-deleted workspace, with what they belong to.
   */
  readonly findByInstanceId: (instanceId: string) => Effect.Effect<ReadonlyArray<AgentInBuild>>
  /**
   * Whether the agent still belongs to its workspace's latest build and the workspace is not
   * deleted (so its token works), and, with `tokenHash`, still has that token (not rotated): one
   * read, for the checks that run on every change signal.
   */
  readonly isCurrent: (id: string, tokenHash?: string) => Effect.Effect<boolean>
  /**
   * Replaces an agent's token hash (the previous token stops working); a kept token (see
   * `keptToken`) is dropped with it.
   */
  readonly setTokenHash: (agentId: string, hash: string, now: Date) => Effect.Effect<void>
  /**
   * The agent's kept token, opened: external agents keep theirs (sealed with the deployment's
   * keys, `workspace_agents.auth_token`) so that their credentials answer it again. None when the
   * agent keeps none; fails when it is sealed by a key no longer configured.
   */
  readonly keptToken: (agentId: string) => Effect.Effect<Option.Option<string>, SecretDecryptFailed>
  /** Replaces an agent's token with `token`: its hash for authentication, and the token itself kept, sealed. */
  readonly setKeptToken: (agentId: string, token: string, now: Date) => Effect.Effect<void>
}>() {}

/**
 * Whether the agent's build is the one just before a claim of its prebuilt workspace that has
 * not finished (docs/prebuilds.md, "Claiming"): the agent runs on for its new owner, so its token
 * keeps working until the claim's build hands it over to that build's agent (or fails).
 */
export const makeClaimInProgress = Effect.gen(function*() {
  const builds = yield* WorkspaceBuildRepo
  const jobs = yield* ProvisionerJobRepo
  const isClaim = (job: ProvisionerJobRecord) =>
    job.input.prebuilt_workspace_build_stage === "claim" && job.completed_at === null
  return (inBuild: AgentInBuild): Effect.Effect<boolean> =>
    inBuild.workspace.deleted || inBuild.latest_build_number !== inBuild.build.build_number + 1
      ? Effect.succeed(false)
      : Effect.gen(function*() {
        const next = yield* builds.findByNumber(inBuild.workspace.id, inBuild.latest_build_number)
        if (Option.isNone(next)) return false
        return Option.exists(yield* jobs.findById(next.value.job_id), isClaim)
      })
})
