/**
 * The OAuth2 authorization server: the authorization endpoint (sign-in, consent, codes), the
 * token endpoint (authorization_code with PKCE, refresh_token with rotation and reuse
 * detection), revocation (RFC 7009), a user revoking an app, and discovery (RFC 8414, RFC 9728).
 * Access tokens are API keys of login type `oauth2_provider_app`, so they authenticate like any
 * key; codes and refresh tokens are stored as SHA-256 hashes.
 */
import { Clock, Duration, Effect, Option } from "effect"
import { type Actor, authorize, CurrentActor, currentSubject, refuseOAuth2AppCredential } from "../Actor.js"
import { auditResource, auditUser } from "../Audit.js"
import { accessHostOf, crossSiteRefusal, type RequestOrigin } from "../CrossSite.js"
import { BadRequest, Forbidden, NotFound, type TooManyRequests, type Unauthorized } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import { hashSecret, randomString, sameHash } from "../Platform.js"
import { tokenWithin } from "../Rbac.js"
import { Transactions } from "../Repositories.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { AllowListEntry, type ApiKeyRecord } from "../users/ApiKey.js"
import { Auth, parseApiKey } from "../users/Auth.js"
import { ApiKeyRepo, UserRepo } from "../users/Repositories.js"
import {
  type OAuth2AppRecord,
  OAuth2AuthorizationServerMetadata,
  type OAuth2CodeRecord,
  OAuth2Error,
  OAuth2ProtectedResourceMetadata,
  OAuth2Repo,
  type OAuth2TokenRecord,
  OAuth2TokenResponse,
  OAuth2Unauthorized,
  SupportedGrantTypes,
  SupportedResponseTypes,
  TokenEndpointAuthMethods
} from "./OAuth2App.js"
import { issuerOf } from "./OAuth2Apps.js"
import {
  CONSENT_GRANT_PREFIX,
  type OAuth2AuthorizeQuery,
  type OAuth2ConsentRequest,
  type OAuth2RevokeRequest,
  type OAuth2SignInRequest,
  type OAuth2TokenRequest
} from "./Requests.js"
import { isValidVerifier, redirectUriMatches, s256 } from "./Rules.js"
import {
  chosenScope,
  describeScope,
  formatScope,
  heldScope,
  negotiateScope,
  OAUTH2_SCOPES,
  parseScope,
  refreshScope,
  scopeHeld
} from "./Scopes.js"

/** How long a code may wait for its exchange (RFC 6749 4.1.2 recommends at most 10 minutes). */
export const CODE_LIFETIME_MS = 10 * 60_000
/** How long a refresh token lives. */
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 3_600_000
const KEY_ID_LENGTH = 10
const KEY_SECRET_LENGTH = 22

/** What the authorization endpoint answers; the HTTP layer renders it. */
export type AuthorizePage =
  | { readonly kind: "error"; readonly message: string }
  | { readonly kind: "redirect"; readonly location: string }
  | { readonly kind: "signIn"; readonly message?: string | undefined }
  | {
    readonly kind: "consent"
    readonly appName: string
    readonly appIcon: string
    readonly redirectUri: string
    readonly csrfToken: string
    readonly username: string
    /**
     * The scope the request may be granted, in words; `held`: whether the user's roles grant
     * anything it names (what they do not hold is not granted).
     */
    readonly scopes: ReadonlyArray<{ readonly name: string; readonly description: string; readonly held: boolean }>
  }

/** Where a browser request came from (Origin, Sec-Fetch-Site, Host): checked on every form post. */
export type { RequestOrigin }

const oauthError = (error: string, description: string) => new OAuth2Error({ error, error_description: description })

/** A validated authorization request: the app, where to send the user, and the PKCE challenge. */
interface ValidAuthorization {
  readonly app: OAuth2AppRecord
  readonly redirectUri: string
  readonly state: string
  readonly codeChallenge: string
  /** The negotiated scope: what the request may be granted before the user's choice. */
  readonly scope: ReadonlyArray<string>
}

/** The CSRF token of the consent form: bound to the session key, not guessable without it. */
const csrfTokenOf = (key: ApiKeyRecord) => hashSecret(`oauth2-consent\u0000${key.id}\u0000${key.hashed_secret}`)

const withParams = (uri: string, params: Record<string, string | undefined>) => {
  const url = new URL(uri)
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") url.searchParams.set(k, v)
  return url.toString()
}

export class OAuth2Provider extends Effect.Service<OAuth2Provider>()("@workbay/core/OAuth2Provider", {
  effect: Effect.gen(function*() {
    const repo = yield* OAuth2Repo
    const keys = yield* ApiKeyRepo
    const users = yield* UserRepo
    const ids = yield* IdGenerator
    const tx = yield* Transactions
    const settings = yield* Settings
    const auth = yield* Auth
    const issuer = issuerOf(settings.accessUrl)
    const accessHost = accessHostOf(settings.accessUrl)
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /**
     * Checks an authorization request. Problems with the client or the redirect URI show an error
     * page (never a redirect to an unchecked URI, RFC 6749 4.1.2.1); the rest redirect back with
     * the error and the state.
     */
    const validate = (req: typeof OAuth2AuthorizeQuery.Type): Effect.Effect<ValidAuthorization, AuthorizePage> =>
      Effect.gen(function*() {
        const clientId = req.client_id ?? ""
        if (clientId === "") {
          return yield* Effect.fail<AuthorizePage>({
            kind: "error",
            message: "The request names no client (client_id is required)."
          })
        }
        const found = isUuid(clientId) ? yield* repo.findApp(clientId.toLowerCase()) : Option.none()
        if (Option.isNone(found)) {
          return yield* Effect.fail<AuthorizePage>({
            kind: "error",
            message: "The client is not registered with this server."
          })
        }
        const app = found.value
        let redirectUri: string
        if (req.redirect_uri !== undefined && req.redirect_uri !== "") {
          if (!redirectUriMatches(app.redirect_uris, req.redirect_uri)) {
            return yield* Effect.fail<AuthorizePage>({
              kind: "error",
              message: "The redirect URI is not one this client registered."
            })
          }
          redirectUri = req.redirect_uri
        } else if (app.redirect_uris.length === 1) {
          redirectUri = app.redirect_uris[0]!
        } else {
          return yield* Effect.fail<AuthorizePage>({
            kind: "error",
            message: "The client registered several redirect URIs: the request must name one (redirect_uri)."
          })
        }
        const back = (error: string, description: string): AuthorizePage => ({
          kind: "redirect",
          location: withParams(redirectUri, { error, error_description: description, state: req.state, iss: issuer })
        })
        if (req.response_type === undefined || req.response_type === "") {
          return yield* Effect.fail(back("invalid_request", "response_type is required."))
        }
        if (
          !(SupportedResponseTypes as ReadonlyArray<string>).includes(req.response_type) ||
          !app.response_types.includes(req.response_type)
        ) {
          return yield* Effect.fail(
            back("unsupported_response_type", `Response type "${req.response_type}" is not supported; use "code".`)
          )
        }
        if (req.state === undefined || req.state === "") {
          return yield* Effect.fail(back("invalid_request", "state is required."))
        }
        const challenge = req.code_challenge ?? ""
        const method = req.code_challenge_method ?? ""
        if (challenge !== "") {
          if (method !== "S256") {
            return yield* Effect.fail(
              back("invalid_request", "code_challenge_method must be S256 (plain is not accepted).")
            )
          }
          if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(challenge)) {
            return yield* Effect.fail(back("invalid_request", "code_challenge is not a valid S256 challenge."))
          }
        } else if (method !== "") {
          return yield* Effect.fail(back("invalid_request", "code_challenge_method without code_challenge."))
        } else if (app.token_endpoint_auth_method === "none") {
          return yield* Effect.fail(
            back("invalid_request", "PKCE (code_challenge with S256) is required for public clients.")
          )
        }
        // RFC 6749 4.1.2.1: a scope refused is sent back to the client once its redirect URI is known good.
        const negotiated = negotiateScope(req.scope, app.metadata.scope)
        if ("refused" in negotiated) {
          return yield* Effect.fail(back(negotiated.refused.error, negotiated.refused.description))
        }
        return { app, redirectUri, state: req.state, codeChallenge: challenge, scope: negotiated.ok }
      })

    /** The caller behind a session token, if it is a valid one. */
    const sessionOf = (token: string | undefined) =>
      token === undefined || token === ""
        ? Effect.succeed(Option.none<Actor>())
        : Effect.option(auth.authenticate(token))

    /** GET /oauth2/authorize: the sign-in page, the consent page, or the request's error. */
    const authorizePage = (req: typeof OAuth2AuthorizeQuery.Type, sessionToken: string | undefined) =>
      Effect.gen(function*() {
        const valid = yield* validate(req)
        const actor = yield* sessionOf(sessionToken)
        if (Option.isNone(actor)) return { kind: "signIn" } satisfies AuthorizePage
        const subject = yield* Effect.provideService(currentSubject, CurrentActor, actor.value)
        return {
          kind: "consent",
          appName: valid.app.name,
          appIcon: valid.app.icon,
          redirectUri: valid.redirectUri,
          csrfToken: csrfTokenOf(actor.value.apiKey),
          username: actor.value.user.username,
          scopes: valid.scope.map((name) => ({
            name,
            description: describeScope(name),
            held: scopeHeld(subject, name)
          }))
        } satisfies AuthorizePage
      }).pipe(Effect.merge, span("OAuth2Provider.authorizePage"))

    /** Refuses a form post a browser made from another site (login CSRF, consent CSRF): the one rule (CrossSite.ts). */
    const sameSite = (from: RequestOrigin) =>
      Effect.suspend(() => {
        const refusal = crossSiteRefusal(from, accessHost)
        return refusal === undefined
          ? Effect.void
          : Effect.fail(new Forbidden({ message: "Cross-site request refused.", detail: refusal }))
      })

    /** POST /oauth2/sign-in: a password sign-in from the sign-in page; the session token, or the page again. */
    const signIn = (
      input: typeof OAuth2SignInRequest.Type,
      from: RequestOrigin
    ) =>
      Effect.gen(function*() {
        yield* sameSite(from)
        // Nothing to check (and no password to hash) when a field is empty.
        if ((input.email ?? "") === "" || (input.password ?? "") === "") {
          return { ok: false as const, message: "Enter your email and password." }
        }
        return yield* auth.login(input.email ?? "", input.password ?? "").pipe(
          Effect.map((session) => ({ ok: true as const, ...session })),
          Effect.catchTags({
            Unauthorized: (e: Unauthorized) => Effect.succeed({ ok: false as const, message: e.message }),
            Forbidden: (e: Forbidden) => Effect.succeed({ ok: false as const, message: e.message }),
            // The account's sign-in back-off (docs/authentication.md): the page says how long to wait.
            TooManyRequests: (e: TooManyRequests) =>
              Effect.succeed({
                ok: false as const,
                message: e.detail === undefined ? e.message : `${e.message} ${e.detail}`
              })
          })
        )
      }).pipe(span("OAuth2Provider.signIn"))

    /**
     * POST /oauth2/authorize: the signed-in user allows (or denies) the app; the redirect with a
     * single-use code and the state. A session from the cookie must bring the consent page's CSRF
     * token and come from this site.
     */
    const authorizeGrant = (
      req: typeof OAuth2AuthorizeQuery.Type,
      form: typeof OAuth2ConsentRequest.Type,
      request: RequestOrigin & { readonly viaCookie: boolean }
    ) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        yield* auditUser(actor.user.id)
        // An app's token cannot grant itself (or another app) a new grant that would outlive its own.
        yield* refuseOAuth2AppCredential("OAuth2 grants")
        yield* sameSite(request)
        if (request.viaCookie && !sameHash(form.csrf_token ?? "", csrfTokenOf(actor.apiKey))) {
          return yield* new Forbidden({
            message: "Cross-site request refused.",
            detail: "The consent form's token is missing or wrong."
          })
        }
        const checked = yield* Effect.either(validate(req))
        if (checked._tag === "Left") {
          const page = checked.left
          if (page.kind === "redirect") return page.location
          return yield* new BadRequest({
            message: page.kind === "error" ? page.message : "Invalid authorization request."
          })
        }
        const valid = checked.right
        yield* authorize("create", { type: "oauth2_app_code_token", ownerId: actor.user.id })
        if (form.decision === "deny") {
          return withParams(valid.redirectUri, {
            error: "access_denied",
            error_description: "The user denied access.",
            state: valid.state,
            iss: issuer
          })
        }
        // What the user left checked on the consent page (a post that shows no choice: all of it),
        // of which what the user holds.
        const ticked = Object.keys(form).filter((k) => k.startsWith(CONSENT_GRANT_PREFIX)).map((k) =>
          k.slice(CONSENT_GRANT_PREFIX.length)
        )
        const chosen = form.scope_choice === undefined ? valid.scope : chosenScope(valid.scope, ticked)
        const granted = heldScope(yield* currentSubject, chosen)
        if (granted.length === 0) {
          return withParams(valid.redirectUri, {
            error: "access_denied",
            error_description: chosen.length === 0
              ? "The user granted no scope."
              : "The user holds none of the permissions the requested scope names.",
            state: valid.state,
            iss: issuer
          })
        }
        // No widening through a grant: a limited key may only grant within its own limits (as it
        // may only mint keys within them, docs/authorization.md).
        if (
          !tokenWithin({ scopes: granted, allowList: [] }, {
            scopes: actor.apiKey.scopes,
            allowList: actor.apiKey.allow_list
          })
        ) {
          return yield* new Forbidden({
            message: "Forbidden.",
            detail:
              "The API token's scopes or allow-list do not cover this action: a token can only grant an app scopes within its own scopes and allow-list."
          })
        }
        const at = yield* now
        const code = `wbc_${randomString(40)}`
        const record: OAuth2CodeRecord = {
          id: yield* ids.uuid,
          app_id: valid.app.id,
          user_id: actor.user.id,
          hashed_code: hashSecret(code),
          redirect_uri: req.redirect_uri ?? "",
          code_challenge: valid.codeChallenge,
          code_challenge_method: valid.codeChallenge === "" ? "" : "S256",
          scope: formatScope(granted),
          created_at: at,
          expires_at: new Date(at.getTime() + CODE_LIFETIME_MS),
          used_at: null
        }
        yield* repo.insertCode(record)
        yield* auditResource(
          { type: "oauth2_provider_app_code_token", id: record.id, target: valid.app.name },
          undefined,
          {
            app_id: valid.app.id,
            user_id: actor.user.id,
            redirect_uri: valid.redirectUri,
            scope: record.scope,
            hashed_secret: record.hashed_code
          }
        )
        return withParams(valid.redirectUri, { code, state: valid.state, iss: issuer })
      }).pipe(span("OAuth2Provider.authorize"))

    /**
     * Client authentication at the token and revocation endpoints: client_secret_basic,
     * client_secret_post, or none for a public client. The app, and the id of the secret it
     * authenticated with (null for a public client).
     */
    const authenticateClient = (
      form: { readonly client_id?: string | undefined; readonly client_secret?: string | undefined },
      authorization: string | undefined
    ) =>
      Effect.gen(function*() {
        let clientId = form.client_id ?? ""
        let secret = form.client_secret ?? ""
        let basic = false
        const m = authorization === undefined ? null : /^Basic\s+(\S+)\s*$/i.exec(authorization)
        if (m !== null) {
          basic = true
          const decoded = Buffer.from(m[1]!, "base64").toString("utf8")
          const colon = decoded.indexOf(":")
          const decode = (s: string) => {
            try {
              return decodeURIComponent(s.replace(/\+/g, " "))
            } catch {
              return s
            }
          }
          const basicId = colon < 0 ? decode(decoded) : decode(decoded.slice(0, colon))
          if (clientId !== "" && clientId !== basicId) {
            return yield* oauthError(
              "invalid_request",
              "client_id in the body differs from the one in the Authorization header."
            )
          }
          clientId = basicId
          secret = colon < 0 ? "" : decode(decoded.slice(colon + 1))
        }
        const invalidClient = (description: string) =>
          new OAuth2Unauthorized({
            error: "invalid_client",
            error_description: description,
            challenge: basic ? "Basic realm=\"oauth2\"" : ""
          })
        if (clientId === "") return yield* invalidClient("Client authentication failed: no client_id.")
        const found = isUuid(clientId) ? yield* repo.findApp(clientId.toLowerCase()) : Option.none()
        if (Option.isNone(found)) return yield* invalidClient("Client authentication failed: unknown client.")
        const app = found.value
        if (app.token_endpoint_auth_method === "none") return { app, secretId: null }
        if (secret === "") {
          return yield* invalidClient("Client authentication failed: this client must authenticate with its secret.")
        }
        const stored = yield* repo.findSecret(app.id, hashSecret(secret))
        if (Option.isNone(stored)) return yield* invalidClient("Client authentication failed: wrong client secret.")
        yield* repo.touchSecret(stored.value.id, yield* now)
        return { app, secretId: stored.value.id as string | null }
      })

    const accessLifetimeMs = () => Duration.toMillis(settings.sessionDuration)

    /**
     * A new access token (an API key) and refresh token of `family`, bound to the client secret
     * `secretId` the client authenticated with (deleting the secret deletes them).
     */
    const issueTokens = (
      app: OAuth2AppRecord,
      secretId: string | null,
      userId: string,
      familyId: string,
      scope: ReadonlyArray<string>
    ) =>
      Effect.gen(function*() {
        const at = yield* now
        const lifetimeMs = accessLifetimeMs()
        const keyId = randomString(KEY_ID_LENGTH)
        const keySecret = randomString(KEY_SECRET_LENGTH)
        const key: ApiKeyRecord = {
          id: keyId,
          hashed_secret: hashSecret(keySecret),
          user_id: userId,
          login_type: "oauth2_provider_app",
          token_name: "",
          scopes: [...scope],
          allow_list: [new AllowListEntry({ type: "*", id: "*" })],
          lifetime_seconds: Math.floor(lifetimeMs / 1000),
          created_at: at,
          updated_at: at,
          expires_at: new Date(at.getTime() + lifetimeMs),
          last_used: at
        }
        const refresh = `wbr_${randomString(40)}`
        const token: OAuth2TokenRecord = {
          id: yield* ids.uuid,
          app_id: app.id,
          user_id: userId,
          family_id: familyId,
          api_key_id: keyId,
          app_secret_id: secretId,
          hashed_refresh_token: hashSecret(refresh),
          scope: formatScope(scope),
          created_at: at,
          expires_at: new Date(at.getTime() + REFRESH_TOKEN_LIFETIME_MS),
          used_at: null
        }
        yield* keys.insert(key).pipe(Effect.orDie)
        yield* repo.insertToken(token)
        yield* auditUser(userId)
        // The access token is an API key: its issue is audited as one, named after the app.
        yield* auditResource(
          { type: "api_key", id: userId, target: app.name },
          undefined,
          {
            app_id: app.id,
            user_id: userId,
            expires_at: key.expires_at,
            scope: token.scope,
            access_token: key.hashed_secret,
            refresh_token: token.hashed_refresh_token
          }
        )
        return new OAuth2TokenResponse({
          access_token: `${keyId}-${keySecret}`,
          token_type: "Bearer",
          expires_in: Math.floor(lifetimeMs / 1000),
          expiry: key.expires_at,
          refresh_token: refresh,
          scope: token.scope
        }, true)
      })

    const invalidGrant = (description: string) => oauthError("invalid_grant", description)

    /**
     * Fails with `invalid_grant` unless the grant's user may still sign in: a suspended or deleted
     * user's grant mints nothing (the tokens would be refused anyway). A suspended user's grant is
     * kept, and serves again once they are activated. Run inside the transaction that issues: it
     * holds the user's row, so a password change racing the grant either revokes what it issued or
     * commits first and leaves it nothing to redeem.
     */
    const activeUser = (userId: string) =>
      Effect.flatMap(users.lockById(userId), (found) =>
        Option.isNone(found) || found.value.deleted
          ? Effect.fail(invalidGrant("The user of this grant has been deleted."))
          : found.value.status !== "active"
          ? Effect.fail(invalidGrant(`The user of this grant is not active (status = "${found.value.status}").`))
          : Effect.void)

    const exchangeCode = (app: OAuth2AppRecord, secretId: string | null, req: typeof OAuth2TokenRequest.Type) =>
      Effect.gen(function*() {
        if (req.code === undefined || req.code === "") return yield* oauthError("invalid_request", "code is required.")
        const at = yield* now
        const hashed = hashSecret(req.code)
        const redeemed = yield* repo.redeemCode(hashed, at)
        if (Option.isNone(redeemed)) {
          // A code used twice: what the first use issued is revoked (RFC 6749 4.1.2, RFC 9700 4.5.3).
          const earlier = yield* repo.findCode(hashed)
          if (Option.isSome(earlier) && earlier.value.app_id === app.id) yield* repo.revokeFamily(earlier.value.id)
          return yield* invalidGrant("The authorization code is invalid or was already used.")
        }
        const code = redeemed.value
        if (code.app_id !== app.id) return yield* invalidGrant("The authorization code was issued to another client.")
        if (code.expires_at.getTime() <= at.getTime()) return yield* invalidGrant("The authorization code has expired.")
        if (code.redirect_uri !== "" && code.redirect_uri !== (req.redirect_uri ?? "")) {
          return yield* invalidGrant("redirect_uri does not match the one of the authorization request.")
        }
        const verifier = req.code_verifier ?? ""
        if (code.code_challenge !== "") {
          if (verifier === "" || !isValidVerifier(verifier) || !sameHash(s256(verifier), code.code_challenge)) {
            return yield* invalidGrant("The PKCE code_verifier does not match the code_challenge.")
          }
        } else if (verifier !== "") {
          return yield* invalidGrant("A code_verifier was sent for an authorization request without code_challenge.")
        }
        return yield* tx.atomic(
          Effect.zipRight(
            activeUser(code.user_id),
            issueTokens(app, secretId, code.user_id, code.id, parseScope(code.scope))
          )
        )
      })

    const refresh = (app: OAuth2AppRecord, secretId: string | null, req: typeof OAuth2TokenRequest.Type) =>
      Effect.gen(function*() {
        if (req.refresh_token === undefined || req.refresh_token === "") {
          return yield* oauthError("invalid_request", "refresh_token is required.")
        }
        const at = yield* now
        const found = yield* repo.findTokenByRefresh(hashSecret(req.refresh_token))
        if (Option.isNone(found)) {
          return yield* invalidGrant("The refresh token is invalid or was revoked.")
        }
        const token = found.value
        if (token.app_id !== app.id) return yield* invalidGrant("The refresh token was issued to another client.")
        if (token.used_at !== null) {
          // Reuse of a rotated refresh token: someone else may hold it; the whole grant goes (RFC 9700 4.14.2).
          yield* repo.revokeFamily(token.family_id)
          return yield* invalidGrant("The refresh token was already used; every token of this grant is revoked.")
        }
        if (token.expires_at.getTime() <= at.getTime()) return yield* invalidGrant("The refresh token has expired.")
        // RFC 6749 6: the same scope, or a narrower one; never wider (checked before the token is used up).
        const scope = refreshScope(parseScope(token.scope), req.scope)
        if ("refused" in scope) return yield* oauthError(scope.refused.error, scope.refused.description)
        return yield* tx.atomic(Effect.gen(function*() {
          yield* activeUser(token.user_id)
          if (!(yield* repo.rotateToken(token.id, at))) {
            yield* repo.revokeFamily(token.family_id)
            return yield* invalidGrant("The refresh token was already used; every token of this grant is revoked.")
          }
          return yield* issueTokens(app, secretId, token.user_id, token.family_id, scope.ok)
        }))
      })

    /** POST /oauth2/tokens. */
    const token = (req: typeof OAuth2TokenRequest.Type, authorization: string | undefined) =>
      Effect.gen(function*() {
        const grant = req.grant_type ?? ""
        if (grant === "") return yield* oauthError("invalid_request", "grant_type is required.")
        if (!(SupportedGrantTypes as ReadonlyArray<string>).includes(grant)) {
          return yield* oauthError("unsupported_grant_type", `Grant type "${grant}" is not supported.`)
        }
        const { app, secretId } = yield* authenticateClient(req, authorization)
        if (!app.grant_types.includes(grant)) {
          return yield* oauthError("unauthorized_client", `This client may not use the ${grant} grant.`)
        }
        return grant === "authorization_code"
          ? yield* exchangeCode(app, secretId, req)
          : yield* refresh(app, secretId, req)
      }).pipe(span("OAuth2Provider.token"))

    /** POST /oauth2/revoke (RFC 7009): 200 whether or not the token was known. */
    const revoke = (req: typeof OAuth2RevokeRequest.Type, authorization: string | undefined) =>
      Effect.gen(function*() {
        const { app } = yield* authenticateClient(req, authorization)
        const value = req.token ?? ""
        if (value === "") return yield* oauthError("invalid_request", "token is required.")
        const asKey = parseApiKey(value)
        const found = asKey !== undefined
          ? yield* Effect.flatMap(keys.findById(asKey.id), (key) =>
            Option.isSome(key) && sameHash(key.value.hashed_secret, hashSecret(asKey.secret))
              ? repo.findTokenByApiKey(asKey.id)
              : Effect.succeed(Option.none<OAuth2TokenRecord>()))
          : yield* repo.findTokenByRefresh(hashSecret(value))
        // A token of another client is left alone, and the answer says nothing about it.
        if (Option.isNone(found) || found.value.app_id !== app.id) {
          return
        }
        yield* auditUser(found.value.user_id)
        yield* repo.revokeFamily(found.value.family_id)
        yield* auditResource(
          { type: "api_key", id: found.value.user_id, target: app.name },
          { app_id: app.id, user_id: found.value.user_id },
          undefined
        )
      }).pipe(span("OAuth2Provider.revoke"))

    /** DELETE /oauth2/tokens?client_id=: the caller revokes every token and code of theirs for an app. */
    const revokeApp = (clientId: string) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        yield* authorize("delete", { type: "oauth2_app_code_token", ownerId: actor.user.id })
        const found = isUuid(clientId) ? yield* repo.findApp(clientId.toLowerCase()) : Option.none()
        if (Option.isNone(found)) return yield* NotFound.resource("OAuth2 app")
        yield* repo.revokeUserApp(found.value.id, actor.user.id)
        yield* auditResource({ type: "api_key", id: actor.user.id, target: found.value.name }, {
          app_id: found.value.id,
          user_id: actor.user.id
        }, undefined)
      }).pipe(span("OAuth2Provider.revokeApp"))

    const authorizationServer = new OAuth2AuthorizationServerMetadata({
      issuer,
      authorization_endpoint: `${issuer}/oauth2/authorize`,
      token_endpoint: `${issuer}/oauth2/tokens`,
      registration_endpoint: `${issuer}/oauth2/register`,
      revocation_endpoint: `${issuer}/oauth2/revoke`,
      response_types_supported: [...SupportedResponseTypes],
      grant_types_supported: [...SupportedGrantTypes],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: [...OAUTH2_SCOPES],
      token_endpoint_auth_methods_supported: [...TokenEndpointAuthMethods]
    }, true)

    const protectedResource = new OAuth2ProtectedResourceMetadata({
      resource: issuer,
      authorization_servers: [issuer],
      scopes_supported: [...OAUTH2_SCOPES],
      bearer_methods_supported: ["header"]
    }, true)

    return {
      authorizePage,
      signIn,
      authorize: authorizeGrant,
      token,
      revoke,
      revokeApp,
      authorizationServer: Effect.succeed(authorizationServer),
      protectedResource: Effect.succeed(protectedResource)
    } as const
  })
}) {}
