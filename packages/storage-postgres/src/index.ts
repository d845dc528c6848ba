/**
 * @workbay/storage-postgres: PostgreSQL storage for one or many replicas.
 * Migrations run at start-up; replicas signal each other with LISTEN/NOTIFY (the PubSub port).
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { isWriteStatement, Metrics, type MetricsShape, secondsSince } from "@workbay/core"
import { fromClient, postgresTypes, registerPoolReads, type StoragePorts } from "@workbay/storage-sql"
import { Context, Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import pg from "pg"
import { poolRead } from "./PoolReads.js"
import * as PgPubSub from "./PubSub.js"

export { PgPubSub }

export interface PostgresStorageConfig {
  /** A connection URL, `postgres://user@host:5432/database`. */
  readonly url: string
  readonly maxConnections?: number | undefined
  /**
   * A schema to keep every table in (created if missing), e.g. to share one
   * database between deployments or tests. Default: the connection's search_path.
   */
  readonly schema?: string | undefined
  /**
   * Whether the hot reads (the key lookup of every authenticated request) run as prepared
   * statements, parsed once per connection. Turn off behind a pooler that cannot keep them
   * (PgBouncer in transaction mode before 1.21). Default: true.
   */
  readonly preparedStatements?: boolean | undefined
}

/** Lower-case only: the name goes unquoted into search_path, where Postgres folds case. */
const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/

/** The URL with `search_path` set on every connection through the startup `options` parameter. */
const withSearchPath = (url: string, schema: string): string => {
  const parsed = new URL(url)
  const existing = parsed.searchParams.get("options")
  parsed.searchParams.set("options", `${existing ? existing + " " : ""}-c search_path=${schema}`)
  return parsed.toString()
}

/**
 * PubSub channels are per database: a deployment in its own schema prefixes its channels with
 * a short hash of the schema name, so deployments sharing a database do not signal each other.
 */
const channelPrefix = (schema: string | undefined) =>
  schema === undefined ? "" : `s${createHash("sha256").update(schema).digest("hex").slice(0, 8)}_`

/**
 * The pool, as @effect/sql-pg would make it (checked with `SELECT 1`, ended with the layer), and
 * the client on it. The storage keeps the pool so the hot reads can run on it directly
 * (storage-sql's DirectReads.ts; see PoolReads.ts).
 */
/**
 * Times every statement a pool's connections run into `metrics` (metrics on only): each new
 * connection's `query` is wrapped, whichever path calls it (the client's, the pool reads), from
 * the call to its answer (callback or promise); a cursor's (streamed) queries are not timed.
 */
const timeQueries = (pool: pg.Pool, metrics: MetricsShape) =>
  pool.on("connect", (client) => {
    const query = client.query as (...args: Array<unknown>) => unknown
    client.query = function(this: unknown, ...args: Array<unknown>) {
      const started = performance.now()
      const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: unknown } | undefined)?.text
      const write = typeof text === "string" && isWriteStatement(text)
      const done = () => metrics.databaseQuery(secondsSince(started), write)
      const last = args.length - 1
      const callback = args[last]
      if (typeof callback === "function") {
        args[last] = function(this: unknown, ...results: Array<unknown>) {
          done()
          return callback.apply(this, results)
        }
        return query.apply(this, args)
      }
      const answer = query.apply(this, args)
      if (answer instanceof Promise) answer.then(done, done)
      return answer
    } as typeof client.query
  })

/**
 * Times every wait for one of a pool's connections into `metrics` (metrics on only): `connect`,
 * which the pool's own `query` and the client's transactions call, from the call to the
 * connection handed over: the queue's wait when all `max` were busy, a new connection's opening
 * when there were fewer, and otherwise the turn of the event loop the pool hands an idle one over
 * in (near 0, unless the process is busy).
 */
const timeConnectionWaits = (pool: pg.Pool, metrics: MetricsShape) => {
  const connect = pool.connect.bind(pool) as (callback: (...results: Array<unknown>) => void) => void
  pool.connect = function(callback?: (...results: Array<unknown>) => void) {
    const started = performance.now()
    if (callback === undefined) {
      return new Promise((resolve, reject) =>
        connect((error: unknown, client: unknown) => {
          metrics.databaseConnectionWait(secondsSince(started))
          if (error) reject(error)
          else resolve(client as pg.PoolClient)
        })
      )
    }
    connect((...results: Array<unknown>) => {
      metrics.databaseConnectionWait(secondsSince(started))
      callback(...results)
    })
  } as typeof pool.connect
}

const clientLayer = (
  url: string,
  max: number,
  prepared: boolean
): Layer.Layer<SqlClient.SqlClient, SqlError.SqlError> => {
  const acquire = Effect.acquireRelease(
    Effect.flatMap(Metrics, (metrics) =>
      Effect.suspend(() => {
        const pool = new pg.Pool({ connectionString: url, max, application_name: "workbay" })
        if (metrics.enabled) {
          timeQueries(pool, metrics)
          timeConnectionWaits(pool, metrics)
        }
        // An idle connection's error (the server restarted, say) is the pool's to recover from, not a crash.
        pool.on("error", () => {})
        return Effect.as(
          Effect.tryPromise({
            try: () => pool.query("SELECT 1"),
            catch: (cause) => new SqlError.SqlError({ cause, message: "PgClient: Failed to connect" })
          }).pipe(
            Effect.timeoutFail({
              duration: "5 seconds",
              onTimeout: () =>
                new SqlError.SqlError({
                  cause: new Error("Connection timed out"),
                  message: "PgClient: Connection timed out"
                })
            }),
            Effect.tapError(() => Effect.promise(() => pool.end()))
          ),
          pool
        )
      })),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
  )
  return Layer.scopedContext(Effect.gen(function*() {
    const pool = yield* acquire
    const client = yield* PgClient.fromPool({ acquire: Effect.succeed(pool), applicationName: "workbay" })
    registerPoolReads(client, poolRead(pool, prepared))
    return Context.make(SqlClient.SqlClient, client)
  })).pipe(Layer.provide(Reactivity.layer))
}

/** Every repository port on Postgres, and the PubSub port on LISTEN/NOTIFY. */
export const layer = (
  config: PostgresStorageConfig
): Layer.Layer<StoragePorts | SqlClient.SqlClient, SqlError.SqlError> => {
  const schema = config.schema
  if (schema !== undefined && !schemaPattern.test(schema)) {
    throw new TypeError(
      `Invalid Postgres schema name "${schema}": use lower-case letters, digits and '_' (at most 63).`
    )
  }
  return fromClient(
    clientLayer(
      schema === undefined ? config.url : withSearchPath(config.url, schema),
      config.maxConnections ?? 10,
      config.preparedStatements ?? true
    ),
    postgresTypes,
    schema === undefined
      ? Effect.void
      : Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)),
    PgPubSub.layer({ url: config.url, prefix: channelPrefix(schema) })
  )
}
