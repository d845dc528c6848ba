/** User routes: listing, creation, lookup, deletion, appearance, git SSH key, quiet hours, API keys. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  ApiKey,
  ApiKeyWithOwner,
  AssignableRole,
  AutofillParametersQuery,
  AutofillParametersResponse,
  CreateTokenRequest,
  CreateUserRequest,
  GenerateApiKeyResponse,
  GitSshKey,
  ListTokensQuery,
  Organization,
  QuietHoursEntry,
  SearchPageQuery,
  TokenConfig,
  UpdateAppearanceRequest,
  UpdatePreferencesRequest,
  UpdateQuietHoursRequest,
  UpdateRolesRequest,
  UpdateUserPasswordRequest,
  UpdateUserProfileRequest,
  User,
  UserAppearance,
  UserLoginType,
  UserPreferences,
  UserRoles,
  UsersPage
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, EmptyOk, Forbidden, NoContent, NotFound, UserPath } from "../Common.js"
import { Authentication } from "../Security.js"

const UserOrganizationPath = Schema.Struct({ user: Schema.String, organizationname: Schema.String })
const UserKeyPath = Schema.Struct({ user: Schema.String, keyid: Schema.String })
const UserKeyNamePath = Schema.Struct({ user: Schema.String, keyname: Schema.String })

export class UsersApi extends HttpApiGroup.make("users")
  .add(
    HttpApiEndpoint.get("list", "/users")
      .setUrlParams(SearchPageQuery)
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
      .setUrlParams(AutofillParametersQuery)
      .addSuccess(AutofillParametersResponse)
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
      .setPayload(UpdateQuietHoursRequest)
      .addSuccess(Schema.Array(QuietHoursEntry))
  )
  .add(
    HttpApiEndpoint.post("createSessionKey", "/users/:user/keys").annotate(Audited, audit("api_key")).setPath(UserPath)
      .addSuccess(GenerateApiKeyResponse, { status: 201 })
  )
  .add(
    HttpApiEndpoint.get("listTokens", "/users/:user/keys/tokens")
      .setPath(UserPath)
      .setUrlParams(ListTokensQuery)
      .addSuccess(Schema.Array(ApiKeyWithOwner))
  )
  .add(
    HttpApiEndpoint.post("createToken", "/users/:user/keys/tokens").annotate(Audited, audit("api_key"))
      .setPath(UserPath)
      .setPayload(CreateTokenRequest)
      .addSuccess(GenerateApiKeyResponse, { status: 201 })
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.get("tokenConfig", "/users/:user/keys/tokens/tokenconfig")
      .setPath(UserPath)
      .addSuccess(TokenConfig)
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
