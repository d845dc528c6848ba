/** The JSON Schemas of the users, sessions, tokens and sign-in response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  email,
  integer,
  type JsonSchema,
  mapOf,
  object,
  omitted,
  ref,
  string,
  uri,
  uuid
} from "../schemas/jsonSchema.js"

const loginTypes = ["", "github", "none", "oidc", "password", "token"]

const terminalFonts = ["", "ibm-plex-mono", "fira-code", "source-code-pro", "jetbrains-mono"]

export const minimalUserFields = {
  id: uuid,
  username: string,
  name: omitted(string),
  avatar_url: omitted(uri)
}

export const reducedUserFields = {
  ...minimalUserFields,
  email,
  created_at: dateTime,
  updated_at: dateTime,
  last_seen_at: dateTime,
  status: { type: "string", enum: ["active", "suspended"] },
  login_type: { type: "string", enum: loginTypes },
  theme_preference: omitted(string),
  is_service_account: omitted(boolean)
}

export const userRequired = ["created_at", "email", "id", "username"]

const permission = object({ negate: boolean, resource_type: string, action: string })

/** How the agent chat shows a kind of block (codersdk's display modes). */
const displayModes = ["auto", "always_expanded", "always_collapsed"]

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  MinimalUser: object(minimalUserFields, ["id", "username"]),
  ReducedUser: object(reducedUserFields, userRequired),
  User: object(
    {
      ...reducedUserFields,
      organization_ids: arrayOf(uuid),
      roles: arrayOf(ref("SlimRole")),
      has_ai_seat: boolean
    },
    userRequired
  ),
  SlimRole: object({ name: string, display_name: string, organization_id: omitted(string) }),
  GetUsersResponse: object({ users: arrayOf(ref("User")), count: integer }),
  AssignableRoles: object({
    name: string,
    display_name: string,
    organization_id: omitted(uuid),
    site_permissions: arrayOf(permission),
    organization_permissions: arrayOf(permission),
    user_permissions: arrayOf(permission),
    assignable: boolean,
    built_in: boolean
  }),
  Role: object({
    name: string,
    organization_id: omitted(uuid),
    display_name: string,
    site_permissions: arrayOf(permission),
    organization_permissions: arrayOf(permission),
    user_permissions: arrayOf(permission)
  }),
  UserLoginType: object({ login_type: { type: "string", enum: loginTypes } }),
  UserRoles: object({ roles: arrayOf(string), organization_roles: mapOf(arrayOf(string)) }),
  UserAppearanceSettings: object({
    terminal_font: { type: "string", enum: terminalFonts },
    theme_preference: string,
    theme_mode: string,
    theme_light: string,
    theme_dark: string
  }),
  UserPreferenceSettings: object({
    agent_chat_send_shortcut: { type: "string", enum: ["enter", "modifier_enter"] },
    code_diff_display_mode: { type: "string", enum: displayModes },
    collapse_assistant_steps: boolean,
    shell_tool_display_mode: { type: "string", enum: displayModes },
    thinking_display_mode: { type: "string", enum: displayModes }
  }, [
    "agent_chat_send_shortcut",
    "code_diff_display_mode",
    "collapse_assistant_steps",
    "shell_tool_display_mode",
    "thinking_display_mode"
  ]),
  UserParameter: object({ name: string, value: string }),
  GitSSHKey: object({ user_id: uuid, created_at: dateTime, updated_at: dateTime, public_key: string }),
  UserQuietHoursScheduleResponse: object({
    raw_schedule: string,
    user_set: boolean,
    user_can_set: boolean,
    time: string,
    timezone: string,
    next: dateTime
  }),
  APIKey: object(
    {
      id: string,
      user_id: uuid,
      last_used: dateTime,
      expires_at: dateTime,
      created_at: dateTime,
      updated_at: dateTime,
      login_type: { type: "string", enum: ["github", "oidc", "password", "token"] },
      scope: { type: "string", enum: ["all", "application_connect"] },
      scopes: arrayOf(string),
      token_name: string,
      lifetime_seconds: integer,
      allow_list: arrayOf(object({ id: string, type: string }))
    },
    [
      "created_at",
      "expires_at",
      "id",
      "last_used",
      "lifetime_seconds",
      "login_type",
      "token_name",
      "updated_at",
      "user_id"
    ]
  ),
  // An APIKey plus its owner's username (always sent; "" when the owner is unknown).
  APIKeyWithOwner: { allOf: [ref("APIKey"), object({ username: string }, ["username"])] },
  GenerateAPIKeyResponse: object({ key: string }),
  TokenConfig: object({ max_token_lifetime: integer }),

  LoginWithPasswordResponse: object({ session_token: string }, ["session_token"]),
  CreateFirstUserResponse: object({ user_id: uuid, organization_id: uuid }),
  AuthMethods: object({
    terms_of_service_url: omitted(string),
    password: object({ enabled: boolean }),
    github: object({ enabled: boolean, default_provider_configured: boolean }),
    oidc: object({ enabled: boolean, signInText: string, iconUrl: string })
  }),
  OAuthConversionResponse: object({
    state_string: string,
    expires_at: dateTime,
    to_type: { type: "string", enum: loginTypes },
    user_id: uuid
  }),
  ValidateUserPasswordResponse: object({ valid: boolean, details: string }),
  AuthorizationResponse: mapOf(boolean),
  ExternalAPIKeyScopes: object({ external: arrayOf(string) }),

  // Sign-in through GitHub and OpenID Connect (typesGenerated: ExternalAuthDevice, OAuth2DeviceFlowCallbackResponse, OIDCClaimsResponse).
  OAuth2DeviceFlowCallbackResponse: {
    ...object({ redirect_url: string }, ["redirect_url"]),
    additionalProperties: false
  },
  OIDCClaimsResponse: { ...object({ claims: { type: "object" } }, ["claims"]), additionalProperties: false }
}
