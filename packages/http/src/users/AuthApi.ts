/** Authorization routes: scopes, login, one-time passcodes, first user, auth methods, logout. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { DisplayName, Email, NewPassword, omitEmpty, Rbac, ResponseBody, Username } from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, optional, UserPath, wireName } from "../Common.js"
import { Authentication } from "../Security.js"

export class LoginRequest extends Schema.Class<LoginRequest>("LoginWithPasswordRequest")({
  email: Email,
  password: Schema.String.pipe(Schema.minLength(1, { message: () => "Password is required." }))
}) {}

export class LoginResponse extends Schema.Class<LoginResponse>("LoginWithPasswordResponse")({
  session_token: Schema.String
}) {}

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

export class FirstUserResponse extends Schema.Class<FirstUserResponse>("CreateFirstUserResponse")({
  organization_id: Schema.UUID,
  user_id: Schema.UUID
}) {}

export class AuthMethods extends Schema.Class<AuthMethods>("AuthMethods")({
  github: Schema.Struct({ default_provider_configured: Schema.Boolean, enabled: Schema.Boolean }),
  oidc: Schema.Struct({ enabled: Schema.Boolean, iconUrl: Schema.String, signInText: Schema.String }),
  password: Schema.Struct({ enabled: Schema.Boolean }),
  /** Absent unless a terms of service URL is configured. */
  terms_of_service_url: omitEmpty(Schema.String)
}) {}

/** Routes that work without a token. */
export class AuthorizationApi extends HttpApiGroup.make("authorization")
  .add(
    HttpApiEndpoint.get("scopes", "/auth/scopes").addSuccess(Schema.Struct({ external: Schema.Array(Schema.String) }))
  )
  .add(
    HttpApiEndpoint.post("login", "/users/login").annotate(
      Audited,
      audit("api_key", { action: "login", anonymous: true })
    )
      .setPayload(LoginRequest)
      .addSuccess(LoginResponse, { status: 201 })
      .addError(Forbidden)
  )
  .add(
    HttpApiEndpoint.post("requestOneTimePasscode", "/users/otp/request").annotate(
      Audited,
      audit("user", { action: "request_password_reset", anonymous: true })
    )
      .setPayload(Schema.Struct({ email: Email }))
      .addSuccess(NoContent)
      .addError(Forbidden)
  )
  .add(
    HttpApiEndpoint.post("changePasswordWithOneTimePasscode", "/users/otp/change-password").annotate(
      Audited,
      audit("user", { action: "write", anonymous: true })
    )
      .setPayload(Schema.Struct({
        email: Email,
        one_time_passcode: Schema.String.pipe(
          Schema.minLength(1, { message: () => "The one-time passcode is required." })
        ),
        password: NewPassword
      }))
      .addSuccess(NoContent)
      .addError(Forbidden)
  )
  .add(HttpApiEndpoint.get("getFirstUser", "/users/first").addSuccess(ResponseBody).addError(NotFound))
  .add(
    HttpApiEndpoint.post("createFirstUser", "/users/first").annotate(
      Audited,
      audit("user", { action: "create", anonymous: true })
    )
      .setPayload(FirstUserRequest)
      .addSuccess(FirstUserResponse, { status: 201 })
      .addError(Conflict)
  )
  .add(HttpApiEndpoint.get("authMethods", "/users/authmethods").addSuccess(AuthMethods))
  .addError(BadRequest)
  .prefix("/api/v2")
{}

export class ConvertLoginResponse extends Schema.Class<ConvertLoginResponse>("OAuthConversionResponse")({
  expires_at: Schema.Date,
  state_string: Schema.String,
  to_type: Schema.String,
  user_id: Schema.UUID
}) {}

/** The resource kind and the action of an authorization check, as the evaluator knows them. */
const ResourceType = Schema.Literal(...Rbac.resourceKinds).annotations({
  message: () => ({
    message: "Resource type must be a resource kind (such as user or organization) or \"*\".",
    override: true
  })
})
const Action = Schema.Literal(...Rbac.actions).annotations({
  message: () => ({ message: `Action must be one of ${Rbac.actions.join(", ")}.`, override: true })
})

export class AuthorizationObject extends Schema.Class<AuthorizationObject>("AuthorizationObject")({
  resource_type: ResourceType,
  resource_id: optional(Schema.String),
  organization_id: optional(Schema.String),
  owner_id: optional(Schema.String),
  any_org: optional(Schema.Boolean)
}, wireName("AuthorizationObject")) {}

export class AuthorizationCheck extends Schema.Class<AuthorizationCheck>("AuthorizationCheck")({
  action: Action,
  object: AuthorizationObject
}) {}

export class AuthorizationRequest extends Schema.Class<AuthorizationRequest>("AuthorizationRequest")({
  checks: Schema.Record({ key: Schema.String, value: AuthorizationCheck })
}) {}

/** Routes about the caller's own session and password. */
export class SessionApi extends HttpApiGroup.make("session")
  .add(
    HttpApiEndpoint.post("validatePassword", "/users/validate-password").annotate(Audited, false)
      .setPayload(Schema.Struct({ password: Schema.String }))
      .addSuccess(Schema.Struct({ valid: Schema.Boolean, details: Schema.String }))
  )
  .add(
    HttpApiEndpoint.post("convertLogin", "/users/:user/convert-login").annotate(
      Audited,
      audit("user", { action: "write" })
    )
      .setPath(UserPath)
      .setPayload(Schema.Struct({ password: Schema.String, to_type: Schema.String }))
      .addSuccess(ConvertLoginResponse, { status: 201 })
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("authcheck", "/authcheck").annotate(Audited, false)
      .setPayload(AuthorizationRequest)
      .addSuccess(Schema.Record({ key: Schema.String, value: Schema.Boolean }))
  )
  .add(
    HttpApiEndpoint.post("logout", "/users/logout").annotate(Audited, audit("api_key", { action: "logout" }))
      .addSuccess(ResponseBody)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
