/**
 * @workbay/storage-postgres: PostgreSQL storage for one or many replicas.
 * Migrations run at start-up.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { fromClient, postgresTypes, type StoragePorts } from "@workbay/storage-sql"
import { Effect, type Layer, Redacted } from "effect"

export interface PostgresStorageConfig {
  /** A connection URL, `postgres://user@host:5432/database`. */
  readonly url: string
  readonly maxConnections?: number | undefined
  /**
   * A schema to keep every table in (created if missing), e.g. to share one
   * database between deployments or tests. Default: the connection's search_path.
   */
  readonly schema?: string | undefined
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

/** Every repository port on Postgres. */
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
    PgClient.layer({
      url: Redacted.make(schema === undefined ? config.url : withSearchPath(config.url, schema)),
      maxConnections: config.maxConnections ?? 10,
      applicationName: "workbay"
    }),
    postgresTypes,
    schema === undefined
      ? Effect.void
      : Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`))
  )
}
