/**
 * Sign-in through GitHub (or a GitHub Enterprise server): the web flow and the device flow over
 * GitHub's documented OAuth endpoints, then its REST API for the user, their verified primary
 * email, their organization memberships and team memberships (docs/sign-in.md).
 */
import { Effect } from "effect"
import { BadRequest, Forbidden } from "../Errors.js"
import { Settings, type SettingsShape } from "../Settings.js"
import { span } from "../Tracing.js"
import { githubConfigured } from "./Links.js"
import {
  type CallbackAnswer, type CallbackInput, checkState, clearedCookies, CONVERT_STATE_PREFIX, flowState, ProviderUnavailable,
  safeRedirect, SignIn, SignInCookies, startCookies
} from "./SignIn.js"

/** The scopes sign-in asks for: the profile, emails and organization memberships. */
export const GITHUB_SCOPES = "read:user read:org user:email"

/** Where GitHub's OAuth pages and REST API are: github.com, or an Enterprise server's base URL. */
export const githubEndpoints = (s: Pick<SettingsShape, "oauth2GithubEnterpriseBaseUrl">) => {
  const base = s.oauth2GithubEnterpriseBaseUrl.trim().replace(/\/+$/, "")
  return base === ""
    ? { web: "https://github.com", api: "https://api.github.com" }
    : { web: base, api: `${base}/api/v3` }
}

/** GitHub's answer to the device flow's start. */
export interface GithubDevice {
  readonly device_code: string
  readonly user_code: string
  readonly verification_uri: string
  readonly expires_in: number
  readonly interval: number
}

const TIMEOUT_MS = 15_000

const unreachable = (what: string, e: unknown) =>
  new ProviderUnavailable({ message: `Could not ${what} at GitHub.`, detail: e instanceof Error ? e.message : String(e) })

/** One JSON request to GitHub; undefined for 404 when `allowMissing`. */
const githubJson = (url: string, init: RequestInit, what: string, allowMissing = false) =>
  Effect.tryPromise({
    try: async () => {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "error" })
      if (allowMissing && (res.status === 404 || res.status === 403)) return undefined
      const text = await res.text()
      if (!res.ok) throw new Error(`GitHub answered ${res.status}: ${text.slice(0, 200)}`)
      return JSON.parse(text) as unknown
    },
    catch: (e) => unreachable(what, e)
  })

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

export class GithubSignIn extends Effect.Service<GithubSignIn>()("@workbay/core/GithubSignIn", {
  effect: Effect.gen(function*() {
    const settings = yield* Settings
    const signIn = yield* SignIn
    const endpoints = githubEndpoints(settings)
    const callbackUrl = `${settings.accessUrl.replace(/\/+$/, "")}/api/v2/users/oauth2/github/callback`

    const notEnabled = () => new BadRequest({ message: "Github OAuth2 is not enabled." })

    /** The access token for a code of the web flow, or a device code of the device flow. */
    const exchange = (code: string) =>
      Effect.gen(function*() {
        const form = new URLSearchParams({ client_id: settings.oauth2GithubClientId, client_secret: settings.oauth2GithubClientSecret })
        if (settings.oauth2GithubDeviceFlow) {
          form.set("device_code", code)
          form.set("grant_type", "urn:ietf:params:oauth:grant-type:device_code")
        } else {
          form.set("code", code)
          form.set("redirect_uri", callbackUrl)
        }
        const body = yield* githubJson(`${endpoints.web}/login/oauth/access_token`, {
          method: "POST",
          headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
          body: form.toString()
        }, "exchange the code")
        if (isRecord(body) && typeof body.error === "string") {
          const pending = body.error === "authorization_pending" || body.error === "slow_down"
          return yield* new BadRequest({
            message: pending
              ? `GitHub has not authorized the device yet (${body.error}).`
              : `GitHub refused the ${settings.oauth2GithubDeviceFlow ? "device code" : "code"} (${body.error}).`,
            detail: typeof body.error_description === "string" ? `${body.error}: ${body.error_description}` : body.error
          })
        }
        if (!isRecord(body) || typeof body.access_token !== "string" || body.access_token === "") {
          return yield* new ProviderUnavailable({ message: "GitHub answered the code exchange without an access token." })
        }
        return body.access_token
      })

    const api = (token: string, path: string, what: string, allowMissing = false) =>
      githubJson(`${endpoints.api}${path}`, {
        headers: { accept: "application/vnd.github+json", authorization: `Bearer ${token}` }
      }, what, allowMissing)

    /** Whether the user may sign in by their organizations and teams (403 otherwise, as the described system refuses). */
    const checkAllowed = (token: string, login: string) =>
      Effect.gen(function*() {
        if (settings.oauth2GithubAllowEveryone) return
        const memberships = yield* api(token, "/user/memberships/orgs?state=active&per_page=100", "list organization memberships")
        const orgs = (Array.isArray(memberships) ? memberships : [])
          .filter((m): m is Record<string, unknown> => isRecord(m) && m.state === "active" && isRecord(m.organization))
          .map((m) => String((m.organization as Record<string, unknown>).login ?? ""))
          .filter((o) => settings.oauth2GithubAllowedOrgs.includes(o))
        if (orgs.length === 0) {
          return yield* new Forbidden({ message: "Unauthorized", detail: "You aren't a member of the authorized Github organizations!" })
        }
        if (settings.oauth2GithubAllowedTeams.length === 0) return
        for (const entry of settings.oauth2GithubAllowedTeams) {
          const slash = entry.indexOf("/")
          const org = entry.slice(0, slash)
          const team = entry.slice(slash + 1)
          if (slash <= 0 || !orgs.includes(org)) continue
          const m = yield* api(
            token,
            `/orgs/${encodeURIComponent(org)}/teams/${encodeURIComponent(team)}/memberships/${encodeURIComponent(login)}`,
            "read a team membership",
            true
          )
          if (isRecord(m) && m.state === "active") return
        }
        return yield* new Forbidden({
          message: "Unauthorized",
          detail: `You aren't a member of an authorized team in the ${orgs.join(", ")} Github organization(s)!`
        })
      })

    const callback = (input: CallbackInput) =>
      Effect.gen(function*() {
        if (!githubConfigured(settings)) return yield* notEnabled()
        if (input.code === undefined || input.code === "") {
          if (input.error !== undefined && input.error !== "") yield* checkState(input)
          const state = flowState(input)
          const location = settings.oauth2GithubDeviceFlow
            ? `/login/device?state=${encodeURIComponent(state)}`
            : `${endpoints.web}/login/oauth/authorize?${new URLSearchParams({
              client_id: settings.oauth2GithubClientId,
              redirect_uri: callbackUrl,
              response_type: "code",
              scope: GITHUB_SCOPES,
              state
            }).toString()}`
          const answer: CallbackAnswer = { status: 307, location, cookies: startCookies(state, input.redirect) }
          return answer
        }
        const state = yield* checkState(input)
        const token = yield* exchange(input.code)
        const user = yield* api(token, "/user", "read the user")
        if (!isRecord(user) || typeof user.id !== "number" || user.id <= 0 || typeof user.login !== "string") {
          return yield* new ProviderUnavailable({ message: "GitHub answered /user without a user id and login." })
        }
        yield* checkAllowed(token, user.login)
        const emails = yield* api(token, "/user/emails", "list the user's emails")
        const primary = (Array.isArray(emails) ? emails : []).find((e) => isRecord(e) && e.primary === true && e.verified === true)
        if (!isRecord(primary) || typeof primary.email !== "string") {
          return yield* new BadRequest({ message: "Your primary email must be verified on GitHub!" })
        }
        const signedIn = yield* signIn.complete({
          loginType: "github",
          linkedId: String(user.id),
          email: primary.email,
          // Enterprise servers allow underscores, which usernames here do not.
          username: user.login.replace(/_/g, "-"),
          name: typeof user.name === "string" ? user.name : "",
          avatarUrl: typeof user.avatar_url === "string" ? user.avatar_url : "",
          allowSignups: settings.oauth2GithubAllowSignups,
          state,
          convertCookie: input.cookie(SignInCookies.convert)
        })
        const cleared = [SignInCookies.state, SignInCookies.redirect, ...(state.startsWith(CONVERT_STATE_PREFIX) ? [SignInCookies.convert] : [])]
        const answer: CallbackAnswer = {
          // In the device flow the page that polls goes on by itself.
          status: settings.oauth2GithubDeviceFlow ? 200 : 307,
          location: safeRedirect(input.cookie(SignInCookies.redirect)),
          cookies: clearedCookies(cleared),
          session: signedIn.session
        }
        return answer
      }).pipe(span("GithubSignIn.callback"))

    /** Starts the device flow: GitHub's device and user codes. */
    const device = Effect.gen(function*() {
      if (!githubConfigured(settings)) return yield* notEnabled()
      if (!settings.oauth2GithubDeviceFlow) {
        return yield* new BadRequest({ message: "Device flow is not enabled for Github OAuth2." })
      }
      const body = yield* githubJson(`${endpoints.web}/login/device/code`, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: settings.oauth2GithubClientId, scope: GITHUB_SCOPES }).toString()
      }, "start the device flow")
      if (
        !isRecord(body) || typeof body.device_code !== "string" || typeof body.user_code !== "string" ||
        typeof body.verification_uri !== "string"
      ) {
        return yield* new ProviderUnavailable({ message: "GitHub answered the device flow's start without its codes." })
      }
      const device: GithubDevice = {
        device_code: body.device_code,
        user_code: body.user_code,
        verification_uri: body.verification_uri,
        expires_in: typeof body.expires_in === "number" ? Math.floor(body.expires_in) : 900,
        interval: typeof body.interval === "number" ? Math.floor(body.interval) : 5
      }
      return device
    }).pipe(span("GithubSignIn.device"))

    return { callback, device } as const
  }),
  dependencies: [SignIn.Default]
}) {}
