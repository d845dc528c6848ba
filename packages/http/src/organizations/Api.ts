/** Organization routes and organization members. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  AssignableRole,
  CreateOrganizationRequest,
  CustomRoleRequest,
  ListMembersQuery,
  Organization,
  OrganizationMember,
  PaginatedMembers,
  ResponseBody,
  Role,
  SearchPageQuery,
  UpdateOrganizationRequest,
  UpdateRolesRequest,
  UpdateWorkspaceSharingSettingsRequest,
  WorkspaceSharingSettings
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, OrganizationPath } from "../Common.js"
import { Authentication } from "../Security.js"

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
      .setUrlParams(ListMembersQuery)
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
