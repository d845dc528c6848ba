/** The JSON Schemas of the organizations and their members response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  object,
  omitted,
  ref,
  string,
  uuid
} from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  Organization: object(
    {
      id: uuid,
      name: string,
      display_name: string,
      description: string,
      icon: string,
      created_at: dateTime,
      updated_at: dateTime,
      is_default: boolean
    },
    ["created_at", "id", "is_default", "updated_at"]
  ),
  MinimalOrganization: object({ id: uuid, name: string, display_name: string, icon: string }, ["id"]),
  OrganizationMemberWithUserData: object({
    user_id: uuid,
    organization_id: uuid,
    created_at: dateTime,
    updated_at: dateTime,
    roles: arrayOf(ref("SlimRole")),
    username: string,
    name: omitted(string),
    avatar_url: omitted(string),
    email: string,
    global_roles: arrayOf(ref("SlimRole"))
  }),
  WorkspaceSharingSettings: object({
    sharing_globally_disabled: boolean,
    sharing_disabled: boolean,
    shareable_workspace_owners: { type: "string", enum: ["none", "everyone", "service_accounts"] }
  }, ["sharing_globally_disabled", "sharing_disabled", "shareable_workspace_owners"]),
  PaginatedMembersResponse: object({ members: arrayOf(ref("OrganizationMemberWithUserData")), count: integer }, [
    "members",
    "count"
  ])
}
