/** User routes: listing, creation, lookup, deletion, appearance, git SSH key, quiet hours, API keys. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { AgentChatSendShortcut, DisplayMode, UserPreferences } from "@workbay/core"
import {
  AllowListEntry,
  ApiKey,
  ApiKeyWithOwner,
  AssignableRole,
  checkPassword,
  DisplayName,
  Email,
  GitSshKey,
  isUuid,
  LoginType,
  Organization,
  QuietHoursEntry,
  TokenName,
  User,
  UserAppearance,
  Username,
  UserStatus
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import {
  BadRequest,
  BooleanParam,
  Conflict,
  EmptyOk,
  Forbidden,
  NoContent,
  NonNegativeIntParam,
  NotFound,
  optional,
  optionalOr,
  optionalParam,
  UserPath,
  Uuid,
  wireName
} from "../Common.js"
import { Authentication } from "../Security.js"

/** A UUID field or parameter, with a sentence for a message. */

/**
 * A new user's password, or empty. The dashboard sends `""` for login types without a password,
 * so empty is "not given"; the service then asks for one when the login type is password.
 */
const PasswordOrEmpty = Schema.String.pipe(
  Schema.filter((p) => {
    if (p === "") return true
    const check = checkPassword(p)
    return check.valid || check.details
  })
)

export class CreateUserRequest extends Schema.Class<CreateUserRequest>("CreateUserRequestWithOrgs")({
  email: Email,
  username: Username,
  name: optional(DisplayName),
  password: optional(PasswordOrEmpty),
  login_type: optional(LoginType),
  organization_ids: optional(Schema.Array(Uuid)),
  roles: optional(Schema.Array(Schema.String)),
  service_account: optional(Schema.Boolean),
  user_status: optional(UserStatus)
}, wireName("CreateUserRequestWithOrgs")) {}

export class UsersPage extends Schema.Class<UsersPage>("GetUsersResponse")({
  count: Schema.Int,
  users: Schema.Array(User)
}) {}

export const KeyResponse = Schema.Struct({ key: Schema.String })

/**
 * A lifetime in nanoseconds, like Go's time.Duration. Any whole number is accepted here (long
 * lifetimes exceed 2^53 ns); the service checks the bounds and answers with the allowed range.
 */
const Nanoseconds = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n)),
  Schema.annotations({
    description: "Lifetime in nanoseconds; 0 takes the default.",
    message: () => ({ message: "Lifetime must be a whole number of nanoseconds.", override: true })
  })
)

/** An allow-list entry as a request gives it: the id is a UUID or `*` (any id of that kind). */
const AllowListTarget = Schema.Struct({
  id: Schema.String.pipe(
    Schema.filter((s) => s === "*" || isUuid(s), { message: () => "Id must be a UUID or \"*\"." })
  ),
  type: AllowListEntry.fields.type
})

export class CreateTokenRequest extends Schema.Class<CreateTokenRequest>("CreateTokenRequest")({
  token_name: optional(TokenName),
  lifetime: optional(Nanoseconds),
  scope: optional(Schema.String),
  scopes: optional(Schema.Array(Schema.String)),
  allow_list: optional(Schema.Array(AllowListTarget))
}, wireName("CreateTokenRequest")) {}

/** New explicit roles (site roles of a user, or organization roles of a member). */
export class UpdateRolesRequest extends Schema.Class<UpdateRolesRequest>("UpdateRoles")({
  roles: Schema.Array(Schema.String)
}) {}

const terminalFonts = ["", "ibm-plex-mono", "fira-code", "source-code-pro", "jetbrains-mono"] as const
const TerminalFont = Schema.Literal(...terminalFonts).annotations({
  message: () => ({
    message: `Terminal font must be one of ${terminalFonts.filter((f) => f !== "").join(", ")}, or empty.`,
    override: true
  })
})

const ThemeField = Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." }))

/** A PUT of the whole settings, as in the described system: a field not given is empty (the default). */
export class UpdateAppearanceRequest
  extends Schema.Class<UpdateAppearanceRequest>("UpdateUserAppearanceSettingsRequest")({
    terminal_font: optionalOr(TerminalFont, () => "" as const),
    theme_dark: optionalOr(ThemeField, () => ""),
    theme_light: optionalOr(ThemeField, () => ""),
    theme_mode: optionalOr(ThemeField, () => ""),
    theme_preference: optionalOr(ThemeField, () => "")
  }, wireName("UpdateUserAppearanceSettingsRequest"))
{}

/** PUT /users/{user}/preferences: each setting given changes; one not given (absent or `null`) stays. */
export class UpdatePreferencesRequest
  extends Schema.Class<UpdatePreferencesRequest>("UpdateUserPreferenceSettingsRequest")({
    agent_chat_send_shortcut: optional(AgentChatSendShortcut),
    code_diff_display_mode: optional(DisplayMode),
    collapse_assistant_steps: optional(Schema.Boolean),
    shell_tool_display_mode: optional(DisplayMode),
    thinking_display_mode: optional(DisplayMode)
  }, wireName("UpdateUserPreferenceSettingsRequest"))
{}

/** PUT /users/{user}/profile: the username (required) and the display name (kept when absent). */
export class UpdateUserProfileRequest extends Schema.Class<UpdateUserProfileRequest>("UpdateUserProfileRequest")({
  username: Username,
  name: optional(DisplayName)
}, wireName("UpdateUserProfileRequest")) {}

/** PUT /users/{user}/password: the old password (owners and user admins may leave it out) and the new one. */
export class UpdateUserPasswordRequest extends Schema.Class<UpdateUserPasswordRequest>("UpdateUserPasswordRequest")({
  old_password: optional(Schema.String),
  password: Schema.String
}, wireName("UpdateUserPasswordRequest")) {}

export const UserRoles = Schema.Struct({
  roles: Schema.Array(Schema.String),
  organization_roles: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
}).annotations({ identifier: "UserRoles" })

export const UserLoginType = Schema.Struct({ login_type: LoginType }).annotations({ identifier: "UserLoginType" })

const UserOrganizationPath = Schema.Struct({ user: Schema.String, organizationname: Schema.String })
const UserKeyPath = Schema.Struct({ user: Schema.String, keyid: Schema.String })
const UserKeyNamePath = Schema.Struct({ user: Schema.String, keyname: Schema.String })

export class UsersApi extends HttpApiGroup.make("users")
  .add(
    HttpApiEndpoint.get("list", "/users")
      .setUrlParams(Schema.Struct({
        q: optionalParam(Schema.String),
        after_id: optionalParam(Uuid),
        limit: optionalParam(NonNegativeIntParam),
        offset: optionalParam(NonNegativeIntParam)
      }))
      .addSuccess(UsersPage)
  )
  .add(
    HttpApiEndpoint.post("create", "/users").annotate(Audited, audit("user")).setPayload(CreateUserRequest).addSuccess(
      User,
      { status: 201 }
    ).addError(Conflict)
  )
  .add(HttpApiEndpoint.get("assignableRoles", "/users/roles").addSuccess(Schema.Array(AssignableRole)))
  .add(HttpApiEndpoint.get("get", "/users/:user").setPath(UserPath).addSuccess(User))
  .add(HttpApiEndpoint.get("roles", "/users/:user/roles").setPath(UserPath).addSuccess(UserRoles))
  .add(
    HttpApiEndpoint.put("updateRoles", "/users/:user/roles").annotate(Audited, audit("user"))
      .setPath(UserPath)
      .setPayload(UpdateRolesRequest)
      .addSuccess(User)
  )
  .add(
    HttpApiEndpoint.put("suspend", "/users/:user/status/suspend").annotate(Audited, audit("user")).setPath(UserPath)
      .addSuccess(User)
  )
  .add(
    HttpApiEndpoint.put("activate", "/users/:user/status/activate").annotate(Audited, audit("user")).setPath(UserPath)
      .addSuccess(User)
  )
  .add(
    HttpApiEndpoint.del("delete", "/users/:user").annotate(Audited, audit("user")).setPath(UserPath).addSuccess(EmptyOk)
  )
  .add(HttpApiEndpoint.get("loginType", "/users/:user/login-type").setPath(UserPath).addSuccess(UserLoginType))
  .add(
    HttpApiEndpoint.get("organizations", "/users/:user/organizations").setPath(UserPath).addSuccess(
      Schema.Array(Organization)
    )
  )
  .add(
    HttpApiEndpoint.get("organizationByName", "/users/:user/organizations/:organizationname").setPath(
      UserOrganizationPath
    )
      .addSuccess(Organization)
  )
  .add(
    HttpApiEndpoint.put("updateProfile", "/users/:user/profile").annotate(Audited, audit("user"))
      .setPath(UserPath)
      .setPayload(UpdateUserProfileRequest)
      .addSuccess(User)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.put("updatePassword", "/users/:user/password").annotate(Audited, audit("user"))
      .setPath(UserPath)
      .setPayload(UpdateUserPasswordRequest)
      .addSuccess(NoContent)
  )
  .add(HttpApiEndpoint.get("getAppearance", "/users/:user/appearance").setPath(UserPath).addSuccess(UserAppearance))
  .add(
    HttpApiEndpoint.put("updateAppearance", "/users/:user/appearance").annotate(Audited, audit("user"))
      .setPath(UserPath)
      .setPayload(UpdateAppearanceRequest)
      .addSuccess(UserAppearance)
  )
  .add(HttpApiEndpoint.get("getPreferences", "/users/:user/preferences").setPath(UserPath).addSuccess(UserPreferences))
  .add(
    HttpApiEndpoint.put("updatePreferences", "/users/:user/preferences").annotate(Audited, audit("user"))
      .setPath(UserPath)
      .setPayload(UpdatePreferencesRequest)
      .addSuccess(UserPreferences)
  )
  .add(
    HttpApiEndpoint.get("autofillParameters", "/users/:user/autofill-parameters")
      .setPath(UserPath)
      .setUrlParams(Schema.Struct({ template_id: Uuid }))
      .addSuccess(Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String })))
  )
  .add(HttpApiEndpoint.get("getGitSshKey", "/users/:user/gitsshkey").setPath(UserPath).addSuccess(GitSshKey))
  .add(
    HttpApiEndpoint.put("regenerateGitSshKey", "/users/:user/gitsshkey").annotate(Audited, audit("git_ssh_key"))
      .setPath(UserPath).addSuccess(GitSshKey)
  )
  .add(
    HttpApiEndpoint.get("getQuietHours", "/users/:user/quiet-hours").setPath(UserPath).addSuccess(
      Schema.Array(QuietHoursEntry)
    )
  )
  .add(
    HttpApiEndpoint.put("updateQuietHours", "/users/:user/quiet-hours").annotate(Audited, audit("user"))
      .setPath(UserPath)
      .setPayload(Schema.Struct({ schedule: Schema.String }))
      .addSuccess(Schema.Array(QuietHoursEntry))
  )
  .add(
    HttpApiEndpoint.post("createSessionKey", "/users/:user/keys").annotate(Audited, audit("api_key")).setPath(UserPath)
      .addSuccess(KeyResponse, { status: 201 })
  )
  .add(
    HttpApiEndpoint.get("listTokens", "/users/:user/keys/tokens")
      .setPath(UserPath)
      .setUrlParams(
        Schema.Struct({ include_all: optionalParam(BooleanParam), include_expired: optionalParam(BooleanParam) })
      )
      .addSuccess(Schema.Array(ApiKeyWithOwner))
  )
  .add(
    HttpApiEndpoint.post("createToken", "/users/:user/keys/tokens").annotate(Audited, audit("api_key"))
      .setPath(UserPath)
      .setPayload(CreateTokenRequest)
      .addSuccess(KeyResponse, { status: 201 })
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.get("tokenConfig", "/users/:user/keys/tokens/tokenconfig")
      .setPath(UserPath)
      .addSuccess(Schema.Struct({ max_token_lifetime: Schema.Number }))
  )
  .add(
    HttpApiEndpoint.get("getTokenByName", "/users/:user/keys/tokens/:keyname").setPath(UserKeyNamePath).addSuccess(
      ApiKey
    )
  )
  .add(
    HttpApiEndpoint.del("deleteTokenByName", "/users/:user/keys/tokens/:keyname").annotate(Audited, audit("api_key"))
      .setPath(UserKeyNamePath).addSuccess(NoContent)
  )
  .add(HttpApiEndpoint.get("getKey", "/users/:user/keys/:keyid").setPath(UserKeyPath).addSuccess(ApiKey))
  .add(
    HttpApiEndpoint.del("deleteKey", "/users/:user/keys/:keyid").annotate(Audited, audit("api_key")).setPath(
      UserKeyPath
    ).addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.put("expireKey", "/users/:user/keys/:keyid/expire").annotate(Audited, audit("api_key"))
      .setPath(UserKeyPath)
      .addSuccess(NoContent)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
