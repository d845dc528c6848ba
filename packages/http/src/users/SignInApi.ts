/** Sign-in through GitHub and OpenID Connect: the providers' callbacks, GitHub's device flow, the caller's OIDC claims. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import * as Core from "@workbay/core"
import { CallbackQuery, DeviceFlowCallbackResponse, GithubDeviceResponse, OidcClaimsResponse } from "@workbay/core"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NotFound, wire } from "../Common.js"
import { Authentication } from "../Security.js"

/** 502: the provider could not be reached or answered unusably. */
export const ProviderUnavailable = wire(Core.ProviderUnavailable)

/** A sign-in answers a login (or, creating the user, a register) entry naming the new session. */
const signInAudit = audit("api_key", { action: "login" })

/** Routes a browser reaches before it has a session. */
export class SignInApi extends HttpApiGroup.make("signin")
  .add(
    HttpApiEndpoint.get("githubCallback", "/users/oauth2/github/callback").annotate(Audited, signInAudit)
      .setUrlParams(CallbackQuery)
      .addSuccess(HttpApiSchema.Empty(307))
      .addSuccess(DeviceFlowCallbackResponse, { status: 200 })
  )
  .add(HttpApiEndpoint.get("githubDevice", "/users/oauth2/github/device").addSuccess(GithubDeviceResponse))
  .add(
    HttpApiEndpoint.get("oidcCallback", "/users/oidc/callback").annotate(Audited, signInAudit)
      .setUrlParams(CallbackQuery)
      .addSuccess(HttpApiSchema.Empty(307))
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(Conflict)
  .addError(ProviderUnavailable)
  .prefix("/api/v2")
{}

/** The signed-in caller's claims from their last OpenID Connect sign-in. */
export class SignInSessionApi extends HttpApiGroup.make("signinSession")
  .add(HttpApiEndpoint.get("oidcClaims", "/users/oidc-claims").addSuccess(OidcClaimsResponse))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
