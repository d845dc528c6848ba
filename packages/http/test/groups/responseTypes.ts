/** The JSON Schemas of the groups and quotas response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  dateTime,
  integer,
  type JsonSchema,
  object,
  omitted,
  ref,
  string,
  uri,
  uuid
} from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  Group: object({
    id: uuid,
    name: string,
    display_name: string,
    organization_id: uuid,
    organization_name: string,
    organization_display_name: string,
    members: arrayOf(ref("ReducedUser")),
    total_member_count: integer,
    avatar_url: omitted(uri),
    quota_allowance: integer,
    source: { type: "string", enum: ["user", "oidc"] }
  }),
  GroupMembersResponse: object({ users: arrayOf(ref("ReducedUser")), count: integer }),
  PaginatedGroup: object({
    id: uuid,
    name: string,
    display_name: string,
    organization_id: uuid,
    organization_name: string,
    organization_display_name: string,
    total_member_count: integer,
    avatar_url: omitted(uri),
    quota_allowance: integer,
    source: { type: "string", enum: ["user", "oidc"] }
  }, [
    "id",
    "name",
    "display_name",
    "organization_id",
    "organization_name",
    "organization_display_name",
    "total_member_count",
    "quota_allowance",
    "source"
  ]),
  PaginatedGroupsResponse: object({ groups: arrayOf(ref("PaginatedGroup")), count: integer }, ["groups", "count"]),
  GroupAIBudget: object({ group_id: uuid, spend_limit_micros: integer, created_at: dateTime, updated_at: dateTime }),
  WorkspaceQuota: object({ credits_consumed: integer, budget: integer })
}
