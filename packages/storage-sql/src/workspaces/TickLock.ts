/**
 * The `TickLock` port. On Postgres, a session advisory lock (`pg_try_advisory_lock`) held on one
 * reserved connection of the pool for as long as the effect runs, so that replicas on one
 * database (and schema: the key is hashed with `current_schema()`) tick one at a time; the lock
 * goes with the connection if the process dies. On SQLite (one process owns the file), an
 * in-process lock per client.
 */
import { SqlClient } from "@effect/sql"
import { inProcessTickLock, TickLock } from "@workbay/core"
import { type Context, Effect, Layer, Option } from "effect"

const inProcess = new WeakMap<SqlClient.SqlClient, Context.Tag.Service<TickLock>>()

const LOCK = "SELECT pg_try_advisory_lock(hashtext(current_schema() || ':' || $1)) AS locked"
const UNLOCK = "SELECT pg_advisory_unlock(hashtext(current_schema() || ':' || $1)) AS unlocked"

const advisory = (sql: SqlClient.SqlClient): Context.Tag.Service<TickLock> => ({
  withTryLock: <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) =>
    Effect.scoped(
      Effect.gen(function*() {
        const connection = yield* Effect.orDie(sql.reserve)
        const rows = yield* Effect.orDie(connection.execute(LOCK, [key], undefined))
        if (rows[0]?.locked !== true) return Option.none<A>()
        return yield* Effect.map(effect, Option.some).pipe(
          Effect.ensuring(Effect.ignore(connection.execute(UNLOCK, [key], undefined)))
        )
      })
    ) as Effect.Effect<Option.Option<A>, E, R>
})

export const make = Effect.map(SqlClient.SqlClient, (sql) =>
  sql.onDialectOrElse({
    pg: () => advisory(sql),
    orElse: () => {
      let lock = inProcess.get(sql)
      if (lock === undefined) {
        lock = inProcessTickLock()
        inProcess.set(sql, lock)
      }
      return lock
    }
  }))

export const layer: Layer.Layer<TickLock, never, SqlClient.SqlClient> = Layer.effect(TickLock, make)
