/**
 * @workbay/storage-postgres: PostgreSQL storage for one or many replicas.
 * Migrations run at start-up.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { fromClient, postgresTypes, type StoragePorts } from "@workbay/storage-sql"
import { type Layer, Redacted } from "effect"

export interface PostgresStorageConfig {
  /** A connection URL, `postgres://user@host:5432/database`. */
  readonly url: string
  readonly maxConnections?: number | undefined
}

/** Every repository port on Postgres. */
export const layer = (
  config: PostgresStorageConfig
): Layer.Layer<StoragePorts | SqlClient.SqlClient, SqlError.SqlError> =>
  fromClient(
    PgClient.layer({
      url: Redacted.make(config.url),
      maxConnections: config.maxConnections ?? 10,
      applicationName: "workbay"
    }),
    postgresTypes
  )
