/** User links and the lookups of login conversions that sign-in needs, on @effect/sql (both dialects). */
import { SqlClient } from "@effect/sql"
import {
  type LinkLoginType,
  type LoginConversionRecord,
  type UserLinkClaims,
  type UserLinkRecord,
  UserLinkRepo
} from "@workbay/core"
import { Context, Effect, Layer } from "effect"
import { columns, date, first, json, literalOf, text } from "../Columns.js"
import { unique } from "../Unique.js"

const storedClaims = json<Partial<UserLinkClaims>>({})

const rowToLink = columns<UserLinkRecord>("user_links", {
  user_id: text,
  login_type: literalOf<LinkLoginType>()(["github", "oidc"]),
  linked_id: text,
  claims: (v, c) => ({ id_token_claims: {}, user_info_claims: {}, merged_claims: {}, ...storedClaims(v, c) }),
  synced_group_ids: json<Array<string>>([]),
  created_at: date,
  updated_at: date
}).read

const rowToConversion = columns<LoginConversionRecord>("login_conversions", {
  state_string: text,
  user_id: text,
  to_type: text,
  expires_at: date,
  created_at: date
}).read

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
