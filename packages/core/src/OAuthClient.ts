/**
 * The one OAuth2 client Workbay speaks to outside providers with: GitHub sign-in
 * (externalauth/GithubSignIn.ts) and external auth (externalauth/OAuthClient.ts). It makes the code
 * exchange and the refresh (RFC 6749 sections 4.1.3 and 6), starts and completes the device flow
 * (RFC 8628 sections 3.1 and 3.4), and reads a provider's JSON with a token. Every call has a
 * time limit and a size limit; a provider that cannot be reached or answers nonsense fails with
 * `ProviderUnavailable` (502). Tokens go only to the provider and back: never into an error
 * message, a log or an audit entry.
 */
import { Effect } from "effect"
import { ProviderUnavailable } from "./Errors.js"

/** How long one call to a provider may take. */
export const PROVIDER_TIMEOUT_MS = 10_000
/** The largest provider answer read; past it the answer counts as unusable. */
const MAX_ANSWER_CHARS = 1024 * 1024

/** A provider's client registration and endpoints, as the calls below need them. */
export interface OAuthEndpoints {
  /** Names the provider in errors: `GitHub`, `the external auth provider "gitlab"`. */
  readonly label: string
  readonly clientId: string
  /** Secret: sent to the token endpoint only. */
  readonly clientSecret: string
  readonly tokenUrl: string
  /** The redirect URI the code was issued for. */
  readonly redirectUrl: string
  readonly deviceCodeUrl?: string | undefined
  readonly scopes: ReadonlyArray<string>
  /** Fields of the token answer kept beside the token (`extra`). */
  readonly extraTokenKeys?: ReadonlyArray<string> | undefined
}

export interface ProviderToken {
  readonly access_token: string
  readonly refresh_token: string
  readonly expiry: Date | null
  readonly extra: Readonly<Record<string, unknown>> | null
}

/** The codes of a started device flow (RFC 8628 section 3.2). */
export interface DeviceCodes {
  readonly device_code: string
  readonly user_code: string
  readonly verification_uri: string
  readonly expires_in: number
  readonly interval: number
}

/** The provider's refusal (RFC 6749 section 5.2): `error` and its description, never a token. */
export interface TokenRefusal {
  readonly error: string
  readonly description: string
}

export type TokenAnswer =
  | { readonly _tag: "Token"; readonly token: ProviderToken }
  | { readonly _tag: "Refused"; readonly refusal: TokenRefusal }

/** A provider's answer: its status, headers and body (JSON, or a form-encoded answer as an object). */
export interface ProviderAnswer {
  readonly status: number
  readonly headers: Headers
  readonly body: unknown
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v)
/** The body as an object; `{}` when it is not one. */
export const record = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {})
export const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "")
export const num = (
  v: unknown
): number => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN)

export const unavailable = (label: string, what: string, detail?: string) =>
  new ProviderUnavailable({ message: `Could not ${what} at ${label}.`, ...(detail !== undefined ? { detail } : {}) })

/** JSON, or a form-encoded answer (GitHub's token endpoint without `Accept`); `{}` when it is neither. */
const parseBody = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    if (!/^[^\s=&]+=/.test(text)) return {}
    return Object.fromEntries(new URLSearchParams(text))
  }
}

/** One call to a provider; redirects are not followed (a 3xx is an answer like any other). */
export const providerCall = (
  label: string,
  what: string,
  url: string,
  init: RequestInit
): Effect.Effect<ProviderAnswer, ProviderUnavailable> =>
  Effect.tryPromise({
    try: async (signal) => {
      const res = await fetch(url, {
        ...init,
        redirect: "manual",
        signal: AbortSignal.any([signal, AbortSignal.timeout(PROVIDER_TIMEOUT_MS)])
      })
      const text = await res.text()
      if (text.length > MAX_ANSWER_CHARS) throw new Error(`The answer is over ${MAX_ANSWER_CHARS} characters.`)
      return { status: res.status, headers: res.headers, body: parseBody(text) }
    },
    catch: (e) => unavailable(label, what, e instanceof Error ? e.message : String(e))
  })

/** A GET with the token as `Authorization: Bearer`. */
export const bearerGet = (label: string, what: string, url: string, accessToken: string, accept = "application/json") =>
  providerCall(label, what, url, { headers: { authorization: `Bearer ${accessToken}`, accept } })

/** A form body without the empty parameters. */
export const form = (params: Record<string, string>) => {
  const body = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== "") body.set(k, v)
  return body
}

/** The token of a token endpoint's answer, or its refusal (an answer without a token is one too). */
const tokenAnswer = (ep: OAuthEndpoints, answer: ProviderAnswer, now: Date, keepRefresh = ""): TokenAnswer => {
  const b = record(answer.body)
  const access = str(b.access_token)
  const error = str(b.error)
  if (answer.status !== 200 || access === "" || error !== "") {
    return {
      _tag: "Refused",
      refusal: {
        error: error || `status ${answer.status}`,
        description: str(b.error_description) ||
          (error === "" && access === "" ? "The provider answered no access token." : "")
      }
    }
  }
  const expiresIn = num(b.expires_in)
  const keys = ep.extraTokenKeys ?? []
  return {
    _tag: "Token",
    token: {
      access_token: access,
      refresh_token: str(b.refresh_token) || keepRefresh,
      expiry: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(now.getTime() + expiresIn * 1000) : null,
      extra: keys.length === 0 ? null : Object.fromEntries(keys.map((k) => [k, b[k] ?? null]))
    }
  }
}

/** A token request with the client's credentials in the body (RFC 6749 section 2.3.1). */
const tokenRequest = (ep: OAuthEndpoints, what: string, params: Record<string, string>, now: Date, keepRefresh = "") =>
  Effect.map(
    providerCall(ep.label, what, ep.tokenUrl, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: form({ client_id: ep.clientId, client_secret: ep.clientSecret, ...params })
    }),
    (a) => tokenAnswer(ep, a, now, keepRefresh)
  )

/** Exchanges an authorization code (with its PKCE verifier, when one was sent). */
export const exchangeCode = (ep: OAuthEndpoints, code: string, verifier: string, now: Date) =>
  tokenRequest(ep, "exchange the code", {
    grant_type: "authorization_code",
    code,
    redirect_uri: ep.redirectUrl,
    code_verifier: verifier
  }, now)

/** Uses the refresh token; the old one is kept when the provider sends no new one. */
export const refreshToken = (ep: OAuthEndpoints, refresh: string, now: Date) =>
  tokenRequest(ep, "refresh the token", { grant_type: "refresh_token", refresh_token: refresh }, now, refresh)

/** Exchanges a device code: the token, or the provider's refusal (`authorization_pending`, `slow_down`, ...). */
export const exchangeDeviceCode = (ep: OAuthEndpoints, deviceCode: string, now: Date) =>
  tokenRequest(ep, "exchange the device code", {
    grant_type: "urn:ietf:params:oauth:grant-type:device_code",
    device_code: deviceCode
  }, now)

/** Starts the device flow: the codes the user enters at the provider (RFC 8628's defaults when left out). */
export const authorizeDevice = (ep: OAuthEndpoints): Effect.Effect<DeviceCodes, ProviderUnavailable> =>
  Effect.flatMap(
    providerCall(ep.label, "start the device flow", ep.deviceCodeUrl ?? "", {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: form({ client_id: ep.clientId, scope: ep.scopes.join(" ") })
    }),
    (a) => {
      const b = record(a.body)
      if (a.status !== 200 || str(b.device_code) === "" || str(b.user_code) === "" || str(b.verification_uri) === "") {
        return Effect.fail(unavailable(
          ep.label,
          "start the device flow",
          str(b.error_description) || str(b.error) || `The device code URL answered ${a.status} without the codes.`
        ))
      }
      const expires = num(b.expires_in)
      const interval = num(b.interval)
      return Effect.succeed({
        device_code: str(b.device_code),
        user_code: str(b.user_code),
        verification_uri: str(b.verification_uri),
        expires_in: Number.isFinite(expires) && expires > 0 ? Math.floor(expires) : 900,
        interval: Number.isFinite(interval) && interval > 0 ? Math.floor(interval) : 5
      })
    }
  )
