/**
 * The request bodies and queries of the users area's routes (`/users/...`, sign-in and sign-in
 * providers' callbacks). The routes in `http/src/users/` declare them; the services take their
 * decoded types (`typeof X.Type`).
 */
import { Schema } from "effect"
import { isUuid, Uuid } from "../Ids.js"
import { BooleanParam, optional, optionalOr, optionalParam, wireName } from "../Requests.js"
import { AllowListEntry, TokenName } from "./ApiKey.js"
import { checkPassword, NewPassword } from "./Passwords.js"
import { AgentChatSendShortcut, DisplayMode } from "./Preferences.js"
import { DisplayName, Email, LoginType, Username, UserStatus } from "./User.js"

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

/** POST /users. */
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

/** POST /users/{user}/keys/tokens. */
export class CreateTokenRequest extends Schema.Class<CreateTokenRequest>("CreateTokenRequest")({
  token_name: optional(TokenName),
  lifetime: optional(Nanoseconds),
  scope: optional(Schema.String),
  scopes: optional(Schema.Array(Schema.String)),
  allow_list: optional(Schema.Array(AllowListTarget))
}, wireName("CreateTokenRequest")) {}

/** The query of GET /users/{user}/keys/tokens: expired keys, and (owners) every user's keys. */
export const ListTokensQuery = Schema.Struct({
  include_all: optionalParam(BooleanParam),
  include_expired: optionalParam(BooleanParam)
})

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

/** PUT /users/{user}/quiet-hours: a `CRON_TZ=<zone> <min> <hour> * * *` schedule. */
export const UpdateQuietHoursRequest = Schema.Struct({ schedule: Schema.String })

/** POST /users/login. */
export class LoginRequest extends Schema.Class<LoginRequest>("LoginWithPasswordRequest")({
  email: Email,
  password: Schema.String.pipe(Schema.minLength(1, { message: () => "Password is required." }))
}) {}

/** POST /users/otp/request: where to send a one-time passcode. */
export const OneTimePasscodeRequest = Schema.Struct({ email: Email })

/** POST /users/otp/change-password: a new password, with the passcode mailed to `email`. */
export const ChangePasswordWithPasscodeRequest = Schema.Struct({
  email: Email,
  one_time_passcode: Schema.String.pipe(
    Schema.minLength(1, { message: () => "The one-time passcode is required." })
  ),
  password: NewPassword
})

/** POST /users/first: the first user, an owner. `trial`, `onboarding_info` and `trial_info` are accepted and unused. */
export class FirstUserRequest extends Schema.Class<FirstUserRequest>("CreateFirstUserRequest")({
  email: Email,
  name: optional(DisplayName),
  username: Username,
  password: NewPassword,
  trial: optional(Schema.Boolean),
  onboarding_info: optional(Schema.Struct({
    newsletter_marketing: optional(Schema.Boolean),
    newsletter_releases: optional(Schema.Boolean)
  })),
  trial_info: optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}, wireName("CreateFirstUserRequest")) {}

/** POST /users/validate-password. */
export const ValidatePasswordRequest = Schema.Struct({ password: Schema.String })

/** POST /users/{user}/convert-login: the account's password and the provider to convert to. */
export const ConvertLoginRequest = Schema.Struct({ password: Schema.String, to_type: Schema.String })

/** The query of a sign-in provider's callback (and of the call that starts its flow). */
export const CallbackQuery = Schema.Struct({
  code: optionalParam(Schema.String),
  state: optionalParam(Schema.String),
  redirect: optionalParam(Schema.String),
  oidc_merge_state: optionalParam(Schema.String),
  error: optionalParam(Schema.String),
  error_description: optionalParam(Schema.String),
  /** The issuer of an authorization response (RFC 9207), passed on to the check. */
  iss: optionalParam(Schema.String)
})
