/**
 * External auth links (the `ExternalAuthLinkRepo` port) on @effect/sql, migrations 0025 and 0038.
 * Each write is one statement: the insert-or-replace of a new token (`ON CONFLICT` on the primary
 * key), and the refresh's replace guarded by the refresh token it used, so of two racing
 * refreshes only the first stores its token.
 *
 * The tokens are sealed with the deployment's `SecretBox` on the way in and opened on the way
 * out (their key digests in `*_key_id`). A link whose tokens do not open (sealed by a key no
 * longer configured) reads as no link, as the described system's `dbcrypt` does: its user links
 * again, which replaces it.
 */
import { SqlClient } from "@effect/sql"
import { type ExternalAuthLinkRecord, ExternalAuthLinkRepo, SecretBox, type SecretBoxShape } from "@workbay/core"
import { Effect, Either, Layer, Option } from "effect"
import { columns, date, json, keyId, nullable, nullableDate, type Row, text } from "../Columns.js"

/** A link as stored: its tokens sealed, each with the digest of the key that sealed it. */
interface StoredLink extends Omit<ExternalAuthLinkRecord, "oauth_access_token" | "oauth_refresh_token"> {
  readonly oauth_access_token: string
  readonly oauth_access_token_key_id: string | null
  readonly oauth_refresh_token: string
  readonly oauth_refresh_token_key_id: string | null
}

const rowToStoredLink = columns<StoredLink>("external_auth_links", {
  provider_id: text,
  user_id: text,
  created_at: date,
  updated_at: date,
  oauth_access_token: text,
  oauth_access_token_key_id: keyId,
  oauth_refresh_token: text,
  oauth_refresh_token_key_id: keyId,
  oauth_expiry: nullableDate,
  oauth_extra: nullable(json<Readonly<Record<string, unknown>> | null>(null)),
  oauth_refresh_failure_reason: text
}).read

/** The link of a row with its tokens opened, or the reason they do not open. */
export const rowToLink = (box: SecretBoxShape, r: Row) =>
  Either.gen(function*() {
    const s = rowToStoredLink(r)
    const access = yield* box.open(s.oauth_access_token, s.oauth_access_token_key_id)
    const refresh = yield* box.open(s.oauth_refresh_token, s.oauth_refresh_token_key_id)
    return {
      provider_id: s.provider_id,
      user_id: s.user_id,
      created_at: s.created_at,
      updated_at: s.updated_at,
      oauth_access_token: access,
      oauth_refresh_token: refresh,
      oauth_expiry: s.oauth_expiry,
      oauth_extra: s.oauth_extra,
      oauth_refresh_failure_reason: s.oauth_refresh_failure_reason
    } satisfies ExternalAuthLinkRecord
  })

const COLUMNS =
  "provider_id, user_id, created_at, updated_at, oauth_access_token, oauth_access_token_key_id, oauth_refresh_token, " +
  "oauth_refresh_token_key_id, oauth_expiry, oauth_extra, oauth_refresh_failure_reason"

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const box = yield* SecretBox
  const columns = sql.literal(COLUMNS)
  const iso = (d: Date | null) => (d === null ? null : d.toISOString())
  const extra = (e: ExternalAuthLinkRecord["oauth_extra"]) => (e === null ? null : JSON.stringify(e))

  /** The rows' links; one that does not open is left out, with a warning naming it (never a token). */
  const links = (rows: ReadonlyArray<Row>) =>
    Effect.forEach(rows, (r) =>
      Either.match(rowToLink(box, r), {
        onRight: (link) => Effect.succeed([link]),
        onLeft: (e) =>
          Effect.as(
            Effect.logWarning(
              `The external auth link of user ${text(r.user_id, "external_auth_links.user_id")} to "${
                text(r.provider_id, "external_auth_links.provider_id")
              }" cannot be decrypted; it counts as not linked until the user links again. ${e.message}`
            ),
            []
          )
      })).pipe(Effect.map((ls) => ls.flat()))
  const firstLink = (rows: ReadonlyArray<Row>) => Effect.map(links(rows), (ls) => Option.fromNullable(ls[0]))

  return ExternalAuthLinkRepo.of({
    find: (providerId, userId) =>
      sql<Row>`SELECT ${columns} FROM external_auth_links WHERE provider_id = ${providerId} AND user_id = ${userId}`
        .pipe(
          Effect.orDie,
          Effect.flatMap(firstLink)
        ),
    listByUser: (userId) =>
      sql<Row>`SELECT ${columns} FROM external_auth_links WHERE user_id = ${userId} ORDER BY provider_id`.pipe(
        Effect.orDie,
        Effect.flatMap(links)
      ),
    upsert: (l) => {
      const access = box.seal(l.oauth_access_token)
      const refresh = box.seal(l.oauth_refresh_token)
      return sql<Row>`INSERT INTO external_auth_links (${columns})
        VALUES (${l.provider_id}, ${l.user_id}, ${l.created_at.toISOString()}, ${l.updated_at.toISOString()},
          ${access.value}, ${access.keyId}, ${refresh.value}, ${refresh.keyId}, ${iso(l.oauth_expiry)}, ${
        extra(l.oauth_extra)
      },
          ${l.oauth_refresh_failure_reason})
        ON CONFLICT (provider_id, user_id) DO UPDATE SET
          updated_at = excluded.updated_at,
          oauth_access_token = excluded.oauth_access_token,
          oauth_access_token_key_id = excluded.oauth_access_token_key_id,
          oauth_refresh_token = excluded.oauth_refresh_token,
          oauth_refresh_token_key_id = excluded.oauth_refresh_token_key_id,
          oauth_expiry = excluded.oauth_expiry,
          oauth_extra = excluded.oauth_extra,
          oauth_refresh_failure_reason = excluded.oauth_refresh_failure_reason
        RETURNING created_at`.pipe(
        Effect.map((rows): ExternalAuthLinkRecord => ({
          ...l,
          created_at: date(rows[0]!.created_at, "external_auth_links.created_at")
        })),
        Effect.orDie
      )
    },
    updateTokens: (l, expected) =>
      Effect.gen(function*() {
        // Sealed values differ on every seal (random nonces), so the guard compares the stored
        // value the caller's refresh token opened from: read it, open it, compare, and then
        // replace only while that exact stored value is still there.
        const [raw] = yield* Effect.orDie(
          sql<Row>`SELECT oauth_refresh_token, oauth_refresh_token_key_id FROM external_auth_links
          WHERE provider_id = ${l.provider_id} AND user_id = ${l.user_id}`
        )
        if (raw === undefined) return Option.none<ExternalAuthLinkRecord>()
        const stored = text(raw.oauth_refresh_token, "external_auth_links.oauth_refresh_token")
        const opened = box.open(
          stored,
          keyId(raw.oauth_refresh_token_key_id, "external_auth_links.oauth_refresh_token_key_id")
        )
        if (Either.isLeft(opened) || opened.right !== expected) return Option.none<ExternalAuthLinkRecord>()
        const access = box.seal(l.oauth_access_token)
        const refresh = box.seal(l.oauth_refresh_token)
        const rows = yield* Effect.orDie(sql<Row>`UPDATE external_auth_links SET
            updated_at = ${l.updated_at.toISOString()},
            oauth_access_token = ${access.value},
            oauth_access_token_key_id = ${access.keyId},
            oauth_refresh_token = ${refresh.value},
            oauth_refresh_token_key_id = ${refresh.keyId},
            oauth_expiry = ${iso(l.oauth_expiry)},
            oauth_extra = ${extra(l.oauth_extra)},
            oauth_refresh_failure_reason = ${l.oauth_refresh_failure_reason}
          WHERE provider_id = ${l.provider_id} AND user_id = ${l.user_id} AND oauth_refresh_token = ${stored}
          RETURNING created_at`)
        return rows.length === 0
          ? Option.none<ExternalAuthLinkRecord>()
          : Option.some<ExternalAuthLinkRecord>({
            ...l,
            created_at: date(rows[0]!.created_at, "external_auth_links.created_at")
          })
      }),
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
