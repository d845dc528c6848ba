/**
 * AI tasks on @effect/sql (migration 0018). Listings read a page of the newest undeleted tasks
 * along `tasks_owner_created` (one owner), `tasks_organization_created` or `tasks_created`; the
 * count of a listing of one owner's (or every) task is a kept count in `counters` (`tasks`,
 * `tasks:<owner id>`), moved with every insert and deletion, so it is one row read at any size.
 */
import { SqlClient, type Statement } from "@effect/sql"
import { type TaskFilter, type TaskRecord, TaskRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { bool, columns, date, first, nullableText, type Row, text } from "../Columns.js"
import { bindRecord } from "../Rows.js"
import { bumpTaskCounts } from "../TaskCounts.js"
import { transaction } from "../Transaction.js"
import { unique } from "../Unique.js"

const rowToTask = columns<TaskRecord>("tasks", {
  id: text,
  created_at: date,
  updated_at: date,
  organization_id: text,
  owner_id: text,
  name: text,
  display_name: text,
  prompt: text,
  template_id: text,
  template_version_id: text,
  app_slug: text,
  template_version_preset_id: nullableText,
  workspace_id: nullableText,
  deleted: bool
}).read

/** The owner of each task a statement changed (`RETURNING owner_id`). */
const ownerOf = (r: Row) => text(r.owner_id, "tasks.owner_id")

/** The WHERE conditions of a listing (exported for the test of the query plans). */
export const listConditions = (sql: SqlClient.SqlClient, f: TaskFilter): Array<Statement.Fragment> => {
  const conditions: Array<Statement.Fragment> = [sql`deleted = FALSE`]
  const v = f.visibility
  const oneOwner = f.ownerIds !== undefined && f.ownerIds.length === 1 ? f.ownerIds[0]! : undefined
  if (!v.all && oneOwner !== v.userId) {
    const seen: Array<Statement.Fragment> = [sql`owner_id = ${v.userId}`]
    if (v.organizationIds.length > 0) seen.push(sql`organization_id IN ${sql.in(v.organizationIds)}`)
    conditions.push(sql.or(seen))
  }
  if (oneOwner !== undefined) conditions.push(sql`owner_id = ${oneOwner}`)
  else if (f.ownerIds !== undefined) {
    conditions.push(f.ownerIds.length === 0 ? sql`1 = 0` : sql`owner_id IN ${sql.in(f.ownerIds)}`)
  }
  if (f.organizationIds !== undefined) {
    conditions.push(f.organizationIds.length === 0 ? sql`1 = 0` : sql`organization_id IN ${sql.in(f.organizationIds)}`)
  }
  return conditions
}

/** The page of a listing, newest first (exported for the test of the query plans). */
export const listPage = (sql: SqlClient.SqlClient, f: TaskFilter) =>
  sql<Row>`SELECT * FROM tasks WHERE ${sql.and(listConditions(sql, f))}
    ORDER BY created_at DESC, id DESC LIMIT ${f.limit} OFFSET ${f.offset}`

/** The task repository on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const withTransaction = transaction(sql)
  const byId = (id: string) =>
    Effect.orDie(sql<Row>`SELECT * FROM tasks WHERE id = ${id}`).pipe(Effect.map((rs) => first(rs, rowToTask)))
  const keptCount = (name: string) =>
    Effect.orDie(sql<{ value: number | string }>`SELECT value FROM counters WHERE name = ${name}`).pipe(
      Effect.map((rs) => Number(rs[0]?.value ?? 0))
    )
  const countOf = (f: TaskFilter, where: Statement.Fragment) => {
    const oneOwner = f.ownerIds !== undefined && f.ownerIds.length === 1 ? f.ownerIds[0]! : undefined
    if (f.organizationIds === undefined) {
      if (f.ownerIds === undefined && f.visibility.all) return keptCount("tasks")
      if (oneOwner !== undefined && (f.visibility.all || oneOwner === f.visibility.userId)) {
        return keptCount(`tasks:${oneOwner}`)
      }
    }
    return Effect.orDie(sql<{ n: number | string }>`SELECT count(*) AS n FROM tasks WHERE ${where}`).pipe(
      Effect.map((rs) => Number(rs[0]?.n ?? 0))
    )
  }
  return TaskRepo.of({
    insert: (t) =>
      unique(withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO tasks ${sql.insert(bindRecord(t))}`
        if (!t.deleted) yield* bumpTaskCounts(sql, t.owner_id, 1)
      }))).pipe(Effect.asVoid),
    findById: byId,
    findByOwnerAndName: (ownerId, name) =>
      Effect.orDie(
        sql<Row>`SELECT * FROM tasks WHERE owner_id = ${ownerId} AND lower(name) = lower(${name}) AND deleted = FALSE
        LIMIT 1`
      ).pipe(Effect.map((rs) => first(rs, rowToTask))),
    update: (id, patch) =>
      Effect.gen(function*() {
        const { deleted, ...rest } = patch
        const values = bindRecord(rest)
        yield* withTransaction(Effect.gen(function*() {
          if (deleted !== undefined) {
            const rs = yield* sql`UPDATE tasks SET deleted = ${deleted ? sql`TRUE` : sql`FALSE`}
              WHERE id = ${id} AND deleted = ${deleted ? sql`FALSE` : sql`TRUE`} RETURNING owner_id`
            if (rs.length > 0) yield* bumpTaskCounts(sql, ownerOf(rs[0]!), deleted ? -1 : 1)
          }
          if (Object.keys(values).length > 0) yield* sql`UPDATE tasks SET ${sql.update(values)} WHERE id = ${id}`
        })).pipe(Effect.orDie)
        return yield* byId(id)
      }),
    list: (f) =>
      Effect.gen(function*() {
        const rows = yield* Effect.orDie(listPage(sql, f))
        return { tasks: rows.map(rowToTask), count: yield* countOf(f, sql.and(listConditions(sql, f))) }
      })
  })
})

export const layer: Layer.Layer<TaskRepo, never, SqlClient.SqlClient> = Layer.effect(TaskRepo, make)
