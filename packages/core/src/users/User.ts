/** Users: the wire forms (full, reduced, minimal), the stored record and related requests. */
import { Schema } from "effect"

export const UserStatus = Schema.Literal("active", "suspended").annotations({
  message: () => ({ message: "Status must be active or suspended.", override: true })
})
export type UserStatus = typeof UserStatus.Type

export const LoginType = Schema.Literal("", "github", "none", "oidc", "password", "token").annotations({
  message: () => ({ message: "Login type must be one of github, none, oidc, password or token.", override: true })
})
export type LoginType = typeof LoginType.Type

/** A role as embedded in a user: `organization_id` is empty for site roles. */
export class SlimRole extends Schema.Class<SlimRole>("SlimRole")({
  display_name: Schema.String,
  name: Schema.String,
  organization_id: Schema.String
}) {}

const reducedFields = {
  avatar_url: Schema.String,
  created_at: Schema.Date,
  email: Schema.String,
  id: Schema.UUID,
  is_service_account: Schema.Boolean,
  last_seen_at: Schema.Date,
  login_type: LoginType,
  name: Schema.String,
  status: UserStatus,
  theme_preference: Schema.String,
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

/** MinimalUser: id, username, name and avatar. */
export class MinimalUser extends Schema.Class<MinimalUser>("MinimalUser")({
  avatar_url: Schema.String,
  id: Schema.UUID,
  name: Schema.String,
  username: Schema.String
}) {}

/** User appearance settings. */
export class UserAppearance extends Schema.Class<UserAppearance>("UserAppearanceSettings")({
  terminal_font: Schema.String,
  theme_dark: Schema.String,
  theme_light: Schema.String,
  theme_mode: Schema.String,
  theme_preference: Schema.String
}) {
  static readonly defaults = new UserAppearance({
    terminal_font: "",
    theme_dark: "",
    theme_light: "",
    theme_mode: "",
    theme_preference: ""
  })
}

/** The stored user. Secrets (password and passcode hashes) never leave core. */
export interface UserRecord {
  readonly id: string
  readonly email: string
  readonly username: string
  readonly name: string
  readonly avatar_url: string
  readonly login_type: LoginType
  readonly status: UserStatus
  /** Explicit site roles (`member` is implicit). */
  readonly rbac_roles: ReadonlyArray<string>
  readonly is_service_account: boolean
  readonly hashed_password: string | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly last_seen_at: Date
  readonly deleted: boolean
  readonly appearance: UserAppearance
  readonly quiet_hours_schedule: string
  readonly hashed_one_time_passcode: string | null
  readonly one_time_passcode_expires_at: Date | null
}

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

/** Wire form of a stored user. */
export const toReducedUser = (u: UserRecord): ReducedUser =>
  new ReducedUser({
    avatar_url: u.avatar_url,
    created_at: u.created_at,
    email: u.email,
    id: u.id,
    is_service_account: u.is_service_account,
    last_seen_at: u.last_seen_at,
    login_type: u.login_type,
    name: u.name,
    status: u.status,
    theme_preference: u.appearance.theme_preference,
    updated_at: u.updated_at,
    username: u.username
  }, true)

export const toMinimalUser = (u: UserRecord): MinimalUser =>
  new MinimalUser({ avatar_url: u.avatar_url, id: u.id, name: u.name, username: u.username }, true)

/** One permission of a role: `action` `*` is every action, `resource_type` `*` every kind. */
export class RolePermission extends Schema.Class<RolePermission>("Permission")({
  negate: Schema.Boolean,
  resource_type: Schema.String,
  action: Schema.String
}) {}

/**
 * A role as the roles listings show it (the described system's AssignableRoles):
 * what it grants and whether the caller may assign it. `organization_id` is empty for
 * site roles, as in SlimRole.
 */
export class AssignableRole extends Schema.Class<AssignableRole>("AssignableRoles")({
  name: Schema.String,
  display_name: Schema.String,
  site_permissions: Schema.Array(RolePermission),
  organization_permissions: Schema.Array(RolePermission),
  user_permissions: Schema.Array(RolePermission),
  organization_id: Schema.String,
  assignable: Schema.Boolean,
  built_in: Schema.Boolean
}) {}
