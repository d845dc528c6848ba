/**
 * The calls to an external auth provider beyond the shared OAuth2 client (../OAuthClient.ts, which
 * makes the code and device exchanges and the refresh): token validation, app installations and
 * revocation (RFC 7009; GitHub's grant deletion for type github). Tokens go only to the provider
 * and back: never into an error message, a log or an audit entry.
 */
import { Effect } from "effect"
import type { ProviderUnavailable } from "../Errors.js"
import { bearerGet, form, num, providerCall, record, str, unavailable } from "../OAuthClient.js"
import type { ExternalAuthAppInstallation, ExternalAuthUser } from "./ExternalAuthLink.js"
import type { ResolvedProvider } from "./Provider.js"

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
    bearerGet(provider.label, "validate the token", provider.validateUrl, accessToken),
    (a): Effect.Effect<{ readonly valid: boolean; readonly user: ExternalAuthUser | null }, ProviderUnavailable> => {
      if (a.status === 200) {
        return Effect.succeed({ valid: true, user: isGithub(provider) ? githubUser(record(a.body)) : null })
      }
      if (a.status === 401) return Effect.succeed({ valid: false, user: null })
      if (a.status === 429) return Effect.succeed({ valid: true, user: null })
      if (a.status === 403) {
        const limited = a.headers.get("x-ratelimit-remaining") === "0" || a.headers.has("retry-after")
        return Effect.succeed({ valid: limited, user: null })
      }
      return Effect.fail(unavailable(provider.label, "validate the token", `The validate URL answered ${a.status}.`))
    }
  )
}

/** The app installations the token sees (GitHub Apps); installable when the provider lists them. */
export const appInstallations = (
  provider: ResolvedProvider,
  accessToken: string
): Effect.Effect<
  { readonly installable: boolean; readonly installations: ReadonlyArray<ExternalAuthAppInstallation> },
  ProviderUnavailable
> => {
  if (provider.appInstallationsUrl === "") return Effect.succeed({ installable: false, installations: [] })
  return Effect.map(
    bearerGet(provider.label, "list app installations", provider.appInstallationsUrl, accessToken),
    (a) => {
      // A misconfigured URL is not the caller's problem: the provider simply shows none.
      if (a.status !== 200) return { installable: false, installations: [] }
      const listed = record(a.body).installations
      const list = isGithub(provider) && Array.isArray(listed) ? listed.map(record) : []
      const installations = list.flatMap((i) => {
        const account = githubUser(record(i.account))
        return account === null
          ? []
          : [{ id: num(i.id) || 0, account, configure_url: str(i.html_url) } as ExternalAuthAppInstallation]
      })
      return { installable: true, installations }
    }
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
  return providerCall(provider.label, "revoke the token", provider.revokeUrl, request).pipe(
    Effect.map((a) =>
      a.status === ok ? { revoked: true, error: "" } : { revoked: false, error: `The revoke URL answered ${a.status}.` }
    ),
    Effect.catchAll((e) => Effect.succeed({ revoked: false, error: e.detail ?? e.message }))
  )
}
