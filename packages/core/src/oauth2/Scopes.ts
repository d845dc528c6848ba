/**
 * OAuth2 scopes (RFC 6749 3.3): which names a client may ask for, what a token is granted, and
 * how a scope reads on the consent page. Pure: no I/O.
 *
 * The names are the API keys' scopes (docs/authorization.md, "Token scopes and allow-lists"):
 * the catalog offered for external keys (`Rbac.externalScopes`, `GET /auth/scopes`). A token is
 * granted the intersection of
 * - what the app may ask: its registered `scope` (RFC 7591), a ceiling; none registered: no ceiling;
 * - what the request asks (`scope`; none: the whole ceiling, or `all` without one);
 * - what the user leaves checked on the consent page;
 * - what the user holds: names granting nothing the user's roles grant anywhere are dropped.
 * The access token is an API key carrying the granted names as its scopes, so the one evaluator
 * (`Rbac.decide`) limits every request made with it, as it does any scoped key.
 */
import {
  type Action,
  actions,
  externalScopes,
  type ResourceKind,
  rolesAllow,
  type Subject,
  tokenWithin
} from "../Rbac.js"

/** The names a client may request: the external catalog. */
export const OAUTH2_SCOPES: ReadonlyArray<string> = externalScopes

const catalog = new Set(OAUTH2_SCOPES)

/** The scope every grant had before scopes were honoured, and the default without a ceiling. */
export const FULL_SCOPE = "all"

/** The names of a space-separated scope value (RFC 6749 3.3), each once, in order. */
export const parseScope = (value: string | undefined): ReadonlyArray<string> => [
  ...new Set((value ?? "").split(/[ \t\r\n]+/).filter((s) => s !== ""))
]

/** The wire form of a set of names: space-separated. */
export const formatScope = (names: ReadonlyArray<string>): string => names.join(" ")

/** The names not in the catalog (an unknown name, or an internal one). */
export const unknownScopes = (names: ReadonlyArray<string>): ReadonlyArray<string> =>
  names.filter((n) => !catalog.has(n))

/** Whether `name` grants nothing the names of `ceiling` do not (the keys' rule, `Rbac.tokenWithin`). */
export const scopeCovered = (name: string, ceiling: ReadonlyArray<string>): boolean =>
  tokenWithin({ scopes: [name], allowList: [] }, { scopes: ceiling, allowList: [] })

/** Why a request's scope is refused: RFC 6749 `invalid_scope`, with its description. */
export interface ScopeRefusal {
  readonly error: "invalid_scope"
  readonly description: string
}

const refusal = (description: string): ScopeRefusal => ({ error: "invalid_scope", description })

/**
 * The scope an authorization request may be granted, before the user's choice: the requested
 * names when each is known and within the app's ceiling (`registered`, the app's RFC 7591
 * `scope`; empty: none), the whole ceiling when the request names none, `all` when neither
 * does. Refused whole, never trimmed: an unknown name, one beyond the ceiling, or a ceiling of
 * which no name is known.
 */
export const negotiateScope = (
  requested: string | undefined,
  registered: string | undefined
): { readonly ok: ReadonlyArray<string> } | { readonly refused: ScopeRefusal } => {
  const asked = parseScope(requested)
  const unknown = unknownScopes(asked)
  if (unknown.length > 0) {
    return {
      refused: refusal(
        `${unknown.map((n) => JSON.stringify(n)).join(", ")} ${
          unknown.length === 1 ? "is not a known scope" : "are not known scopes"
        } (see scopes_supported in /.well-known/oauth-authorization-server).`
      )
    }
  }
  const declared = parseScope(registered)
  const ceiling = declared.filter((n) => catalog.has(n))
  if (declared.length > 0 && ceiling.length === 0) {
    return { refused: refusal("None of the scopes this client registered is known here: it must register again.") }
  }
  if (asked.length === 0) return { ok: declared.length > 0 ? ceiling : [FULL_SCOPE] }
  if (declared.length > 0) {
    const beyond = asked.filter((n) => !scopeCovered(n, ceiling))
    if (beyond.length > 0) {
      return {
        refused: refusal(
          `${beyond.map((n) => JSON.stringify(n)).join(", ")} ${
            beyond.length === 1 ? "is" : "are"
          } not within the scope this client registered (${formatScope(ceiling)}).`
        )
      }
    }
  }
  return { ok: asked }
}

/** What the user chose on the consent page: the offered names they left checked, in the offered order. */
export const chosenScope = (offered: ReadonlyArray<string>, checked: ReadonlyArray<string>): ReadonlyArray<string> =>
  offered.filter((n) => checked.includes(n))

const splitName = (name: string): readonly [string, string] | undefined => {
  const i = name.indexOf(":")
  return i < 0 ? undefined : [name.slice(0, i), name.slice(i + 1)]
}

/**
 * Whether `subject`'s roles grant anything `name` names, somewhere: site-wide, in an
 * organization they belong to, or on what they own. `all` is always held (it stands for the
 * user's own rights). Kinds whose objects carry their own access lists (templates, workspaces)
 * may be granted object by object, so their names are kept: the evaluator decides per request.
 */
export const scopeHeld = (subject: Subject, name: string): boolean => {
  if (name === FULL_SCOPE) return true
  const parts = name === "application_connect" ? ["workspace", "application_connect"] as const : splitName(name)
  if (parts === undefined) return false
  const [kind, act] = parts
  if (kind === "template" || kind === "workspace" || kind === "*") return true
  const acts = act === "*" ? actions : [act]
  return acts.some((a) =>
    rolesAllow(subject, a as Action, { type: kind as ResourceKind, anyOrg: true, ownerId: subject.userId })
  )
}

/** The names of `names` the user holds (see {@link scopeHeld}). */
export const heldScope = (subject: Subject, names: ReadonlyArray<string>): ReadonlyArray<string> =>
  names.filter((n) => scopeHeld(subject, n))

/**
 * The scope of a refresh (RFC 6749 6): the grant's own without `scope`, else the named names,
 * each covered by the grant's (never wider).
 */
export const refreshScope = (
  granted: ReadonlyArray<string>,
  requested: string | undefined
): { readonly ok: ReadonlyArray<string> } | { readonly refused: ScopeRefusal } => {
  const asked = parseScope(requested)
  if (asked.length === 0) return { ok: granted }
  const beyond = asked.filter((n) => !catalog.has(n) || !scopeCovered(n, granted))
  if (beyond.length > 0) {
    return {
      refused: refusal(
        `${beyond.map((n) => JSON.stringify(n)).join(", ")} ${
          beyond.length === 1 ? "is" : "are"
        } not within the scope of this grant (${formatScope(granted)}); a refresh may only keep or narrow it.`
      )
    }
  }
  return { ok: asked }
}

const kindWords: Readonly<Record<string, string>> = {
  "*": "everything",
  api_key: "API keys",
  audit_log: "the audit log",
  connection_log: "the connection log",
  file: "files",
  group: "groups",
  group_member: "group members",
  inbox_notification: "inbox notifications",
  organization: "organizations",
  organization_member: "organization members",
  provisioner_jobs: "provisioner jobs",
  task: "tasks",
  template: "templates",
  user: "users",
  workspace: "workspaces",
  workspace_proxy: "workspace proxies"
}

const actionWords: Readonly<Record<string, string>> = {
  create: "Create",
  read: "Read",
  update: "Update",
  delete: "Delete",
  use: "Use",
  view_insights: "View the insights of",
  read_personal: "Read the personal details of",
  update_personal: "Update the personal details of",
  start: "Start",
  stop: "Stop",
  ssh: "Connect over SSH to",
  application_connect: "Open the applications of",
  share: "Share"
}

/** A scope in words, for the consent page (the name itself is shown beside it). */
export const describeScope = (name: string): string => {
  if (name === FULL_SCOPE) return "Full access: everything you can do"
  if (name === "application_connect") return "Open the applications of your workspaces"
  const parts = splitName(name)
  if (parts === undefined) return name
  const [kind, act] = parts
  const what = kindWords[kind] ?? kind.replace(/_/g, " ")
  if (act === "*") return kind === "*" ? "Everything you can do" : `Every action on ${what}`
  const verb = actionWords[act] ?? act.replace(/_/g, " ")
  return `${verb} ${what}`
}
