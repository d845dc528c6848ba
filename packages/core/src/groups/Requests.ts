/**
 * The request bodies and queries of the groups area's routes (`/groups/...`, an organization's
 * groups, AI budgets). The routes in `http/src/groups/` declare them; the services take their
 * decoded types (`typeof X.Type`). The members listings and the paged groups listing take the
 * shared `SearchPageQuery`.
 */
import { Schema } from "effect"
import { isUuid } from "../Ids.js"
import { BooleanParam, optional, optionalParam, Text, wireName } from "../Requests.js"
import { GroupName } from "./Group.js"

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

/** User ids, usernames or `me`. */
const UserRefs = Schema.Array(Text(320))

/** POST /organizations/{organization}/groups. */
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

/** PATCH /groups/{group}: members to add and remove (user ids, usernames or `me`), and the fields that change. */
export class PatchGroupRequest extends Schema.Class<PatchGroupRequest>("PatchGroupRequest")({
  add_users: optional(UserRefs),
  remove_users: optional(UserRefs),
  name: optional(NameOrEmpty),
  display_name: optional(GroupDisplayName),
  avatar_url: optional(Text(512)),
  quota_allowance: optional(QuotaAllowance)
}, wireName("PatchGroupRequest")) {}

/** PUT /groups/{group}/ai/budget. */
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

/**
 * The query of GET /groups: `organization` (an id or name), `has_member` (a user id, username
 * or `me`) and `group_ids`.
 */
export const ListGroupsQuery = Schema.Struct({
  organization: optionalParam(Schema.String),
  has_member: optionalParam(Schema.String),
  group_ids: optionalParam(GroupIds)
})

/** The query of GET /groups/{group}. */
export const GetGroupQuery = Schema.Struct({ exclude_members: optionalParam(BooleanParam) })
