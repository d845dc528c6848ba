/** Unique-index violations as the typed `UniqueViolation` of the ports, on both dialects. */
import type { SqlError } from "@effect/sql"
import { UniqueViolation } from "@workbay/core"
import { Effect } from "effect"

/** The name of the unique constraint a failed write hit, if that is why it failed. */
export const uniqueConstraintOf = (error: SqlError.SqlError): string | undefined => {
  const cause = error.cause as { code?: string; constraint?: string; message?: string } | undefined
  if (cause?.code === "23505") return cause.constraint ?? "unique"
  if (cause?.code?.startsWith("SQLITE_CONSTRAINT") && /UNIQUE|PRIMARY/.test(cause.message ?? "")) {
    return cause.message ?? "unique"
  }
  return undefined
}

/** Unique violations become typed failures; every other SQL error is a defect. */
export const unique = <A, R>(effect: Effect.Effect<A, SqlError.SqlError, R>): Effect.Effect<A, UniqueViolation, R> =>
  Effect.catchAll(effect, (e) => {
    const constraint = uniqueConstraintOf(e)
    return constraint !== undefined ? Effect.fail(new UniqueViolation({ constraint })) : Effect.die(e)
  })
