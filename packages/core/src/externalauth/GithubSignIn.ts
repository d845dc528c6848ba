/**
 * Sign-in through GitHub (or a GitHub Enterprise server): the web flow and the device flow over
 * GitHub's documented OAuth endpoints, then its REST API for the user, their verified primary
 * email, their organization memberships and team memberships (docs/sign-in.md).
 */
import { Clock, Effect } from "effect"
import { BadRequest, Forbidden } from "../Errors.js"
import {
  authorizeDevice,
  bearerGet,
  type DeviceCodes,
  exchangeCode,
  exchangeDeviceCode,
  isRecord,
  type OAuthEndpoints,
  unavailable
} from "../OAuthClient.js"
import { Settings, type SettingsShape } from "../Settings.js"
import { span } from "../Tracing.js"
import { githubConfigured } from "../users/Links.js"
import {
  type CallbackAnswer,
  type CallbackInput,
  checkState,
  clearedCookies,
  CONVERT_STATE_PREFIX,
  flowState,
  ProviderUnavailable,
  safeRedirect,
  SignIn,
  SignInCookies,
  startCookies
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
export type GithubDevice = DeviceCodes

const LABEL = "GitHub"

/** One JSON read of GitHub's REST API with the user's token; undefined for 404 and 403 when `allowMissing`. */
const githubJson = (url: string, token: string, what: string, allowMissing = false) =>
  Effect.flatMap(
    bearerGet(LABEL, what, url, token, "application/vnd.github+json"),
    (a): Effect.Effect<unknown, ProviderUnavailable> => {
      if (allowMissing && (a.status === 404 || a.status === 403)) return Effect.succeed(undefined)
      if (a.status !== 200) return Effect.fail(unavailable(LABEL, what, `GitHub answered ${a.status}.`))
      return Effect.succeed(a.body)
    }
  )

export class GithubSignIn extends Effect.Service<GithubSignIn>()("@workbay/core/GithubSignIn", {
  effect: Effect.gen(function*() {
    const settings = yield* Settings
    const signIn = yield* SignIn
    const endpoints = githubEndpoints(settings)
    const callbackUrl = `${settings.accessUrl.replace(/\/+$/, "")}/api/v2/users/oauth2/github/callback`
    const client: OAuthEndpoints = {
      label: LABEL,
      clientId: settings.oauth2GithubClientId,
      clientSecret: settings.oauth2GithubClientSecret,
      tokenUrl: `${endpoints.web}/login/oauth/access_token`,
      redirectUrl: callbackUrl,
      deviceCodeUrl: `${endpoints.web}/login/device/code`,
      scopes: GITHUB_SCOPES.split(" ")
    }

    const notEnabled = () => new BadRequest({ message: "Github OAuth2 is not enabled." })

    /** The access token for a code of the web flow, or a device code of the device flow. */
    const exchange = (code: string) =>
      Effect.gen(function*() {
        const at = new Date(yield* Clock.currentTimeMillis)
        const answer = settings.oauth2GithubDeviceFlow
          ? yield* exchangeDeviceCode(client, code, at)
          : yield* exchangeCode(client, code, "", at)
        if (answer._tag === "Token") return answer.token.access_token
        const { description, error } = answer.refusal
        const pending = error === "authorization_pending" || error === "slow_down"
        return yield* new BadRequest({
          message: pending
            ? `GitHub has not authorized the device yet (${error}).`
            : `GitHub refused the ${settings.oauth2GithubDeviceFlow ? "device code" : "code"} (${error}).`,
          detail: description !== "" ? `${error}: ${description}` : error
        })
      })

    const api = (token: string, path: string, what: string, allowMissing = false) =>
      githubJson(`${endpoints.api}${path}`, token, what, allowMissing)

    /** Whether the user may sign in by their organizations and teams (403 otherwise, as the described system refuses). */
    const checkAllowed = (token: string, login: string) =>
      Effect.gen(function*() {
        if (settings.oauth2GithubAllowEveryone) return
        const memberships = yield* api(
          token,
          "/user/memberships/orgs?state=active&per_page=100",
          "list organization memberships"
        )
        const orgs = (Array.isArray(memberships) ? memberships : [])
          .filter((m): m is Record<string, unknown> => isRecord(m) && m.state === "active" && isRecord(m.organization))
          .map((m) => String((m.organization as Record<string, unknown>).login ?? ""))
          .filter((o) => settings.oauth2GithubAllowedOrgs.includes(o))
        if (orgs.length === 0) {
          return yield* new Forbidden({
            message: "Unauthorized",
            detail: "You aren't a member of the authorized Github organizations!"
          })
        }
        if (settings.oauth2GithubAllowedTeams.length === 0) return
        for (const entry of settings.oauth2GithubAllowedTeams) {
          const slash = entry.indexOf("/")
          const org = entry.slice(0, slash)
          const team = entry.slice(slash + 1)
          if (slash <= 0 || !orgs.includes(org)) continue
          const m = yield* api(
            token,
            `/orgs/${encodeURIComponent(org)}/teams/${encodeURIComponent(team)}/memberships/${
              encodeURIComponent(login)
            }`,
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
            : `${endpoints.web}/login/oauth/authorize?${
              new URLSearchParams({
                client_id: settings.oauth2GithubClientId,
                redirect_uri: callbackUrl,
                response_type: "code",
                scope: GITHUB_SCOPES,
                state
              }).toString()
            }`
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
        const primary = (Array.isArray(emails) ? emails : []).find((e) =>
          isRecord(e) && e.primary === true && e.verified === true
        )
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
        const cleared = [
          SignInCookies.state,
          SignInCookies.redirect,
          ...(state.startsWith(CONVERT_STATE_PREFIX) ? [SignInCookies.convert] : [])
        ]
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
      return yield* authorizeDevice(client)
    }).pipe(span("GithubSignIn.device"))

    return { callback, device } as const
  }),
  dependencies: [SignIn.Default]
}) {}
