/** Group routes: groups, members, workspace quota, AI budgets. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  Group,
  GroupAiBudget,
  GroupMembersPage,
  GroupName,
  isGroupName,
  isUuid,
  PaginatedGroupsPage,
  WorkspaceQuota
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import {
  BadRequest,
  BooleanParam,
  Conflict,
  Forbidden,
  NoContent,
  NotFound,
  optional,
  optionalParam,
  OrganizationPath,
  SearchPageQuery,
  UserPath,
  wireName
} from "../Common.js"
import { Authentication } from "../Security.js"

const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

/** Display names: at most 64 characters, no leading or trailing spaces (Coder's rule). */
const GroupDisplayName = Text(64).pipe(
  Schema.filter((s) => s === s.trim() || "Display name must not start or end with spaces.")
)

/** Coder stores allowances as 32-bit integers. */
const QuotaAllowance = Schema.Int.annotations({
  message: () => ({ message: "Must be a whole number.", override: true })
}).pipe(
  Schema.nonNegative({ message: () => "Quota allowance cannot be negative." }),
  Schema.lessThanOrEqualTo(2_147_483_647, { message: () => "Quota allowance must be at most 2147483647." })
)

const SpendLimitMicros = Schema.Number.pipe(
  Schema.filter((n) => Number.isSafeInteger(n) || "Must be a whole number of micros."),
  Schema.nonNegative({ message: () => "Spend limit cannot be negative." })
)

/** `{group}`: a group id, or a group name (see docs/groups.md). */
const GroupRef = Schema.String.pipe(
  Schema.filter((s) => isUuid(s) || isGroupName(s) || "Must be a group id (a UUID) or a group name.")
)
const GroupPath = Schema.Struct({ group: GroupRef })

/** User ids, usernames or `me`. */
const UserRefs = Schema.Array(Text(320))

export class CreateGroupRequest extends Schema.Class<CreateGroupRequest>("CreateGroupRequest")({
  name: GroupName,
  display_name: optional(GroupDisplayName),
  avatar_url: optional(Text(512)),
  quota_allowance: optional(QuotaAllowance)
}, wireName("CreateGroupRequest")) {}

/** A new name, or empty to keep the current one (as Coder does). */
const NameOrEmpty = Schema.Union(Schema.Literal(""), GroupName)
  .annotations({
    message: () => ({ message: "Name must be 1-32 alphanumerics with single inner hyphens, or empty.", override: true })
  })

export class PatchGroupRequest extends Schema.Class<PatchGroupRequest>("PatchGroupRequest")({
  add_users: optional(UserRefs),
  remove_users: optional(UserRefs),
  name: optional(NameOrEmpty),
  display_name: optional(GroupDisplayName),
  avatar_url: optional(Text(512)),
  quota_allowance: optional(QuotaAllowance)
}, wireName("PatchGroupRequest")) {}

export class PutGroupAiBudgetRequest extends Schema.Class<PutGroupAiBudgetRequest>("PutGroupAIBudgetRequest")({
  spend_limit_micros: SpendLimitMicros
}) {}

/** `group_ids`: comma-separated group ids (the dispatcher splits them); one validation for the parameter. */
const GroupIds = Schema.Array(Schema.String).pipe(
  Schema.filter((ids) => {
    const bad = ids.filter((id) => !isUuid(id))
    return bad.length === 0 || `Not a UUID: ${bad.map((b) => `"${b}"`).join(", ")}.`
  })
)

/** The members listing's query (`GET /groups/{group}/members` and its organization-and-name twin). */

export class GroupsApi extends HttpApiGroup.make("groups")
  .add(
    HttpApiEndpoint.get("list", "/groups")
      .setUrlParams(Schema.Struct({
        organization: optionalParam(Schema.String),
        has_member: optionalParam(Schema.String),
        group_ids: optionalParam(GroupIds)
      }))
      .addSuccess(Schema.Array(Group))
  )
  .add(
    HttpApiEndpoint.get("get", "/groups/:group")
      .setPath(GroupPath)
      .setUrlParams(Schema.Struct({ exclude_members: optionalParam(BooleanParam) }))
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
