/**
 * The OAuth2 provider on @effect/sql: apps, client secrets, authorization codes and refresh
 * tokens. Redeeming a code and rotating a refresh token are conditional UPDATEs (`used_at IS
 * NULL`), so of two concurrent uses exactly one wins. Revoking deletes the tokens and their
 * access tokens (API keys) in one transaction.
 */
import { SqlClient, type Statement } from "@effect/sql"
import {
  type ClientMetadata,
  type OAuth2AppRecord,
  type OAuth2AppSecretRecord,
  type OAuth2CodeRecord,
  OAuth2Repo,
  type OAuth2TokenRecord,
  type TokenEndpointAuthMethod
} from "@workbay/core"
import { Effect, Layer } from "effect"
import { bind, first, fromJson, toBool, toDate, toDateOrNull } from "../Rows.js"
import { transaction } from "../Transaction.js"

type Row = Record<string, unknown>

const rowToApp = (r: Row): OAuth2AppRecord => ({
  id: r.id as string,
  name: r.name as string,
  icon: r.icon as string,
  callback_url: r.callback_url as string,
  redirect_uris: fromJson(r.redirect_uris, [] as Array<string>),
  token_endpoint_auth_method: r.token_endpoint_auth_method as TokenEndpointAuthMethod,
  grant_types: fromJson(r.grant_types, [] as Array<string>),
  response_types: fromJson(r.response_types, [] as Array<string>),
  metadata: fromJson(r.metadata, {} as ClientMetadata),
  dynamically_registered: toBool(r.dynamically_registered),
  hashed_registration_token: (r.hashed_registration_token as string | null) ?? null,
  created_at: toDate(r.created_at),
  updated_at: toDate(r.updated_at)
})

const rowToSecret = (r: Row): OAuth2AppSecretRecord => ({
  id: r.id as string,
  app_id: r.app_id as string,
  hashed_secret: r.hashed_secret as string,
  display_secret: r.display_secret as string,
  created_at: toDate(r.created_at),
  last_used_at: toDateOrNull(r.last_used_at)
})

const rowToCode = (r: Row): OAuth2CodeRecord => ({
  id: r.id as string,
  app_id: r.app_id as string,
  user_id: r.user_id as string,
  hashed_code: r.hashed_code as string,
  redirect_uri: r.redirect_uri as string,
  code_challenge: r.code_challenge as string,
  code_challenge_method: r.code_challenge_method as string,
  created_at: toDate(r.created_at),
  expires_at: toDate(r.expires_at),
  used_at: toDateOrNull(r.used_at)
})

const rowToToken = (r: Row): OAuth2TokenRecord => ({
  id: r.id as string,
  app_id: r.app_id as string,
  user_id: r.user_id as string,
  family_id: r.family_id as string,
  api_key_id: r.api_key_id as string,
  hashed_refresh_token: r.hashed_refresh_token as string,
  created_at: toDate(r.created_at),
  expires_at: toDate(r.expires_at),
  used_at: toDateOrNull(r.used_at)
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const withTransaction = transaction(sql)
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.orDie(effect)

  /** Deletes the API keys of the tokens `where` selects, then the tokens; how many tokens. */
  const deleteTokensWhere = (where: Statement.Fragment) =>
    run(withTransaction(Effect.gen(function*() {
      yield* sql`DELETE FROM api_keys WHERE id IN (SELECT api_key_id FROM oauth2_provider_app_tokens WHERE ${where})`
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
        yield* sql`DELETE FROM api_keys WHERE id IN (SELECT api_key_id FROM oauth2_provider_app_tokens WHERE app_id = ${id})`
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
      run(sql<Row>`DELETE FROM oauth2_provider_app_secrets WHERE id = ${id} AND app_id = ${appId} RETURNING id`).pipe(
        Effect.map((rs) => rs.length > 0)
      ),

    insertCode: (c) =>
      run(sql`INSERT INTO oauth2_provider_app_codes (id, app_id, user_id, hashed_code, redirect_uri, code_challenge,
          code_challenge_method, created_at, expires_at, used_at)
        VALUES (${c.id}, ${c.app_id}, ${c.user_id}, ${c.hashed_code}, ${c.redirect_uri}, ${c.code_challenge},
          ${c.code_challenge_method}, ${bind(c.created_at)}, ${bind(c.expires_at)}, ${bind(c.used_at)})`).pipe(
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
      run(sql`INSERT INTO oauth2_provider_app_tokens (id, app_id, user_id, family_id, api_key_id, hashed_refresh_token,
          created_at, expires_at, used_at)
        VALUES (${t.id}, ${t.app_id}, ${t.user_id}, ${t.family_id}, ${t.api_key_id}, ${t.hashed_refresh_token},
          ${bind(t.created_at)}, ${bind(t.expires_at)}, ${bind(t.used_at)})`).pipe(Effect.asVoid),
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
        yield* sql`DELETE FROM api_keys WHERE id = ${rows[0]!.api_key_id as string}`
        return true
      }))),
    revokeFamily: (familyId) => deleteTokensWhere(sql`family_id = ${familyId}`),
    revokeUserApp: (appId, userId) =>
      run(withTransaction(Effect.gen(function*() {
        yield* sql`DELETE FROM oauth2_provider_app_codes WHERE app_id = ${appId} AND user_id = ${userId}`
        yield* sql`DELETE FROM api_keys WHERE id IN (SELECT api_key_id FROM oauth2_provider_app_tokens
          WHERE app_id = ${appId} AND user_id = ${userId})`
        const rows = yield* sql<
          Row
        >`DELETE FROM oauth2_provider_app_tokens WHERE app_id = ${appId} AND user_id = ${userId} RETURNING id`
        return rows.length
      })))
  })
})

export const layer = Layer.effect(OAuth2Repo, make)
