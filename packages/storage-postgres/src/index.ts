/**
 * @workbay/storage-postgres: PostgreSQL storage for one or many replicas.
 * Migrations run at start-up; replicas signal each other with LISTEN/NOTIFY (the PubSub port).
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { fromClient, postgresTypes, type StoragePorts } from "@workbay/storage-sql"
import { Effect, type Layer, Redacted } from "effect"
import { createHash } from "node:crypto"
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
    PgClient.layer({
      url: Redacted.make(schema === undefined ? config.url : withSearchPath(config.url, schema)),
      maxConnections: config.maxConnections ?? 10,
      applicationName: "workbay"
    }),
    postgresTypes,
    schema === undefined
      ? Effect.void
      : Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)),
    PgPubSub.layer({ url: config.url, prefix: channelPrefix(schema) })
  )
}
