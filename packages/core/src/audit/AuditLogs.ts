/**
 * The read side of the audit log, and the connection log (recording and reading).
 * Site owners and auditors read every entry; organization admins and auditors read the
 * entries of their organizations; anyone else gets 403. A page loads its users, their
 * memberships and its organizations in one query each.
 */
import { Clock, Effect, Layer, Option } from "effect"
import { allowed, authorize, CurrentActor, currentSubject } from "../Actor.js"
import {
  type ConnectionEvent,
  ConnectionLogSink,
  type ConnectionType,
  connectionTypes,
  type DisconnectEvent,
  isWebConnection
} from "../agents/ConnectionEvents.js"
import { type AuditLogRecord, NIL_UUID } from "../Audit.js"
import { BadRequest, Validation } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import type { OrganizationRecord } from "../organizations/Organization.js"
import { MemberRepo, OrganizationRepo } from "../organizations/Repositories.js"
import { type ParsedQuery, parseQuery } from "../SearchQuery.js"
import { span } from "../Tracing.js"
import type { User } from "../users/User.js"
import { toUser } from "../users/Users.js"
import { wireMaker, type WireProps } from "../Wire.js"
import {
  auditActions,
  auditDescription,
  AuditLog,
  type AuditLogFilter,
  AuditLogRepo,
  AuditLogsPage,
  auditResourceTypes,
  buildReasons,
  DEFAULT_LOG_PAGE_SIZE,
  LOG_COUNT_CAP,
  MAX_LOG_PAGE_SIZE,
  MinimalOrganization
} from "./AuditLog.js"
import {
  ConnectionLog,
  type ConnectionLogFilter,
  type ConnectionLogRecord,
  ConnectionLogRepo,
  ConnectionLogsPage,
  ConnectionLogSshInfo,
  ConnectionLogWebInfo
} from "./ConnectionLog.js"
import type { ListLogsQuery } from "./Requests.js"

/** Keys of the audit log's `q`. A bare word means `resource_type:<word>`, as in the described system. */
export const auditSearchKeys = [
  "resource_type",
  "resource_id",
  "resource_target",
  "action",
  "username",
  "email",
  "organization",
  "date_from",
  "date_to",
  "build_reason",
  "request_id"
] as const

/** Keys of the connection log's `q`. */
export const connectionSearchKeys = [
  "organization",
  "workspace_owner",
  "workspace_owner_email",
  "type",
  "username",
  "user_email",
  "connected_after",
  "connected_before",
  "workspace_id",
  "connection_id",
  "status"
] as const

const DAY_MS = 86_400_000
const API_KEY_ID = /^[a-zA-Z0-9]{1,64}$/
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Midnight UTC of a `YYYY-MM-DD` day, or undefined when it is not a real date. */
const parseDay = (text: string): Date | undefined => {
  const m = DATE_ONLY.exec(text)
  if (m === null) return undefined
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
    ? d
    : undefined
}

/** An RFC 3339 date-time with its zone. */
const parseDateTime = (text: string): Date | undefined => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(text)) return undefined
  const ms = Date.parse(text)
  return Number.isNaN(ms) ? undefined : new Date(ms)
}

/** The page bounds of a listing. */
const pageOf = (input: typeof ListLogsQuery.Type) => ({
  limit: Math.min(input.limit > 0 ? input.limit : DEFAULT_LOG_PAGE_SIZE, MAX_LOG_PAGE_SIZE),
  offset: input.offset ?? 0
})
type LogPage = ReturnType<typeof pageOf>

/** Every problem of a search as one validation on `q`. */
const badQuery = (details: ReadonlyArray<string>) => BadRequest.field("q", details.join(" "), "Invalid search query.")

/** `q` parsed with `keys`; its problems merged into one validation on `q`. */
const parseSearch = (q: string | undefined, keys: ReadonlyArray<string>) =>
  parseQuery(q, keys).pipe(
    Effect.catchTag("BadRequest", (e) => Effect.fail(badQuery((e.validations ?? []).map((v) => v.detail))))
  )

/** What the caller may read of a log: everything, or the entries of these organizations. */
type Readable = { readonly all: true } | { readonly all: false; readonly organizationIds: ReadonlyArray<string> }

const makeMinimalOrganization = wireMaker(MinimalOrganization)
const makeAuditLog = wireMaker(AuditLog)

const minimalOrganization = (o: OrganizationRecord) =>
  makeMinimalOrganization({ display_name: o.display_name, icon: o.icon, id: o.id, name: o.name })

const byId = <A extends { readonly id: string }>(rows: ReadonlyArray<A>) => new Map(rows.map((r) => [r.id, r]))

/** Resource types whose `resource_id` is a user id. */
const userResources = new Set(["user", "git_ssh_key", "organization_member", "convert_login"])

export class AuditLogs extends Effect.Service<AuditLogs>()("@workbay/core/AuditLogs", {
  effect: Effect.gen(function*() {
    const audit = yield* AuditLogRepo
    const connections = yield* ConnectionLogRepo
    const members = yield* MemberRepo
    const orgs = yield* OrganizationRepo
    const ids = yield* IdGenerator

    /**
     * Who may read `kind`: with read on it site-wide, everything; else the organizations where
     * the caller's roles grant it; with none of either, 403.
     */
    const readable = (kind: "audit_log" | "connection_log") =>
      Effect.gen(function*() {
        yield* authorize("read", { type: kind, anyOrg: true })
        if (yield* allowed("read", { type: kind })) return { all: true } as Readable
        const subject = yield* currentSubject
        const organizationIds: Array<string> = []
        for (const orgId of subject.orgRoles.keys()) {
          if (yield* allowed("read", { type: kind, orgId })) organizationIds.push(orgId)
        }
        return { all: false, organizationIds } as Readable
      })

    /**
     * The organizations an entry may be in: the one the search's `organization` term names (a
     * name or an id), within what the caller may read. A term naming none adds to `problems`.
     */
    const organizationScope = (query: ParsedQuery, access: Readable, problems: Array<string>) =>
      Effect.gen(function*() {
        const ref = query.terms.get("organization")
        if (ref === undefined) return access.all ? undefined : access.organizationIds
        const found = isUuid(ref)
          ? Option.some(ref.toLowerCase())
          : Option.map(yield* orgs.findByName(ref), (o) => o.id)
        if (Option.isNone(found)) {
          problems.push(`Organization "${ref}" does not exist.`)
          return undefined
        }
        return access.all ? [found.value] : access.organizationIds.filter((id) => id === found.value)
      })

    /**
     * A page of a log the caller may read (`kind`), searched by `q` with `keys`, and the count
     * of its matches up to the cap. `toFilter` checks the search and makes the repository's filter.
     */
    const searchLog = <F, Row, E, R>(
      kind: "audit_log" | "connection_log",
      keys: ReadonlyArray<string>,
      toFilter: (query: ParsedQuery, access: Readable, page: LogPage) => Effect.Effect<F, E, R>,
      repo: {
        readonly list: (filter: F) => Effect.Effect<ReadonlyArray<Row>>
        readonly count: (filter: F, cap: number) => Effect.Effect<number>
      },
      input: typeof ListLogsQuery.Type
    ) =>
      Effect.gen(function*() {
        const access = yield* readable(kind)
        const query = yield* parseSearch(input.q, keys)
        const filter = yield* toFilter(query, access, pageOf(input))
        const rows = yield* repo.list(filter)
        return [rows, yield* repo.count(filter, LOG_COUNT_CAP)] as const
      })

    /** The users and organizations a page names, and the users' memberships: one query each. */
    const lookups = (userIds: Iterable<string>, organizationIds: Iterable<string>) =>
      Effect.gen(function*() {
        const wantedUsers = [...new Set(userIds)].filter((id) => id !== NIL_UUID)
        const wantedOrgs = [...new Set(organizationIds)].filter((id) => id !== NIL_UUID)
        const users = wantedUsers.length === 0 ? [] : yield* audit.usersByIds(wantedUsers)
        const organizations = wantedOrgs.length === 0 ? [] : yield* audit.organizationsByIds(wantedOrgs)
        const live = users.filter((u) => !u.deleted).map((u) => u.id)
        const memberships = live.length === 0 ? new Map<string, ReadonlyArray<string>>() : yield* members.ofUsers(live)
        const userMap = byId(users)
        const wire = new Map<string, User>()
        const userOf = (id: string | null): User | null => {
          if (id === null) return null
          const u = userMap.get(id)
          if (u === undefined) return null
          let w = wire.get(id)
          if (w === undefined) {
            w = toUser(u, memberships.get(id) ?? [])
            wire.set(id, w)
          }
          return w
        }
        return { users: userMap, organizations: byId(organizations), userOf }
      })

    // --- audit log -----------------------------------------------------------------

    const auditFilter = (query: ParsedQuery, access: Readable, page: LogPage) =>
      Effect.gen(function*() {
        const problems: Array<string> = []
        const terms = query.terms
        let resourceType = terms.get("resource_type")
        if (query.text.length > 0) {
          if (query.text.length > 1 || resourceType !== undefined) {
            problems.push("Only one resource type may be searched; use resource_type:<type>.")
          } else resourceType = query.text[0]!.toLowerCase()
        }
        if (resourceType !== undefined && !auditResourceTypes.includes(resourceType)) {
          problems.push(`Resource type "${resourceType}" is not one of ${auditResourceTypes.join(", ")}.`)
        }
        const action = terms.get("action")?.toLowerCase()
        if (action !== undefined && !(auditActions as ReadonlyArray<string>).includes(action)) {
          problems.push(`Action "${action}" is not one of ${auditActions.join(", ")}.`)
        }
        const resourceId = terms.get("resource_id")
        if (resourceId !== undefined && !isUuid(resourceId) && !API_KEY_ID.test(resourceId)) {
          problems.push(`Resource id "${resourceId}" is not a UUID or a key id.`)
        }
        const requestId = terms.get("request_id")
        if (requestId !== undefined && !isUuid(requestId)) problems.push(`Request id "${requestId}" is not a UUID.`)
        const buildReason = terms.get("build_reason")?.toLowerCase()
        if (buildReason !== undefined && !buildReasons.includes(buildReason)) {
          problems.push(`Build reason "${buildReason}" is not one of ${buildReasons.join(", ")}.`)
        }
        const dayTerm = (key: string) => {
          const text = terms.get(key)
          if (text === undefined) return undefined
          const day = parseDay(text)
          if (day === undefined) problems.push(`${key} "${text}" is not a date (YYYY-MM-DD).`)
          return day
        }
        const dateFrom = dayTerm("date_from")
        const dateToDay = dayTerm("date_to")
        const organizationIds = yield* organizationScope(query, access, problems)
        if (problems.length > 0) return yield* badQuery(problems)
        const filter: AuditLogFilter = {
          ...page,
          resourceType,
          resourceId: resourceId === undefined ? undefined : isUuid(resourceId) ? resourceId.toLowerCase() : resourceId,
          resourceTarget: terms.get("resource_target"),
          action,
          username: terms.get("username"),
          email: terms.get("email"),
          organizationIds,
          dateFrom,
          // date_to names a whole day: entries before the next midnight.
          dateTo: dateToDay === undefined ? undefined : new Date(dateToDay.getTime() + DAY_MS),
          buildReason,
          requestId: requestId?.toLowerCase()
        }
        return filter
      })

    /**
     * Whether an entry's resource has since been deleted, as far as the page's lookups tell:
     * users (and their git SSH keys) that are soft-deleted, organizations that are gone, and
     * memberships whose organization or user is gone. Other kinds answer false.
     */
    const isDeleted = (e: AuditLogRecord, looked: Effect.Effect.Success<ReturnType<typeof lookups>>) => {
      if (e.resource_id === NIL_UUID) return false
      const userGone = (id: string) => looked.users.get(id)?.deleted ?? true
      switch (e.resource_type) {
        case "user":
        case "git_ssh_key":
        case "convert_login":
          return userGone(e.resource_id)
        case "organization":
          return !looked.organizations.has(e.resource_id)
        case "organization_member":
          return userGone(e.resource_id) ||
            (e.organization_id !== NIL_UUID && !looked.organizations.has(e.organization_id))
        default:
          return false
      }
    }

    /** Where a client shows the resource; empty for deleted resources and kinds without a page. */
    const resourceLink = (
      e: AuditLogRecord,
      deleted: boolean,
      looked: Effect.Effect.Success<ReturnType<typeof lookups>>
    ) => {
      if (deleted) return ""
      const org = looked.organizations.get(e.organization_id)
      switch (e.resource_type) {
        case "user":
          return `/@${looked.users.get(e.resource_id)?.username ?? e.resource_target}`
        case "organization": {
          const o = looked.organizations.get(e.resource_id)
          return o === undefined ? "" : `/organizations/${o.name}`
        }
        case "organization_member":
          return org === undefined ? "" : `/organizations/${org.name}/members`
        case "group":
          return org === undefined ? "" : `/organizations/${org.name}/groups/${e.resource_target}`
        default:
          return ""
      }
    }

    const list = (input: typeof ListLogsQuery.Type) =>
      Effect.gen(function*() {
        const [rows, count] = yield* searchLog("audit_log", auditSearchKeys, auditFilter, audit, input)
        const looked = yield* lookups(
          rows.flatMap((r) => (userResources.has(r.resource_type) ? [r.user_id, r.resource_id] : [r.user_id])),
          rows.flatMap((
            r
          ) => (r.resource_type === "organization" ? [r.organization_id, r.resource_id] : [r.organization_id]))
        )
        const entries = rows.map((r) => {
          const deleted = isDeleted(r, looked)
          const org = looked.organizations.get(r.organization_id)
          const props: WireProps<typeof AuditLog> = {
            action: r.action,
            additional_fields: r.additional_fields,
            description: r.description !== "" ? r.description : auditDescription(r),
            diff: r.diff,
            id: r.id,
            ip: r.ip,
            is_deleted: deleted,
            organization_id: r.organization_id,
            request_id: r.request_id,
            resource_icon: r.resource_icon,
            resource_id: r.resource_id,
            resource_link: resourceLink(r, deleted, looked),
            resource_target: r.resource_target,
            resource_type: r.resource_type,
            status_code: r.status_code,
            time: r.time,
            user: looked.userOf(r.user_id),
            user_agent: r.user_agent
          }
          if (org !== undefined) props.organization = minimalOrganization(org)
          return makeAuditLog(props)
        })
        return new AuditLogsPage({ audit_logs: entries, count, count_cap: LOG_COUNT_CAP }, true)
      }).pipe(span("AuditLogs.list"))

    // --- connection log --------------------------------------------------------------

    const connectionFilter = (query: ParsedQuery, access: Readable, page: LogPage) =>
      Effect.gen(function*() {
        const problems: Array<string> = []
        const terms = query.terms
        if (query.text.length > 0) {
          problems.push(`Free text "${query.text.join(" ")}" is not a search term; use key:value.`)
        }
        const type = terms.get("type")?.toLowerCase()
        if (type !== undefined && !(connectionTypes as ReadonlyArray<string>).includes(type)) {
          problems.push(`Type "${type}" is not one of ${connectionTypes.join(", ")}.`)
        }
        const status = terms.get("status")?.toLowerCase()
        if (status !== undefined && status !== "ongoing" && status !== "completed") {
          problems.push(`Status "${status}" is not one of ongoing, completed.`)
        }
        const uuidTerm = (key: string) => {
          const text = terms.get(key)
          if (text !== undefined && !isUuid(text)) problems.push(`${key} "${text}" is not a UUID.`)
          return text?.toLowerCase()
        }
        const workspaceId = uuidTerm("workspace_id")
        const connectionId = uuidTerm("connection_id")
        const timeTerm = (key: string, endOfDay: boolean) => {
          const text = terms.get(key)
          if (text === undefined) return undefined
          const exact = parseDateTime(text)
          if (exact !== undefined) return exact
          const day = parseDay(text)
          if (day === undefined) problems.push(`${key} "${text}" is not a date-time (RFC 3339) or a date (YYYY-MM-DD).`)
          // A bare date as the upper bound includes that whole day.
          return day === undefined ? undefined : endOfDay ? new Date(day.getTime() + DAY_MS - 1) : day
        }
        const connectedAfter = timeTerm("connected_after", false)
        const connectedBefore = timeTerm("connected_before", true)
        const organizationIds = yield* organizationScope(query, access, problems)
        // workspace_owner: a username, a user id, or `me`.
        const owner = terms.get("workspace_owner")
        let workspaceOwnerId: string | undefined
        let workspaceOwner: string | undefined
        if (owner !== undefined) {
          if (owner.toLowerCase() === "me") workspaceOwnerId = (yield* CurrentActor).user.id
          else if (isUuid(owner)) workspaceOwnerId = owner.toLowerCase()
          else workspaceOwner = owner
        }
        if (problems.length > 0) return yield* badQuery(problems)
        const filter: ConnectionLogFilter = {
          ...page,
          organizationIds,
          workspaceOwnerId,
          workspaceOwner,
          workspaceOwnerEmail: terms.get("workspace_owner_email"),
          type: type as ConnectionType | undefined,
          username: terms.get("username"),
          userEmail: terms.get("user_email"),
          connectedAfter,
          connectedBefore,
          workspaceId,
          connectionId,
          status: status as "ongoing" | "completed" | undefined
        }
        return filter
      })

    const listConnections = (input: typeof ListLogsQuery.Type) =>
      Effect.gen(function*() {
        const [rows, count] = yield* searchLog(
          "connection_log",
          connectionSearchKeys,
          connectionFilter,
          connections,
          input
        )
        const looked = yield* lookups(
          rows.flatMap((r) => (r.user_id === null ? [r.workspace_owner_id] : [r.workspace_owner_id, r.user_id])),
          rows.map((r) => r.organization_id)
        )
        const entries = rows.map((r) => {
          const org = looked.organizations.get(r.organization_id)
          const web = isWebConnection(r.type)
          return new ConnectionLog({
            agent_name: r.agent_name,
            connect_time: r.connect_time,
            id: r.id,
            ip: r.ip,
            organization: org !== undefined
              ? minimalOrganization(org)
              : new MinimalOrganization({ display_name: "", icon: "", id: r.organization_id, name: "" }, true),
            ...(!web && r.connection_id !== null
              ? {
                ssh_info: new ConnectionLogSshInfo({
                  connection_id: r.connection_id,
                  ...(r.disconnect_time !== null
                    ? {
                      disconnect_time: r.disconnect_time,
                      disconnect_reason: r.disconnect_reason,
                      ...(r.code !== null ? { exit_code: r.code } : {})
                    }
                    : {})
                }, true)
              }
              : {}),
            type: r.type,
            ...(web
              ? {
                web_info: new ConnectionLogWebInfo({
                  slug_or_port: r.slug_or_port,
                  status_code: r.code ?? 0,
                  user: looked.userOf(r.user_id),
                  user_agent: r.user_agent
                }, true)
              }
              : {}),
            workspace_id: r.workspace_id,
            workspace_name: r.workspace_name,
            workspace_owner_id: r.workspace_owner_id,
            workspace_owner_username: looked.users.get(r.workspace_owner_id)?.username ?? ""
          }, true)
        })
        return new ConnectionLogsPage({ connection_logs: entries, count, count_cap: LOG_COUNT_CAP }, true)
      }).pipe(span("AuditLogs.listConnections"))

    /** Checks an event's fields; the entry it records. */
    const connectionRecord = (
      event: ConnectionEvent,
      disconnect?: { readonly reason: string; readonly exitCode: number | null }
    ) =>
      Effect.gen(function*() {
        const problems: Array<Validation> = []
        const uuid = (field: string, value: string | undefined, required: boolean) => {
          if (value === undefined ? required : !isUuid(value)) {
            problems.push(
              new Validation({
                field,
                detail: required && value === undefined ? "This field is required." : "Must be a UUID."
              })
            )
          }
        }
        uuid("organization_id", event.organizationId, true)
        uuid("workspace_owner_id", event.workspaceOwnerId, true)
        uuid("workspace_id", event.workspaceId, true)
        const web = isWebConnection(event.type)
        if (!(connectionTypes as ReadonlyArray<string>).includes(event.type)) {
          problems.push(new Validation({ field: "type", detail: `Type must be one of ${connectionTypes.join(", ")}.` }))
        }
        if (web) {
          uuid("user_id", event.userId, false)
          if (event.statusCode === undefined || !Number.isInteger(event.statusCode)) {
            problems.push(
              new Validation({ field: "status_code", detail: "A web connection needs its HTTP status code." })
            )
          }
          if (disconnect !== undefined) {
            problems.push(new Validation({ field: "type", detail: "Web connections have no disconnect." }))
          }
        } else {
          uuid("connection_id", event.connectionId, true)
        }
        if (event.agentName === "") {
          problems.push(new Validation({ field: "agent_name", detail: "This field is required." }))
        }
        // No text column stores NUL (Postgres refuses it).
        const texts = {
          workspace_name: event.workspaceName,
          agent_name: event.agentName,
          ip: event.ip,
          user_agent: event.userAgent,
          slug_or_port: event.slugOrPort,
          disconnect_reason: disconnect?.reason
        }
        for (const [field, text] of Object.entries(texts)) {
          if (text?.includes("\u0000")) {
            problems.push(new Validation({ field, detail: "Must not contain NUL characters." }))
          }
        }
        if (problems.length > 0) {
          return yield* new BadRequest({ message: "Invalid connection event.", validations: problems })
        }
        const time = event.time ?? new Date(yield* Clock.currentTimeMillis)
        const record: ConnectionLogRecord = {
          id: yield* ids.uuid,
          connect_time: time,
          organization_id: event.organizationId.toLowerCase(),
          workspace_owner_id: event.workspaceOwnerId.toLowerCase(),
          workspace_id: event.workspaceId.toLowerCase(),
          workspace_name: event.workspaceName,
          agent_name: event.agentName,
          type: event.type,
          ip: event.ip ?? "",
          code: web ? event.statusCode ?? null : disconnect?.exitCode ?? null,
          user_agent: event.userAgent ?? "",
          user_id: web ? event.userId?.toLowerCase() ?? null : null,
          slug_or_port: web ? event.slugOrPort ?? "" : "",
          connection_id: web ? null : event.connectionId!.toLowerCase(),
          disconnect_time: disconnect === undefined ? null : time,
          disconnect_reason: disconnect?.reason ?? ""
        }
        return record
      })

    /**
     * Records a session opening (ssh, vscode, jetbrains, reconnecting_pty, keyed by its
     * connection id) or a served web request (workspace_app, port_forwarding). For agents and
     * other trusted callers in-process: no permission check, the caller vouches for the event.
     */
    const connect = (event: ConnectionEvent) =>
      Effect.flatMap(connectionRecord(event), (record) => connections.upsert(record, "connected")).pipe(
        span("AuditLogs.connect")
      )

    /** Records a session closing: completes the entry of its connection id once (later ones change nothing). */
    const disconnect = (event: DisconnectEvent) =>
      Effect.flatMap(
        connectionRecord(event, { reason: event.reason ?? "", exitCode: event.exitCode ?? null }),
        (record) => connections.upsert(record, "disconnected")
      ).pipe(span("AuditLogs.disconnect"))

    return { list, listConnections, connect, disconnect, countCap: LOG_COUNT_CAP } as const
  })
}) {}

/** The agents' connections go to the connection log (agents' `ConnectionLogSink`). */
export const connectionLogSinkLayer: Layer.Layer<ConnectionLogSink, never, AuditLogs> = Layer.effect(
  ConnectionLogSink,
  Effect.map(AuditLogs, (audit) => ConnectionLogSink.of({ connect: audit.connect, disconnect: audit.disconnect }))
)
