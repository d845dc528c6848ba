/** Authorization routes: scopes, login, one-time passcodes, first user, auth methods, logout. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  AuthMethods,
  AuthorizationRequest,
  AuthorizationResponse,
  ChangePasswordWithPasscodeRequest,
  ConvertLoginRequest,
  ConvertLoginResponse,
  ExternalApiKeyScopes,
  FirstUserRequest,
  FirstUserResponse,
  LoginRequest,
  LoginResponse,
  OneTimePasscodeRequest,
  ResponseBody,
  ValidatePasswordRequest,
  ValidateUserPasswordResponse
} from "@workbay/core"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, TooManyRequests, UserPath } from "../Common.js"
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
      .addSuccess(AuthorizationResponse)
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
