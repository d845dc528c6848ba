/**
 * The users area's `UserMemberships` port (users/Repositories.ts), given by the areas above it:
 * organizations (memberships, the default organization, custom roles) and groups (group ids).
 */
import { Effect, Layer, Option } from "effect"
import { CustomRoleRepo, loadCustomRoles } from "../organizations/CustomRole.js"
import { Organization } from "../organizations/Organization.js"
import { MemberRepo, OrganizationRepo } from "../organizations/Repositories.js"
import { UserMemberships } from "../users/Repositories.js"
import { GroupRepo } from "./Group.js"

export const userMembershipsLayer: Layer.Layer<
  UserMemberships,
  never,
  MemberRepo | OrganizationRepo | GroupRepo | CustomRoleRepo
> = Layer.effect(
  UserMemberships,
  Effect.gen(function*() {
    const members = yield* MemberRepo
    const orgs = yield* OrganizationRepo
    const groups = yield* GroupRepo
    const customRoles = yield* CustomRoleRepo
    return UserMemberships.of({
      ofUser: members.ofUser,
      ofUsers: members.ofUsers,
      insert: members.insert,
      deleteByUser: members.deleteByUser,
      defaultOrganizationId: Effect.map(orgs.findDefault, Option.map((o) => o.id)),
      organizationExists: (id) => Effect.map(orgs.findById(id), Option.isSome),
      ensureDefaultOrganization: (id, at) =>
        Effect.gen(function*() {
          const found = yield* orgs.findDefault
          if (Option.isSome(found)) return found.value.id
          yield* orgs.insert(
            new Organization({
              id,
              name: "coder",
              display_name: "Coder",
              description: "Builtin default organization.",
              icon: "",
              is_default: true,
              created_at: at,
              updated_at: at
            })
          )
          return id
        }),
      groupIdsOf: (userId) => groups.groupIdsOf(userId),
      customRoles: (orgRoles) => loadCustomRoles(customRoles, orgRoles)
    })
  })
)
