/**
 * Pure rules of the OAuth2 provider: which redirect URIs may be registered (RFC 7591, RFC 8252,
 * RFC 9700), how a requested one matches a registered one, PKCE (RFC 7636), and client
 * registration metadata validation.
 */
import { createHash } from "node:crypto"
import { GrantTypes, ResponseTypes, type TokenEndpointAuthMethod, TokenEndpointAuthMethods } from "./OAuth2App.js"
import type { OAuth2ClientRegistrationRequest } from "./Requests.js"
import { parseScope, unknownScopes } from "./Scopes.js"

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"])

const parse = (uri: string): URL | undefined => {
  try {
    return new URL(uri)
  } catch {
    return undefined
  }
}

/** Whether `url` is http on a loopback address (a native app's redirect, RFC 8252 7.3). */
const isLoopback = (url: URL) => url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)

/** C0 controls, space, DEL and C1 controls: a URL parser drops or encodes them, so the URI would change. */
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f]/

/**
 * Why a redirect URI cannot be registered, or undefined when it can: an absolute https URL, or
 * http on a loopback address; no fragment (RFC 6749 3.1.2), no user info, no control characters
 * or spaces, and its scheme and host written as the WHATWG URL parser writes them (lowercase, no
 * default port, IP addresses in their dotted form: `0x7f.1`, `2130706433` and `127.1` are refused).
 * Registered URIs are compared as given, so the one stored is the one redirected to.
 */
export const redirectUriProblem = (uri: string): string | undefined => {
  if (CONTROL_OR_SPACE.test(uri)) return "must not contain control characters or spaces"
  const url = parse(uri)
  if (url === undefined) return "must be an absolute URL"
  if (uri.includes("#")) return "must not contain a fragment"
  if (url.username !== "" || url.password !== "") return "must not contain user information"
  if (url.protocol === "https:") {
    if (url.hostname === "") return "must name a host"
  } else if (!isLoopback(url)) {
    return "must use https, or http on a loopback address (127.0.0.1, [::1] or localhost)"
  }
  const canonical = `${url.protocol}//${url.host}`
  const rest = uri.slice(canonical.length)
  if (!uri.startsWith(canonical) || (rest !== "" && rest[0] !== "/" && rest[0] !== "?")) {
    return `must write its scheme and host as a URL parser writes them (lowercase, no default port, IP addresses in dotted form), here "${canonical}"`
  }
  return undefined
}

/** `uri` in double quotes with its control characters escaped (`\u000d`): never echoed raw. */
const quoted = (uri: string) =>
  `"${uri.replace(/[\u0000-\u001f\u007f-\u009f"\\]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`

/**
 * Whether a requested redirect URI is one of the registered ones: the same string, or for a
 * loopback http URI the same but for the port (RFC 8252 7.3). No prefix or suffix matching.
 */
export const redirectUriMatches = (registered: ReadonlyArray<string>, requested: string): boolean => {
  if (registered.includes(requested)) return true
  const asked = parse(requested)
  // Only a URI that could itself be registered may differ by its port (never `http://0x7f.1:9/`).
  if (asked === undefined || !isLoopback(asked) || redirectUriProblem(requested) !== undefined) return false
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`
  return registered.some((r) => {
    const reg = parse(r)
    return reg !== undefined && isLoopback(reg) && withoutPort(reg) === withoutPort(asked) && asked.username === "" &&
      asked.password === ""
  })
}

/** The S256 challenge of a PKCE verifier (RFC 7636 4.2). */
export const s256 = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url")

/** RFC 7636 4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
export const isValidVerifier = (verifier: string) => /^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)

/** Registration metadata with the defaults of RFC 7591 2 applied. */
export interface ValidRegistration {
  readonly redirect_uris: ReadonlyArray<string>
  readonly client_name: string
  readonly grant_types: ReadonlyArray<string>
  readonly response_types: ReadonlyArray<string>
  readonly token_endpoint_auth_method: TokenEndpointAuthMethod
}

/** An RFC 7591 3.2.2 error code and description. */
export interface RegistrationProblem {
  readonly error: "invalid_redirect_uri" | "invalid_client_metadata" | "invalid_software_statement"
  readonly description: string
  /** The metadata field at fault, when there is one. */
  readonly field?: string | undefined
}

const httpUrlFields = ["client_uri", "logo_uri", "tos_uri", "policy_uri", "jwks_uri"] as const

/** Validates registration metadata (RFC 7591 2 and 3.2.2); the defaults applied, or the problem. */
export const validateRegistration = (
  req: typeof OAuth2ClientRegistrationRequest.Type
): { readonly ok: ValidRegistration } | { readonly problem: RegistrationProblem } => {
  const redirectUris = req.redirect_uris ?? []
  if (redirectUris.length === 0) {
    return {
      problem: {
        error: "invalid_redirect_uri",
        field: "redirect_uris",
        description: "redirect_uris is required and must list at least one URI."
      }
    }
  }
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri)
    if (problem !== undefined) {
      return {
        problem: {
          error: "invalid_redirect_uri",
          field: "redirect_uris",
          description: `Redirect URI ${quoted(uri)} ${problem}.`
        }
      }
    }
  }
  if (req.software_statement !== undefined && req.software_statement !== "") {
    return {
      problem: {
        error: "invalid_software_statement",
        field: "software_statement",
        description: "Software statements are not supported."
      }
    }
  }
  if (req.jwks !== undefined && req.jwks !== null && req.jwks_uri !== undefined && req.jwks_uri !== "") {
    return { problem: { error: "invalid_client_metadata", description: "jwks and jwks_uri must not both be given." } }
  }
  for (const field of httpUrlFields) {
    const value = req[field]
    if (value === undefined || value === "") continue
    const url = parse(value)
    if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:")) {
      return {
        problem: { error: "invalid_client_metadata", field, description: `${field} must be an http or https URL.` }
      }
    }
  }
  // The registered scope is the ceiling of every grant to the client: only names it can be granted.
  const unknown = unknownScopes(parseScope(req.scope))
  if (unknown.length > 0) {
    return {
      problem: {
        error: "invalid_client_metadata",
        field: "scope",
        description: `${unknown.map(quoted).join(", ")} ${
          unknown.length === 1 ? "is not a known scope" : "are not known scopes"
        } (see scopes_supported in /.well-known/oauth-authorization-server).`
      }
    }
  }
  const method = req.token_endpoint_auth_method === undefined || req.token_endpoint_auth_method === ""
    ? "client_secret_basic"
    : req.token_endpoint_auth_method
  if (!(TokenEndpointAuthMethods as ReadonlyArray<string>).includes(method)) {
    return {
      problem: {
        error: "invalid_client_metadata",
        field: "token_endpoint_auth_method",
        description: `token_endpoint_auth_method must be one of ${TokenEndpointAuthMethods.join(", ")}.`
      }
    }
  }
  const grantTypes = req.grant_types !== undefined && req.grant_types.length > 0
    ? [...new Set(req.grant_types)]
    : ["authorization_code", "refresh_token"]
  const responseTypes = req.response_types !== undefined && req.response_types.length > 0
    ? [...new Set(req.response_types)]
    : ["code"]
  const unknownGrant = grantTypes.find((g) => !(GrantTypes as ReadonlyArray<string>).includes(g))
  if (unknownGrant !== undefined) {
    return {
      problem: {
        error: "invalid_client_metadata",
        field: "grant_types",
        description: `Unknown grant type "${unknownGrant}".`
      }
    }
  }
  const unknownResponse = responseTypes.find((r) => !(ResponseTypes as ReadonlyArray<string>).includes(r))
  if (unknownResponse !== undefined) {
    return {
      problem: {
        error: "invalid_client_metadata",
        field: "response_types",
        description: `Unknown response type "${unknownResponse}".`
      }
    }
  }
  // Only the code flow is served: its grant and response type must be there, and agree (RFC 7591 2.1).
  if (!grantTypes.includes("authorization_code")) {
    return {
      problem: {
        error: "invalid_client_metadata",
        field: "grant_types",
        description: "grant_types must include authorization_code."
      }
    }
  }
  if (!responseTypes.includes("code")) {
    return {
      problem: {
        error: "invalid_client_metadata",
        field: "response_types",
        description: "response_types must include code with the authorization_code grant."
      }
    }
  }
  const unsupportedGrant = grantTypes.find((g) => g !== "authorization_code" && g !== "refresh_token")
  if (unsupportedGrant !== undefined) {
    return {
      problem: {
        error: "invalid_client_metadata",
        field: "grant_types",
        description: `Grant type "${unsupportedGrant}" is not supported by this server.`
      }
    }
  }
  if (responseTypes.includes("token")) {
    return {
      problem: {
        error: "invalid_client_metadata",
        field: "response_types",
        description: "Response type \"token\" (implicit grant) is not supported by this server."
      }
    }
  }
  return {
    ok: {
      redirect_uris: redirectUris,
      client_name: req.client_name !== undefined && req.client_name !== ""
        ? req.client_name
        : clientNameFrom(redirectUris[0]!),
      grant_types: grantTypes,
      response_types: responseTypes,
      token_endpoint_auth_method: method as TokenEndpointAuthMethod
    }
  }
}

const clientNameFrom = (redirectUri: string) => {
  const host = parse(redirectUri)?.host
  return host ? `Client (${host})` : "Dynamically Registered Client"
}
