/** Users: the wire forms (full, reduced, minimal, a page, roles, login type), the stored record. */
import { Schema } from "effect"
import { LoginType, type UserRecord, UserStatus } from "../Identity.js"
import { omitEmpty, putNonEmpty, wireMaker, type WireProps } from "../Wire.js"

export { LoginType, UserAppearance, type UserRecord, UserStatus } from "../Identity.js"

/** A role as embedded in a user: `organization_id` is absent for site roles. */
export class SlimRole extends Schema.Class<SlimRole>("SlimRole")({
  display_name: Schema.String,
  name: Schema.String,
  organization_id: omitEmpty(Schema.String)
}) {}

const makeSlimRole = wireMaker(SlimRole)

/** A role of a user or member: site roles have no organization. */
export const toSlimRole = (name: string, displayName: string, organizationId: string): SlimRole => {
  const props: WireProps<typeof SlimRole> = { display_name: displayName, name }
  putNonEmpty(props, "organization_id", organizationId)
  return makeSlimRole(props)
}

/** Name and avatar are absent when empty, as in the described system. */
const reducedFields = {
  avatar_url: omitEmpty(Schema.String),
  created_at: Schema.Date,
  email: Schema.String,
  id: Schema.UUID,
  /** Absent unless true. */
  is_service_account: omitEmpty(Schema.Boolean),
  last_seen_at: Schema.Date,
  login_type: LoginType,
  name: omitEmpty(Schema.String),
  status: UserStatus,
  theme_preference: omitEmpty(Schema.String),
  updated_at: Schema.Date,
  username: Schema.String
}

/** Reduced user: group members and member listings. */
export class ReducedUser extends Schema.Class<ReducedUser>("ReducedUser")(reducedFields) {}

/** The full user. */
export class User extends Schema.Class<User>("User")({
  ...reducedFields,
  has_ai_seat: Schema.Boolean,
  organization_ids: Schema.Array(Schema.UUID),
  roles: Schema.Array(SlimRole)
}) {}

/** GET /users: a page of users and the count of all that match. */
export class UsersPage extends Schema.Class<UsersPage>("GetUsersResponse")({
  count: Schema.Int,
  users: Schema.Array(User)
}) {}

/** GET /users/{user}/roles: the user's site roles and their roles per organization (by id). */
export const UserRoles = Schema.Struct({
  roles: Schema.Array(Schema.String),
  organization_roles: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
}).annotations({ identifier: "UserRoles" })

/** GET /users/{user}/login-type. */
export const UserLoginType = Schema.Struct({ login_type: LoginType }).annotations({ identifier: "UserLoginType" })

/** POST /users/first: the first user and the organization it joined. */
export class FirstUserResponse extends Schema.Class<FirstUserResponse>("CreateFirstUserResponse")({
  organization_id: Schema.UUID,
  user_id: Schema.UUID
}) {}

/** MinimalUser: id, username, and the name and avatar when set. */
export class MinimalUser extends Schema.Class<MinimalUser>("MinimalUser")({
  avatar_url: omitEmpty(Schema.String),
  id: Schema.UUID,
  name: omitEmpty(Schema.String),
  username: Schema.String
}) {}

/** Username rules of the described system: 1-32 chars, alphanumerics with single inner hyphens. */
export const usernamePattern = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/
export const Username = Schema.String.pipe(
  Schema.minLength(1, { message: () => "Username is required." }),
  Schema.maxLength(32, { message: () => "Username must be at most 32 characters." }),
  Schema.pattern(usernamePattern, {
    message: () => "Username must be alphanumeric with single hyphens, not starting or ending with a hyphen."
  })
)

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const Email = Schema.String.pipe(
  Schema.maxLength(320, { message: () => "Email must be at most 320 characters." }),
  Schema.pattern(emailPattern, { message: () => "Must be a valid email address." })
)

export const DisplayName = Schema.String.pipe(
  Schema.maxLength(128, { message: () => "Name must be at most 128 characters." })
)

const reserved = new Set(["me", "new", "create", "first", "authmethods", "login", "logout", "roles"])
/** Whether a username is taken by a route word. */
export const isReservedUsername = (name: string) => reserved.has(name.toLowerCase())

/** The fields of a reduced user (and of a full one), the empty ones left out. */
export const reducedUserProps = (u: UserRecord): WireProps<typeof ReducedUser> => {
  const props: WireProps<typeof ReducedUser> = {
    created_at: u.created_at,
    email: u.email,
    id: u.id,
    last_seen_at: u.last_seen_at,
    login_type: u.login_type,
    status: u.status,
    updated_at: u.updated_at,
    username: u.username
  }
  putNonEmpty(props, "avatar_url", u.avatar_url)
  putNonEmpty(props, "is_service_account", u.is_service_account)
  putNonEmpty(props, "name", u.name)
  putNonEmpty(props, "theme_preference", u.appearance.theme_preference)
  return props
}

/** Wire form of a stored user. */
const makeReducedUser = wireMaker(ReducedUser)
const makeMinimalUser = wireMaker(MinimalUser)
export const toReducedUser = (u: UserRecord): ReducedUser => makeReducedUser(reducedUserProps(u))

export const toMinimalUser = (u: UserRecord): MinimalUser => {
  const props: WireProps<typeof MinimalUser> = { id: u.id, username: u.username }
  putNonEmpty(props, "avatar_url", u.avatar_url)
  putNonEmpty(props, "name", u.name)
  return makeMinimalUser(props)
}

/** One permission of a role: `action` `*` is every action, `resource_type` `*` every kind. */
export class RolePermission extends Schema.Class<RolePermission>("Permission")({
  negate: Schema.Boolean,
  resource_type: Schema.String,
  action: Schema.String
}) {}

/**
 * A role as the roles listings show it (the described system's AssignableRoles):
 * what it grants and whether the caller may assign it. `organization_id` (a UUID) is
 * absent for site roles, as in SlimRole.
 */
export class AssignableRole extends Schema.Class<AssignableRole>("AssignableRoles")({
  name: Schema.String,
  display_name: Schema.String,
  site_permissions: Schema.Array(RolePermission),
  organization_permissions: Schema.Array(RolePermission),
  user_permissions: Schema.Array(RolePermission),
  organization_id: omitEmpty(Schema.UUID),
  assignable: Schema.Boolean,
  built_in: Schema.Boolean
}) {}
