/**
 * External auth for workspaces: users link their accounts at the deployment's external auth
 * providers (GitHub, GitLab, generic OAuth2) through the web flow or the device flow, see and
 * remove those links, and their workspace agents ask for the token (Git over HTTPS, CLIs) with
 * `GET /workspaceagents/me/external-auth`, optionally waiting until the owner has linked.
 * Expired tokens are refreshed on use. See docs/external-auth.md.
 *
 * Who may: a user acts on their own links only (`read_personal` / `update_personal` on their
 * user, through the one evaluator, so a token without those grants gets 403). An agent reads its
 * workspace owner's link: its token is the owner's delegate for that (as for the owner's Git
 * SSH key).
 */
import { Clock, Deferred, Duration, Effect, Either, FiberId, Option, Queue } from "effect"
import { createHash } from "node:crypto"
import { authorize, CurrentActor } from "../Actor.js"
import { auditAdditional, auditResource } from "../Audit.js"
import { BadRequest, NotFound, Unauthorized, Validation } from "../Errors.js"
import { authorizeDevice, exchangeCode, exchangeDeviceCode, type ProviderToken, refreshToken } from "../OAuthClient.js"
import { randomString } from "../Platform.js"
import { PubSub } from "../PubSub.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { userObject } from "../users/Users.js"
import {
  AgentExternalAuthResponse,
  auditedLink,
  DeleteExternalAuthResponse,
  ExternalAuthDevice,
  ExternalAuthLinkProvider,
  type ExternalAuthLinkRecord,
  ExternalAuthLinkRepo,
  ExternalAuthLinkWire,
  type ExternalAuthUser,
  ExternalAuthWire,
  ListUserExternalAuthResponse,
  type ProviderUnavailable
} from "./ExternalAuthLink.js"
import { appInstallations, revokeToken, validateToken } from "./OAuthClient.js"
import { type ResolvedProvider, resolveProviders } from "./Provider.js"
import type { AgentExternalAuthQuery, ExternalAuthCallbackQuery } from "./Requests.js"

/** Cookies of the web flow (the described system's names): the state, the PKCE verifier, where to go after. */
export const STATE_COOKIE = "oauth_state"
export const VERIFIER_COOKIE = "oauth_pkce_verifier"
export const REDIRECT_COOKIE = "oauth_redirect"
/** How long a started web flow may take. */
export const WEB_FLOW_SECONDS = 600
/** The longest an agent's `listen` waits for its owner to link before answering the sign-in URL. */
export const LISTEN_TIMEOUT = Duration.minutes(5)
/** How often a waiting `listen` re-reads the link even without a signal (a lost signal costs this much). */
export const LISTEN_REREAD = Duration.seconds(5)

/** `expires` of a token that does not expire: Go's zero time, as the described system sends it. */
const ZERO_TIME = new Date("0001-01-01T00:00:00Z")

/** The PubSub channel of a user's link changes; the message is the provider id. */
export const externalAuthChannel = (userId: string) => `external_auth_${userId.replaceAll("-", "").toLowerCase()}`

/** A cookie the callback sets or clears (`maxAgeSeconds: 0`). */
export interface FlowCookie {
  readonly name: string
  readonly value: string
  readonly maxAgeSeconds: number
}

/** The web flow's answer: 307 to `location` with these cookies. */
export interface FlowRedirect {
  readonly location: string
  readonly cookies: ReadonlyArray<FlowCookie>
}

/**
 * The callback's query and the flow's cookies: the flow checks the query's state against the
 * state cookie and its PKCE verifier, which are no part of the query.
 */
export type ExternalAuthCallbackInput = typeof ExternalAuthCallbackQuery.Type & {
  readonly cookies: {
    readonly state?: string | undefined
    readonly verifier?: string | undefined
    readonly redirect?: string | undefined
  }
}

/** A link checked on use: refreshed when expired, validated at the provider. */
interface CheckedLink {
  readonly link: ExternalAuthLinkRecord
  readonly valid: boolean
  readonly reason: string
  readonly user: ExternalAuthUser | null
}

const isPath = (s: string) => s.startsWith("/") && !s.startsWith("//") && !s.startsWith("/\\") && !/[\r\n]/.test(s)

const pkceChallenge = (verifier: string) => createHash("sha256").update(verifier).digest("base64url")

const sameTokens = (a: ExternalAuthLinkRecord, b: ExternalAuthLinkRecord) =>
  a.oauth_access_token === b.oauth_access_token && a.oauth_refresh_token === b.oauth_refresh_token &&
  (a.oauth_expiry?.getTime() ?? 0) === (b.oauth_expiry?.getTime() ?? 0)

/**
 * The agent's answer for a token, as the described system shapes it per type: GitLab's Git
 * username is `oauth2` with the token as password, Bitbucket's `x-token-auth`, and the others
 * take the token as username.
 */
export const agentTokenResponse = (type: string, link: ExternalAuthLinkRecord): AgentExternalAuthResponse => {
  const token = link.oauth_access_token
  const kind = type.toLowerCase()
  const creds = kind === "gitlab"
    ? { username: "oauth2", password: token }
    : kind === "bitbucket" || kind === "bitbucket-cloud" || kind === "bitbucket-server"
    ? { username: "x-token-auth", password: token }
    : { username: token, password: "" }
  return new AgentExternalAuthResponse({
    access_token: token,
    token_extra: link.oauth_extra,
    url: "",
    type,
    ...creds
  }, true)
}

const urlOnly = (url: string) =>
  new AgentExternalAuthResponse(
    { access_token: "", token_extra: null, url, type: "", username: "", password: "" },
    true
  )

export class ExternalAuth extends Effect.Service<ExternalAuth>()("@workbay/core/ExternalAuth", {
  effect: Effect.gen(function*() {
    const settings = yield* Settings
    const links = yield* ExternalAuthLinkRepo
    const pubsub = yield* PubSub
    const resolved = resolveProviders(settings.externalAuth, settings.accessUrl)
    if (Either.isLeft(resolved)) {
      return yield* Effect.dieMessage(`Invalid external_auth setting: ${resolved.left.join(" ")}`)
    }
    const providers = resolved.right
    const base = settings.accessUrl.replace(/\/+$/, "")
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const providerOf = (id: string) => {
      const p = providers.find((x) => x.id === id)
      return p === undefined
        ? Effect.fail(
          new NotFound({
            message: `External auth provider "${id}" not found.`,
            detail: "No provider of that id is configured on this deployment."
          })
        )
        : Effect.succeed(p)
    }

    const caller = (action: "read_personal" | "update_personal") =>
      Effect.flatMap(CurrentActor, (actor) => Effect.as(authorize(action, userObject(actor.user)), actor.user))

    const linkResource = (provider: ResolvedProvider, userId: string) => ({
      type: "external_auth_link",
      id: userId,
      target: provider.id
    })

    /** Stores a new token for the user and tells any waiting agent. */
    const storeToken = (provider: ResolvedProvider, userId: string, token: ProviderToken) =>
      Effect.gen(function*() {
        const at = yield* now
        const before = yield* links.find(provider.id, userId)
        const stored = yield* links.upsert({
          provider_id: provider.id,
          user_id: userId,
          created_at: at,
          updated_at: at,
          oauth_access_token: token.access_token,
          oauth_refresh_token: token.refresh_token,
          oauth_expiry: token.expiry,
          oauth_extra: token.extra,
          oauth_refresh_failure_reason: ""
        })
        yield* auditResource(
          linkResource(provider, userId),
          Option.isSome(before) ? auditedLink(before.value) : undefined,
          auditedLink(stored)
        )
        yield* pubsub.publish(externalAuthChannel(userId), provider.id)
        return stored
      })

    /** What one refresh ended with: the stored link, a link another request stored first, or a final answer. */
    type RefreshOutcome =
      | { readonly _tag: "Stored"; readonly link: ExternalAuthLinkRecord }
      | { readonly _tag: "Winner"; readonly link: ExternalAuthLinkRecord }
      | { readonly _tag: "Final"; readonly checked: CheckedLink }

    /**
     * Uses the link's refresh token once and stores the new pair while the stored refresh token
     * is still the one used (so of racing replicas only the first stores, and the others take its
     * token). A refused refresh drops the refresh token and keeps the reason.
     */
    const refresh = (
      provider: ResolvedProvider,
      current: ExternalAuthLinkRecord,
      at: Date
    ): Effect.Effect<RefreshOutcome, ProviderUnavailable> =>
      Effect.gen(function*() {
        const answer = yield* refreshToken(provider, current.oauth_refresh_token, at)
        if (answer._tag === "Refused") {
          const reason = `${answer.refusal.error}${
            answer.refusal.description !== "" ? `: ${answer.refusal.description}` : ""
          }`.slice(0, 400)
          const cleared = yield* links.updateTokens(
            { ...current, oauth_refresh_token: "", oauth_refresh_failure_reason: reason, updated_at: at },
            current.oauth_refresh_token
          )
          if (Option.isNone(cleared)) {
            // Another request refreshed first (refresh tokens are single-use): take its token.
            const winner = yield* links.find(provider.id, current.user_id)
            if (Option.isSome(winner) && !sameTokens(winner.value, current)) {
              return { _tag: "Winner", link: winner.value } as const
            }
          }
          const checked: CheckedLink = {
            link: Option.getOrElse(cleared, () => current),
            valid: false,
            reason: `Refreshing the token failed: ${reason}`,
            user: null
          }
          return { _tag: "Final", checked } as const
        }
        const updated = yield* links.updateTokens({
          ...current,
          oauth_access_token: answer.token.access_token,
          oauth_refresh_token: answer.token.refresh_token,
          oauth_expiry: answer.token.expiry,
          oauth_extra: answer.token.extra ?? current.oauth_extra,
          oauth_refresh_failure_reason: "",
          updated_at: at
        }, current.oauth_refresh_token)
        if (Option.isSome(updated)) return { _tag: "Stored", link: updated.value } as const
        const winner = yield* links.find(provider.id, current.user_id)
        return Option.isNone(winner)
          ? {
            _tag: "Final",
            checked: { link: current, valid: false, reason: "The link was removed.", user: null }
          } as const
          : { _tag: "Winner", link: winner.value } as const
      })

    /**
     * Refreshes in this process at most once per refresh token: concurrent uses of one expired
     * link wait for the same refresh, so the provider never sees a refresh token twice from here
     * (a provider may take a reused one for a stolen one and revoke the grant).
     */
    const inflight = new Map<string, Deferred.Deferred<RefreshOutcome, ProviderUnavailable>>()
    const refreshOnce = (provider: ResolvedProvider, current: ExternalAuthLinkRecord, at: Date) =>
      Effect.suspend(() => {
        const key = `${provider.id}\u0000${current.user_id}\u0000${current.oauth_refresh_token}`
        const running = inflight.get(key)
        if (running !== undefined) return Deferred.await(running)
        const done = Deferred.unsafeMake<RefreshOutcome, ProviderUnavailable>(FiberId.none)
        inflight.set(key, done)
        return refresh(provider, current, at).pipe(
          Effect.onExit((exit) => Effect.zipRight(Effect.sync(() => inflight.delete(key)), Deferred.done(done, exit)))
        )
      })

    /** The link made usable: refreshed when expired (and allowed), then validated at the provider. */
    const check = (
      provider: ResolvedProvider,
      link: ExternalAuthLinkRecord
    ): Effect.Effect<CheckedLink, ProviderUnavailable> =>
      Effect.gen(function*() {
        const at = yield* now
        let current = link
        const expired = current.oauth_expiry !== null && current.oauth_expiry.getTime() <= at.getTime()
        if (expired) {
          if (provider.noRefresh || current.oauth_refresh_token === "") {
            const reason = current.oauth_refresh_failure_reason !== ""
              ? `The token expired and refreshing it failed: ${current.oauth_refresh_failure_reason}`
              : "The token expired; refreshing is either disabled or failed before and will not be retried."
            return { link: current, valid: false, reason, user: null }
          }
          const outcome = yield* refreshOnce(provider, current, at)
          if (outcome._tag === "Final") return outcome.checked
          if (outcome._tag === "Winner") return yield* check(provider, outcome.link)
          current = outcome.link
        }
        const v = yield* validateToken(provider, current.oauth_access_token)
        return { link: current, valid: v.valid, reason: v.valid ? "" : "The token failed to validate.", user: v.user }
      })

    const toProvider = (p: ResolvedProvider) =>
      new ExternalAuthLinkProvider({
        id: p.id,
        type: p.type,
        device: p.deviceCodeUrl !== undefined,
        display_name: p.displayName,
        display_icon: p.displayIcon,
        allow_refresh: !p.noRefresh,
        allow_validate: p.validateUrl !== "",
        supports_revocation: p.revokeUrl !== "",
        code_challenge_methods_supported: p.codeChallengeMethods
      }, true)

    /** `GET /external-auth`: the providers, and the caller's links, each refreshed and checked. */
    const list = Effect.gen(function*() {
      const user = yield* caller("read_personal")
      const own = yield* links.listByUser(user.id)
      const wire = yield* Effect.forEach(own, (link) =>
        Effect.gen(function*() {
          const provider = providers.find((p) => p.id === link.provider_id)
          let checked: CheckedLink = { link, valid: false, reason: "", user: null }
          if (provider !== undefined && link.oauth_access_token !== "") {
            checked = yield* check(provider, link).pipe(
              Effect.catchAll((e) => Effect.succeed({ link, valid: false, reason: e.detail ?? e.message, user: null }))
            )
          }
          return new ExternalAuthLinkWire({
            provider_id: link.provider_id,
            created_at: checked.link.created_at,
            updated_at: checked.link.updated_at,
            has_refresh_token: checked.link.oauth_refresh_token !== "",
            expires: checked.link.oauth_expiry ?? ZERO_TIME,
            authenticated: checked.valid,
            validate_error: checked.reason
          }, true)
        }), { concurrency: 4 })
      return new ListUserExternalAuthResponse({ providers: providers.map(toProvider), links: wire }, true)
    }).pipe(span("ExternalAuth.list"))

    /** `GET /external-auth/{provider}`: whether the caller is linked (and valid), their account, installations. */
    const get = (id: string) =>
      Effect.gen(function*() {
        const user = yield* caller("read_personal")
        const provider = yield* providerOf(id)
        const found = yield* links.find(provider.id, user.id)
        let authenticated = false
        let account: ExternalAuthUser | null = null
        let installable = false
        let installations: ReadonlyArray<ExternalAuthWire["installations"][number]> = []
        if (Option.isSome(found)) {
          const checked = yield* check(provider, found.value)
          authenticated = checked.valid
          account = checked.user
          if (checked.valid) {
            const i = yield* appInstallations(provider, checked.link.oauth_access_token)
            installable = i.installable
            installations = i.installations
          }
        }
        return new ExternalAuthWire({
          authenticated,
          device: provider.deviceCodeUrl !== undefined,
          display_name: provider.displayName,
          user: account,
          app_installable: installable,
          installations,
          app_install_url: provider.appInstallUrl
        }, true)
      }).pipe(span("ExternalAuth.get"))

    /**
     * `GET /external-auth/{provider}/callback`: without `code`, starts the web flow (307 to the
     * provider with a fresh state and PKCE challenge in cookies); with it, checks the state
     * against the cookie, exchanges the code, stores the link and goes back (307).
     */
    const callback = (id: string, input: ExternalAuthCallbackInput) =>
      Effect.gen(function*() {
        const user = yield* caller("update_personal")
        const provider = yield* providerOf(id)
        if (provider.deviceCodeUrl !== undefined) {
          return yield* new BadRequest({
            message: `External auth provider "${provider.id}" signs in through the device flow.`,
            detail: `Use GET and POST /external-auth/${provider.id}/device.`
          })
        }
        if (input.error !== undefined) {
          return yield* new BadRequest({
            message: "The provider refused the sign-in.",
            detail: `${input.error}${input.error_description !== undefined ? `: ${input.error_description}` : ""}`
          })
        }
        if (input.code === undefined) {
          const state = randomString(32)
          const pkce = provider.codeChallengeMethods.includes("S256")
          const verifier = pkce ? randomString(64) : ""
          const url = new URL(provider.authUrl)
          url.searchParams.set("client_id", provider.clientId)
          url.searchParams.set("redirect_uri", provider.redirectUrl)
          url.searchParams.set("response_type", "code")
          if (provider.scopes.length > 0) url.searchParams.set("scope", provider.scopes.join(" "))
          url.searchParams.set("state", state)
          if (pkce) {
            url.searchParams.set("code_challenge", pkceChallenge(verifier))
            url.searchParams.set("code_challenge_method", "S256")
          }
          const cookies: Array<FlowCookie> = [{ name: STATE_COOKIE, value: state, maxAgeSeconds: WEB_FLOW_SECONDS }]
          if (pkce) cookies.push({ name: VERIFIER_COOKIE, value: verifier, maxAgeSeconds: WEB_FLOW_SECONDS })
          if (input.redirect !== undefined && isPath(input.redirect)) {
            cookies.push({ name: REDIRECT_COOKIE, value: input.redirect, maxAgeSeconds: WEB_FLOW_SECONDS })
          }
          // The route is audited for the link it makes; its start changes nothing, and says so.
          yield* auditResource(linkResource(provider, user.id))
          yield* auditAdditional({ flow: "started" })
          return { location: url.toString(), cookies } satisfies FlowRedirect
        }
        if (input.state === undefined) {
          return yield* BadRequest.field(
            "state",
            "The provider's callback carries the state it was given.",
            "The state is required with a code."
          )
        }
        if (input.cookies.state === undefined || input.cookies.state === "") {
          return yield* new Unauthorized({
            message: "Cookie must be provided to validate state.",
            detail: `The "${STATE_COOKIE}" cookie set when the sign-in started is missing; start again.`
          })
        }
        if (input.cookies.state !== input.state) {
          return yield* new Unauthorized({
            message: "State mismatched.",
            detail: "The state does not match the one this browser was given; start again."
          })
        }
        const answer = yield* exchangeCode(provider, input.code, input.cookies.verifier ?? "", yield* now)
        if (answer._tag === "Refused") {
          return yield* new BadRequest({
            message: "The provider refused the code.",
            detail: `${answer.refusal.error}${
              answer.refusal.description !== "" ? `: ${answer.refusal.description}` : ""
            }`
          })
        }
        yield* storeToken(provider, user.id, answer.token)
        yield* auditAdditional({ flow: "linked" })
        const back = input.cookies.redirect !== undefined && isPath(input.cookies.redirect)
          ? input.cookies.redirect
          : `/external-auth/${provider.id}?redirected=true`
        const clear = [STATE_COOKIE, VERIFIER_COOKIE, REDIRECT_COOKIE].map((name) => ({
          name,
          value: "",
          maxAgeSeconds: 0
        }))
        return { location: `${base}${back}`, cookies: clear } satisfies FlowRedirect
      }).pipe(span("ExternalAuth.callback"))

    const deviceProvider = (id: string) =>
      Effect.flatMap(providerOf(id), (p) =>
        p.deviceCodeUrl === undefined
          ? Effect.fail(
            new BadRequest({ message: `External auth provider "${p.id}" does not support the device flow.` })
          )
          : Effect.succeed(p))

    /** `GET /external-auth/{provider}/device`: starts the device flow. */
    const deviceStart = (id: string) =>
      Effect.gen(function*() {
        yield* caller("update_personal")
        const provider = yield* deviceProvider(id)
        const device = yield* authorizeDevice(provider)
        return new ExternalAuthDevice(device, true)
      }).pipe(span("ExternalAuth.deviceStart"))

    /** `POST /external-auth/{provider}/device`: exchanges the device code once the user entered theirs. */
    const deviceExchange = (id: string, deviceCode: string) =>
      Effect.gen(function*() {
        const user = yield* caller("update_personal")
        const provider = yield* deviceProvider(id)
        const answer = yield* exchangeDeviceCode(provider, deviceCode, yield* now)
        if (answer._tag === "Refused") {
          return yield* new BadRequest({
            message: "Failed to exchange device code.",
            detail: `${answer.refusal.error}${
              answer.refusal.description !== "" ? `: ${answer.refusal.description}` : ""
            }`
          })
        }
        yield* storeToken(provider, user.id, answer.token)
      }).pipe(span("ExternalAuth.deviceExchange"))

    /** `DELETE /external-auth/{provider}`: removes the caller's link, and revokes its token where the provider allows. */
    const unlink = (id: string) =>
      Effect.gen(function*() {
        const user = yield* caller("update_personal")
        const provider = yield* providerOf(id)
        const found = yield* links.find(provider.id, user.id)
        if (Option.isNone(found) || !(yield* links.delete(provider.id, user.id))) {
          return yield* NotFound.resource("External auth link")
        }
        yield* auditResource(linkResource(provider, user.id), auditedLink(found.value), undefined)
        yield* pubsub.publish(externalAuthChannel(user.id), provider.id)
        const revoked = yield* revokeToken(provider, found.value.oauth_access_token, found.value.oauth_refresh_token)
        return new DeleteExternalAuthResponse(
          revoked.error === ""
            ? { token_revoked: revoked.revoked }
            : { token_revoked: revoked.revoked, token_revocation_error: revoked.error },
          true
        )
      }).pipe(span("ExternalAuth.unlink"))

    /** The provider an agent asks about: by id, else the last whose regex matches `match`. */
    const agentProvider = (q: typeof AgentExternalAuthQuery.Type) => {
      const match = q.match ?? q.url
      if (match === undefined && q.id === undefined) {
        return Effect.fail(
          new BadRequest({
            message: "Either match or id must be given.",
            validations: [
              new Validation({ field: "match", detail: "Give a URL to match against the providers, or a provider id." })
            ]
          })
        )
      }
      if (match !== undefined && q.id !== undefined) {
        return Effect.fail(
          BadRequest.field("id", "Give match or id, not both.", "match and id cannot be given together.")
        )
      }
      const found = q.id !== undefined
        ? providers.find((p) => p.id === q.id)
        : providers.filter((p) => p.regex !== undefined && p.regex.test(match!)).at(-1)
      if (found !== undefined) return Effect.succeed(found)
      const regexes = providers.filter((p) => p.regex !== undefined).map((p) =>
        `${p.id}=${JSON.stringify(p.regex!.source)}`
      )
      return Effect.fail(
        new NotFound({
          message: q.id !== undefined
            ? `External auth provider "${q.id}" not found.`
            : `No matching external auth provider found for the URL ${JSON.stringify(match)}.`,
          detail: regexes.length > 0
            ? `The configured providers' URL patterns do not match: ${regexes.join(", ")}.`
            : "No external auth provider is configured on this deployment."
        })
      )
    }

    /**
     * `GET /workspaceagents/me/external-auth` (and the removed `/gitauth`): the workspace owner's
     * token for the provider, or the URL where they link it. With `listen`, waits (at most
     * LISTEN_TIMEOUT) until the owner has a valid link, then answers the token. `owner` is the
     * calling agent's workspace owner (the agents area's `CurrentAgent`).
     */
    const forAgent = (owner: { readonly id: string }, q: typeof AgentExternalAuthQuery.Type) =>
      Effect.gen(function*() {
        const provider = yield* agentProvider(q)
        const url = `${base}/external-auth/${provider.id}`
        /** The token when the owner's link is usable; else the link seen (to skip rechecking it unchanged). */
        const attempt = (previous: ExternalAuthLinkRecord | undefined) =>
          Effect.gen(function*() {
            const found = yield* links.find(provider.id, owner.id)
            if (Option.isNone(found)) return { token: undefined, seen: undefined }
            if (previous !== undefined && sameTokens(previous, found.value)) return { token: undefined, seen: previous }
            const checked = yield* check(provider, found.value)
            return checked.valid
              ? { token: agentTokenResponse(provider.type, checked.link), seen: checked.link }
              : { token: undefined, seen: checked.link }
          })
        if (q.listen !== true) {
          const first = yield* attempt(undefined)
          return first.token ?? urlOnly(url)
        }
        return yield* Effect.scoped(Effect.gen(function*() {
          // Subscribe before the first read, so a link made in between is not missed.
          const signals = yield* pubsub.subscribe(externalAuthChannel(owner.id))
          let seen: ExternalAuthLinkRecord | undefined
          const loop: Effect.Effect<AgentExternalAuthResponse> = Effect.gen(function*() {
            const r = yield* attempt(seen).pipe(
              // A provider that cannot be reached now may answer later: keep waiting.
              Effect.catchAll(() => Effect.succeed({ token: undefined, seen }))
            )
            if (r.token !== undefined) return r.token
            seen = r.seen
            yield* Effect.raceFirst(Queue.take(signals), Effect.sleep(LISTEN_REREAD))
            return yield* loop
          })
          return yield* loop.pipe(
            Effect.timeoutTo({ duration: LISTEN_TIMEOUT, onTimeout: () => urlOnly(url), onSuccess: (r) => r })
          )
        }))
      }).pipe(span("ExternalAuth.forAgent"))

    return { providers, list, get, callback, deviceStart, deviceExchange, unlink, forAgent } as const
  })
}) {}
