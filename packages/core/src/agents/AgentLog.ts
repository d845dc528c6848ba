/**
 * An agent log line: its levels, the stored record and the wire record. The service that stores,
 * reads and follows the lines is `Logs.ts`.
 */
import { Schema } from "effect"

/** The log levels of the described system. */
export const agentLogLevels = ["trace", "debug", "info", "warn", "error"] as const
export type AgentLogLevel = (typeof agentLogLevels)[number]

/** A stored agent log line; ids grow per deployment. */
export interface AgentLogRecord {
  readonly id: number
  readonly agent_id: string
  readonly created_at: Date
  readonly output: string
  readonly level: AgentLogLevel
  readonly log_source_id: string
}

export type NewAgentLog = Omit<AgentLogRecord, "id" | "agent_id">

/** An agent log line as the API answers it (codersdk `WorkspaceAgentLog`). */
export class WorkspaceAgentLog extends Schema.Class<WorkspaceAgentLog>("WorkspaceAgentLog")({
  id: Schema.Int,
  created_at: Schema.Date,
  output: Schema.String,
  level: Schema.Literal(...agentLogLevels),
  source_id: Schema.UUID
}) {}

export const toAgentLog = (r: AgentLogRecord): WorkspaceAgentLog =>
  new WorkspaceAgentLog({
    id: r.id,
    created_at: r.created_at,
    output: r.output,
    level: r.level,
    source_id: r.log_source_id
  }, true)
