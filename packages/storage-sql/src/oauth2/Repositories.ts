/**
 * The OAuth2 provider on @effect/sql: apps, client secrets, authorization codes and refresh
 * tokens. Redeeming a code and rotating a refresh token are conditional UPDATEs (`used_at IS
 * NULL`), so of two concurrent uses exactly one wins. Revoking (a grant, a user's grants of an
 * app, a secret with what it issued) deletes the tokens and their access tokens (API keys) in one
 * transaction.
 */
import { SqlClient, type Statement } from "@effect/sql"
import {
  type ClientMetadata,
  type OAuth2AppRecord,
  type OAuth2AppSecretRecord,
  type OAuth2CodeRecord,
  OAuth2Repo,
  type OAuth2TokenRecord,
  TokenEndpointAuthMethods
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { bool, columns, date, first, json, literal, nullableDate, nullableText, type Row, text } from "../Columns.js"
import { bind } from "../Rows.js"
import { transaction } from "../Transaction.js"
import { KeyCache } from "../users/KeyCache.js"

const rowToApp = columns<OAuth2AppRecord>("oauth2_provider_apps", {
  id: text,
  name: text,
  icon: text,
  callback_url: text,
  redirect_uris: json<Array<string>>([]),
  token_endpoint_auth_method: literal(TokenEndpointAuthMethods),
  grant_types: json<Array<string>>([]),
  response_types: json<Array<string>>([]),
  metadata: json<ClientMetadata>({}),
  dynamically_registered: bool,
  hashed_registration_token: nullableText,
  created_at: date,
  updated_at: date
}).read

const rowToSecret = columns<OAuth2AppSecretRecord>("oauth2_provider_app_secrets", {
  id: text,
  app_id: text,
  hashed_secret: text,
  display_secret: text,
  created_at: date,
  last_used_at: nullableDate
}).read

const rowToCode = columns<OAuth2CodeRecord>("oauth2_provider_app_codes", {
  id: text,
  app_id: text,
  user_id: text,
  hashed_code: text,
  redirect_uri: text,
  code_challenge: text,
  code_challenge_method: text,
  scope: text,
  created_at: date,
  expires_at: date,
  used_at: nullableDate
}).read

const rowToToken = columns<OAuth2TokenRecord>("oauth2_provider_app_tokens", {
  id: text,
  app_id: text,
  user_id: text,
  family_id: text,
  api_key_id: text,
  app_secret_id: nullableText,
  hashed_refresh_token: text,
  scope: text,
  created_at: date,
  expires_at: date,
  used_at: nullableDate
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const withTransaction = transaction(sql)
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.orDie(effect)
  const cache = yield* KeyCache

  /** Deletes the API keys `ids` selects; their users' cached keys go (KeyCache.ts). */
  const deleteKeys = (ids: Statement.Fragment) =>
    Effect.flatMap(
      sql<{ user_id: unknown }>`DELETE FROM api_keys WHERE id IN (${ids}) RETURNING user_id`,
      (rs) => cache.changed(rs.map((r) => text(r.user_id, "api_keys.user_id")))
    )

  /** Deletes the API keys of the tokens `where` selects, then the tokens; how many tokens. */
  const deleteTokensWhere = (where: Statement.Fragment) =>
    run(withTransaction(Effect.gen(function*() {
      yield* deleteKeys(sql`SELECT api_key_id FROM oauth2_provider_app_tokens WHERE ${where}`)
      const rows = yield* sql<Row>`DELETE FROM oauth2_provider_app_tokens WHERE ${where} RETURNING id`
      return rows.length
    })))

  return OAuth2Repo.of({
    insertApp: (a) =>
      run(sql`INSERT INTO oauth2_provider_apps (id, name, icon, callback_url, redirect_uris, token_endpoint_auth_method,
          grant_types, response_types, metadata, dynamically_registered, hashed_registration_token, created_at, updated_at)
        VALUES (${a.id}, ${a.name}, ${a.icon}, ${a.callback_url}, ${
        bind(a.redirect_uris)
      }, ${a.token_endpoint_auth_method},
          ${bind(a.grant_types)}, ${bind(a.response_types)}, ${JSON.stringify(a.metadata)}, ${
        bind(a.dynamically_registered)
      },
          ${a.hashed_registration_token}, ${bind(a.created_at)}, ${bind(a.updated_at)})`).pipe(Effect.asVoid),
    findApp: (id) =>
      run(sql<Row>`SELECT * FROM oauth2_provider_apps WHERE id = ${id}`).pipe(Effect.map((rs) => first(rs, rowToApp))),
    listApps: (filter) =>
      run(
        filter.userId === undefined
          ? sql<Row>`SELECT * FROM oauth2_provider_apps ORDER BY name, id`
          : sql<Row>`SELECT * FROM oauth2_provider_apps a
              WHERE EXISTS (SELECT 1 FROM oauth2_provider_app_tokens t WHERE t.app_id = a.id AND t.user_id = ${filter.userId})
              ORDER BY a.name, a.id`
      ).pipe(Effect.map((rs) => rs.map(rowToApp))),
    updateApp: (a) =>
      run(sql<Row>`UPDATE oauth2_provider_apps SET name = ${a.name}, icon = ${a.icon}, callback_url = ${a.callback_url},
          redirect_uris = ${bind(a.redirect_uris)}, token_endpoint_auth_method = ${a.token_endpoint_auth_method},
          grant_types = ${bind(a.grant_types)}, response_types = ${bind(a.response_types)},
          metadata = ${JSON.stringify(a.metadata)}, updated_at = ${bind(a.updated_at)}
        WHERE id = ${a.id} RETURNING id`).pipe(Effect.map((rs) => rs.length > 0)),
    deleteApp: (id) =>
      run(withTransaction(Effect.gen(function*() {
        yield* deleteKeys(sql`SELECT api_key_id FROM oauth2_provider_app_tokens WHERE app_id = ${id}`)
        yield* sql`DELETE FROM oauth2_provider_app_tokens WHERE app_id = ${id}`
        yield* sql`DELETE FROM oauth2_provider_app_codes WHERE app_id = ${id}`
        yield* sql`DELETE FROM oauth2_provider_app_secrets WHERE app_id = ${id}`
        const rows = yield* sql<Row>`DELETE FROM oauth2_provider_apps WHERE id = ${id} RETURNING id`
        return rows.length > 0
      }))),

    insertSecret: (s) =>
      run(
        sql`INSERT INTO oauth2_provider_app_secrets (id, app_id, hashed_secret, display_secret, created_at, last_used_at)
        VALUES (${s.id}, ${s.app_id}, ${s.hashed_secret}, ${s.display_secret}, ${bind(s.created_at)}, ${
          bind(s.last_used_at)
        })`
      ).pipe(
        Effect.asVoid
      ),
    listSecrets: (appId) =>
      run(sql<Row>`SELECT * FROM oauth2_provider_app_secrets WHERE app_id = ${appId} ORDER BY created_at, id`).pipe(
        Effect.map((rs) => rs.map(rowToSecret))
      ),
    findSecret: (appId, hashed) =>
      run(sql<Row>`SELECT * FROM oauth2_provider_app_secrets WHERE hashed_secret = ${hashed} AND app_id = ${appId}`)
        .pipe(
          Effect.map((rs) => first(rs, rowToSecret))
        ),
    touchSecret: (id, at) =>
      run(sql`UPDATE oauth2_provider_app_secrets SET last_used_at = ${bind(at)} WHERE id = ${id}`).pipe(Effect.asVoid),
    deleteSecret: (appId, id) =>
      run(withTransaction(Effect.gen(function*() {
        const rows = yield* sql<
          Row
        >`DELETE FROM oauth2_provider_app_secrets WHERE id = ${id} AND app_id = ${appId} RETURNING id`
        if (rows.length === 0) return Option.none<number>()
        const where = sql`app_secret_id = ${id}`
        yield* deleteKeys(sql`SELECT api_key_id FROM oauth2_provider_app_tokens WHERE ${where}`)
        const tokens = yield* sql<Row>`DELETE FROM oauth2_provider_app_tokens WHERE ${where} RETURNING used_at`
        // Rotated tokens were dead already: only the ones still usable count.
        return Option.some(tokens.filter((t) => t.used_at === null).length)
      }))),

    insertCode: (c) =>
      run(sql`INSERT INTO oauth2_provider_app_codes (id, app_id, user_id, hashed_code, redirect_uri, code_challenge,
          code_challenge_method, scope, created_at, expires_at, used_at)
        VALUES (${c.id}, ${c.app_id}, ${c.user_id}, ${c.hashed_code}, ${c.redirect_uri}, ${c.code_challenge},
          ${c.code_challenge_method}, ${c.scope}, ${bind(c.created_at)}, ${bind(c.expires_at)}, ${bind(c.used_at)})`)
        .pipe(
          Effect.asVoid
        ),
    redeemCode: (hashed, at) =>
      run(sql<Row>`UPDATE oauth2_provider_app_codes SET used_at = ${bind(at)}
        WHERE hashed_code = ${hashed} AND used_at IS NULL RETURNING *`).pipe(Effect.map((rs) => first(rs, rowToCode))),
    findCode: (hashed) =>
      run(sql<Row>`SELECT * FROM oauth2_provider_app_codes WHERE hashed_code = ${hashed}`).pipe(
        Effect.map((rs) => first(rs, rowToCode))
      ),

    insertToken: (t) =>
      run(sql`INSERT INTO oauth2_provider_app_tokens (id, app_id, user_id, family_id, api_key_id, app_secret_id,
          hashed_refresh_token, scope, created_at, expires_at, used_at)
        VALUES (${t.id}, ${t.app_id}, ${t.user_id}, ${t.family_id}, ${t.api_key_id}, ${t.app_secret_id}, ${t.hashed_refresh_token},
          ${t.scope}, ${bind(t.created_at)}, ${bind(t.expires_at)}, ${bind(t.used_at)})`).pipe(Effect.asVoid),
    findTokenByRefresh: (hashed) =>
      run(sql<Row>`SELECT * FROM oauth2_provider_app_tokens WHERE hashed_refresh_token = ${hashed}`).pipe(
        Effect.map((rs) => first(rs, rowToToken))
      ),
    findTokenByApiKey: (apiKeyId) =>
      run(sql<Row>`SELECT * FROM oauth2_provider_app_tokens WHERE api_key_id = ${apiKeyId}`).pipe(
        Effect.map((rs) => first(rs, rowToToken))
      ),
    rotateToken: (id, at) =>
      run(withTransaction(Effect.gen(function*() {
        const rows = yield* sql<Row>`UPDATE oauth2_provider_app_tokens SET used_at = ${bind(at)}
          WHERE id = ${id} AND used_at IS NULL RETURNING api_key_id`
        if (rows.length === 0) return false
        yield* deleteKeys(sql`${text(rows[0]!.api_key_id, "oauth2_provider_app_tokens.api_key_id")}`)
        return true
      }))),
    revokeFamily: (familyId) => deleteTokensWhere(sql`family_id = ${familyId}`),
    revokeUserApp: (appId, userId) =>
      run(withTransaction(Effect.gen(function*() {
        yield* sql`DELETE FROM oauth2_provider_app_codes WHERE app_id = ${appId} AND user_id = ${userId}`
        yield* deleteKeys(sql`SELECT api_key_id FROM oauth2_provider_app_tokens
          WHERE app_id = ${appId} AND user_id = ${userId}`)
        const rows = yield* sql<
          Row
        >`DELETE FROM oauth2_provider_app_tokens WHERE app_id = ${appId} AND user_id = ${userId} RETURNING id`
        return rows.length
      })))
  })
})

export const layer = Layer.effect(OAuth2Repo, make)
