/**
 * The application routes of the described system (`/applications/*`): the wildcard app host,
 * and the hand-off of an application key to a redirect URI. A subdomain app (served on the
 * wildcard host) cannot read the session cookie of the access URL's host, so the dashboard
 * sends the browser through `GET /applications/auth-redirect?redirect_uri=...`, which mints a
 * key limited to the `application_connect` scope and hands it to that URI as the query
 * parameter `coder_application_connect_api_key`. It is handed only to a host the wildcard app
 * host covers: anywhere else it would leak a key. The access URL itself (a path app there) needs
 * none, its session cookie reaching it: the browser is sent straight back. See
 * docs/external-auth.md, "Applications".
 */
import { Clock, Effect, Schema } from "effect"
import { authorize, CurrentActor, refuseOAuth2AppCredential } from "../Actor.js"
import { auditResource, auditUnchanged } from "../Audit.js"
import { BadRequest, Validation } from "../Errors.js"
import { hashSecret, randomString } from "../Platform.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { AllowListEntry, type ApiKeyRecord } from "../users/ApiKey.js"
import { apiKeyResource } from "../users/Auth.js"
import { ApiKeyRepo } from "../users/Repositories.js"
import { APP_KEY_PARAM, wildcardLabelReader } from "../workspaces/AppUrl.js"

/** The longest an application key lives (one week, as the described system caps it). */
const MAX_APP_KEY_MS = 7 * 24 * 3_600_000

/** `AppHostResponse`. */
export class AppHostResponse extends Schema.Class<AppHostResponse>("AppHostResponse")({
  host: Schema.String
}) {}

/**
 * A matcher of the hosts a wildcard app host covers: `*` stands for one DNS label or a part of
 * one (`*.apps.example.com`, `*--apps.example.com`), compared without case; a port in the
 * wildcard must be equal, a wildcard without one takes any port.
 */
export const wildcardHostMatcher = (wildcard: string): (host: string) => boolean => {
  const read = wildcardLabelReader(wildcard)
  return (host) => read(host) !== undefined
}

const badUri = (detail: string) =>
  new BadRequest({
    message: "The redirect_uri query parameter must be the access URL or an app host of this deployment.",
    validations: [new Validation({ field: "redirect_uri", detail })]
  })

export class Applications extends Effect.Service<Applications>()("@workbay/core/Applications", {
  effect: Effect.gen(function*() {
    const settings = yield* Settings
    const keys = yield* ApiKeyRepo
    const access = new URL(settings.accessUrl)
    const coveredByWildcard = wildcardHostMatcher(settings.wildcardAccessUrl)

    /**
     * `GET /applications/host`: the wildcard app host, empty when none is set; with the access
     * URL's port when it names none (the described system's `SubdomainAppHost`), so that a link
     * built from it reaches the service where it listens.
     */
    const appHost = settings.wildcardAccessUrl === "" || /:\d+$/.test(settings.wildcardAccessUrl) || access.port === ""
      ? settings.wildcardAccessUrl
      : `${settings.wildcardAccessUrl}:${access.port}`
    const host = Effect.succeed(new AppHostResponse({ host: appHost }, true)).pipe(span("Applications.host"))

    /** Mints a key of the caller limited to `application_connect`, living no longer than the caller's key and a week. */
    const mintAppKey = (caller: ApiKeyRecord) =>
      Effect.gen(function*() {
        const at = new Date(yield* Clock.currentTimeMillis)
        const expires = new Date(Math.min(caller.expires_at.getTime(), at.getTime() + MAX_APP_KEY_MS))
        const id = randomString(10)
        const secret = randomString(22)
        const record: ApiKeyRecord = {
          id,
          hashed_secret: hashSecret(secret),
          user_id: caller.user_id,
          // A session-like key (tokens are named and listed; this one is neither).
          login_type: caller.login_type === "token" ? "password" : caller.login_type,
          token_name: "",
          scopes: ["application_connect"],
          allow_list: [new AllowListEntry({ type: "*", id: "*" })],
          lifetime_seconds: Math.max(0, Math.floor((expires.getTime() - at.getTime()) / 1000)),
          created_at: at,
          updated_at: at,
          expires_at: expires,
          last_used: at
        }
        yield* keys.insert(record).pipe(Effect.orDie)
        return { record, key: `${id}-${secret}` }
      })

    /**
     * `GET /applications/auth-redirect`: the URI to send the browser to (307): carrying a new
     * application key when `redirectUri`'s host is one the wildcard app host covers; as it is,
     * with no key minted, when it is the access URL's host (a path app there is reached with the
     * session cookie); 400 otherwise. The scheme is forced to the access URL's.
     */
    const authRedirect = (redirectUri: string) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        yield* authorize("create", { type: "api_key", ownerId: actor.user.id })
        yield* refuseOAuth2AppCredential("application keys")
        if (!URL.canParse(redirectUri)) return yield* badUri("Must be an absolute URL.")
        const target = new URL(redirectUri)
        if (target.protocol !== "http:" && target.protocol !== "https:") {
          return yield* badUri("Must be an http or https URL.")
        }
        if (target.username !== "" || target.password !== "") return yield* badUri("Must not carry credentials.")
        target.protocol = access.protocol
        const isAccess = target.host.toLowerCase() === access.host.toLowerCase()
        if (!isAccess && !coveredByWildcard(target.host)) {
          return yield* badUri(
            settings.wildcardAccessUrl === ""
              ? `Its host must be the access URL's (${access.host}); no wildcard app host is set.`
              : `Its host must be the access URL's (${access.host}) or one ${settings.wildcardAccessUrl} covers.`
          )
        }
        if (isAccess) {
          // No key for the access URL: an app there would receive it in its URL, and needs none.
          // Nothing is made, so nothing is audited.
          yield* auditUnchanged
          if (target.searchParams.has(APP_KEY_PARAM)) target.searchParams.delete(APP_KEY_PARAM)
          return target.toString()
        }
        const minted = yield* mintAppKey(actor.apiKey)
        yield* auditResource(apiKeyResource(minted.record, actor.user.username), undefined, minted.record)
        target.searchParams.set(APP_KEY_PARAM, minted.key)
        return target.toString()
      }).pipe(span("Applications.authRedirect"))

    return { host, authRedirect } as const
  })
}) {}
