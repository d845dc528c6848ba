/**
 * Workspaces on @effect/sql. Sharing lists are JSON text; names are unique per owner among the
 * undeleted. A change to a field the lifecycle rules read makes the workspace due for the
 * executor (migration 0013).
 */
import { SqlClient, type Statement } from "@effect/sql"
import {
  automaticUpdatesValues,
  PREBUILDS_USER_ID,
  sideBySide,
  type WorkspaceAcl,
  type WorkspaceFilter,
  type WorkspacePatch,
  type WorkspaceRecord,
  WorkspaceRepo,
  workspaceStatuses
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { latestAppStatus } from "../agents/LogRepositories.js"
import {
  bool,
  columns,
  date,
  first,
  int,
  json,
  literal,
  nullableDate,
  nullableInt,
  optional,
  type Row,
  text
} from "../Columns.js"
import { directStatements } from "../DirectReads.js"
import { escapeLike } from "../Filters.js"
import { latestBuildJoin } from "../LatestBuild.js"
import { bindRecord } from "../Rows.js"
import { LIFECYCLE_RECHECK } from "../Schema.js"
import { followWorkspaceDeletion } from "../TaskCounts.js"
import { workspacesByTemplate } from "../templates/TemplateRepositories.js"
import { transaction } from "../Transaction.js"
import { unique } from "../Unique.js"
import { JOINED_SUMMARY_COLUMNS, rowToJoinedBuildSummary } from "./BuildRepositories.js"

export const workspaceColumns = columns<WorkspaceRecord>("workspaces", {
  id: text,
  created_at: date,
  updated_at: date,
  owner_id: text,
  organization_id: text,
  template_id: text,
  deleted: bool,
  name: text,
  autostart_schedule: text,
  ttl_ms: nullableInt,
  last_used_at: date,
  dormant_at: nullableDate,
  deleting_at: nullableDate,
  next_start_at: nullableDate,
  automatic_updates: literal(automaticUpdatesValues),
  favorite: bool,
  user_acl: json<WorkspaceAcl>({}),
  group_acl: json<WorkspaceAcl>({}),
  latest_app_status: latestAppStatus,
  task_id: optional(text)
})
export const rowToWorkspace = workspaceColumns.read

const latestStatus = literal(workspaceStatuses)
const idOf = (r: Row) => text(r.id, "workspaces.id")

/**
 * The fields of a workspace whose change may bring a lifecycle rule earlier (the executor then
 * looks at it at the next tick). Not `last_used_at`: the services only move it later (a use),
 * which only puts dormancy off; a report of use every minute must not make a workspace due.
 */
const LIFECYCLE_FIELDS: ReadonlyArray<keyof WorkspacePatch> = [
  "autostart_schedule",
  "next_start_at",
  "dormant_at",
  "deleting_at",
  "template_id"
]

/** The workspace repository on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)
  const byId = (id: string) =>
    reads.mapped(sql<Row>`SELECT * FROM workspaces WHERE id = ${id}`, (rs) => first(rs, rowToWorkspace))
  const withTransaction = transaction(sql)
  const byTemplate = workspacesByTemplate(sql)
  const bumpCounter = (name: string, by: number) =>
    sql<{ value: number | string }>`INSERT INTO counters (name, value) VALUES (${name}, ${by})
      ON CONFLICT (name) DO UPDATE SET value = counters.value + ${by} RETURNING value`
  /**
   * Moves the kept counts of undeleted workspaces by `by` (one workspace in or out): in all, of
   * `ownerId`, and of the owner within the template, whose move from 0 or to 0 moves the
   * template's count of distinct owners (`active_user_count`, migration 0014).
   */
  const bumpCounts = (ownerId: string, templateId: string, by: 1 | -1) =>
    Effect.gen(function*() {
      yield* sql`UPDATE counters SET value = value + ${by} WHERE name = 'workspaces'`
      yield* bumpCounter(`workspaces:${ownerId}`, by)
      // The prebuilds user's workspaces are not a template's users (its active_user_count).
      if (ownerId === PREBUILDS_USER_ID) return
      const pair = Number((yield* bumpCounter(`template_owner:${templateId}:${ownerId}`, by))[0]?.value ?? 0)
      if ((by === 1 && pair === 1) || (by === -1 && pair === 0)) yield* bumpCounter(`template_users:${templateId}`, by)
    })
  const keptCount = (name: string) =>
    reads.mapped(
      sql<{ value: number | string }>`SELECT value FROM counters WHERE name = ${name}`,
      (rs) => Number(rs[0]?.value ?? 0)
    )
  /**
   * The count of every match. Undeleted workspaces without other filters are counted from the
   * kept counts (in all for a caller who sees every workspace, or of one owner when the caller
   * sees theirs), one row read at any size; other filters count the matching rows.
   */
  const countOf = (f: WorkspaceFilter, q: ReturnType<typeof listStatements>) => {
    const oneOwner = q.oneOwner
    const plain = !f.deleted && f.ids === undefined && f.organizationIds === undefined && f.templateIds === undefined &&
      f.name === undefined && f.statuses === undefined && f.outdated === undefined && f.dormant === undefined &&
      f.lastUsedBefore === undefined && f.lastUsedAfter === undefined && f.hasAiTask === undefined &&
      f.hasAgent === undefined
    if (plain && f.ownerIds === undefined && f.visibility.all) return keptCount("workspaces")
    if (
      plain && oneOwner !== undefined &&
      (f.visibility.all || (oneOwner === f.visibility.userId && f.visibility.memberOrganizationIds === undefined))
    ) {
      return keptCount(`workspaces:${oneOwner}`)
    }
    return reads.mapped(q.count, (rs) => Number(rs[0]?.n ?? 0))
  }
  return WorkspaceRepo.of({
    insert: (w) =>
      unique(withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO workspaces ${sql.insert(bindRecord(w))}`
        yield* sql`UPDATE workspaces SET owner_username = coalesce((SELECT lower(u.username) FROM users u WHERE u.id = ${w.owner_id}), '')
          WHERE id = ${w.id}`
        if (!w.deleted) yield* bumpCounts(w.owner_id, w.template_id, 1)
      }))).pipe(Effect.asVoid),
    findById: byId,
    findByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : reads.mapped(sql<Row>`SELECT * FROM workspaces WHERE id IN ${sql.in(ids)}`, (rs) => rs.map(rowToWorkspace)),
    ownerIdsByTemplate: (templateId) =>
      Effect.orDie(
        sql<Row>`SELECT DISTINCT owner_id FROM workspaces WHERE template_id = ${templateId} AND deleted = FALSE`
      ).pipe(
        Effect.map((rs) => rs.map((r) => String(r.owner_id)))
      ),
    findByOwnerAndName: (ownerId, name, includeDeleted) =>
      Effect.orDie(sql<Row>`SELECT * FROM workspaces
        WHERE owner_id = ${ownerId} AND lower(name) = lower(${name}) ${
        includeDeleted ? sql`` : sql`AND deleted = FALSE`
      }
        ORDER BY deleted, updated_at DESC LIMIT 1`).pipe(Effect.map((rs) => first(rs, rowToWorkspace))),
    claim: (id, fromOwnerId, ownerId, name, patch) =>
      unique(withTransaction(Effect.gen(function*() {
        const { deleted: _deleted, ...rest } = patch
        const values = bindRecord({ ...rest, owner_id: ownerId, name })
        const rs = yield* sql`UPDATE workspaces SET ${sql.update(values)}, ${sql.literal(LIFECYCLE_RECHECK)}
          WHERE id = ${id} AND owner_id = ${fromOwnerId} AND deleted = FALSE RETURNING template_id`
        if (rs.length === 0) return Option.none()
        yield* sql`UPDATE workspaces SET owner_username = coalesce((SELECT lower(u.username) FROM users u WHERE u.id = ${ownerId}), '')
          WHERE id = ${id}`
        const templateId = text(rs[0]!.template_id, "workspaces.template_id")
        yield* bumpCounts(fromOwnerId, templateId, -1)
        yield* bumpCounts(ownerId, templateId, 1)
        return yield* byId(id)
      }))),
    update: (id, patch) =>
      Effect.gen(function*() {
        const { deleted, ...rest } = patch
        const values = bindRecord(rest)
        const recheck = deleted === false || LIFECYCLE_FIELDS.some((k) => patch[k] !== undefined)
        // One statement: the change and the lifecycle mark commit together.
        const set = recheck ? sql`${sql.update(values)}, ${sql.literal(LIFECYCLE_RECHECK)}` : sql.update(values)
        const changes = Object.keys(values).length > 0
        if (deleted === undefined) {
          if (changes) yield* unique(sql`UPDATE workspaces SET ${set} WHERE id = ${id}`)
          return yield* byId(id)
        }
        // Deletion moves the kept counts, once: the guarded update changes the row only if it is not already so.
        yield* unique(withTransaction(Effect.gen(function*() {
          const rs = yield* sql`UPDATE workspaces SET deleted = ${deleted ? sql`TRUE` : sql`FALSE`}
            WHERE id = ${id} AND deleted = ${deleted ? sql`FALSE` : sql`TRUE`} RETURNING owner_id, template_id`
          if (rs.length > 0) {
            yield* bumpCounts(
              text(rs[0]!.owner_id, "workspaces.owner_id"),
              text(rs[0]!.template_id, "workspaces.template_id"),
              deleted ? -1 : 1
            )
          }
          // A task follows its workspace: it leaves listings (and frees its name) with it (migration 0018).
          if (rs.length > 0) yield* followWorkspaceDeletion(sql, id, deleted)
          if (changes) yield* sql`UPDATE workspaces SET ${set} WHERE id = ${id}`
          else if (recheck) yield* sql`UPDATE workspaces SET ${sql.literal(LIFECYCLE_RECHECK)} WHERE id = ${id}`
        })))
        return yield* byId(id)
      }),
    list: (f: WorkspaceFilter) =>
      Effect.gen(function*() {
        const q = listStatements(sql, f)
        // The favorites' count, the page as it is when there are none (most lists: read at once,
        // not after the count) and the list's count side by side (on Postgres, three of the pool's
        // connections at once).
        const [favoriteRows, noFavoritesPage, count] = yield* sideBySide([
          Effect.orDie(reads(q.favoriteCount)),
          Effect.orDie(reads(q.rest(f.limit, f.offset))),
          countOf(f, q)
        ])
        const favoriteCount = Number(favoriteRows[0]?.n ?? 0)
        let rows: ReadonlyArray<Row> = noFavoritesPage
        if (favoriteCount > 0) {
          const page: Array<Row> = []
          if (f.offset < favoriteCount) page.push(...(yield* Effect.orDie(reads(q.favorites(f.limit, f.offset)))))
          if (page.length < f.limit) {
            page.push(
              ...(yield* Effect.orDie(reads(q.rest(f.limit - page.length, Math.max(0, f.offset - favoriteCount)))))
            )
          }
          rows = page
        }
        // A workspace with no build yet has its build's columns null.
        const latestBuilds = rows.flatMap((r) =>
          r.lb_id === null || r.lb_id === undefined ? [] : [rowToJoinedBuildSummary(r)]
        )
        return { workspaces: rows.map(rowToWorkspace), count, latestBuilds }
      }),
    creditsConsumed: (organizationId, ownerId, excludeWorkspaceId) =>
      Effect.orDie(sql<{ n: number | string | null }>`SELECT coalesce(sum(b.daily_cost), 0) AS n FROM workspaces w
        ${latestBuildAndJob(sql)}
        WHERE w.organization_id = ${organizationId} AND w.owner_id = ${ownerId} AND w.deleted = FALSE
          AND b.transition = 'start' ${
        excludeWorkspaceId === undefined ? sql`` : sql`AND w.id <> ${excludeWorkspaceId}`
      }`).pipe(
        Effect.map((rs) => Number(rs[0]?.n ?? 0))
      ),
    touchByTemplate: (templateId, at) =>
      Effect.orDie(sql`UPDATE ${byTemplate} SET last_used_at = ${at.toISOString()}
        WHERE template_id = ${templateId} AND deleted = FALSE`).pipe(Effect.asVoid),
    redateDormantByTemplate: (templateId, autodeleteMs, dormantAt) =>
      Effect.gen(function*() {
        const dormant = sql`template_id = ${templateId} AND deleted = FALSE AND dormant_at IS NOT NULL`
        const plus = (d: Date) => autodeleteMs > 0 ? new Date(d.getTime() + autodeleteMs).toISOString() : null
        if (dormantAt !== null || autodeleteMs === 0) {
          // One deletion time for all of them: one statement.
          const set = dormantAt === null
            ? sql`deleting_at = NULL`
            : sql`dormant_at = ${dormantAt.toISOString()}, deleting_at = ${plus(dormantAt)}`
          // A moved deletion time may come sooner: the lifecycle executor looks at them again.
          const rs = yield* sql<Row>`UPDATE ${byTemplate} SET ${set}, ${
            sql.literal(LIFECYCLE_RECHECK)
          } WHERE ${dormant} RETURNING id`
          return rs.map(idOf)
        }
        // Each keeps its own dormant_at: the sum is made here, exact to the millisecond on both dialects.
        const rows = yield* sql<Row>`SELECT id, dormant_at FROM ${byTemplate} WHERE ${dormant}`
        for (const r of rows) {
          yield* sql`UPDATE workspaces SET deleting_at = ${plus(date(r.dormant_at, "workspaces.dormant_at"))}, ${
            sql.literal(LIFECYCLE_RECHECK)
          } WHERE id = ${idOf(r)}`
        }
        return rows.map(idOf)
      }).pipe(Effect.orDie),
    countByStatus: () =>
      // The kept status of each live workspace (migration 0032): along workspaces_latest_build_status, no join.
      Effect.orDie(sql`SELECT latest_build_status AS status, count(*) AS n
        FROM workspaces WHERE deleted = FALSE AND latest_build_status IS NOT NULL
        GROUP BY latest_build_status`).pipe(
        Effect.map((rs) =>
          rs.map((r) => ({
            status: latestStatus(r.status, "workspaces.latest_build_status"),
            count: int(r.n, "count(*)")
          }))
        )
      )
  })
})

/**
 * The statements of a workspace listing. The requester's favorites come first (`favorites`, read
 * through `workspaces_owner_favorite`), then the rest (`rest`) in the order of the
 * `workspaces_list` index (`workspaces_owner_list` for a page of one owner): running first, then
 * owner username, then name. Filters on the latest build join it; the others read the row alone.
 * Exported for the test of the query plans.
 */
export const listStatements = (sql: SqlClient.SqlClient, f: WorkspaceFilter) => {
  const conditions: Array<Statement.Fragment> = [f.deleted ? sql`w.deleted = TRUE` : sql`w.deleted = FALSE`]
  const v = f.visibility
  // A page of one owner reads `workspaces_owner_list`: an equality the planner can walk.
  const oneOwner = f.ownerIds !== undefined && f.ownerIds.length === 1 ? f.ownerIds[0]! : undefined
  // Own and shared workspaces count only in the organizations the requester is a member of (as
  // the evaluator grants them); every workspace of an organization whose workspaces they may read.
  const members = v.memberOrganizationIds
  const inMemberOrgs = members === undefined
    ? undefined
    : members.length === 0
    ? sql`1 = 0`
    : sql`w.organization_id IN ${sql.in(members)}`
  if (!v.all && oneOwner !== v.userId) {
    const mine: Array<Statement.Fragment> = [sql`w.owner_id = ${v.userId}`]
    if (v.shared !== false) {
      mine.push(sql`w.user_acl LIKE ${`%"${v.userId}"%`}`)
      for (const g of v.groupIds) mine.push(sql`w.group_acl LIKE ${`%"${g}"%`}`)
    }
    const seen: Array<Statement.Fragment> = [
      inMemberOrgs === undefined ? sql.or(mine) : sql.and([inMemberOrgs, sql.or(mine)])
    ]
    if (v.organizationIds.length > 0) seen.push(sql`w.organization_id IN ${sql.in(v.organizationIds)}`)
    conditions.push(sql.or(seen))
  } else if (!v.all && inMemberOrgs !== undefined) {
    // The requester's own list: not their workspaces of organizations they have left.
    conditions.push(inMemberOrgs)
  }
  if (f.ids !== undefined) conditions.push(f.ids.length === 0 ? sql`1 = 0` : sql`w.id IN ${sql.in(f.ids)}`)
  if (oneOwner !== undefined) conditions.push(sql`w.owner_id = ${oneOwner}`)
  else if (f.ownerIds !== undefined) conditions.push(sql`w.owner_id IN ${sql.in(f.ownerIds)}`)
  if (f.organizationIds !== undefined) conditions.push(sql`w.organization_id IN ${sql.in(f.organizationIds)}`)
  if (f.templateIds !== undefined) conditions.push(sql`w.template_id IN ${sql.in(f.templateIds)}`)
  if (f.name !== undefined) {
    conditions.push(sql`lower(w.name) LIKE ${`%${escapeLike(f.name.toLowerCase())}%`} ESCAPE '\\'`)
  }
  // Filters on the latest build need its join; the others read the workspace row alone.
  let needsBuild = false
  // The latest build's status is kept on the row (migration 0032).
  if (f.statuses !== undefined) conditions.push(sql`w.latest_build_status IN ${sql.in(f.statuses)}`)
  if (f.outdated !== undefined) {
    needsBuild = true
    conditions.push(
      f.outdated
        ? sql`b.template_version_id <> (SELECT t.active_version_id FROM templates t WHERE t.id = w.template_id)`
        : sql`b.template_version_id = (SELECT t.active_version_id FROM templates t WHERE t.id = w.template_id)`
    )
  }
  if (f.dormant !== undefined) conditions.push(f.dormant ? sql`w.dormant_at IS NOT NULL` : sql`w.dormant_at IS NULL`)
  if (f.lastUsedBefore !== undefined) conditions.push(sql`w.last_used_at < ${f.lastUsedBefore.toISOString()}`)
  if (f.lastUsedAfter !== undefined) conditions.push(sql`w.last_used_at > ${f.lastUsedAfter.toISOString()}`)
  if (f.hasAiTask !== undefined) {
    needsBuild = true
    conditions.push(f.hasAiTask ? sql`b.has_ai_task = TRUE` : sql`b.has_ai_task = FALSE`)
  }
  if (f.hasAgent !== undefined) {
    needsBuild = true
    // Agents never connected yet are connecting (or timeout once their connection timeout passed).
    const agents =
      sql`SELECT 1 FROM workspace_resources r JOIN workspace_agents a ON a.resource_id = r.id WHERE r.job_id = b.job_id`
    const state = f.hasAgent === "connecting" || f.hasAgent === "timeout"
      ? sql`a.first_connected_at IS NULL`
      : f.hasAgent === "connected"
      ? sql`a.first_connected_at IS NOT NULL AND (a.disconnected_at IS NULL OR a.disconnected_at < a.last_connected_at)`
      : sql`a.disconnected_at IS NOT NULL AND (a.last_connected_at IS NULL OR a.disconnected_at >= a.last_connected_at)`
    conditions.push(sql`EXISTS (${agents} AND ${state})`)
  }
  // Picked by id (`q=id:...`, a few rows): read along the primary key. SQLite, without statistics,
  // would rather walk `workspaces_list` on `deleted` for its order, every undeleted workspace.
  const table = f.ids !== undefined && f.ids.length > 0
    ? sql.onDialectOrElse({
      pg: () => sql`workspaces w`,
      orElse: () => sql`workspaces w INDEXED BY sqlite_autoindex_workspaces_1`
    })
    : sql`workspaces w`
  const from = needsBuild ? sql`${table} ${latestBuildAndJob(sql)}` : table
  // The page's rows carry their latest builds (one index seek each): the list's wire records then
  // read everything else in one round (docs/scale.md, session 62).
  const pageFrom = needsBuild ? from : sql`${table} ${latestBuildJoin(sql, "w.id", "LEFT JOIN")}`
  const favorite = sql`w.owner_id = ${f.requesterId} AND w.favorite = TRUE`
  const favorites = sql.and([...conditions, favorite])
  const rest = sql.and([...conditions, sql`NOT (${favorite})`])
  const order = sql`ORDER BY w.list_rank, w.owner_username, lower(w.name), w.id`
  const page = (where: Statement.Fragment, limit: number, offset: number) =>
    sql<Row>`SELECT w.*, ${sql.literal(JOINED_SUMMARY_COLUMNS)} FROM ${pageFrom} WHERE ${where} ${order}
      LIMIT ${limit} OFFSET ${offset}`
  return {
    oneOwner,
    favoriteCount: sql<{ n: number | string }>`SELECT count(*) AS n FROM ${from} WHERE ${favorites}`,
    favorites: (limit: number, offset: number) => page(favorites, limit, offset),
    rest: (limit: number, offset: number) => page(rest, limit, offset),
    count: sql<{ n: number | string }>`SELECT count(*) AS n FROM ${from} WHERE ${sql.and(conditions)}`
  }
}

/** The latest build of workspace `w` (joined as `b`) and its job (`j`). */
const latestBuildAndJob = (sql: SqlClient.SqlClient) =>
  sql`${latestBuildJoin(sql, "w.id", "LEFT JOIN")} LEFT JOIN provisioner_jobs j ON j.id = b.job_id`

export const layer: Layer.Layer<WorkspaceRepo, never, SqlClient.SqlClient> = Layer.effect(WorkspaceRepo, make)
