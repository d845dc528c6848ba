/**
 * Custom organization roles on @effect/sql (migration 0035). Deleting a role takes it off the
 * organization's members in the same transaction.
 */
import { SqlClient } from "@effect/sql"
import { type CustomRolePermission, type CustomRoleRecord, CustomRoleRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, date, first, from, json, text } from "../Columns.js"
import { escapeLike } from "../Filters.js"
import { transaction } from "../Transaction.js"
import { unique } from "../Unique.js"
import { KeyCache } from "../users/KeyCache.js"

const toRecord = columns<CustomRoleRecord>("custom_roles", {
  id: text,
  organization_id: text,
  name: text,
  display_name: text,
  organization_permissions: from("org_permissions", json<ReadonlyArray<CustomRolePermission>>([])),
  created_at: date,
  updated_at: date
}).read
const roleNames = json<ReadonlyArray<string>>([])

/** The custom role repository on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cache = yield* KeyCache
  const orDie = Effect.orDie
  const withTransaction = transaction(sql)

  const repo: CustomRoleRepo["Type"] = {
    insert: (r) =>
      unique(
        sql`INSERT INTO custom_roles (id, organization_id, name, display_name, org_permissions, created_at, updated_at)
        VALUES (${r.id}, ${r.organization_id}, ${r.name}, ${r.display_name}, ${
          JSON.stringify(r.organization_permissions)
        },
        ${r.created_at.toISOString()}, ${r.updated_at.toISOString()})`
      ).pipe(
        Effect.asVoid
      ),
    find: (orgId, name) =>
      orDie(sql`SELECT * FROM custom_roles WHERE organization_id = ${orgId} AND name = ${name}`).pipe(
        Effect.map((rs) => first(rs, toRecord))
      ),
    list: (orgId) =>
      orDie(sql`SELECT * FROM custom_roles WHERE organization_id = ${orgId} ORDER BY name`).pipe(
        Effect.map((rs) => rs.map(toRecord))
      ),
    findMany: (pairs) => {
      if (pairs.length === 0) return Effect.succeed([])
      const byOrg = new Map<string, Array<string>>()
      for (const p of pairs) byOrg.set(p.organizationId, [...(byOrg.get(p.organizationId) ?? []), p.name])
      const conditions = [...byOrg].map(([orgId, names]) =>
        sql`(organization_id = ${orgId} AND ${sql.in("name", names)})`
      )
      return orDie(sql`SELECT * FROM custom_roles WHERE ${sql.or(conditions)}`).pipe(
        Effect.map((rs) => rs.map(toRecord))
      )
    },
    update: (orgId, name, patch) =>
      orDie(sql`UPDATE custom_roles SET display_name = ${patch.display_name},
          org_permissions = ${
        JSON.stringify(patch.organization_permissions)
      }, updated_at = ${patch.updated_at.toISOString()}
          WHERE organization_id = ${orgId} AND name = ${name} RETURNING *`).pipe(
        Effect.map((rs) => first(rs, toRecord))
      ),
    delete: (orgId, name, at) =>
      withTransaction(Effect.gen(function*() {
        const deleted =
          yield* sql`DELETE FROM custom_roles WHERE organization_id = ${orgId} AND name = ${name} RETURNING id`
        if (deleted.length === 0) return false
        // Members holding the role: their role lists are JSON text, narrowed by a LIKE and edited here.
        const like = `%${escapeLike(JSON.stringify(name))}%`
        const holders = yield* sql`SELECT user_id, roles FROM organization_members
          WHERE organization_id = ${orgId} AND roles LIKE ${like} ESCAPE '\\'`
        const changed: Array<string> = []
        for (const h of holders) {
          const roles = roleNames(h.roles, "organization_members.roles")
          if (!roles.includes(name)) continue
          const userId = text(h.user_id, "organization_members.user_id")
          yield* sql`UPDATE organization_members SET roles = ${JSON.stringify(roles.filter((r) => r !== name))},
            updated_at = ${at.toISOString()} WHERE organization_id = ${orgId} AND user_id = ${userId}`
          changed.push(userId)
        }
        yield* cache.changed(changed)
        return true
      })).pipe(orDie)
  }
  return repo
})

/** The custom role port, on whichever `SqlClient` is provided. */
export const layer: Layer.Layer<CustomRoleRepo, never, SqlClient.SqlClient | KeyCache> = Layer.effect(
  CustomRoleRepo,
  make
)
