/**
 * External auth providers: the deployment's `external_auth` setting (the described system's
 * `ExternalAuthConfig` entries), and the providers made from it with each type's defaults filled
 * in (GitHub and GitLab; any other type is a generic OAuth2 provider whose URLs must be given).
 * See docs/external-auth.md.
 */
import { Either } from "effect"
import type { OAuthEndpoints } from "../OAuthClient.js"
import type { ExternalAuthConfig } from "../Settings.js"

export type { ExternalAuthConfig } from "../Settings.js"

/** A provider ready for use: every field resolved, the regex compiled, the callback known. */
export interface ResolvedProvider extends OAuthEndpoints {
  readonly id: string
  readonly type: string
  readonly clientId: string
  readonly clientSecret: string
  readonly authUrl: string
  readonly tokenUrl: string
  readonly validateUrl: string
  readonly revokeUrl: string
  readonly appInstallUrl: string
  readonly appInstallationsUrl: string
  readonly noRefresh: boolean
  readonly scopes: ReadonlyArray<string>
  readonly extraTokenKeys: ReadonlyArray<string>
  /** The device code URL when the provider signs in through the device flow. */
  readonly deviceCodeUrl: string | undefined
  readonly regex: RegExp | undefined
  readonly displayName: string
  readonly displayIcon: string
  readonly codeChallengeMethods: ReadonlyArray<string>
  /** Where the provider sends the browser back: `<access URL>/api/v2/external-auth/<id>/callback`. */
  readonly redirectUrl: string
}

/** Ids: letters and digits in groups joined by single hyphens, at most 32 characters (the described system's names). */
const ID_PATTERN = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/

const hostPattern = (host: string) => `^(https?://)?${host.replace(/\./g, "\\.")}(/.*)?$`

type Defaults = Omit<ExternalAuthConfig, "type" | "client_id">

const githubDefaults = (c: ExternalAuthConfig): Defaults => ({
  auth_url: "https://github.com/login/oauth/authorize",
  token_url: "https://github.com/login/oauth/access_token",
  validate_url: "https://api.github.com/user",
  display_name: "GitHub",
  display_icon: "/icon/github.svg",
  regex: "^(https?://)?github\\.com(/.*)?$",
  scopes: ["repo", "workflow"],
  device_code_url: "https://github.com/login/device/code",
  app_installations_url: "https://api.github.com/user/installations",
  ...(c.client_id !== "" ? { revoke_url: `https://api.github.com/applications/${c.client_id}/grant` } : {})
})

const gitlabDefaults = (c: ExternalAuthConfig): Defaults => {
  const cloud = { scheme: "https:", host: "gitlab.com" }
  let base = cloud
  if (c.auth_url !== undefined && c.auth_url !== "" && URL.canParse(c.auth_url)) {
    const u = new URL(c.auth_url)
    base = { scheme: u.protocol, host: u.host }
  }
  const origin = `${base.scheme}//${base.host}`
  return {
    auth_url: `${origin}/oauth/authorize`,
    token_url: `${origin}/oauth/token`,
    validate_url: `${origin}/oauth/token/info`,
    revoke_url: `${origin}/oauth/revoke`,
    display_name: "GitLab",
    display_icon: "/icon/gitlab.svg",
    regex: hostPattern(base.host),
    scopes: ["write_repository", "read_api"]
  }
}

const given = (s: string | undefined): s is string => s !== undefined && s !== ""

const pick = (own: string | undefined, fallback: string | undefined, last = "") =>
  given(own) ? own : given(fallback) ? fallback : last

const isHttpUrl = (s: string) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol)

/**
 * The providers of `configs`, defaults applied, or the problems of the setting (one sentence
 * each). `accessUrl` makes each provider's callback address.
 */
export const resolveProviders = (
  configs: ReadonlyArray<ExternalAuthConfig>,
  accessUrl: string
): Either.Either<ReadonlyArray<ResolvedProvider>, ReadonlyArray<string>> => {
  const problems: Array<string> = []
  const out: Array<ResolvedProvider> = []
  const ids = new Set<string>()
  const base = accessUrl.replace(/\/+$/, "")
  configs.forEach((c, i) => {
    const type = (c.type ?? "").trim()
    const at = `external auth provider ${i}`
    if (type === "") {
      return void problems.push(`The ${at} has no type (github, gitlab, or a name for a generic OAuth2 provider).`)
    }
    const kind = type.toLowerCase()
    const d: Defaults = kind === "github" ? githubDefaults(c) : kind === "gitlab" ? gitlabDefaults(c) : {}
    const id = pick(c.id, undefined, type)
    if (!ID_PATTERN.test(id) || id.length > 32) {
      return void problems.push(
        `The ${at} has the id "${id}"; ids are letters and digits joined by single hyphens, at most 32 characters.`
      )
    }
    if (ids.has(id)) {
      return void problems.push(`Two external auth providers have the id "${id}"; give each a unique id.`)
    }
    ids.add(id)
    if (!given(c.client_id)) return void problems.push(`The external auth provider "${id}" needs a client_id.`)
    const authUrl = pick(c.auth_url, d.auth_url)
    const tokenUrl = pick(c.token_url, d.token_url)
    const deviceFlow = c.device_flow === true
    const deviceCodeUrl = pick(c.device_code_url, d.device_code_url)
    if (!isHttpUrl(tokenUrl)) {
      return void problems.push(`The external auth provider "${id}" needs a token_url (an http or https URL).`)
    }
    if (!deviceFlow && !isHttpUrl(authUrl)) {
      return void problems.push(`The external auth provider "${id}" needs an auth_url (an http or https URL).`)
    }
    if (deviceFlow && !isHttpUrl(deviceCodeUrl)) {
      return void problems.push(`The external auth provider "${id}" uses the device flow and needs a device_code_url.`)
    }
    for (
      const [field, value] of [
        ["validate_url", pick(c.validate_url, d.validate_url)],
        ["revoke_url", pick(c.revoke_url, d.revoke_url)],
        ["app_installations_url", pick(c.app_installations_url, d.app_installations_url)]
      ] as const
    ) {
      if (value !== "" && !isHttpUrl(value)) {
        return void problems.push(`The ${field} of external auth provider "${id}" is not an http or https URL.`)
      }
    }
    const regexText = pick(c.regex, d.regex)
    let regex: RegExp | undefined
    if (regexText !== "") {
      try {
        regex = new RegExp(regexText)
      } catch (e) {
        return void problems.push(
          `The regex of external auth provider "${id}" does not compile: ${(e as Error).message}`
        )
      }
    }
    out.push({
      id,
      label: `the external auth provider "${id}"`,
      type,
      clientId: c.client_id,
      clientSecret: c.client_secret ?? "",
      authUrl,
      tokenUrl,
      validateUrl: pick(c.validate_url, d.validate_url),
      revokeUrl: pick(c.revoke_url, d.revoke_url),
      appInstallUrl: pick(c.app_install_url, d.app_install_url),
      appInstallationsUrl: pick(c.app_installations_url, d.app_installations_url),
      noRefresh: c.no_refresh === true,
      scopes: c.scopes !== undefined && c.scopes.length > 0 ? c.scopes : d.scopes ?? [],
      extraTokenKeys: c.extra_token_keys ?? [],
      deviceCodeUrl: deviceFlow ? deviceCodeUrl : undefined,
      regex,
      displayName: pick(c.display_name, d.display_name, type),
      displayIcon: pick(c.display_icon, d.display_icon, "/emojis/1f511.png"),
      codeChallengeMethods: c.code_challenge_methods_supported ?? ["S256"],
      redirectUrl: `${base}/api/v2/external-auth/${id}/callback`
    })
  })
  return problems.length > 0 ? Either.left(problems) : Either.right(out)
}

/** An entry as `GET /deployment/config` shows it: everything but the client secret. */
export const publicConfig = (c: ExternalAuthConfig): Record<string, unknown> => {
  const { client_secret: _secret, ...rest } = c
  return { ...rest }
}

const FIELDS: Readonly<
  Record<string, { readonly key: keyof ExternalAuthConfig; readonly kind: "string" | "bool" | "list" }>
> = {
  TYPE: { key: "type", kind: "string" },
  ID: { key: "id", kind: "string" },
  CLIENT_ID: { key: "client_id", kind: "string" },
  CLIENT_SECRET: { key: "client_secret", kind: "string" },
  AUTH_URL: { key: "auth_url", kind: "string" },
  TOKEN_URL: { key: "token_url", kind: "string" },
  VALIDATE_URL: { key: "validate_url", kind: "string" },
  REVOKE_URL: { key: "revoke_url", kind: "string" },
  APP_INSTALL_URL: { key: "app_install_url", kind: "string" },
  APP_INSTALLATIONS_URL: { key: "app_installations_url", kind: "string" },
  NO_REFRESH: { key: "no_refresh", kind: "bool" },
  SCOPES: { key: "scopes", kind: "list" },
  EXTRA_TOKEN_KEYS: { key: "extra_token_keys", kind: "list" },
  DEVICE_FLOW: { key: "device_flow", kind: "bool" },
  DEVICE_CODE_URL: { key: "device_code_url", kind: "string" },
  REGEX: { key: "regex", kind: "string" },
  DISPLAY_NAME: { key: "display_name", kind: "string" },
  DISPLAY_ICON: { key: "display_icon", kind: "string" },
  CODE_CHALLENGE_METHODS_SUPPORTED: { key: "code_challenge_methods_supported", kind: "list" }
}

/**
 * The providers given as environment variables `<prefix>_<n>_<FIELD>` (the described system's
 * `CODER_EXTERNAL_AUTH_0_ID` form: `WORKBAY_EXTERNAL_AUTH_0_TYPE`, `..._CLIENT_ID`, ...), in the
 * order of `n`; lists are comma-separated, switches `true`/`false`. Throws on an unknown field
 * or a bad switch, naming the variable.
 */
export const externalAuthFromEnv = (
  env: Readonly<Record<string, string | undefined>>,
  prefix = "WORKBAY_EXTERNAL_AUTH"
): ReadonlyArray<ExternalAuthConfig> => {
  const entries = new Map<number, Record<string, unknown>>()
  const pattern = new RegExp(`^${prefix}_(\\d+)_([A-Z_]+)$`)
  for (const [name, value] of Object.entries(env)) {
    const m = pattern.exec(name)
    if (m === null || value === undefined) continue
    const field = FIELDS[m[2]!]
    if (field === undefined) {
      throw new Error(`Unknown external auth variable ${name} (fields: ${Object.keys(FIELDS).join(", ")}).`)
    }
    const n = Number(m[1])
    const entry = entries.get(n) ?? {}
    entries.set(n, entry)
    const text = value.trim()
    if (field.kind === "bool") {
      if (!/^(true|false|1|0)$/i.test(text)) throw new Error(`Invalid value "${text}" for ${name} (use true or false).`)
      entry[field.key] = /^(true|1)$/i.test(text)
    } else if (field.kind === "list") entry[field.key] = text.split(",").map((s) => s.trim()).filter((s) => s !== "")
    else entry[field.key] = text
  }
  return [...entries.entries()].sort(([a], [b]) => a - b).map(([, e]) =>
    ({ client_id: "", type: "", ...e }) as ExternalAuthConfig
  )
}
