/**
 * The host names of subdomain apps (the described system's `appurl`): an app declared
 * `subdomain: true` is served on the deployment's wildcard app host (`wildcard_access_url`, e.g.
 * `*.apps.example.com`) with `*` replaced by `{app}--{agent}--{workspace}--{user}`, a port of an
 * agent by `{port}[s]--{agent}--{workspace}--{user}` (`s`: the app speaks https). One source for
 * the name the API answers (`subdomain_name`) and for reading a request's host back. See
 * docs/agents.md, "Subdomain apps".
 */
import { createHash } from "node:crypto"

/** A name of the host form: the described system's username rule (letters, digits, single inner hyphens). */
const NAME = "[a-z0-9]+(?:-[a-z0-9]+)*"
/** `{slug or port}[--{agent}]--{workspace}--{user}`. */
const APP_HOST = new RegExp(`^(${NAME})(?:--(${NAME}))?--(${NAME})--(${NAME})$`)
/** A port in the host form: four or five digits, `s` for https (the described system's `PortRegex`). */
const PORT = /^(\d{4,5})(s?)$/

/** The query parameter an application key is handed to an app host in (the described system's name). */
export const APP_KEY_PARAM = "coder_application_connect_api_key"

/** The cookie prefix of a subdomain app's session (the described system's `SubdomainAppSessionTokenCookie`). */
export const SUBDOMAIN_APP_COOKIE_PREFIX = "coder_subdomain_app_session_token"

/**
 * The cookie name of subdomain app sessions of a deployment: the prefix, `_`, and 16 bytes of the
 * SHA-256 of the wildcard app host in hex (as the described system's, so that the cookies of two
 * wildcard hosts, one under the other, never mix).
 */
export const subdomainAppCookie = (wildcard: string): string =>
  `${SUBDOMAIN_APP_COOKIE_PREFIX}_${createHash("sha256").update(wildcard).digest("hex").slice(0, 32)}`

/** The `subdomain_name` of an app: `{app}--{agent}--{workspace}--{user}`, the part `*` stands for. */
export const appSubdomainName = (slug: string, agent: string, workspace: string, owner: string): string =>
  `${slug}--${agent}--${workspace}--${owner}`.toLowerCase()

/** A subdomain app's host, read back. */
export interface ParsedAppHost {
  /** A prefix the caller put before `---` (kept, not used: it lets one app have several hosts). */
  readonly prefix: string
  /** The app's slug, or `{port}` / `{port}s` of the port form. */
  readonly slugOrPort: string
  /** The port of the port form, with its scheme. */
  readonly port?: { readonly number: number; readonly protocol: "http" | "https" } | undefined
  /** The agent's name: always given in the port form; absent for an app found by its slug alone. */
  readonly agent?: string | undefined
  readonly workspace: string
  readonly user: string
}

/**
 * Reads the label `*` stands for (`{prefix}---` optional). A port form without an agent, a port
 * over 65535 read as a slug that names no app, anything else that is not of the form: an error
 * text for the 400 answer.
 */
export const parseAppSubdomain = (label: string): ParsedAppHost | string => {
  const lower = label.toLowerCase()
  const cut = lower.lastIndexOf("---")
  const prefix = cut < 0 ? "" : lower.slice(0, cut + 3)
  const rest = cut < 0 ? lower : lower.slice(cut + 3)
  const m = APP_HOST.exec(rest)
  if (m === null) {
    return `Could not parse subdomain application URL "${label}": invalid application url format: "${rest}".`
  }
  const [, slugOrPort, agent, workspace, user] = m as unknown as [string, string, string | undefined, string, string]
  const port = PORT.exec(slugOrPort)
  const number = port === null ? NaN : Number(port[1])
  if (port !== null && number <= 65535) {
    if (agent === undefined) {
      return `Could not parse subdomain application URL "${label}": agent name is required for port-based URLs.`
    }
    return {
      prefix,
      slugOrPort,
      port: { number, protocol: port[2] === "s" ? "https" : "http" },
      agent,
      workspace,
      user
    }
  }
  return { prefix, slugOrPort, agent, workspace, user }
}

/** The host and port of a wildcard app host (`*.apps.example.com[:port]`, a scheme or path tolerated), lower-case. */
const wildcardParts = (wildcard: string) => {
  const w = wildcard.trim().toLowerCase().replace(/^https?:\/\//, "").replace(/\/.*$/, "")
  const colon = w.lastIndexOf(":")
  return colon > 0 && /^\d+$/.test(w.slice(colon + 1))
    ? { host: w.slice(0, colon), port: w.slice(colon + 1) }
    : { host: w, port: undefined }
}

/**
 * A reader of the hosts a wildcard app host covers: the part `*` stands for (one DNS label or a
 * part of one, any characters but a dot), or undefined for a host it does not cover. Compared without case; a port in the
 * wildcard must be the host's, a wildcard without one takes any port (as the described system's
 * `CompileHostnamePattern`).
 */
export const wildcardLabelReader = (wildcard: string): (host: string) => string | undefined => {
  const { host: pattern, port } = wildcardParts(wildcard)
  if (pattern === "" || !pattern.includes("*")) return () => undefined
  const [before, after] = [pattern.slice(0, pattern.indexOf("*")), pattern.slice(pattern.indexOf("*") + 1)]
  const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\*]/g, "\\$&")
  // Any characters but a dot stand for `*` (as the described system's): a label not of the app form answers 400.
  const re = new RegExp(`^${escape(before)}([^.:/\\s]+)${escape(after)}\\.?(?::(\\d{1,5}))?$`)
  return (host) => {
    const m = re.exec(host.trim().toLowerCase())
    if (m === null) return undefined
    if (port !== undefined && m[2] !== port) return undefined
    return m[1]
  }
}
