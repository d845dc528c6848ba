/**
 * External auth links (the `ExternalAuthLinkRepo` port) on @effect/sql, migration 0025. Each
 * write is one statement: the insert-or-replace of a new token (`ON CONFLICT` on the primary
 * key), and the refresh's replace guarded by the refresh token it used, so of two racing
 * refreshes only the first stores its token.
 */
import { SqlClient } from "@effect/sql"
import { type ExternalAuthLinkRecord, ExternalAuthLinkRepo } from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { first, fromJson, toDate, toDateOrNull } from "../Rows.js"

type Row = Record<string, unknown>

const rowToLink = (r: Row): ExternalAuthLinkRecord => ({
  provider_id: r.provider_id as string,
  user_id: r.user_id as string,
  created_at: toDate(r.created_at),
  updated_at: toDate(r.updated_at),
  oauth_access_token: r.oauth_access_token as string,
  oauth_refresh_token: r.oauth_refresh_token as string,
  oauth_expiry: toDateOrNull(r.oauth_expiry),
  oauth_extra: r.oauth_extra === null || r.oauth_extra === undefined
    ? null
    : fromJson<Record<string, unknown> | null>(r.oauth_extra, null),
  oauth_refresh_failure_reason: r.oauth_refresh_failure_reason as string
})

const COLUMNS =
  "provider_id, user_id, created_at, updated_at, oauth_access_token, oauth_refresh_token, oauth_expiry, oauth_extra, oauth_refresh_failure_reason"

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(COLUMNS)
  const iso = (d: Date | null) => (d === null ? null : d.toISOString())
  const extra = (e: ExternalAuthLinkRecord["oauth_extra"]) => (e === null ? null : JSON.stringify(e))

  return ExternalAuthLinkRepo.of({
    find: (providerId, userId) =>
      sql<Row>`SELECT ${columns} FROM external_auth_links WHERE provider_id = ${providerId} AND user_id = ${userId}`
        .pipe(
          Effect.map((rows) => first(rows, rowToLink)),
          Effect.orDie
        ),
    listByUser: (userId) =>
      sql<Row>`SELECT ${columns} FROM external_auth_links WHERE user_id = ${userId} ORDER BY provider_id`.pipe(
        Effect.map((rows) => rows.map(rowToLink)),
        Effect.orDie
      ),
    upsert: (l) =>
      sql<Row>`INSERT INTO external_auth_links (${columns})
        VALUES (${l.provider_id}, ${l.user_id}, ${l.created_at.toISOString()}, ${l.updated_at.toISOString()},
          ${l.oauth_access_token}, ${l.oauth_refresh_token}, ${iso(l.oauth_expiry)}, ${extra(l.oauth_extra)},
          ${l.oauth_refresh_failure_reason})
        ON CONFLICT (provider_id, user_id) DO UPDATE SET
          updated_at = excluded.updated_at,
          oauth_access_token = excluded.oauth_access_token,
          oauth_refresh_token = excluded.oauth_refresh_token,
          oauth_expiry = excluded.oauth_expiry,
          oauth_extra = excluded.oauth_extra,
          oauth_refresh_failure_reason = excluded.oauth_refresh_failure_reason
        RETURNING ${columns}`.pipe(
        Effect.map((rows) => rowToLink(rows[0]!)),
        Effect.orDie
      ),
    updateTokens: (l, expected) =>
      sql<Row>`UPDATE external_auth_links SET
          updated_at = ${l.updated_at.toISOString()},
          oauth_access_token = ${l.oauth_access_token},
          oauth_refresh_token = ${l.oauth_refresh_token},
          oauth_expiry = ${iso(l.oauth_expiry)},
          oauth_extra = ${extra(l.oauth_extra)},
          oauth_refresh_failure_reason = ${l.oauth_refresh_failure_reason}
        WHERE provider_id = ${l.provider_id} AND user_id = ${l.user_id} AND oauth_refresh_token = ${expected}
        RETURNING ${columns}`.pipe(
        Effect.map((rows): Option.Option<ExternalAuthLinkRecord> => first(rows, rowToLink)),
        Effect.orDie
      ),
    delete: (providerId, userId) =>
      sql<
        Row
      >`DELETE FROM external_auth_links WHERE provider_id = ${providerId} AND user_id = ${userId} RETURNING provider_id`
        .pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
  })
})

export const layer = Layer.effect(ExternalAuthLinkRepo, make)
