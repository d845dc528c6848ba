/**
 * Sign-in through OpenID Connect with `openid-client` (a certified relying party): discovery from
 * the issuer URL, the code flow with PKCE (S256), state and nonce, the ID token validated, claims
 * merged from the ID token and the userinfo endpoint, then the email domain, group and role rules
 * of the deployment's settings (docs/sign-in.md).
 */
import { Effect, Option } from "effect"
import type * as OpenId from "openid-client"
import { authorize, CurrentActor } from "../Actor.js"
import { BadRequest, Forbidden, NotFound } from "../Errors.js"
import { openidClientModule } from "../OnDemand.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { oidcConfigured, UserLinkRepo } from "../users/Links.js"
import { userObject } from "../users/Users.js"
import { IdpSync } from "./IdpSync.js"
import { claimValues } from "./IdpSyncSettings.js"
import {
  type CallbackAnswer,
  type CallbackInput,
  checkState,
  clearedCookies,
  CONVERT_STATE_PREFIX,
  FLOW_COOKIE_SECONDS,
  flowState,
  ProviderUnavailable,
  safeRedirect,
  SignIn,
  SignInCookies,
  startCookies
} from "./SignIn.js"

type Claims = Record<string, unknown>

const isNetworkError = (e: unknown): boolean =>
  e instanceof TypeError ||
  (e instanceof Error && (e.name === "AbortError" || e.name === "TimeoutError" || /fetch failed/i.test(e.message)))

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** The authorization response as the provider sent it to the callback: its code, state and issuer. */
const responseUrlOf = (callbackUrl: string, input: CallbackInput) => {
  const url = new URL(callbackUrl)
  for (const key of ["code", "state", "iss"] as const) {
    const value = input[key]
    if (value !== undefined && value !== "") url.searchParams.set(key, value)
  }
  return url
}

export class OidcSignIn extends Effect.Service<OidcSignIn>()("@workbay/core/OidcSignIn", {
  effect: Effect.gen(function*() {
    const settings = yield* Settings
    const signIn = yield* SignIn
    const links = yield* UserLinkRepo
    const idpSync = yield* IdpSync
    const callbackUrl = `${settings.accessUrl.replace(/\/+$/, "")}/api/v2/users/oidc/callback`
    let discovered: Promise<OpenId.Configuration> | undefined
    const responseUrl = (input: CallbackInput) => responseUrlOf(callbackUrl, input)

    /** The provider's configuration, discovered once (and again after a failed discovery). */
    const configuration = Effect.flatMap(openidClientModule, (client) =>
      Effect.tryPromise({
        try: () => {
          if (discovered === undefined) {
            const issuer = new URL(settings.oidcIssuerUrl)
            // An operator who configures a plain-HTTP issuer (a test or a private network) means it.
            const insecure = issuer.protocol === "http:"
            discovered = client.discovery(
              issuer,
              settings.oidcClientId,
              settings.oidcClientSecret === "" ? undefined : settings.oidcClientSecret,
              undefined,
              insecure ? { execute: [client.allowInsecureRequests], timeout: 15 } : { timeout: 15 }
            ).catch((e) => {
              discovered = undefined
              throw e
            })
          }
          return discovered
        },
        catch: (e) =>
          new ProviderUnavailable({ message: "Could not discover the OpenID Connect provider.", detail: describe(e) })
      }))

    const notEnabled = () => new BadRequest({ message: "OpenID Connect sign-in is not enabled." })

    /** The site roles the claims give, by the role mapping, with the defaults; undefined when role sync is off. */
    const siteRolesOf = (claims: Claims): ReadonlyArray<string> | undefined => {
      if (settings.oidcUserRoleField === "") return undefined
      const mapped = claimValues(claims[settings.oidcUserRoleField]).flatMap((v) =>
        Object.hasOwn(settings.oidcUserRoleMapping, v) ? settings.oidcUserRoleMapping[v]! : [v]
      )
      return [...new Set([...settings.oidcUserRolesDefault, ...mapped])]
    }

    const start = (input: CallbackInput) =>
      Effect.gen(function*() {
        const client = yield* openidClientModule
        const config = yield* configuration
        const state = flowState(input)
        const verifier = client.randomPKCECodeVerifier()
        const nonce = client.randomNonce()
        const challenge = yield* Effect.promise(() => client.calculatePKCECodeChallenge(verifier))
        const url = client.buildAuthorizationUrl(config, {
          redirect_uri: callbackUrl,
          scope: settings.oidcScopes.join(" "),
          response_type: "code",
          state,
          nonce,
          code_challenge: challenge,
          code_challenge_method: "S256"
        })
        const answer: CallbackAnswer = {
          status: 307,
          location: url.href,
          cookies: [
            ...startCookies(state, input.redirect),
            { name: SignInCookies.verifier, value: verifier, maxAgeSeconds: FLOW_COOKIE_SECONDS },
            { name: SignInCookies.nonce, value: nonce, maxAgeSeconds: FLOW_COOKIE_SECONDS }
          ]
        }
        return answer
      })

    const callback = (input: CallbackInput) =>
      Effect.gen(function*() {
        if (!oidcConfigured(settings)) return yield* notEnabled()
        if ((input.code === undefined || input.code === "") && (input.error === undefined || input.error === "")) {
          return yield* start(input)
        }
        const state = yield* checkState(input)
        const verifier = input.cookie(SignInCookies.verifier)
        const nonce = input.cookie(SignInCookies.nonce)
        if (verifier === undefined || verifier === "" || nonce === undefined || nonce === "") {
          return yield* new BadRequest({
            message: "The sign-in's PKCE verifier and nonce cookies are missing. Start the sign-in again."
          })
        }
        const client = yield* openidClientModule
        const config = yield* configuration
        const tokens = yield* Effect.tryPromise({
          try: () =>
            client.authorizationCodeGrant(config, responseUrl(input), {
              pkceCodeVerifier: verifier,
              expectedState: state,
              expectedNonce: nonce,
              idTokenExpected: true
            }),
          catch: (e) =>
            isNetworkError(e)
              ? new ProviderUnavailable({
                message: "Could not reach the OpenID Connect provider.",
                detail: describe(e)
              })
              : new BadRequest({ message: "Failed to verify OIDC token.", detail: describe(e) })
        })
        const idClaims: Claims = { ...(tokens.claims() ?? {}) }
        const sub = typeof idClaims.sub === "string" ? idClaims.sub : ""
        if (sub === "") {
          return yield* new BadRequest({
            message: "OIDC token missing 'sub' claim field or 'sub' claim field is empty."
          })
        }
        let userInfo: Claims = {}
        if (!settings.oidcIgnoreUserInfo && config.serverMetadata().userinfo_endpoint !== undefined) {
          userInfo = yield* Effect.tryPromise({
            try: async () => ({ ...(await client.fetchUserInfo(config, tokens.access_token, sub)) }) as Claims,
            catch: (e) =>
              new ProviderUnavailable({ message: "Failed to obtain user information claims.", detail: describe(e) })
          })
        }
        // Userinfo claims take precedence over the ID token's, as in the described system.
        const merged: Claims = { ...idClaims, ...userInfo }
        const usernameClaim = typeof merged[settings.oidcUsernameField] === "string"
          ? merged[settings.oidcUsernameField] as string
          : ""
        const emailRaw = merged[settings.oidcEmailField] ?? (usernameClaim.includes("@") ? usernameClaim : undefined)
        if (emailRaw === undefined) return yield* new BadRequest({ message: "No email found in OIDC payload!" })
        if (typeof emailRaw !== "string" || !/^[^\s@]+@[^\s@]+$/.test(emailRaw)) {
          return yield* new BadRequest({ message: "Email in OIDC payload isn't a valid email address." })
        }
        const email = emailRaw
        if (merged.email_verified === false && !settings.oidcIgnoreEmailVerified) {
          return yield* new Forbidden({
            message: `Verify the "${email}" email address on your OIDC provider to authenticate!`
          })
        }
        if (settings.oidcEmailDomain.length > 0) {
          const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase()
          const allowed = settings.oidcEmailDomain.some((d) => d.replace(/^@/, "").toLowerCase() === domain)
          if (!allowed) {
            return yield* new Forbidden({
              message: `Your email "${email}" is not in domains ${JSON.stringify(settings.oidcEmailDomain)}!`
            })
          }
        }
        const name = typeof merged[settings.oidcNameField] === "string" ? merged[settings.oidcNameField] as string : ""
        const picture = typeof merged.picture === "string" ? merged.picture : ""
        const issuer = typeof idClaims.iss === "string" ? idClaims.iss : config.serverMetadata().issuer
        yield* idpSync.checkAllowedGroups(merged)
        const signedIn = yield* signIn.complete({
          loginType: "oidc",
          linkedId: `${issuer}||${sub}`,
          email,
          username: usernameClaim || email,
          name,
          avatarUrl: picture,
          allowSignups: settings.oidcAllowSignups,
          signupsDisabledText: settings.oidcSignupsDisabledText,
          claims: { id_token_claims: idClaims, user_info_claims: userInfo, merged_claims: merged },
          syncClaims: merged,
          siteRoles: siteRolesOf(merged),
          state,
          convertCookie: input.cookie(SignInCookies.convert)
        })
        const answer: CallbackAnswer = {
          status: 307,
          location: safeRedirect(input.cookie(SignInCookies.redirect)),
          cookies: clearedCookies([
            SignInCookies.state,
            SignInCookies.redirect,
            SignInCookies.verifier,
            SignInCookies.nonce,
            ...(state.startsWith(CONVERT_STATE_PREFIX) ? [SignInCookies.convert] : [])
          ]),
          session: signedIn.session
        }
        return answer
      }).pipe(span("OidcSignIn.callback"))

    /** The caller's merged claims from their last OpenID Connect sign-in. */
    const claims = Effect.gen(function*() {
      const actor = yield* CurrentActor
      yield* authorize("read_personal", userObject(actor.user))
      if (actor.user.login_type !== "oidc") return yield* new BadRequest({ message: "User is not an OIDC user." })
      const link = yield* links.findByUser(actor.user.id, "oidc")
      if (Option.isNone(link)) {
        return yield* new NotFound({ message: "No OpenID Connect sign-in is recorded for this user." })
      }
      return { claims: link.value.claims.merged_claims }
    }).pipe(span("OidcSignIn.claims"))

    return { callback, claims } as const
  }),
  dependencies: [SignIn.Default, IdpSync.Default]
}) {}
