/**
 * The write side of the audit log, in one place. Every state-changing request
 * gets a request-scoped {@link AuditRequest} collector (the HTTP dispatcher makes
 * it); services say what they changed with {@link auditResource}; when the
 * request ends, {@link writeAuditEntry} stores one entry with the outcome.
 * Secret fields appear in a diff only as `{old: "", new: "", secret: true}`.
 */
import { Clock, Context, Effect, Option, Schema } from "effect"
import { CurrentActor } from "./Actor.js"
import { IdGenerator } from "./Ids.js"
import type { OrganizationRecord } from "./organizations/Organization.js"
import { User, type UserRecord } from "./users/User.js"

/** The nil UUID: the organization of an entry that belongs to none, the id of an unknown resource. */
export const NIL_UUID = "00000000-0000-0000-0000-000000000000"

/** Audit actions (the described system's set). */
export type AuditAction =
  | "create" | "write" | "delete" | "start" | "stop" | "login" | "logout" | "register"
  | "request_password_reset" | "connect" | "disconnect" | "open" | "close"

/** One changed field: old and new values, or neither when the field is secret. */
export interface AuditDiffEntry {
  readonly old: unknown
  readonly new: unknown
  readonly secret: boolean
}

export type AuditDiff = Readonly<Record<string, AuditDiffEntry>>

/** A stored audit entry. */
export interface AuditLogRecord {
  readonly id: string
  readonly time: Date
  readonly user_id: string
  readonly organization_id: string
  readonly ip: string
  readonly user_agent: string
  readonly request_id: string
  readonly action: string
  readonly resource_type: string
  readonly resource_id: string
  readonly resource_target: string
  readonly resource_icon: string
  readonly diff: AuditDiff
  readonly status_code: number
  readonly additional_fields: Readonly<Record<string, unknown>>
  readonly description: string
  readonly build_reason: string
}

/** Fields never shown in a diff: their values are secrets. */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "hashed_password", "password", "old_password", "hashed_secret", "secret", "key", "session_token",
  "hashed_one_time_passcode", "one_time_passcode", "private_key", "token", "client_secret",
  "hashed_client_secret", "registration_access_token", "access_token", "refresh_token", "agent_token"
])

/** Fields that change on their own (bookkeeping) and would only be noise in a diff. */
const IGNORED_FIELDS: ReadonlySet<string> = new Set([
  "updated_at", "last_seen_at", "last_used", "member_count", "one_time_passcode_expires_at"
])

/** Whether a field's values are withheld from diffs. */
export const isSecretField = (field: string) => SECRET_FIELDS.has(field)

/** The JSON form of a value, so Dates and classes compare and store as they travel. */
const plain = (v: unknown): unknown => (v === undefined ? null : JSON.parse(JSON.stringify(v)))

/**
 * The fields that differ between `before` and `after` (either may be absent: a creation or a
 * deletion). Secret fields are marked and their values withheld.
 */
export const auditDiff = (before: object | undefined, after: object | undefined): Record<string, AuditDiffEntry> => {
  const old = (before === undefined ? {} : plain(before)) as Record<string, unknown>
  const next = (after === undefined ? {} : plain(after)) as Record<string, unknown>
  const out: Record<string, AuditDiffEntry> = {}
  for (const field of new Set([...Object.keys(old), ...Object.keys(next)])) {
    if (IGNORED_FIELDS.has(field)) continue
    const a = old[field] ?? null
    const b = next[field] ?? null
    if (JSON.stringify(a) === JSON.stringify(b)) continue
    out[field] = SECRET_FIELDS.has(field) ? { old: "", new: "", secret: true } : { old: a, new: b, secret: false }
  }
  return out
}

/** The resource a request acted on. */
export interface AuditResource {
  readonly type: string
  readonly id: string
  /** A human name of the resource: a username, a group name, a token name. */
  readonly target: string
  readonly organizationId?: string | undefined
  readonly icon?: string | undefined
}

/** What one request collects for its audit entry; filled in by the services it calls. */
export interface AuditRequestShape {
  action: string
  resourceType: string
  resource: AuditResource | undefined
  diff: Record<string, AuditDiffEntry>
  /** The user the entry is about when no one is signed in (a login). */
  userId: string | undefined
  additional: Record<string, unknown>
  buildReason: string
}

export class AuditRequest extends Context.Tag("@workbay/core/AuditRequest")<AuditRequest, AuditRequestShape>() {}

/** A fresh collector for a request whose route declares `resourceType` and `action`. */
export const newAuditRequest = (resourceType: string, action: string): AuditRequestShape => ({
  action, resourceType, resource: undefined, diff: {}, userId: undefined, additional: {}, buildReason: ""
})

const withAudit = (f: (a: AuditRequestShape) => void): Effect.Effect<void> =>
  Effect.map(Effect.serviceOption(AuditRequest), Option.match({ onNone: () => undefined, onSome: f }))

/**
 * Records what the current request changed: the resource and, from its state `before` and
 * `after`, the diff. A no-op outside an audited request (a unit test, a background job).
 */
export const auditResource = (resource: AuditResource, before?: object, after?: object): Effect.Effect<void> =>
  withAudit((a) => {
    a.resource = resource
    a.resourceType = resource.type
    Object.assign(a.diff, auditDiff(before, after))
  })

/** Sets the user an anonymous request acted as (login, passcode requests). */
export const auditUser = (userId: string): Effect.Effect<void> => withAudit((a) => void (a.userId = userId))

/** Overrides the route's action (e.g. `login`). */
export const auditAction = (action: AuditAction): Effect.Effect<void> => withAudit((a) => void (a.action = action))

/** Adds fields to the entry's `additional_fields` (and `build_reason`, which is searchable). */
export const auditAdditional = (fields: Record<string, unknown>): Effect.Effect<void> =>
  withAudit((a) => {
    Object.assign(a.additional, fields)
    if (typeof fields.build_reason === "string") a.buildReason = fields.build_reason
  })

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

/** Facts about the HTTP request an entry records. */
export interface AuditRequestFacts {
  readonly requestId: string
  readonly ip: string
  readonly userAgent: string
  readonly statusCode: number
}

/**
 * Stores the entry of a finished request. Requests with no known user (an anonymous call
 * that never named one) are stored with the nil user only when `anonymous` is true.
 */
export const writeAuditEntry = (
  audit: AuditRequestShape,
  facts: AuditRequestFacts
): Effect.Effect<void, never, AuditLogRepo | IdGenerator> =>
  Effect.gen(function*() {
    const actor = yield* Effect.serviceOption(CurrentActor)
    const userId = Option.isSome(actor) ? actor.value.user.id : audit.userId ?? NIL_UUID
    const repo = yield* AuditLogRepo
    const ids = yield* IdGenerator
    const resource = audit.resource
    yield* repo.insert({
      id: yield* ids.uuid,
      time: new Date(yield* Clock.currentTimeMillis),
      user_id: userId,
      organization_id: resource?.organizationId ?? NIL_UUID,
      ip: facts.ip,
      user_agent: facts.userAgent,
      request_id: facts.requestId,
      action: audit.action,
      resource_type: resource?.type ?? audit.resourceType,
      resource_id: resource?.id ?? NIL_UUID,
      resource_target: resource?.target ?? "",
      resource_icon: resource?.icon ?? "",
      diff: audit.diff,
      status_code: facts.statusCode,
      additional_fields: audit.additional,
      description: "",
      build_reason: audit.buildReason
    })
  })

/** Audit resource types of the described system, the values `resource_type` may take in a search. */
export const auditResourceTypes: ReadonlyArray<string> = [
  "template", "template_version", "user", "workspace", "workspace_build", "git_ssh_key", "api_key", "group",
  "license", "convert_login", "health_settings", "notifications_settings", "prebuilds_settings", "workspace_proxy",
  "organization", "oauth2_provider_app", "oauth2_provider_app_secret", "custom_role", "organization_member",
  "notification_template", "idp_sync_settings_organization", "idp_sync_settings_group", "idp_sync_settings_role",
  "workspace_agent", "workspace_app", "task"
]

/** Every audit action, the values `action` may take in a search. */
export const auditActions: ReadonlyArray<AuditAction> = [
  "create", "write", "delete", "start", "stop", "login", "logout", "register", "request_password_reset", "connect",
  "disconnect", "open", "close"
]

/** Build reasons of the described system, the values `build_reason` may take in a search. */
export const buildReasons: ReadonlyArray<string> = [
  "initiator", "autostart", "autostop", "dormancy", "failedstop", "autodelete", "dashboard", "cli", "ssh_connection",
  "vscode_connection", "jetbrains_connection", "task_auto_pause", "task_manual_pause", "task_resume"
]

/** How an action reads in a description. */
const friendlyAction: Readonly<Record<string, string>> = {
  create: "created", write: "updated", delete: "deleted", start: "started", stop: "stopped", login: "logged in",
  logout: "logged out", register: "registered", request_password_reset: "password reset requested",
  connect: "connected", disconnect: "disconnected", open: "opened", close: "closed"
}

/** How a resource type reads in a description. */
const friendlyResource: Readonly<Record<string, string>> = {
  template_version: "template version", workspace_build: "workspace build", git_ssh_key: "git ssh key",
  api_key: "token", convert_login: "login type conversion", workspace_proxy: "workspace proxy",
  oauth2_provider_app: "oauth2 app", oauth2_provider_app_secret: "oauth2 app secret", custom_role: "custom role",
  organization_member: "organization member", notification_template: "notification template",
  workspace_agent: "workspace agent", workspace_app: "workspace app"
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
