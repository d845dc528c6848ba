/**
 * Filtered reads shared by the log repositories (audit_logs, connection_logs): the WHERE
 * clause of a filter whose fields are each optional, a page newest first, and a capped count;
 * the LIKE escaping of the user searches (users, group members), and the user conditions of
 * the member listings.
 */
import type { SqlClient, Statement } from "@effect/sql"
import { Effect } from "effect"
import type { Reads } from "./DirectReads.js"

type Condition = Statement.Fragment | undefined

/** Escapes LIKE wildcards so user text matches literally (used with `ESCAPE '\\'`). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** The user filter of a member listing (organization or group members). */
export interface UserFilter {
  readonly search?: string | undefined
  readonly username?: string | undefined
  readonly email?: string | undefined
  readonly status?: string | undefined
  readonly loginType?: string | undefined
}

/** Conditions on the members' users (alias `u`) a filter sets; none without one. */
export const userConditions = (sql: SqlClient.SqlClient, f: UserFilter): Array<Statement.Fragment> => {
  const where: Array<Statement.Fragment> = []
  if (f.search) {
    const like = `%${escapeLike(f.search)}%`
    where.push(
      sql`(lower(u.username) LIKE lower(${like}) ESCAPE '\\' OR lower(u.email) LIKE lower(${like}) ESCAPE '\\'
        OR lower(u.name) LIKE lower(${like}) ESCAPE '\\')`
    )
  }
  if (f.username) where.push(sql`lower(u.username) = lower(${f.username})`)
  if (f.email) where.push(sql`lower(u.email) = lower(${f.email})`)
  if (f.status) where.push(sql`u.status = ${f.status}`)
  if (f.loginType) where.push(sql`u.login_type = ${f.loginType}`)
  return where
}

/** Conditions over `sql`; each answers `undefined` when its filter field is not given. */
export const filters = (sql: SqlClient.SqlClient) => ({
  /** The AND of the given conditions; `1 = 1` when there are none. */
  allOf: (conditions: ReadonlyArray<Condition>): Statement.Fragment => {
    const parts = conditions.filter((c): c is Statement.Fragment => c !== undefined)
    return parts.length === 0 ? sql`1 = 1` : sql.and(parts)
  },
  /** `column = value`. */
  equals: (column: string, value: string | undefined): Condition =>
    value === undefined ? undefined : sql`${sql(column)} = ${value}`,
  /** `column` is one of `values`; nothing matches an empty list. */
  oneOf: (column: string, values: ReadonlyArray<string> | undefined): Condition =>
    values === undefined ? undefined : values.length === 0 ? sql`1 = 0` : sql.in(column, values),
  /**
   * `column` holds the id of a user whose username (or email) is `value`, in any case;
   * deleted users included (their usernames may have been taken since).
   */
  userWith: (column: string, field: "username" | "email", value: string | undefined): Condition =>
    value === undefined
      ? undefined
      : sql`${sql(column)} IN (SELECT id FROM users WHERE lower(${sql(field)}) = lower(${value}))`
})

/**
 * A page of `table` newest first, along its (`timeColumn`, id) index: a page costs the same at
 * any table size. Read through `reads` (see DirectReads.ts).
 */
export const newestFirst = (
  sql: SqlClient.SqlClient,
  reads: Reads,
  table: string,
  timeColumn: string,
  where: Statement.Fragment,
  page: { readonly limit: number; readonly offset: number }
) =>
  reads(
    sql`SELECT * FROM ${sql(table)} WHERE ${where} ORDER BY ${
      sql(timeColumn)
    } DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`
  ).pipe(
    Effect.orDie
  )

/** How many rows of `table` match `where`; counting stops after `cap + 1` rows, so it costs at most that many index entries. */
export const cappedCount = (
  sql: SqlClient.SqlClient,
  reads: Reads,
  table: string,
  where: Statement.Fragment,
  cap: number
) =>
  reads.mapped(
    sql<{ n: number | string }>`SELECT count(*) AS n FROM (SELECT 1 FROM ${sql(table)} WHERE ${where} LIMIT ${
      cap + 1
    }) capped`,
    (rs) => Number(rs[0]!.n)
  )
