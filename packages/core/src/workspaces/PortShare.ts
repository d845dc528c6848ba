/**
 * Port shares: a workspace agent's port opened to more than the workspace's owner. The wire
 * records (the spec's Port share), the stored record, the level rules and the repository port.
 * Rules live in the PortShares service.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import { PortShareLevel } from "../templates/TemplateWire.js"

/** A level of the spec's set (`owner`, `authenticated`, `organization`, `public`). */
export type PortShareLevelValue = typeof PortShareLevel.Type

/** Levels from the narrowest to the widest: a template's maximum allows itself and every level before it. */
export const portShareLevelOrder: ReadonlyArray<PortShareLevelValue> = [
  "owner",
  "organization",
  "authenticated",
  "public"
]

/**
 * Levels a share may be given. `owner` is the level of a port nobody shares: the share is
 * deleted instead (as the described system refuses `owner` on upsert).
 */
export const shareableLevels = ["authenticated", "organization", "public"] as const
export type ShareableLevel = typeof shareableLevels[number]

export const PortShareProtocol = Schema.Literal("http", "https")
export type PortShareProtocol = typeof PortShareProtocol.Type

/** The lowest port that may be shared (the described system's bound) and the highest. */
export const MIN_SHARED_PORT = 9
export const MAX_SHARED_PORT = 65535

/**
 * Whether `level` may be set on a workspace whose template allows at most `max`. An unknown
 * maximum allows nothing beyond `owner`.
 */
export const portShareLevelAllowed = (level: PortShareLevelValue, max: string): boolean => {
  const limit = portShareLevelOrder.indexOf(max as PortShareLevelValue)
  return portShareLevelOrder.indexOf(level) <= Math.max(limit, 0)
}

/** The levels above `max`, which a template with that maximum no longer allows. */
export const portShareLevelsAbove = (max: PortShareLevelValue): ReadonlyArray<PortShareLevelValue> =>
  portShareLevelOrder.slice(portShareLevelOrder.indexOf(max) + 1)

/** A shared port as the API answers it (codersdk `WorkspaceAgentPortShare`). */
export class WorkspaceAgentPortShare extends Schema.Class<WorkspaceAgentPortShare>("WorkspaceAgentPortShare")({
  workspace_id: Schema.UUID,
  agent_name: Schema.String,
  port: Schema.Int,
  share_level: PortShareLevel,
  protocol: PortShareProtocol
}) {}

/** A workspace's shared ports (codersdk `WorkspaceAgentPortShares`). */
export class WorkspaceAgentPortShares extends Schema.Class<WorkspaceAgentPortShares>("WorkspaceAgentPortShares")({
  shares: Schema.Array(WorkspaceAgentPortShare)
}) {}

/** A stored port share, keyed by workspace, agent name and port. */
export interface PortShareRecord {
  readonly workspace_id: string
  readonly agent_name: string
  readonly port: number
  readonly share_level: PortShareLevelValue
  readonly protocol: PortShareProtocol
}

export class PortShareRepo extends Context.Tag("@workbay/core/PortShareRepo")<PortShareRepo, {
  /** The workspace's shares, by port then agent name. */
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<PortShareRecord>>
  readonly find: (workspaceId: string, agentName: string, port: number) => Effect.Effect<Option.Option<PortShareRecord>>
  /** Creates the share, or sets the level and protocol of the existing one (one statement); answers it as stored. */
  readonly upsert: (share: PortShareRecord) => Effect.Effect<PortShareRecord>
  /** Whether a share was there to delete. */
  readonly delete: (workspaceId: string, agentName: string, port: number) => Effect.Effect<boolean>
  /**
   * Brings the shares of every workspace of the template (deleted ones too) within `max`: a share
   * above it is set to `max`, or deleted when `max` is `owner` (a port nobody shares has no row).
   * Answers how many shares changed.
   */
  readonly lowerToTemplateMax: (templateId: string, max: PortShareLevelValue) => Effect.Effect<number>
  /** Whether the workspace's latest build (highest build number) made an agent of that name. */
  readonly latestBuildHasAgent: (workspaceId: string, agentName: string) => Effect.Effect<boolean>
}>() {}

/** The wire form of a stored share. */
export const toPortShare = (s: PortShareRecord): WorkspaceAgentPortShare =>
  new WorkspaceAgentPortShare({
    workspace_id: s.workspace_id,
    agent_name: s.agent_name,
    port: s.port,
    share_level: s.share_level,
    protocol: s.protocol
  }, true)
