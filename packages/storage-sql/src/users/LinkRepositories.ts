/** User links and the lookups of login conversions that sign-in needs, on @effect/sql (both dialects). */
import { SqlClient } from "@effect/sql"
import { type LinkLoginType, type LoginConversionRecord, type UserLinkRecord, UserLinkRepo } from "@workbay/core"
import { Context, Effect, Layer } from "effect"
import { first, fromJson, toDate } from "../Rows.js"
import { unique } from "../Unique.js"

const rowToLink = (r: Record<string, unknown>): UserLinkRecord => ({
  user_id: r.user_id as string,
  login_type: r.login_type as LinkLoginType,
  linked_id: r.linked_id as string,
  claims: { id_token_claims: {}, user_info_claims: {}, merged_claims: {}, ...fromJson<object>(r.claims, {}) },
  synced_group_ids: fromJson<Array<string>>(r.synced_group_ids, []),
  created_at: toDate(r.created_at),
  updated_at: toDate(r.updated_at)
})

const rowToConversion = (r: Record<string, unknown>): LoginConversionRecord => ({
  state_string: r.state_string as string,
  user_id: r.user_id as string,
  to_type: r.to_type as string,
  expires_at: toDate(r.expires_at),
  created_at: toDate(r.created_at)
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const orDie = Effect.orDie
  const links = UserLinkRepo.of({
    insert: (l) =>
      unique(sql`INSERT INTO user_links ${
        sql.insert({
          user_id: l.user_id,
          login_type: l.login_type,
          linked_id: l.linked_id,
          claims: JSON.stringify(l.claims),
          synced_group_ids: JSON.stringify(l.synced_group_ids),
          created_at: l.created_at.toISOString(),
          updated_at: l.updated_at.toISOString()
        })
      }`).pipe(Effect.asVoid),
    findByLinkedId: (loginType, linkedId) =>
      orDie(sql`SELECT * FROM user_links WHERE login_type = ${loginType} AND linked_id = ${linkedId}`).pipe(
        Effect.map((rs) => first(rs, rowToLink))
      ),
    findByUser: (userId, loginType) =>
      orDie(sql`SELECT * FROM user_links WHERE user_id = ${userId} AND login_type = ${loginType}`).pipe(
        Effect.map((rs) => first(rs, rowToLink))
      ),
    remove: (userId, loginType) =>
      orDie(sql`DELETE FROM user_links WHERE user_id = ${userId} AND login_type = ${loginType}`).pipe(Effect.asVoid),
    update: (userId, loginType, p) =>
      unique(
        sql`UPDATE user_links SET linked_id = ${p.linked_id}, claims = ${JSON.stringify(p.claims)},
            synced_group_ids = ${JSON.stringify(p.synced_group_ids)}, updated_at = ${p.updated_at.toISOString()}
            WHERE user_id = ${userId} AND login_type = ${loginType}`
      ).pipe(Effect.asVoid)
  })
  return { links }
})

/** The user link port on whichever `SqlClient` is provided. */
export const layer: Layer.Layer<UserLinkRepo, never, SqlClient.SqlClient> = Layer.effectContext(
  Effect.map(make, (r) => Context.make(UserLinkRepo, r.links))
)

/** Conversion lookups (find by state, delete when used) beside the users area's insert. */
export const conversionReads = (sql: SqlClient.SqlClient) => ({
  findByState: (state: string) =>
    Effect.orDie(sql`SELECT * FROM login_conversions WHERE state_string = ${state}`).pipe(
      Effect.map((rs) => first(rs, rowToConversion))
    ),
  delete: (state: string) =>
    Effect.orDie(sql`DELETE FROM login_conversions WHERE state_string = ${state}`).pipe(Effect.asVoid)
})
