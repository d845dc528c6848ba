/**
 * No statement binds a value where a partial index's condition names a constant. SQLite plans
 * `login_type = ?` against an index `WHERE login_type = 'token'` by looking at the value bound
 * (`exprCompareVariable`): the prepared statement then depends on that value and is prepared
 * again on every run, its plan with it (7% of the token list's CPU, 20% of its cost with the
 * garbage it made). The constant written into the statement is planned once. The conditions come
 * from the migrated schema, so a new partial index is checked too; the statements from the
 * repositories that compare such columns, recorded as better-sqlite3 prepares them.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ApiKeyRepo, MetricsSnapshotRepo, UserRepo, WorkspaceProxyRepo } from "@workbay/core"
import * as Sqlite from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"

/** A column a partial index's condition compares with a constant, on its table. */
interface Condition {
  readonly index: string
  readonly table: string
  readonly column: string
}

/** `col = constant` terms of every partial index of the schema. */
const partialConditions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string; tbl_name: string; sql: string }>`
    SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql LIKE '% WHERE %'`
  return rows.flatMap((r) =>
    r.sql.slice(r.sql.lastIndexOf(" WHERE ") + 7).split(/\s+AND\s+/i).flatMap((term): Array<Condition> => {
      const m = /^\(?\s*(\w+)\s*=\s*(TRUE|FALSE|'[^']*'|-?\d+)\s*\)?$/i.exec(term.trim())
      return m === null ? [] : [{ index: r.name, table: r.tbl_name, column: m[1]! }]
    })
  )
})

/** The statements `effect` prepares (better-sqlite3's `prepare`, by text), with what it answers. */
const recording = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const texts = new Set<string>()
      const prepare = Database.prototype.prepare
      Database.prototype.prepare = function(this: Database.Database, source: string) {
        texts.add(source)
        return prepare.call(this, source)
      } as typeof prepare
      return { texts, prepare }
    }),
    ({ texts }) => Effect.as(effect, texts),
    ({ prepare }) => Effect.sync(() => (Database.prototype.prepare = prepare))
  )

/**
 * The statements of `texts` that bind a value in one of `conditions`' columns on its table, in
 * their conditions (from the first WHERE on: `SET deleted = ?` is not planned).
 */
const bindingInConditions = (texts: Iterable<string>, conditions: ReadonlyArray<Condition>) =>
  [...texts].flatMap((text) =>
    conditions
      .filter((c) => {
        const where = text.search(/\bWHERE\b/i)
        return where >= 0 && new RegExp(`\\b${c.table}\\b`, "i").test(text) &&
          new RegExp(`\\b${c.column}\\s*(=|==|<>|!=|IS)\\s*\\?`, "i").test(text.slice(where))
      })
      .map((c) => `${c.index} (${c.table}.${c.column}): ${text.replace(/\s+/g, " ")}`)
  )

describe("partial indexes' conditions", () => {
  it.effect("are read from the schema", () =>
    Effect.gen(function*() {
      const conditions = yield* partialConditions
      expect(conditions).toContainEqual({ index: "api_keys_token_name_key", table: "api_keys", column: "login_type" })
      expect(conditions).toContainEqual({
        index: "workspace_agents_open",
        table: "workspace_agents",
        column: "connected"
      })
      expect(conditions).toContainEqual({ index: "users_username_key", table: "users", column: "deleted" })
      // The check itself: a bound value in such a column is found, a written constant is not.
      expect(bindingInConditions(["SELECT * FROM api_keys WHERE user_id = ? AND login_type = ?"], conditions))
        .toHaveLength(1)
      expect(bindingInConditions(["SELECT * FROM api_keys WHERE user_id = ? AND login_type = 'token'"], conditions))
        .toEqual([])
      expect(bindingInConditions(["UPDATE users SET deleted = ? WHERE id = ?"], conditions)).toEqual([])
    }).pipe(Effect.provide(Sqlite.layer({ filename: ":memory:" }))))

  it.effect("are written into the statements that compare them, never bound", () =>
    Effect.gen(function*() {
      const conditions = yield* partialConditions
      const at = new Date()
      const id = randomUUID()
      const texts = yield* recording(Effect.gen(function*() {
        const keys = yield* ApiKeyRepo
        yield* keys.list({ userId: id, includeExpired: false, now: at, tokensOnly: true })
        yield* keys.list({ userId: id, includeExpired: true, now: at })
        yield* keys.listAllTokens({ includeExpired: false, now: at })
        yield* keys.findByName(id, "name")
        const users = yield* UserRepo
        yield* users.update(id, { deleted: true })
        yield* users.update(id, { deleted: false })
        yield* users.findByUsername("someone")
        yield* users.findByEmail("someone@example.com")
        yield* (yield* MetricsSnapshotRepo).snapshot
        const proxies = yield* WorkspaceProxyRepo
        yield* proxies.findByName("p")
        yield* proxies.list(10)
        yield* proxies.update(id, { name: "p", display_name: "P", icon: "" }, at)
        yield* proxies.update(id, { name: "p", display_name: "P", icon: "", token_hashed_secret: "h" }, at)
        yield* proxies.markDeleted(id, at)
        yield* proxies.register(id, {
          url: "https://p.example.com",
          wildcard_hostname: "",
          derp_enabled: false,
          derp_only: false,
          version: "v1"
        }, at)
        yield* proxies.setStatuses([{ id, status: "ok", report: { errors: [], warnings: [] }, checked_at: at }])
      }))
      expect(texts.size).toBeGreaterThan(10)
      expect(bindingInConditions(texts, conditions)).toEqual([])
    }).pipe(Effect.provide(Sqlite.layer({ filename: ":memory:" }))))
})
