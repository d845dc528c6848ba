/** User routes: listing, creation, lookup, deletion, appearance, git SSH key, quiet hours, API keys. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { ApiKey, NewPassword, DisplayName, Email, GitSshKey, LoginType, QuietHoursEntry, TokenName, User, UserAppearance, UserStatus, Username, AllowListEntry } from "@workbay/core"
import { Schema } from "effect"
import { BadRequest, BooleanParam, Conflict, EmptyOk, Forbidden, NonNegativeIntParam, NoContent, NotFound, UserPath } from "../Common.js"
import { Authentication } from "../Security.js"

export class CreateUserRequest extends Schema.Class<CreateUserRequest>("CreateUserRequestWithOrgs")({
  email: Email,
  username: Username,
  name: Schema.optional(DisplayName),
  password: Schema.optional(NewPassword),
  login_type: Schema.optional(LoginType),
  organization_ids: Schema.optional(Schema.Array(Schema.UUID)),
  roles: Schema.optional(Schema.Array(Schema.String)),
  service_account: Schema.optional(Schema.Boolean),
  user_status: Schema.optional(UserStatus)
}) {}

export class UsersPage extends Schema.Class<UsersPage>("GetUsersResponse")({
  count: Schema.Int,
  users: Schema.Array(User)
}) {}

export const KeyResponse = Schema.Struct({ key: Schema.String })

export class CreateTokenRequest extends Schema.Class<CreateTokenRequest>("CreateTokenRequest")({
  token_name: Schema.optional(TokenName),
  lifetime: Schema.optional(Schema.Int.pipe(Schema.annotations({ description: "Lifetime in nanoseconds; 0 takes the default." }))),
  scope: Schema.optional(Schema.String),
  scopes: Schema.optional(Schema.Array(Schema.String)),
  allow_list: Schema.optional(Schema.Array(AllowListEntry))
}) {}

const ThemeField = Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." }))

export class UpdateAppearanceRequest extends Schema.Class<UpdateAppearanceRequest>("UpdateUserAppearanceSettingsRequest")({
  terminal_font: Schema.optionalWith(Schema.Literal("", "ibm-plex-mono", "fira-code", "source-code-pro", "jetbrains-mono"), { default: () => "" as const }),
  theme_dark: Schema.optionalWith(ThemeField, { default: () => "" }),
  theme_light: Schema.optionalWith(ThemeField, { default: () => "" }),
  theme_mode: Schema.optionalWith(ThemeField, { default: () => "" }),
  theme_preference: Schema.optionalWith(ThemeField, { default: () => "" })
}) {}

const UserKeyPath = Schema.Struct({ user: Schema.String, keyid: Schema.String })
const UserKeyNamePath = Schema.Struct({ user: Schema.String, keyname: Schema.String })

export class UsersApi extends HttpApiGroup.make("users")
  .add(
    HttpApiEndpoint.get("list", "/users")
      .setUrlParams(Schema.Struct({
        q: Schema.optional(Schema.String),
        after_id: Schema.optional(Schema.UUID),
        limit: Schema.optional(NonNegativeIntParam),
        offset: Schema.optional(NonNegativeIntParam)
      }))
      .addSuccess(UsersPage)
  )
  .add(HttpApiEndpoint.post("create", "/users").setPayload(CreateUserRequest).addSuccess(User, { status: 201 }).addError(Conflict))
  .add(HttpApiEndpoint.get("get", "/users/:user").setPath(UserPath).addSuccess(User))
  .add(HttpApiEndpoint.del("delete", "/users/:user").setPath(UserPath).addSuccess(EmptyOk))
  .add(HttpApiEndpoint.get("getAppearance", "/users/:user/appearance").setPath(UserPath).addSuccess(UserAppearance))
  .add(
    HttpApiEndpoint.put("updateAppearance", "/users/:user/appearance")
      .setPath(UserPath)
      .setPayload(UpdateAppearanceRequest)
      .addSuccess(UserAppearance)
  )
  .add(
    HttpApiEndpoint.get("autofillParameters", "/users/:user/autofill-parameters")
      .setPath(UserPath)
      .setUrlParams(Schema.Struct({ template_id: Schema.UUID }))
      .addSuccess(Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String })))
  )
  .add(HttpApiEndpoint.get("getGitSshKey", "/users/:user/gitsshkey").setPath(UserPath).addSuccess(GitSshKey))
  .add(HttpApiEndpoint.put("regenerateGitSshKey", "/users/:user/gitsshkey").setPath(UserPath).addSuccess(GitSshKey))
  .add(HttpApiEndpoint.get("getQuietHours", "/users/:user/quiet-hours").setPath(UserPath).addSuccess(Schema.Array(QuietHoursEntry)))
  .add(
    HttpApiEndpoint.put("updateQuietHours", "/users/:user/quiet-hours")
      .setPath(UserPath)
      .setPayload(Schema.Struct({ schedule: Schema.String }))
      .addSuccess(Schema.Array(QuietHoursEntry))
  )
  .add(HttpApiEndpoint.post("createSessionKey", "/users/:user/keys").setPath(UserPath).addSuccess(KeyResponse, { status: 201 }))
  .add(
    HttpApiEndpoint.get("listTokens", "/users/:user/keys/tokens")
      .setPath(UserPath)
      .setUrlParams(Schema.Struct({ include_expired: Schema.optional(BooleanParam) }))
      .addSuccess(Schema.Array(ApiKey))
  )
  .add(
    HttpApiEndpoint.post("createToken", "/users/:user/keys/tokens")
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
  .add(HttpApiEndpoint.get("getTokenByName", "/users/:user/keys/tokens/:keyname").setPath(UserKeyNamePath).addSuccess(ApiKey))
  .add(HttpApiEndpoint.del("deleteTokenByName", "/users/:user/keys/tokens/:keyname").setPath(UserKeyNamePath).addSuccess(NoContent))
  .add(HttpApiEndpoint.get("getKey", "/users/:user/keys/:keyid").setPath(UserKeyPath).addSuccess(ApiKey))
  .add(HttpApiEndpoint.del("deleteKey", "/users/:user/keys/:keyid").setPath(UserKeyPath).addSuccess(NoContent))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
