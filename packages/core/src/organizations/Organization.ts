/** Organizations and memberships. */
import { Schema } from "effect"
import { SlimRole } from "../users/User.js"
import { omitEmpty } from "../Wire.js"

export class Organization extends Schema.Class<Organization>("Organization")({
  created_at: Schema.Date,
  description: Schema.String,
  display_name: Schema.String,
  icon: Schema.String,
  id: Schema.UUID,
  is_default: Schema.Boolean,
  name: Schema.String,
  updated_at: Schema.Date
}) {}

/** The stored organization has the wire shape. */
export type OrganizationRecord = Organization

/** An organization member as listed by the members routes; name and avatar are absent when empty. */
export class OrganizationMember extends Schema.Class<OrganizationMember>("OrganizationMemberWithUserData")({
  organization_id: Schema.UUID,
  user_id: Schema.UUID,
  username: Schema.String,
  name: omitEmpty(Schema.String),
  email: Schema.String,
  avatar_url: omitEmpty(Schema.String),
  global_roles: Schema.Array(SlimRole),
  roles: Schema.Array(SlimRole),
  created_at: Schema.Date,
  updated_at: Schema.Date
}) {}

/** GET /organizations/{organization}/paginated-members: a page of members and how many match. */
export class PaginatedMembers extends Schema.Class<PaginatedMembers>("PaginatedMembersResponse")({
  members: Schema.Array(OrganizationMember),
  count: Schema.Int
}) {}

/** Whose workspaces an organization lets be shared. */
export const ShareableWorkspaceOwners = Schema.Literal("none", "everyone", "service_accounts").annotations({
  identifier: "ShareableWorkspaceOwners",
  message: () => ({ message: "Must be one of none, everyone, service_accounts.", override: true })
})
export type ShareableWorkspaceOwners = typeof ShareableWorkspaceOwners.Type

/** GET/PATCH /organizations/{organization}/settings/workspace-sharing. */
export class WorkspaceSharingSettings extends Schema.Class<WorkspaceSharingSettings>("WorkspaceSharingSettings")({
  /** The deployment turned sharing off (`disable_workspace_sharing`), whatever the organization says. */
  sharing_globally_disabled: Schema.Boolean,
  /** Deprecated in the described system: `shareable_workspace_owners` is `none`. */
  sharing_disabled: Schema.Boolean,
  shareable_workspace_owners: ShareableWorkspaceOwners
}) {}

export const OrganizationName = Schema.String.pipe(
  Schema.minLength(1, { message: () => "Name is required." }),
  Schema.maxLength(32, { message: () => "Name must be at most 32 characters." }),
  Schema.pattern(/^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/, {
    message: () => "Name must be alphanumeric with single hyphens, not starting or ending with a hyphen."
  })
)

/** An organization as the authorization evaluator sees it. */
export const orgObject = (o: { readonly id: string }) => ({ type: "organization", id: o.id, orgId: o.id }) as const
