/**
 * The per-account sign-in failure counts (migration 0037) on @effect/sql. An attempt reads and
 * writes its key's row in one transaction, the row locked on Postgres (made first when missing,
 * so there is a row to lock); SQLite's transactions are serial. So attempts on one account from
 * any replica are counted one after the other.
 */
import { SqlClient } from "@effect/sql"
import { type LoginFailures, LoginThrottleRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, date, int, nullableDate, type Row } from "../Columns.js"
import { PURGE_BATCH } from "../Purge.js"
import { bind } from "../Rows.js"
import { transaction } from "../Transaction.js"

const rowToFailures = columns<LoginFailures>("login_failures", {
  failures: int,
  last_attempt_at: date,
  blocked_until: nullableDate
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const withTransaction = transaction(sql)
  const forUpdate = sql.literal(sql.onDialectOrElse({ pg: () => "FOR UPDATE", orElse: () => "" }))

  const find = (key: string) =>
    Effect.map(
      sql<Row>`SELECT * FROM login_failures WHERE key = ${key} ${forUpdate}`,
      (rs) => {
        const failures = rs[0] === undefined ? undefined : rowToFailures(rs[0])
        return failures === undefined || failures.failures === 0 ? undefined : failures
      }
    )

  return LoginThrottleRepo.of({
    attempt: (key, decide) =>
      withTransaction(Effect.gen(function*() {
        yield* sql.onDialectOrElse({
          // A row to lock: a placeholder with no failures (read as none) when the key has none.
          pg: () =>
            sql`INSERT INTO login_failures (key, failures, last_attempt_at, blocked_until)
            VALUES (${key}, 0, ${bind(new Date(0))}, NULL) ON CONFLICT (key) DO NOTHING`,
          orElse: () => Effect.void
        })
        const decision = decide(yield* find(key))
        if (decision._tag === "Allowed") {
          const n = decision.next
          yield* sql`INSERT INTO login_failures (key, failures, last_attempt_at, blocked_until)
            VALUES (${key}, ${n.failures}, ${bind(n.last_attempt_at)}, ${bind(n.blocked_until)})
            ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, last_attempt_at = excluded.last_attempt_at,
              blocked_until = excluded.blocked_until`
        }
        return decision
      })).pipe(Effect.orDie),
    purgeIdleBefore: (before) =>
      Effect.gen(function*() {
        const at = bind(before)
        let total = 0
        for (;;) {
          const rows = yield* sql<Row>`DELETE FROM login_failures WHERE key IN (
            SELECT key FROM login_failures WHERE last_attempt_at < ${at} AND (blocked_until IS NULL OR blocked_until < ${at})
            ORDER BY last_attempt_at LIMIT ${PURGE_BATCH}
          ) RETURNING key`
          total += rows.length
          if (rows.length < PURGE_BATCH) return total
          yield* Effect.yieldNow()
        }
      }).pipe(Effect.orDie),
    clear: (key) => Effect.orDie(Effect.asVoid(sql`DELETE FROM login_failures WHERE key = ${key}`)),
    find: (key) => Effect.orDie(find(key))
  })
})

export const layer = Layer.effect(LoginThrottleRepo, make)
