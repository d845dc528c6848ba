/**
 * The write side of the audit log, in one place. Every state-changing request
 * gets a request-scoped {@link AuditRequest} collector (the HTTP dispatcher makes
 * it); services say what they changed with {@link auditResource}; when the
 * request ends, {@link writeAuditEntry} stores one entry with the outcome.
 * Secret fields appear in a diff only as `{old: "", new: "", secret: true}`.
 */
import { Clock, Context, Effect, Option } from "effect"
import { v7 as uuidv7 } from "uuid"
import { CurrentActor } from "./Actor.js"

/** The nil UUID: the organization of an entry that belongs to none, the id of an unknown resource. */
export const NIL_UUID = "00000000-0000-0000-0000-000000000000"

/** Audit actions (the described system's set). */
export type AuditAction =
  | "create"
  | "write"
  | "delete"
  | "start"
  | "stop"
  | "login"
  | "logout"
  | "register"
  | "request_password_reset"
  | "connect"
  | "disconnect"
  | "open"
  | "close"

/** One changed field: old and new values, or neither when the field is secret. */
export interface AuditDiffEntry {
  readonly old: unknown
  readonly new: unknown
  readonly secret: boolean
}

export type AuditDiff = Readonly<Record<string, AuditDiffEntry>>

/** Fields never shown in a diff: their values are secrets. */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "hashed_password",
  "password",
  "old_password",
  "hashed_secret",
  "secret",
  "key",
  "session_token",
  "hashed_one_time_passcode",
  "one_time_passcode",
  "private_key",
  "token",
  "client_secret",
  "hashed_client_secret",
  "registration_access_token",
  "access_token",
  "refresh_token",
  "agent_token"
])

/** Fields that change on their own (bookkeeping) and would only be noise in a diff. */
const IGNORED_FIELDS: ReadonlySet<string> = new Set([
  "updated_at",
  "last_seen_at",
  "last_used",
  "member_count",
  "one_time_passcode_expires_at"
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
  /** Further entries the same request writes (a sign-in that also creates or converts a user). */
  also?: Array<{ readonly action: AuditAction; readonly resource: AuditResource; readonly diff: AuditDiff }> | undefined
  /** The request succeeded without changing anything: no entry (see {@link auditUnchanged}). */
  unchanged?: boolean | undefined
}

export class AuditRequest extends Context.Tag("@workbay/core/AuditRequest")<AuditRequest, AuditRequestShape>() {}

/** A fresh collector for a request whose route declares `resourceType` and `action`. */
export const newAuditRequest = (resourceType: string, action: string): AuditRequestShape => ({
  action,
  resourceType,
  resource: undefined,
  diff: {},
  userId: undefined,
  additional: {},
  buildReason: ""
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

/** Records one more entry of the current request, about another resource (written beside the main one). */
export const auditAlso = (
  action: AuditAction,
  resource: AuditResource,
  before?: object,
  after?: object
): Effect.Effect<void> =>
  withAudit((a) => void (a.also ??= []).push({ action, resource, diff: auditDiff(before, after) }))

/**
 * Says that the current request, though its route may change state, changed nothing: a
 * successful answer then writes no entry (the external agent credentials, read again).
 */
export const auditUnchanged: Effect.Effect<void> = withAudit((a) => void (a.unchanged = true))

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

/**
 * Where finished requests' entries go: the audit area's store (its `AuditLogRepo`, which also
 * answers the searches), given by the assembly (Services.ts).
 */
export class AuditEntries extends Context.Tag("@workbay/core/AuditEntries")<AuditEntries, {
  readonly insert: (entry: AuditLogRecord) => Effect.Effect<void>
}>() {}

/** Facts about the HTTP request an entry records. */
export interface AuditRequestFacts {
  readonly requestId: string
  readonly ip: string
  readonly userAgent: string
  readonly statusCode: number
}

/**
 * An entry's id: a time-ordered UUID (version 7, monotonic within the process), so entries
 * written in the same millisecond list in the order they were written (the list sorts by time,
 * then id), e.g. a key's creation and its expiry, or an entry's `also` entries and itself.
 */
const auditEntryId = (): string => uuidv7()

/**
 * Stores the entry of a finished request. Requests with no known user (an anonymous call
 * that never named one) are stored with the nil user only when `anonymous` is true.
 */
export const writeAuditEntry = (
  audit: AuditRequestShape,
  facts: AuditRequestFacts
): Effect.Effect<void, never, AuditEntries> =>
  Effect.gen(function*() {
    const actor = yield* Effect.serviceOption(CurrentActor)
    const userId = Option.isSome(actor) ? actor.value.user.id : audit.userId ?? NIL_UUID
    const repo = yield* AuditEntries
    const resource = audit.resource
    for (const extra of audit.also ?? []) {
      yield* repo.insert({
        id: auditEntryId(),
        time: new Date(yield* Clock.currentTimeMillis),
        user_id: userId,
        organization_id: extra.resource.organizationId ?? NIL_UUID,
        ip: facts.ip,
        user_agent: facts.userAgent,
        request_id: facts.requestId,
        action: extra.action,
        resource_type: extra.resource.type,
        resource_id: extra.resource.id,
        resource_target: extra.resource.target,
        resource_icon: extra.resource.icon ?? "",
        diff: extra.diff,
        status_code: facts.statusCode,
        additional_fields: {},
        description: "",
        build_reason: ""
      })
    }
    yield* repo.insert({
      id: auditEntryId(),
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
