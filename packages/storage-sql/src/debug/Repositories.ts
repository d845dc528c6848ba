/** The database probe of readiness and the health report: one `SELECT 1`. */
import { SqlClient } from "@effect/sql"
import { DatabasePing } from "@workbay/core"
import { Effect, Layer } from "effect"

export const layer = Layer.effect(
  DatabasePing,
  Effect.map(SqlClient.SqlClient, (sql) => ({ ping: Effect.asVoid(sql`SELECT 1`) }))
)
