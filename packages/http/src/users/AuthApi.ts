/** Authorization routes: scopes, login, one-time passcodes, first user, auth methods, logout. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  AuthMethods,
  ChangePasswordWithPasscodeRequest,
  ConvertLoginRequest,
  ConvertLoginResponse,
  ExternalApiKeyScopes,
  FirstUserRequest,
  FirstUserResponse,
  LoginRequest,
  LoginResponse,
  OneTimePasscodeRequest,
  Rbac,
  ResponseBody,
  ValidatePasswordRequest,
  ValidateUserPasswordResponse
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import {
  BadRequest,
  Conflict,
  Forbidden,
  NoContent,
  NotFound,
  optional,
  TooManyRequests,
  UserPath,
  wireName
} from "../Common.js"
import { Authentication } from "../Security.js"

/** Routes that work without a token. */
export class AuthorizationApi extends HttpApiGroup.make("authorization")
  .add(
    HttpApiEndpoint.get("scopes", "/auth/scopes").addSuccess(ExternalApiKeyScopes)
  )
  .add(
    HttpApiEndpoint.post("login", "/users/login").annotate(
      Audited,
      audit("api_key", { action: "login", anonymous: true })
    )
      .setPayload(LoginRequest)
      .addSuccess(LoginResponse, { status: 201 })
      .addError(Forbidden)
      .addError(TooManyRequests)
  )
  .add(
    HttpApiEndpoint.post("requestOneTimePasscode", "/users/otp/request").annotate(
      Audited,
      audit("user", { action: "request_password_reset", anonymous: true })
    )
      .setPayload(OneTimePasscodeRequest)
      .addSuccess(NoContent)
      .addError(Forbidden)
  )
  .add(
    HttpApiEndpoint.post("changePasswordWithOneTimePasscode", "/users/otp/change-password").annotate(
      Audited,
      audit("user", { action: "write", anonymous: true })
    )
      .setPayload(ChangePasswordWithPasscodeRequest)
      .addSuccess(NoContent)
      .addError(Forbidden)
      .addError(TooManyRequests)
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
      .setPayload(ValidatePasswordRequest)
      .addSuccess(ValidateUserPasswordResponse)
  )
  .add(
    HttpApiEndpoint.post("convertLogin", "/users/:user/convert-login").annotate(
      Audited,
      audit("user", { action: "write" })
    )
      .setPath(UserPath)
      .setPayload(ConvertLoginRequest)
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
