/**
 * Custom organization roles (the described system's `custom_roles`, licensed as `custom_roles`):
 * a named set of organization permissions an organization's members can be given like a
 * built-in organization role. Rules: docs/authorization.md, Custom roles.
 */
import { Context, Effect, type Option, Schema } from "effect"
import { customRoleDefinition, isBuiltInRole, type RoleDefinition } from "../Rbac.js"
import type { UniqueViolation } from "../Repositories.js"
import { RolePermission } from "../users/User.js"
import { omitEmpty } from "../Wire.js"

/** One stored permission of a custom role. */
export interface CustomRolePermission {
  readonly negate: boolean
  readonly resource_type: string
  readonly action: string
}

/** A stored custom role: unique by organization and name. */
export interface CustomRoleRecord {
  /** For audit entries. */
  readonly id: string
  readonly organization_id: string
  readonly name: string
  readonly display_name: string
  readonly organization_permissions: ReadonlyArray<CustomRolePermission>
  readonly created_at: Date
  readonly updated_at: Date
}

/** The described system's Role: what `POST` and `PUT .../members/roles` answer. */
export class Role extends Schema.Class<Role>("Role")({
  name: Schema.String,
  organization_id: omitEmpty(Schema.UUID),
  display_name: Schema.String,
  site_permissions: Schema.Array(RolePermission),
  organization_permissions: Schema.Array(RolePermission),
  user_permissions: Schema.Array(RolePermission)
}) {}

export class CustomRoleRepo extends Context.Tag("@workbay/core/CustomRoleRepo")<CustomRoleRepo, {
  readonly insert: (role: CustomRoleRecord) => Effect.Effect<void, UniqueViolation>
  readonly find: (organizationId: string, name: string) => Effect.Effect<Option.Option<CustomRoleRecord>>
  /** The organization's custom roles, by name. */
  readonly list: (organizationId: string) => Effect.Effect<ReadonlyArray<CustomRoleRecord>>
  /** The roles of these (organization, name) pairs that exist: one read for a request's memberships. */
  readonly findMany: (
    pairs: ReadonlyArray<{ readonly organizationId: string; readonly name: string }>
  ) => Effect.Effect<ReadonlyArray<CustomRoleRecord>>
  /** Replaces the display name and permissions; none when the role does not exist. */
  readonly update: (
    organizationId: string,
    name: string,
    patch: Pick<CustomRoleRecord, "display_name" | "organization_permissions" | "updated_at">
  ) => Effect.Effect<Option.Option<CustomRoleRecord>>
  /**
   * Removes the role and, in the same transaction, takes it off every member of the
   * organization holding it (as the described system's trigger). False when it did not exist.
   */
  readonly delete: (organizationId: string, name: string, at: Date) => Effect.Effect<boolean>
}>() {}

/** The evaluator's definition of a stored custom role. */
export const definitionOf = (r: CustomRoleRecord): RoleDefinition =>
  customRoleDefinition(r.name, r.display_name, r.organization_permissions.filter((p) => !p.negate))

/**
 * The definitions of the custom roles named in `orgRoles` (organization id to role names), by
 * organization and name: one read of the non-built-in names, none when there are none.
 */
export const loadCustomRoles = (
  repo: Context.Tag.Service<typeof CustomRoleRepo>,
  orgRoles: ReadonlyMap<string, ReadonlyArray<string>>
): Effect.Effect<ReadonlyMap<string, ReadonlyMap<string, RoleDefinition>>> => {
  const pairs: Array<{ organizationId: string; name: string }> = []
  for (const [organizationId, names] of orgRoles) {
    for (const name of names) if (!isBuiltInRole(name)) pairs.push({ organizationId, name })
  }
  if (pairs.length === 0) return Effect.succeed(new Map())
  return Effect.map(repo.findMany(pairs), (found) => {
    const byOrg = new Map<string, Map<string, RoleDefinition>>()
    for (const r of found) {
      const m = byOrg.get(r.organization_id) ?? new Map<string, RoleDefinition>()
      m.set(r.name, definitionOf(r))
      byOrg.set(r.organization_id, m)
    }
    return byOrg
  })
}
