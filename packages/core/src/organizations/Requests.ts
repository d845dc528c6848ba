/**
 * The request bodies and queries of the organizations area's routes (`/organizations/...`:
 * organizations, members, custom roles, workspace sharing settings). The routes in
 * `http/src/organizations/` declare them; the services take their decoded types (`typeof X.Type`).
 * A member's new roles are the users area's `UpdateRolesRequest`; the paged members listing
 * takes the shared `SearchPageQuery`.
 */
import { Either, ParseResult, Schema } from "effect"
import { lazily } from "../Lazily.js"
import { NonNegativeIntParam, optional, optionalParam, Text, wireName } from "../Requests.js"
import { OrganizationName, ShareableWorkspaceOwners } from "./Organization.js"

/** POST /organizations. */
export class CreateOrganizationRequest extends Schema.Class<CreateOrganizationRequest>("CreateOrganizationRequest")({
  name: OrganizationName,
  display_name: optional(Text(64)),
  description: optional(Text(128)),
  icon: optional(Text(256))
}, wireName("CreateOrganizationRequest")) {}

const decodeName = lazily(() => Schema.decodeUnknownEither(OrganizationName))

/** A new name, or empty to keep the current one (as Coder does). */
const NameOrEmpty = Schema.String.pipe(
  Schema.filter((s) => {
    if (s === "") return true
    const r = decodeName(s)
    return Either.isRight(r) || (ParseResult.ArrayFormatter.formatErrorSync(r.left)[0]?.message ?? "Invalid name.")
  })
)

/** PATCH /organizations/{organization}: a field not given (or an empty name or display name) stays. */
export class UpdateOrganizationRequest extends Schema.Class<UpdateOrganizationRequest>("UpdateOrganizationRequest")({
  name: optional(NameOrEmpty),
  display_name: optional(Text(64)),
  description: optional(Text(128)),
  icon: optional(Text(256))
}, wireName("UpdateOrganizationRequest")) {}

/** The query of GET /organizations/{organization}/members: a plain page. */
export const ListMembersQuery = Schema.Struct({
  limit: optionalParam(NonNegativeIntParam),
  offset: optionalParam(NonNegativeIntParam)
})

/**
 * PATCH .../settings/workspace-sharing: `shareable_workspace_owners`, or the deprecated
 * `sharing_disabled` (read only when `shareable_workspace_owners` is not given: `true` is `none`,
 * else `everyone`).
 */
export class UpdateWorkspaceSharingSettingsRequest extends Schema.Class<UpdateWorkspaceSharingSettingsRequest>(
  "UpdateWorkspaceSharingSettingsRequest"
)({
  sharing_disabled: optional(Schema.Boolean),
  shareable_workspace_owners: optional(
    Schema.Union(ShareableWorkspaceOwners, Schema.Literal("")).annotations({
      message: () => ({ message: "Must be one of none, everyone, service_accounts.", override: true })
    })
  )
}, wireName("UpdateWorkspaceSharingSettingsRequest")) {}

/** One permission of a custom role request (the described system's Permission); `negate` defaults to false. */
export const PermissionRequest = Schema.Struct({
  negate: optional(Schema.Boolean),
  resource_type: Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." })),
  action: Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." }))
})
const Permissions = optional(
  Schema.Array(PermissionRequest).pipe(
    Schema.maxItems(512, { message: () => "Must hold at most 512 permissions." })
  )
)

/** POST and PUT /organizations/{organization}/members/roles (the described system's CustomRoleRequest). */
export class CustomRoleRequest extends Schema.Class<CustomRoleRequest>("CustomRoleRequest")({
  name: Text(256),
  display_name: optional(Text(256)),
  site_permissions: Permissions,
  organization_permissions: Permissions,
  user_permissions: Permissions
}, wireName("CustomRoleRequest")) {}
