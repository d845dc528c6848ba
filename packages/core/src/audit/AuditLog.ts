/**
 * The audit log as stored and read: the entry record, its repository port and
 * search filter, the wire form and the vocabularies a search accepts. The write
 * side (the request-scoped collector) is shared machinery in `../Audit.ts`.
 */
import { Context, type Effect, Schema } from "effect"
import type { AuditAction, AuditLogRecord } from "../Audit.js"
import type { OrganizationRecord } from "../organizations/Organization.js"
import { User, type UserRecord } from "../users/User.js"

/** Stores audit entries and answers searches over them. */
export class AuditLogRepo extends Context.Tag("@workbay/core/AuditLogRepo")<AuditLogRepo, {
  readonly insert: (entry: AuditLogRecord) => Effect.Effect<void>
  readonly list: (filter: AuditLogFilter) => Effect.Effect<ReadonlyArray<AuditLogRecord>>
  /** The number of matching entries, counting at most `cap + 1`. */
  readonly count: (filter: AuditLogFilter, cap: number) => Effect.Effect<number>
  /** Deletes entries older than `before`; answers how many. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
  /**
   * The users with these ids, deleted ones included, in one query: the users a page of the
   * audit or connection log names.
   */
  readonly usersByIds: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<UserRecord>>
  /** The organizations with these ids that still exist, in one query. */
  readonly organizationsByIds: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<OrganizationRecord>>
}>() {}

export interface AuditLogFilter {
  readonly limit: number
  readonly offset: number
  readonly resourceType?: string | undefined
  readonly resourceId?: string | undefined
  readonly action?: string | undefined
  /** Exact resource target (a username, an organization name, a token name). */
  readonly resourceTarget?: string | undefined
  /** User ids the entry's user must be one of. */
  readonly userIds?: ReadonlyArray<string> | undefined
  /** The entry's user has this username (case-insensitive; deleted users included). */
  readonly username?: string | undefined
  /** The entry's user has this email (case-insensitive; deleted users included). */
  readonly email?: string | undefined
  /** Organization ids the entry must belong to (a search term, or the caller's readable organizations). */
  readonly organizationIds?: ReadonlyArray<string> | undefined
  readonly dateFrom?: Date | undefined
  /** Exclusive upper bound. */
  readonly dateTo?: Date | undefined
  readonly buildReason?: string | undefined
  readonly requestId?: string | undefined
}

/**
 * Audit resource types of the described system, the values `resource_type` may take in a search;
 * and `appearance`, Workbay's own (the described system does not audit `PUT /appearance`).
 */
export const auditResourceTypes: ReadonlyArray<string> = [
  "template",
  "template_version",
  "user",
  "workspace",
  "workspace_build",
  "git_ssh_key",
  "api_key",
  "group",
  "license",
  "convert_login",
  "health_settings",
  "notifications_settings",
  "prebuilds_settings",
  "workspace_proxy",
  "organization",
  "oauth2_provider_app",
  "oauth2_provider_app_secret",
  "oauth2_provider_settings",
  "custom_role",
  "organization_member",
  "notification_template",
  "idp_sync_settings_organization",
  "idp_sync_settings_group",
  "idp_sync_settings_role",
  "workspace_agent",
  "workspace_app",
  "task",
  "appearance",
  "provisioner_key",
  "provisioner_host"
]

/** Every audit action, the values `action` may take in a search. */
export const auditActions: ReadonlyArray<AuditAction> = [
  "create",
  "write",
  "delete",
  "start",
  "stop",
  "login",
  "logout",
  "register",
  "request_password_reset",
  "connect",
  "disconnect",
  "open",
  "close"
]

/** Build reasons of the described system, the values `build_reason` may take in a search. */
export const buildReasons: ReadonlyArray<string> = [
  "initiator",
  "autostart",
  "autostop",
  "dormancy",
  "failedstop",
  "autodelete",
  "dashboard",
  "cli",
  "ssh_connection",
  "vscode_connection",
  "jetbrains_connection",
  "task_auto_pause",
  "task_manual_pause",
  "task_resume"
]

/** How an action reads in a description. */
const friendlyAction: Readonly<Record<string, string>> = {
  create: "created",
  write: "updated",
  delete: "deleted",
  start: "started",
  stop: "stopped",
  login: "logged in",
  logout: "logged out",
  register: "registered",
  request_password_reset: "password reset requested",
  connect: "connected",
  disconnect: "disconnected",
  open: "opened",
  close: "closed"
}

/** How a resource type reads in a description. */
const friendlyResource: Readonly<Record<string, string>> = {
  template_version: "template version",
  workspace_build: "workspace build",
  git_ssh_key: "git ssh key",
  api_key: "token",
  convert_login: "login type conversion",
  workspace_proxy: "workspace proxy",
  oauth2_provider_app: "oauth2 app",
  oauth2_provider_app_secret: "oauth2 app secret",
  custom_role: "custom role",
  organization_member: "organization member",
  notification_template: "notification template",
  workspace_agent: "workspace agent",
  workspace_app: "workspace app"
}

/**
 * The description of an entry, in the described system's words: `{user} created user {target}`,
 * `{user} unsuccessfully attempted to delete organization {target}`, `{user} logged in`. The
 * placeholders are for clients to fill in (with the username and the resource target).
 */
export const auditDescription = (e: Pick<AuditLogRecord, "action" | "resource_type" | "status_code">): string => {
  let out = e.action === "request_password_reset" ? "" : "{user} "
  out += e.status_code >= 400 ? `unsuccessfully attempted to ${e.action}` : friendlyAction[e.action] ?? e.action
  if (e.resource_type === "api_key" && (e.action === "login" || e.action === "logout" || e.action === "register")) {
    return out
  }
  const resource = friendlyResource[e.resource_type] ?? e.resource_type.replace(/_/g, " ")
  if (e.resource_type === "git_ssh_key") return `${out} the ${resource}`
  return `${out} ${resource}${e.resource_type === "convert_login" ? " to" : ""} {target}`
}

/** An organization as log entries embed it. */
export class MinimalOrganization extends Schema.Class<MinimalOrganization>("MinimalOrganization")({
  display_name: Schema.String,
  icon: Schema.String,
  id: Schema.UUID,
  name: Schema.String
}) {}

/** One changed field as the wire carries it. */
export const AuditDiffField = Schema.Struct({ old: Schema.Unknown, new: Schema.Unknown, secret: Schema.Boolean })

/** An audit log entry as the API answers it. */
export class AuditLog extends Schema.Class<AuditLog>("AuditLog")({
  action: Schema.String,
  additional_fields: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  description: Schema.String,
  diff: Schema.Record({ key: Schema.String, value: AuditDiffField }),
  id: Schema.UUID,
  ip: Schema.String,
  is_deleted: Schema.Boolean,
  /** Absent on entries that belong to no organization (or whose organization is gone). */
  organization: Schema.optional(MinimalOrganization),
  organization_id: Schema.UUID,
  request_id: Schema.String,
  resource_icon: Schema.String,
  resource_id: Schema.String,
  resource_link: Schema.String,
  resource_target: Schema.String,
  resource_type: Schema.String,
  status_code: Schema.Int,
  time: Schema.Date,
  /** Null when no user is known (an anonymous request that named none). */
  user: Schema.NullOr(User),
  user_agent: Schema.String
}) {}

/** Page sizes of the log listings. */
export const LOG_COUNT_CAP = 2000
export const DEFAULT_LOG_PAGE_SIZE = 100
export const MAX_LOG_PAGE_SIZE = 1000

/** A page of the audit log. */
export class AuditLogsPage extends Schema.Class<AuditLogsPage>("AuditLogResponse")({
  audit_logs: Schema.Array(AuditLog),
  /** Matching entries, counted up to `count_cap + 1`: a count above the cap means "more than count_cap". */
  count: Schema.Int,
  count_cap: Schema.Int
}) {}
