/** Organization routes and organization members. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  AssignableRole,
  Organization,
  OrganizationMember,
  OrganizationName,
  PaginatedMembers,
  ResponseBody,
  Role,
  ShareableWorkspaceOwners,
  WorkspaceSharingSettings
} from "@workbay/core"
import { Either, ParseResult, Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import {
  BadRequest,
  Conflict,
  Forbidden,
  NoContent,
  NonNegativeIntParam,
  NotFound,
  optional,
  optionalParam,
  OrganizationPath,
  SearchPageQuery,
  wireName
} from "../Common.js"
import { Authentication } from "../Security.js"
import { UpdateRolesRequest } from "../users/Api.js"

const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

export class CreateOrganizationRequest extends Schema.Class<CreateOrganizationRequest>("CreateOrganizationRequest")({
  name: OrganizationName,
  display_name: optional(Text(64)),
  description: optional(Text(128)),
  icon: optional(Text(256))
}, wireName("CreateOrganizationRequest")) {}

const decodeName = Schema.decodeUnknownEither(OrganizationName)

/** A new name, or empty to keep the current one (as Coder does). */
const NameOrEmpty = Schema.String.pipe(
  Schema.filter((s) => {
    if (s === "") return true
    const r = decodeName(s)
    return Either.isRight(r) || (ParseResult.ArrayFormatter.formatErrorSync(r.left)[0]?.message ?? "Invalid name.")
  })
)

export class UpdateOrganizationRequest extends Schema.Class<UpdateOrganizationRequest>("UpdateOrganizationRequest")({
  name: optional(NameOrEmpty),
  display_name: optional(Text(64)),
  description: optional(Text(128)),
  icon: optional(Text(256))
}, wireName("UpdateOrganizationRequest")) {}

/** A UUID parameter, with a sentence for a message. */

/** PATCH .../settings/workspace-sharing: `shareable_workspace_owners`, or the deprecated `sharing_disabled`. */
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
const PermissionRequest = Schema.Struct({
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

const RolePath = Schema.Struct({ organization: Schema.String, roleName: Schema.String })

const MemberPath = Schema.Struct({ organization: Schema.String, user: Schema.String })

export class OrganizationsApi extends HttpApiGroup.make("organizations")
  .add(HttpApiEndpoint.get("list", "/organizations").addSuccess(Schema.Array(Organization)))
  .add(
    HttpApiEndpoint.post("create", "/organizations").annotate(Audited, audit("organization"))
      .setPayload(CreateOrganizationRequest)
      .addSuccess(Organization, { status: 201 })
      .addError(Conflict)
  )
  .add(HttpApiEndpoint.get("get", "/organizations/:organization").setPath(OrganizationPath).addSuccess(Organization))
  .add(
    HttpApiEndpoint.patch("update", "/organizations/:organization").annotate(Audited, audit("organization"))
      .setPath(OrganizationPath)
      .setPayload(UpdateOrganizationRequest)
      .addSuccess(Organization)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.del("delete", "/organizations/:organization").annotate(Audited, audit("organization")).setPath(
      OrganizationPath
    ).addSuccess(ResponseBody)
  )
  .add(
    HttpApiEndpoint.get("listMembers", "/organizations/:organization/members")
      .setPath(OrganizationPath)
      .setUrlParams(
        Schema.Struct({ limit: optionalParam(NonNegativeIntParam), offset: optionalParam(NonNegativeIntParam) })
      )
      .addSuccess(Schema.Array(OrganizationMember))
  )
  .add(
    HttpApiEndpoint.get("paginatedMembers", "/organizations/:organization/paginated-members")
      .setPath(OrganizationPath)
      .setUrlParams(SearchPageQuery)
      .addSuccess(PaginatedMembers)
  )
  .add(
    HttpApiEndpoint.get("getWorkspaceSharing", "/organizations/:organization/settings/workspace-sharing")
      .setPath(OrganizationPath)
      .addSuccess(WorkspaceSharingSettings)
  )
  .add(
    HttpApiEndpoint.patch("updateWorkspaceSharing", "/organizations/:organization/settings/workspace-sharing")
      .annotate(Audited, audit("organization"))
      .setPath(OrganizationPath)
      .setPayload(UpdateWorkspaceSharingSettingsRequest)
      .addSuccess(WorkspaceSharingSettings)
  )
  .add(
    HttpApiEndpoint.get("assignableRoles", "/organizations/:organization/members/roles")
      .setPath(OrganizationPath)
      .addSuccess(Schema.Array(AssignableRole))
  )
  .add(
    HttpApiEndpoint.post("createRole", "/organizations/:organization/members/roles").annotate(
      Audited,
      audit("custom_role")
    )
      .setPath(OrganizationPath)
      .setPayload(CustomRoleRequest)
      .addSuccess(Role)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.put("updateRole", "/organizations/:organization/members/roles").annotate(
      Audited,
      audit("custom_role")
    )
      .setPath(OrganizationPath)
      .setPayload(CustomRoleRequest)
      .addSuccess(Role)
  )
  .add(
    HttpApiEndpoint.del("deleteRole", "/organizations/:organization/members/roles/:roleName")
      .annotate(Audited, audit("custom_role"))
      .setPath(RolePath)
      .addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.get("getMember", "/organizations/:organization/members/:user").setPath(MemberPath).addSuccess(
      OrganizationMember
    )
  )
  .add(
    HttpApiEndpoint.put("updateMemberRoles", "/organizations/:organization/members/:user/roles")
      .annotate(Audited, audit("organization_member"))
      .setPath(MemberPath)
      .setPayload(UpdateRolesRequest)
      .addSuccess(OrganizationMember)
  )
  .add(
    HttpApiEndpoint.post("addMember", "/organizations/:organization/members/:user").annotate(
      Audited,
      audit("organization_member")
    )
      .setPath(MemberPath)
      .addSuccess(OrganizationMember)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.del("removeMember", "/organizations/:organization/members/:user").annotate(
      Audited,
      audit("organization_member")
    ).setPath(MemberPath).addSuccess(NoContent)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
