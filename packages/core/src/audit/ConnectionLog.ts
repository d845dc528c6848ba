/**
 * The connection log: one entry per SSH-like session (connect, then the disconnect of the
 * same `connection_id` completes it) or per web request to a workspace app or forwarded
 * port. The wire form, the stored record and the repository port.
 */
import { Context, type Effect, Schema } from "effect"
import { type ConnectionType, connectionTypes } from "../agents/ConnectionEvents.js"
import { User } from "../users/User.js"
import { MinimalOrganization } from "./AuditLog.js"

/** A stored connection log entry. */
export interface ConnectionLogRecord {
  readonly id: string
  readonly connect_time: Date
  readonly organization_id: string
  readonly workspace_owner_id: string
  readonly workspace_id: string
  readonly workspace_name: string
  readonly agent_name: string
  readonly type: ConnectionType
  readonly ip: string
  /** Exit code of a finished session, or the HTTP status of a web connection. */
  readonly code: number | null
  readonly user_agent: string
  /** The user of a web connection (null when anonymous); null on session types. */
  readonly user_id: string | null
  readonly slug_or_port: string
  /** The session id that pairs connect and disconnect; null on web connections. */
  readonly connection_id: string | null
  readonly disconnect_time: Date | null
  readonly disconnect_reason: string
}

export interface ConnectionLogFilter {
  readonly limit: number
  readonly offset: number
  /** Organization ids the entry must belong to (a search term, or the caller's readable organizations). */
  readonly organizationIds?: ReadonlyArray<string> | undefined
  readonly workspaceOwnerId?: string | undefined
  /** Username of the workspace owner (case-insensitive). */
  readonly workspaceOwner?: string | undefined
  readonly workspaceOwnerEmail?: string | undefined
  readonly type?: ConnectionType | undefined
  /** Username of the user of a web connection (case-insensitive). */
  readonly username?: string | undefined
  readonly userEmail?: string | undefined
  readonly connectedAfter?: Date | undefined
  readonly connectedBefore?: Date | undefined
  readonly workspaceId?: string | undefined
  readonly connectionId?: string | undefined
  /** `ongoing`: sessions without a disconnect; `completed`: with one. Web connections match neither. */
  readonly status?: "ongoing" | "completed" | undefined
}

/** Stores connection log entries and answers searches over them. */
export class ConnectionLogRepo extends Context.Tag("@workbay/core/ConnectionLogRepo")<ConnectionLogRepo, {
  /**
   * Records an event. A `connected` event inserts the entry (a repeated one keeps the earlier
   * connect time); a `disconnected` event completes the entry of the same `(connection_id,
   * workspace_id, agent_name)` once (or inserts it, connected and disconnected at its time, when
   * the connect was never seen). Web entries (no connection id) are always inserted.
   */
  readonly upsert: (
    entry: ConnectionLogRecord,
    status: "connected" | "disconnected"
  ) => Effect.Effect<ConnectionLogRecord>
  /** Newest first. */
  readonly list: (filter: ConnectionLogFilter) => Effect.Effect<ReadonlyArray<ConnectionLogRecord>>
  /** The number of matching entries, counting at most `cap + 1`. */
  readonly count: (filter: ConnectionLogFilter, cap: number) => Effect.Effect<number>
  /** Deletes entries that connected before `before`; answers how many. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
}>() {}

/** Session details of an SSH-like entry; the disconnect fields are absent while it is ongoing. */
export class ConnectionLogSshInfo extends Schema.Class<ConnectionLogSshInfo>("ConnectionLogSSHInfo")({
  connection_id: Schema.UUID,
  disconnect_reason: Schema.optional(Schema.String),
  disconnect_time: Schema.optional(Schema.Date),
  exit_code: Schema.optional(Schema.Int)
}) {}

/** Request details of a web entry. */
export class ConnectionLogWebInfo extends Schema.Class<ConnectionLogWebInfo>("ConnectionLogWebInfo")({
  slug_or_port: Schema.String,
  status_code: Schema.Int,
  /** Null when the request was anonymous. */
  user: Schema.NullOr(User),
  user_agent: Schema.String
}) {}

/** A connection log entry as the API answers it. */
export class ConnectionLog extends Schema.Class<ConnectionLog>("ConnectionLog")({
  agent_name: Schema.String,
  connect_time: Schema.Date,
  id: Schema.UUID,
  ip: Schema.String,
  organization: MinimalOrganization,
  /** Only on ssh, vscode, jetbrains and reconnecting_pty entries. */
  ssh_info: Schema.optional(ConnectionLogSshInfo),
  type: Schema.Literal(...connectionTypes),
  /** Only on workspace_app and port_forwarding entries. */
  web_info: Schema.optional(ConnectionLogWebInfo),
  workspace_id: Schema.UUID,
  workspace_name: Schema.String,
  workspace_owner_id: Schema.UUID,
  workspace_owner_username: Schema.String
}) {}

/** A page of the connection log. */
export class ConnectionLogsPage extends Schema.Class<ConnectionLogsPage>("ConnectionLogResponse")({
  connection_logs: Schema.Array(ConnectionLog),
  /** Matching entries, counted up to `count_cap + 1`: a count above the cap means "more than count_cap". */
  count: Schema.Int,
  count_cap: Schema.Int
}) {}
