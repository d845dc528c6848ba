/** Group routes: groups, members, workspace quota, AI budgets. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  CreateGroupRequest,
  GetGroupQuery,
  Group,
  GroupAiBudget,
  GroupMembersPage,
  isGroupName,
  isUuid,
  ListGroupsQuery,
  PaginatedGroupsPage,
  PatchGroupRequest,
  PutGroupAiBudgetRequest,
  SearchPageQuery,
  WorkspaceQuota
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, OrganizationPath, UserPath } from "../Common.js"
import { Authentication } from "../Security.js"

/** `{group}`: a group id, or a group name (see docs/groups.md). */
const GroupRef = Schema.String.pipe(
  Schema.filter((s) => isUuid(s) || isGroupName(s) || "Must be a group id (a UUID) or a group name.")
)
const GroupPath = Schema.Struct({ group: GroupRef })

export class GroupsApi extends HttpApiGroup.make("groups")
  .add(
    HttpApiEndpoint.get("list", "/groups")
      .setUrlParams(ListGroupsQuery)
      .addSuccess(Schema.Array(Group))
  )
  .add(
    HttpApiEndpoint.get("get", "/groups/:group")
      .setPath(GroupPath)
      .setUrlParams(GetGroupQuery)
      .addSuccess(Group)
  )
  .add(
    HttpApiEndpoint.patch("update", "/groups/:group").annotate(Audited, audit("group"))
      .setPath(GroupPath)
      .setPayload(PatchGroupRequest)
      .addSuccess(Group)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.del("delete", "/groups/:group").annotate(Audited, audit("group")).setPath(GroupPath).addSuccess(
      Group
    )
  )
  .add(
    HttpApiEndpoint.get("listMembers", "/groups/:group/members")
      .setPath(GroupPath)
      .setUrlParams(SearchPageQuery)
      .addSuccess(GroupMembersPage)
  )
  .add(HttpApiEndpoint.get("getAiBudget", "/groups/:group/ai/budget").setPath(GroupPath).addSuccess(GroupAiBudget))
  .add(
    HttpApiEndpoint.put("setAiBudget", "/groups/:group/ai/budget").annotate(Audited, audit("group_ai_budget"))
      .setPath(GroupPath)
      .setPayload(PutGroupAiBudgetRequest)
      .addSuccess(GroupAiBudget)
  )
  .add(
    HttpApiEndpoint.del("deleteAiBudget", "/groups/:group/ai/budget").annotate(Audited, audit("group_ai_budget"))
      .setPath(GroupPath)
      .addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.get("listByOrganization", "/organizations/:organization/groups").setPath(OrganizationPath)
      .addSuccess(Schema.Array(Group))
  )
  .add(
    HttpApiEndpoint.get("getByName", "/organizations/:organization/groups/:groupName")
      .setPath(Schema.Struct({ organization: Schema.String, groupName: Schema.String }))
      .addSuccess(Group)
  )
  .add(
    HttpApiEndpoint.get("listMembersByName", "/organizations/:organization/groups/:groupName/members")
      .setPath(Schema.Struct({ organization: Schema.String, groupName: Schema.String }))
      .setUrlParams(SearchPageQuery)
      .addSuccess(GroupMembersPage)
  )
  .add(
    HttpApiEndpoint.get("listPaginated", "/organizations/:organization/paginated-groups")
      .setPath(OrganizationPath)
      .setUrlParams(SearchPageQuery)
      .addSuccess(PaginatedGroupsPage)
  )
  .add(
    HttpApiEndpoint.post("create", "/organizations/:organization/groups").annotate(Audited, audit("group"))
      .setPath(OrganizationPath)
      .setPayload(CreateGroupRequest)
      .addSuccess(Group, { status: 201 })
      .addError(Conflict)
  )
  .add(HttpApiEndpoint.get("workspaceQuota", "/workspace-quota/:user").setPath(UserPath).addSuccess(WorkspaceQuota))
  .add(
    HttpApiEndpoint.get("workspaceQuotaByOrganization", "/organizations/:organization/members/:user/workspace-quota")
      .setPath(Schema.Struct({ organization: Schema.String, user: Schema.String }))
      .addSuccess(WorkspaceQuota)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
