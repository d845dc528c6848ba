/**
 * Workspace agents as the agents routes see them: the agent with what it belongs to (its
 * resource, build and workspace), its token, and the repository port. The stored agent record
 * itself is made with its build (`WorkspaceAgentRecord` in workspaces/WorkspaceBuild.ts).
 */
import { Context, type Effect, type Option } from "effect"
import { createHash, randomUUID } from "node:crypto"
import type { WorkspaceRecord } from "../workspaces/Workspace.js"
import type {
  WorkspaceAgentRecord,
  WorkspaceBuildSummary,
  WorkspaceResourceRecord
} from "../workspaces/WorkspaceBuild.js"

/**
 * A new agent token: a random UUID (122 random bits), the form the described system's agents
 * present. API keys have the form `<id>-<secret>` of other lengths, so the two never mix.
 */
export const newAgentToken = (): string => randomUUID()

/** Whether `token` has an agent token's form. */
export const isAgentToken = (token: string): boolean =>
  token.length === 36 && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(token)

/** The SHA-256 (hex) of an agent token: all that is stored of it. */
export const hashAgentToken = (token: string): string => createHash("sha256").update(token.toLowerCase()).digest("hex")

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
  /** Replaces an agent's token hash (the previous token stops working). */
  readonly setTokenHash: (agentId: string, hash: string, now: Date) => Effect.Effect<void>
}>() {}

/**
 * How often an open agent connection refreshes its agent's `last_connected_at` (the described
 * system's `AgentConnectionUpdateFrequency`): at most one write per connection per period, however
 * often the agent sends heartbeats.
 */
export const AGENT_CONNECTION_UPDATE_SECONDS = 15

/**
 * How long after its last refresh an agent counts as disconnected when its connection vanished
 * without a close (the described system's `AgentInactiveDisconnectTimeout`, twice the update period).
 */
export const AGENT_INACTIVE_DISCONNECT_SECONDS = 2 * AGENT_CONNECTION_UPDATE_SECONDS
