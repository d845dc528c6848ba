/**
 * The `TickLock` port. On Postgres, a session advisory lock (`pg_try_advisory_lock`) held on one
 * reserved connection of the pool for as long as the effect runs, so that replicas on one
 * database (and schema: the key is hashed with `current_schema()`) tick one at a time; the lock
 * goes with the connection if the process dies. On SQLite (one process owns the file), an
 * in-process lock per client. On Postgres a process runs its locked passes one at a time (below).
 */
import { SqlClient } from "@effect/sql"
import { inProcessTickLock, TickLock } from "@workbay/core"
import { type Context, Effect, FiberRef, Layer, Option } from "effect"

const inProcess = new WeakMap<SqlClient.SqlClient, Context.Tag.Service<TickLock>>()

const LOCK = "SELECT pg_try_advisory_lock(hashtext(current_schema() || ':' || $1)) AS locked"
const UNLOCK = "SELECT pg_advisory_unlock(hashtext(current_schema() || ':' || $1)) AS unlocked"

/** Whether the running fiber is inside a locked pass (then a nested lock does not wait for the permit it holds). */
const inPass = FiberRef.unsafeMake(false)

/**
 * The lock's connection is reserved from the pool while the pass runs, and the pass needs
 * connections of its own: with several periodic passes (lifecycle, agent monitor, insights
 * rollup, proxy health) starting at once on a small pool, each holding one connection and
 * waiting for another, the pool would deadlock. So a process runs its locked passes one at a
 * time (`permit`): at most one connection is held for locks, whatever the pool's size. A lock
 * taken inside a pass does not wait for the permit its pass holds.
 */
const advisory = (sql: SqlClient.SqlClient, permit: Effect.Semaphore): Context.Tag.Service<TickLock> => ({
  withTryLock: <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) => {
    const attempt = Effect.scoped(
      Effect.gen(function*() {
        const connection = yield* Effect.orDie(sql.reserve)
        const rows = yield* Effect.orDie(connection.execute(LOCK, [key], undefined))
        if (rows[0]?.locked !== true) return Option.none<A>()
        return yield* Effect.map(Effect.locally(effect, inPass, true), Option.some).pipe(
          Effect.ensuring(Effect.ignore(connection.execute(UNLOCK, [key], undefined)))
        )
      })
    ) as Effect.Effect<Option.Option<A>, E, R>
    return Effect.flatMap(FiberRef.get(inPass), (nested) => (nested ? attempt : permit.withPermits(1)(attempt)))
  }
})

export const make = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.onDialectOrElse({
    pg: () => Effect.map(Effect.makeSemaphore(1), (permit) => advisory(sql, permit)),
    orElse: () => {
      let lock = inProcess.get(sql)
      if (lock === undefined) {
        lock = inProcessTickLock()
        inProcess.set(sql, lock)
      }
      return Effect.succeed(lock)
    }
  }))

export const layer: Layer.Layer<TickLock, never, SqlClient.SqlClient> = Layer.effect(TickLock, make)
