/**
 * The calls Workbay makes to an external auth provider: the code exchange and the refresh
 * (RFC 6749), the device flow (RFC 8628), token validation, app installations and revocation
 * (RFC 7009; GitHub's grant deletion for type github). Tokens go only to the provider and
 * back: never into an error message, a log or an audit entry.
 */
import { Effect } from "effect"
import type { ExternalAuthAppInstallation, ExternalAuthUser } from "./ExternalAuthLink.js"
import { ProviderUnavailable } from "./ExternalAuthLink.js"
import type { ResolvedProvider } from "./Provider.js"

/** How long one call to a provider may take. */
export const PROVIDER_TIMEOUT_MS = 10_000
/** The largest provider answer read; past it the answer counts as unusable. */
const MAX_ANSWER_CHARS = 1024 * 1024

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

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: Record<string, unknown>
}

const unavailable = (provider: ResolvedProvider, what: string, detail: string) =>
  new ProviderUnavailable({ message: `The external auth provider "${provider.id}" could not ${what}.`, detail })

/** JSON, or a form-encoded answer (GitHub's default), as an object; `{}` when it is neither. */
const parseBody = (text: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(text) as unknown
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : {}
  } catch {
    if (!/^[^\s=&]+=/.test(text)) return {}
    return Object.fromEntries(new URLSearchParams(text))
  }
}

const call = (provider: ResolvedProvider, what: string, url: string, init: RequestInit): Effect.Effect<Answer, ProviderUnavailable> =>
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
    catch: (e) => unavailable(provider, what, e instanceof Error ? e.message : String(e))
  })

const form = (params: Record<string, string>) => {
  const body = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== "") body.set(k, v)
  return body
}

const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "")
const num = (v: unknown): number => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN)

/** The token of a token endpoint's answer, or its refusal. */
const tokenAnswer = (provider: ResolvedProvider, answer: Answer, now: Date, keepRefresh = ""): TokenAnswer => {
  const b = answer.body
  const access = str(b.access_token)
  if (answer.status !== 200 || access === "" || str(b.error) !== "") {
    return {
      _tag: "Refused",
      refusal: {
        error: str(b.error) || `status ${answer.status}`,
        description: str(b.error_description) || (access === "" ? "The provider answered no access token." : "")
      }
    }
  }
  const expiresIn = num(b.expires_in)
  const extra = provider.extraTokenKeys.length === 0
    ? null
    : Object.fromEntries(provider.extraTokenKeys.map((k) => [k, b[k] ?? null]))
  return {
    _tag: "Token",
    token: {
      access_token: access,
      refresh_token: str(b.refresh_token) || keepRefresh,
      expiry: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(now.getTime() + expiresIn * 1000) : null,
      extra
    }
  }
}

const tokenRequest = (provider: ResolvedProvider, what: string, params: Record<string, string>) =>
  call(provider, what, provider.tokenUrl, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: form({ client_id: provider.clientId, client_secret: provider.clientSecret, ...params })
  })

/** Exchanges an authorization code (with its PKCE verifier, when one was sent). */
export const exchangeCode = (provider: ResolvedProvider, code: string, verifier: string, now: Date) =>
  Effect.map(
    tokenRequest(provider, "exchange the code", {
      grant_type: "authorization_code",
      code,
      redirect_uri: provider.redirectUrl,
      code_verifier: verifier
    }),
    (a) => tokenAnswer(provider, a, now)
  )

/** Uses the refresh token; the old one is kept when the provider sends no new one. */
export const refreshToken = (provider: ResolvedProvider, refresh: string, now: Date) =>
  Effect.map(
    tokenRequest(provider, "refresh the token", { grant_type: "refresh_token", refresh_token: refresh }),
    (a) => tokenAnswer(provider, a, now, refresh)
  )

const githubUser = (u: Record<string, unknown>): ExternalAuthUser | null =>
  typeof u.login === "string"
    ? ({
      id: Number.isFinite(num(u.id)) ? num(u.id) : 0,
      login: str(u.login),
      avatar_url: str(u.avatar_url),
      profile_url: str(u.html_url),
      name: str(u.name)
    } as ExternalAuthUser)
    : null

const isGithub = (p: ResolvedProvider) => p.type.toLowerCase() === "github"

/**
 * Whether the provider takes the token (its validate URL answers 200; no validate URL: taken),
 * and for GitHub the account. A rate-limited answer (429, or 403 with rate-limit headers)
 * counts as valid, as in the described system.
 */
export const validateToken = (
  provider: ResolvedProvider,
  accessToken: string
): Effect.Effect<{ readonly valid: boolean; readonly user: ExternalAuthUser | null }, ProviderUnavailable> => {
  if (provider.validateUrl === "") return Effect.succeed({ valid: true, user: null })
  return Effect.flatMap(
    call(provider, "validate the token", provider.validateUrl, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" }
    }),
    (a): Effect.Effect<{ readonly valid: boolean; readonly user: ExternalAuthUser | null }, ProviderUnavailable> => {
      if (a.status === 200) return Effect.succeed({ valid: true, user: isGithub(provider) ? githubUser(a.body) : null })
      if (a.status === 401) return Effect.succeed({ valid: false, user: null })
      if (a.status === 429) return Effect.succeed({ valid: true, user: null })
      if (a.status === 403) {
        const limited = a.headers.get("x-ratelimit-remaining") === "0" || a.headers.has("retry-after")
        return Effect.succeed({ valid: limited, user: null })
      }
      return Effect.fail(unavailable(provider, "validate the token", `The validate URL answered ${a.status}.`))
    }
  )
}

/** The app installations the token sees (GitHub Apps); installable when the provider lists them. */
export const appInstallations = (
  provider: ResolvedProvider,
  accessToken: string
): Effect.Effect<{ readonly installable: boolean; readonly installations: ReadonlyArray<ExternalAuthAppInstallation> }, ProviderUnavailable> => {
  if (provider.appInstallationsUrl === "") return Effect.succeed({ installable: false, installations: [] })
  return Effect.map(
    call(provider, "list app installations", provider.appInstallationsUrl, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" }
    }),
    (a) => {
      // A misconfigured URL is not the caller's problem: the provider simply shows none.
      if (a.status !== 200) return { installable: false, installations: [] }
      const list = isGithub(provider) && Array.isArray(a.body.installations) ? a.body.installations as Array<Record<string, unknown>> : []
      const installations = list.flatMap((i) => {
        const account = typeof i.account === "object" && i.account !== null ? githubUser(i.account as Record<string, unknown>) : null
        return account === null ? [] : [{ id: num(i.id) || 0, account, configure_url: str(i.html_url) } as ExternalAuthAppInstallation]
      })
      return { installable: true, installations }
    }
  )
}

/** Starts the device flow: the codes the user enters at the provider. */
export const authorizeDevice = (provider: ResolvedProvider): Effect.Effect<DeviceCodes, ProviderUnavailable> => {
  const url = new URL(provider.deviceCodeUrl ?? "")
  url.searchParams.set("client_id", provider.clientId)
  if (provider.scopes.length > 0) url.searchParams.set("scope", provider.scopes.join(" "))
  return Effect.flatMap(
    call(provider, "start the device flow", url.toString(), { method: "POST", headers: { accept: "application/json" } }),
    (a) => {
      const b = a.body
      if (a.status !== 200 || str(b.device_code) === "") {
        return Effect.fail(unavailable(provider, "start the device flow", str(b.error_description) || str(b.error) || `The device code URL answered ${a.status}.`))
      }
      return Effect.succeed({
        device_code: str(b.device_code),
        user_code: str(b.user_code),
        verification_uri: str(b.verification_uri),
        expires_in: num(b.expires_in) || 0,
        interval: num(b.interval) || 0
      })
    }
  )
}

/** Exchanges a device code: the token, or the provider's refusal (`authorization_pending`, ...). */
export const exchangeDeviceCode = (provider: ResolvedProvider, deviceCode: string, now: Date) => {
  const url = new URL(provider.tokenUrl)
  url.searchParams.set("client_id", provider.clientId)
  url.searchParams.set("device_code", deviceCode)
  url.searchParams.set("grant_type", "urn:ietf:params:oauth:grant-type:device_code")
  return Effect.map(
    call(provider, "exchange the device code", url.toString(), { method: "POST", headers: { accept: "application/json" } }),
    (a) => tokenAnswer(provider, a, now)
  )
}

/** Revokes the link's token at the provider; false when the provider has no revoke URL. */
export const revokeToken = (
  provider: ResolvedProvider,
  accessToken: string,
  refresh: string
): Effect.Effect<{ readonly revoked: boolean; readonly error: string }> => {
  if (provider.revokeUrl === "") return Effect.succeed({ revoked: false, error: "" })
  const request: RequestInit = isGithub(provider)
    ? {
      method: "DELETE",
      headers: {
        accept: "application/vnd.github+json",
        "content-type": "application/json",
        authorization: `Basic ${Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString("base64")}`
      },
      body: JSON.stringify({ access_token: accessToken })
    }
    : {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form({
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        token: refresh !== "" ? refresh : accessToken,
        token_type_hint: refresh !== "" ? "refresh_token" : "access_token"
      })
    }
  const ok = isGithub(provider) ? 204 : 200
  return call(provider, "revoke the token", provider.revokeUrl, request).pipe(
    Effect.map((a) => a.status === ok ? { revoked: true, error: "" } : { revoked: false, error: `The revoke URL answered ${a.status}.` }),
    Effect.catchAll((e) => Effect.succeed({ revoked: false, error: e.detail ?? e.message }))
  )
}
