/** Workspaces on @effect/sql. Sharing lists are JSON text; names are unique per owner among the undeleted. */
import { SqlClient, type Statement } from "@effect/sql"
import { type WorkspaceFilter, type WorkspaceRecord, WorkspaceRepo, type WorkspaceStatus } from "@workbay/core"
import { Effect, Layer } from "effect"
import { escapeLike } from "../Filters.js"
import { bindRecord, first, fromJson, toBool, toDate, toDateOrNull, toNumber } from "../Rows.js"
import { unique } from "../Unique.js"

type Row = Record<string, unknown>

export const rowToWorkspace = (r: Row): WorkspaceRecord => ({
  id: r.id as string,
  created_at: toDate(r.created_at),
  updated_at: toDate(r.updated_at),
  owner_id: r.owner_id as string,
  organization_id: r.organization_id as string,
  template_id: r.template_id as string,
  deleted: toBool(r.deleted),
  name: r.name as string,
  autostart_schedule: r.autostart_schedule as string,
  ttl_ms: r.ttl_ms === null || r.ttl_ms === undefined ? null : toNumber(r.ttl_ms),
  last_used_at: toDate(r.last_used_at),
  dormant_at: toDateOrNull(r.dormant_at),
  deleting_at: toDateOrNull(r.deleting_at),
  next_start_at: toDateOrNull(r.next_start_at),
  automatic_updates: r.automatic_updates as WorkspaceRecord["automatic_updates"],
  favorite: toBool(r.favorite),
  user_acl: fromJson(r.user_acl, {}),
  group_acl: fromJson(r.group_acl, {})
})

/** The workspace repository on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const byId = (id: string) =>
    Effect.orDie(sql<Row>`SELECT * FROM workspaces WHERE id = ${id}`).pipe(Effect.map((rs) => first(rs, rowToWorkspace)))
  return WorkspaceRepo.of({
    insert: (w) => unique(sql`INSERT INTO workspaces ${sql.insert(bindRecord(w))}`).pipe(Effect.asVoid),
    findById: byId,
    findByOwnerAndName: (ownerId, name, includeDeleted) =>
      Effect.orDie(sql<Row>`SELECT * FROM workspaces
        WHERE owner_id = ${ownerId} AND lower(name) = lower(${name}) ${includeDeleted ? sql`` : sql`AND deleted = FALSE`}
        ORDER BY deleted, updated_at DESC LIMIT 1`).pipe(Effect.map((rs) => first(rs, rowToWorkspace))),
    update: (id, patch) =>
      Effect.gen(function*() {
        const values = bindRecord(patch)
        if (Object.keys(values).length > 0) yield* unique(sql`UPDATE workspaces SET ${sql.update(values)} WHERE id = ${id}`)
        return yield* byId(id)
      }),
    list: (f: WorkspaceFilter) =>
      Effect.gen(function*() {
        const conditions: Array<Statement.Fragment> = [f.deleted ? sql`w.deleted = TRUE` : sql`w.deleted = FALSE`]
        const v = f.visibility
        if (!v.all) {
          const seen: Array<Statement.Fragment> = [sql`w.owner_id = ${v.userId}`, sql`w.user_acl LIKE ${`%"${v.userId}"%`}`]
          if (v.organizationIds.length > 0) seen.push(sql`w.organization_id IN ${sql.in(v.organizationIds)}`)
          for (const g of v.groupIds) seen.push(sql`w.group_acl LIKE ${`%"${g}"%`}`)
          conditions.push(sql.or(seen))
        }
        if (f.ids !== undefined) conditions.push(f.ids.length === 0 ? sql`1 = 0` : sql`w.id IN ${sql.in(f.ids)}`)
        if (f.ownerIds !== undefined) conditions.push(sql`w.owner_id IN ${sql.in(f.ownerIds)}`)
        if (f.organizationIds !== undefined) conditions.push(sql`w.organization_id IN ${sql.in(f.organizationIds)}`)
        if (f.templateIds !== undefined) conditions.push(sql`w.template_id IN ${sql.in(f.templateIds)}`)
        if (f.name !== undefined) conditions.push(sql`lower(w.name) LIKE ${`%${escapeLike(f.name.toLowerCase())}%`} ESCAPE '\\'`)
        if (f.statuses !== undefined) conditions.push(sql`${sql.literal(WORKSPACE_STATUS_SQL)} IN ${sql.in(f.statuses)}`)
        if (f.outdated !== undefined) {
          conditions.push(f.outdated
            ? sql`b.template_version_id <> (SELECT t.active_version_id FROM templates t WHERE t.id = w.template_id)`
            : sql`b.template_version_id = (SELECT t.active_version_id FROM templates t WHERE t.id = w.template_id)`)
        }
        if (f.dormant !== undefined) conditions.push(f.dormant ? sql`w.dormant_at IS NOT NULL` : sql`w.dormant_at IS NULL`)
        if (f.lastUsedBefore !== undefined) conditions.push(sql`w.last_used_at < ${f.lastUsedBefore.toISOString()}`)
        if (f.lastUsedAfter !== undefined) conditions.push(sql`w.last_used_at > ${f.lastUsedAfter.toISOString()}`)
        if (f.hasAiTask !== undefined) conditions.push(f.hasAiTask ? sql`b.has_ai_task = TRUE` : sql`b.has_ai_task = FALSE`)
        if (f.hasAgent !== undefined) {
          // Agents never connected yet are connecting (or timeout once their connection timeout passed).
          const agents = sql`SELECT 1 FROM workspace_resources r JOIN workspace_agents a ON a.resource_id = r.id WHERE r.job_id = b.job_id`
          const state = f.hasAgent === "connecting" || f.hasAgent === "timeout"
            ? sql`a.first_connected_at IS NULL`
            : f.hasAgent === "connected"
            ? sql`a.first_connected_at IS NOT NULL AND (a.disconnected_at IS NULL OR a.disconnected_at < a.last_connected_at)`
            : sql`a.disconnected_at IS NOT NULL AND (a.last_connected_at IS NULL OR a.disconnected_at >= a.last_connected_at)`
          conditions.push(sql`EXISTS (${agents} AND ${state})`)
        }
        const where = sql.and(conditions)
        const rows = yield* Effect.orDie(sql<Row>`SELECT w.* FROM workspaces w
          JOIN users u ON u.id = w.owner_id
          ${sql.literal(LATEST_BUILD_JOIN)}
          WHERE ${where}
          ORDER BY CASE WHEN w.owner_id = ${f.requesterId} AND w.favorite = TRUE THEN 0 ELSE 1 END,
            CASE WHEN j.job_status = 'succeeded' AND b.transition = 'start' THEN 0 ELSE 1 END,
            lower(u.username), lower(w.name), w.id
          LIMIT ${f.limit} OFFSET ${f.offset}`)
        const counted = yield* Effect.orDie(sql<{ n: number | string }>`SELECT count(*) AS n FROM workspaces w
          ${sql.literal(LATEST_BUILD_JOIN)}
          WHERE ${where}`)
        return { workspaces: rows.map(rowToWorkspace), count: Number(counted[0]?.n ?? 0) }
      }),
    creditsConsumed: (organizationId, ownerId, excludeWorkspaceId) =>
      Effect.orDie(sql<{ n: number | string | null }>`SELECT coalesce(sum(b.daily_cost), 0) AS n FROM workspaces w
        ${sql.literal(LATEST_BUILD_JOIN)}
        WHERE w.organization_id = ${organizationId} AND w.owner_id = ${ownerId} AND w.deleted = FALSE
          AND b.transition = 'start' ${excludeWorkspaceId === undefined ? sql`` : sql`AND w.id <> ${excludeWorkspaceId}`}`).pipe(
        Effect.map((rs) => Number(rs[0]?.n ?? 0))
      ),
    countByStatus: () =>
      Effect.orDie(sql<{ status: string; n: number | string }>`SELECT ${sql.literal(WORKSPACE_STATUS_SQL)} AS status, count(*) AS n
        FROM workspaces w ${sql.literal(LATEST_BUILD_JOIN)}
        WHERE w.deleted = FALSE AND b.id IS NOT NULL
        GROUP BY ${sql.literal(WORKSPACE_STATUS_SQL)}`).pipe(
        Effect.map((rs) => rs.map((r) => ({ status: r.status as WorkspaceStatus, count: Number(r.n) })))
      )
  })
})

/** The latest build of workspace `w` (joined as `b`) and its job (`j`). */
const LATEST_BUILD_JOIN = `LEFT JOIN workspace_builds b ON b.workspace_id = w.id
    AND b.build_number = (SELECT max(x.build_number) FROM workspace_builds x WHERE x.workspace_id = w.id)
  LEFT JOIN provisioner_jobs j ON j.id = b.job_id`

/** A workspace's status from its latest build's transition and job, in SQL (as `buildStatus`). */
export const WORKSPACE_STATUS_SQL = `CASE
    WHEN j.job_status = 'pending' THEN 'pending'
    WHEN j.job_status = 'running' THEN CASE b.transition WHEN 'start' THEN 'starting' WHEN 'stop' THEN 'stopping' ELSE 'deleting' END
    WHEN j.job_status = 'succeeded' THEN CASE b.transition WHEN 'start' THEN 'running' WHEN 'stop' THEN 'stopped' ELSE 'deleted' END
    ELSE j.job_status
  END`

export const layer: Layer.Layer<WorkspaceRepo, never, SqlClient.SqlClient> = Layer.effect(WorkspaceRepo, make)
