/**
 * IdP sync settings and the claims seen at sign-ins (the `IdpSyncRepo` port) on @effect/sql,
 * migration 0048. A scope's settings are one JSON row, replaced in one statement (`ON CONFLICT`);
 * a sign-in's claims replace the user's rows, in chunks that stay under SQLite's bound on
 * parameters.
 */
import { SqlClient } from "@effect/sql"
import { IdpSyncRepo } from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { text } from "../Columns.js"
import { transaction } from "../Transaction.js"

/** Rows per insert: three parameters each, far below SQLite's 32766. */
const CHUNK = 500
/** At most this many names or values in one listing. */
const LISTING_LIMIT = 1000

const chunks = <A>(items: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const withTransaction = transaction(sql)

  /** The users a listing covers: every one, or an organization's members. */
  const ofOrganization = (column: string, organizationId: string | undefined) =>
    organizationId === undefined
      ? sql`1 = 1`
      : sql`${
        sql.literal(column)
      } IN (SELECT user_id FROM organization_members WHERE organization_id = ${organizationId})`

  return IdpSyncRepo.of({
    find: (scope) =>
      sql<{ settings: unknown }>`SELECT settings FROM idp_sync_settings WHERE scope = ${scope}`.pipe(
        Effect.map((rows) => {
          if (rows.length === 0) return Option.none()
          try {
            return Option.some(JSON.parse(text(rows[0]!.settings, "idp_sync_settings.settings")) as unknown)
          } catch {
            return Option.none()
          }
        }),
        Effect.orDie
      ),
    save: (scope, settings, at) =>
      sql`INSERT INTO idp_sync_settings (scope, settings, updated_at)
          VALUES (${scope}, ${JSON.stringify(settings)}, ${at.toISOString()})
          ON CONFLICT (scope) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    recordClaims: (userId, seen) =>
      withTransaction(Effect.gen(function*() {
        yield* sql`DELETE FROM oidc_claim_fields WHERE user_id = ${userId}`
        yield* sql`DELETE FROM oidc_claim_values WHERE user_id = ${userId}`
        for (const part of chunks(seen.fields)) {
          yield* sql`INSERT INTO oidc_claim_fields ${sql.insert(part.map((field) => ({ user_id: userId, field })))}`
        }
        for (const part of chunks(seen.values)) {
          yield* sql`INSERT INTO oidc_claim_values ${
            sql.insert(part.map((v) => ({ user_id: userId, field: v.field, value: v.value })))
          }`
        }
      })).pipe(Effect.orDie),
    claimFields: (organizationId) =>
      sql<{ field: unknown }>`SELECT DISTINCT field FROM oidc_claim_fields
          WHERE ${ofOrganization("user_id", organizationId)}
          ORDER BY field LIMIT ${LISTING_LIMIT}`.pipe(
        Effect.map((rows) => rows.map((r) => text(r.field, "oidc_claim_fields.field"))),
        Effect.orDie
      ),
    claimFieldValues: (organizationId, field) =>
      sql<{ value: unknown }>`SELECT DISTINCT value FROM oidc_claim_values
          WHERE field = ${field} AND ${ofOrganization("user_id", organizationId)}
          ORDER BY value LIMIT ${LISTING_LIMIT}`.pipe(
        Effect.map((rows) => rows.map((r) => text(r.value, "oidc_claim_values.value"))),
        Effect.orDie
      )
  })
})

export const layer = Layer.effect(IdpSyncRepo, make)
