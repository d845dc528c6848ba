/**
 * Workspace proxies (docs/workspace-proxies.md): the administrators' routes, `/regions`, and the
 * proxy's own registration with its token. The primary proxy is the deployment itself (id = the
 * deployment id, name `primary`), listed first; only its display name and icon change, and it
 * cannot be deleted. A proxy's token is `<id>:<secret>`, shown once; only the secret's SHA-256 is
 * stored. Statuses are the health checker's (`ProxyHealth`).
 */
import { Clock, Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { authorize, authorizeRead } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { BadRequest, Conflict, NotFound, ResponseBody, Unauthorized, Validation } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import { hashSecret, sameHash } from "../Platform.js"
import type { AuthzObject } from "../Rbac.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { ProxyHealth } from "./ProxyHealth.js"
import type {
  CreateWorkspaceProxyRequest,
  DeregisterWorkspaceProxyRequest,
  PatchWorkspaceProxyRequest,
  RegisterWorkspaceProxyRequest
} from "./Requests.js"
import {
  type PrimaryProxyConfig,
  ProxyHealthReport,
  Region,
  RegionsResponse,
  RegisterWorkspaceProxyResponse,
  UpdateWorkspaceProxyResponse,
  WorkspaceProxiesResponse,
  WorkspaceProxy,
  type WorkspaceProxyRecord,
  WorkspaceProxyRepo,
  WorkspaceProxyStatus
} from "./WorkspaceProxy.js"

/** The header a proxy sends its token in (the described system's name). */
export const PROXY_TOKEN_HEADER = "Coder-External-Proxy-Session-Token"
/** The primary proxy's name and its display defaults (the described system's). */
export const PRIMARY_PROXY_NAME = "primary"
export const PRIMARY_PROXY_DEFAULTS: PrimaryProxyConfig = { display_name: "Default", icon: "/emojis/1f3e1.png" }
/** Live proxies a deployment may hold (the list answers them all). */
export const MAX_WORKSPACE_PROXIES = 1000

const PROXY = "Workspace proxy"
const object = (
  id?: string
): AuthzObject => (id === undefined ? { type: "workspace_proxy" } : { type: "workspace_proxy", id })
const resource = (p: Pick<WorkspaceProxyRecord, "id" | "name" | "icon">) => ({
  type: "workspace_proxy",
  id: p.id,
  target: p.name,
  icon: p.icon
})

/** What a diff shows of a proxy: the token's hash only as a secret field. */
const auditable = (p: WorkspaceProxyRecord) => ({
  name: p.name,
  display_name: p.display_name,
  icon: p.icon,
  url: p.url,
  wildcard_hostname: p.wildcard_hostname,
  derp_enabled: p.derp_enabled,
  derp_only: p.derp_only,
  version: p.version,
  deleted: p.deleted,
  hashed_secret: p.token_hashed_secret
})

/** A new token for proxy `id`: `<id>:<64 hex>`, and the hash stored. */
export const newProxyToken = (id: string) => {
  const secret = randomBytes(32).toString("hex")
  return { token: `${id}:${secret}`, hashed: hashSecret(secret) }
}

const NIL_UUID = "00000000-0000-0000-0000-000000000000"

/** The described system's rule for a proxy's access URL: http or https, no path. */
export const proxyUrlProblem = (raw: string): string | undefined => {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return "The URL is not a valid absolute URL."
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return "scheme must be http or https"
  if (u.pathname !== "/" && u.pathname !== "") return "path must be empty or /"
  if (u.search !== "" || u.hash !== "" || u.username !== "" || u.password !== "") {
    return "The URL must not carry a query, fragment or credentials."
  }
  return undefined
}

/** A wildcard hostname: one `*` standing for the app part of the first label (`*.apps.example.com`, `*-apps.example.com`). */
const WILDCARD = /^([a-z0-9-]*)\*([a-z0-9-]*)(\.[a-z0-9-]+)+(:\d{1,5})?$/i

export class WorkspaceProxies extends Effect.Service<WorkspaceProxies>()("@workbay/core/WorkspaceProxies", {
  effect: Effect.gen(function*() {
    const repo = yield* WorkspaceProxyRepo
    const ids = yield* IdGenerator
    const settings = yield* Settings
    const health = yield* ProxyHealth
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    const primaryId = settings.deploymentId.toLowerCase()

    const primaryConfig = Effect.map(repo.getPrimary, Option.getOrElse(() => PRIMARY_PROXY_DEFAULTS))

    /** The primary as a record: always healthy, created and updated "now" (as the described system). */
    const primaryRecord = Effect.gen(function*() {
      const config = yield* primaryConfig
      const at = yield* now
      return {
        id: primaryId,
        name: PRIMARY_PROXY_NAME,
        display_name: config.display_name,
        icon: config.icon,
        url: settings.accessUrl.replace(/\/+$/, ""),
        wildcard_hostname: settings.wildcardAccessUrl,
        derp_enabled: true,
        derp_only: false,
        version: settings.version,
        deleted: false,
        token_hashed_secret: "",
        created_at: at,
        updated_at: at,
        status: "ok",
        status_report: { errors: [], warnings: [] },
        status_checked_at: at
      } satisfies WorkspaceProxyRecord
    })

    const toProxy = (p: WorkspaceProxyRecord) =>
      new WorkspaceProxy({
        id: p.id,
        name: p.name,
        display_name: p.display_name,
        icon_url: p.icon,
        healthy: !p.deleted && p.status === "ok",
        path_app_url: p.url,
        wildcard_hostname: p.wildcard_hostname,
        derp_enabled: p.derp_enabled,
        derp_only: p.derp_only,
        ...(p.deleted ? {} : {
          status: new WorkspaceProxyStatus({
            status: p.status,
            report: new ProxyHealthReport({ errors: p.status_report.errors, warnings: p.status_report.warnings }, true),
            checked_at: p.status_checked_at
          }, true)
        }),
        created_at: p.created_at,
        updated_at: p.updated_at,
        deleted: p.deleted,
        version: p.version
      }, true)

    const toRegion = (p: WorkspaceProxyRecord) =>
      new Region({
        id: p.id,
        name: p.name,
        display_name: p.display_name,
        icon_url: p.icon,
        healthy: p.status === "ok",
        path_app_url: p.url,
        wildcard_hostname: p.wildcard_hostname
      }, true)

    const all = Effect.gen(function*() {
      const primary = yield* primaryRecord
      return [primary, ...(yield* repo.list(MAX_WORKSPACE_PROXIES))]
    })

    /** The proxy `{workspaceproxy}` names: a UUID (deleted ones too) or a live proxy's name. */
    const find = (ref: string) =>
      Effect.gen(function*() {
        yield* authorizeRead(PROXY, object())
        if (isUuid(ref)) {
          const id = ref.toLowerCase()
          if (id === primaryId) return yield* primaryRecord
          const found = yield* repo.findById(id)
          if (Option.isSome(found)) return found.value
        } else if (ref.toLowerCase() === PRIMARY_PROXY_NAME) {
          return yield* primaryRecord
        } else {
          const found = yield* repo.findByName(ref)
          if (Option.isSome(found)) return found.value
        }
        return yield* NotFound.resource(PROXY)
      })

    const list = Effect.gen(function*() {
      yield* authorizeRead(PROXY, object())
      return new WorkspaceProxiesResponse({ regions: (yield* all).map(toProxy) }, true)
    }).pipe(span("WorkspaceProxies.list"))

    const regions = Effect.gen(function*() {
      yield* authorizeRead(PROXY, object())
      return new RegionsResponse(
        { regions: (yield* all).filter((p) => !p.deleted && !p.derp_only).map(toRegion) },
        true
      )
    }).pipe(span("WorkspaceProxies.regions"))

    const get = (ref: string) => Effect.map(find(ref), toProxy).pipe(span("WorkspaceProxies.get"))

    const reservedName = () =>
      new BadRequest({
        message: "The name \"primary\" is reserved for the primary region.",
        detail: "Cannot name a workspace proxy 'primary'.",
        validations: [new Validation({ field: "name", detail: "Reserved name" })]
      })
    const nameTaken = (name: string) => new Conflict({ message: `Workspace proxy with name "${name}" already exists.` })

    const create = (input: typeof CreateWorkspaceProxyRequest.Type) =>
      Effect.gen(function*() {
        yield* authorize("create", object())
        if (input.name.toLowerCase() === PRIMARY_PROXY_NAME) return yield* reservedName()
        if ((yield* repo.list(MAX_WORKSPACE_PROXIES)).length >= MAX_WORKSPACE_PROXIES) {
          return yield* new Conflict({
            message: `A deployment holds at most ${MAX_WORKSPACE_PROXIES} workspace proxies.`
          })
        }
        const id = yield* ids.uuid
        const { hashed, token } = newProxyToken(id)
        const at = yield* now
        const proxy: WorkspaceProxyRecord = {
          id,
          name: input.name,
          display_name: input.display_name ?? "",
          icon: input.icon ?? "",
          url: "",
          wildcard_hostname: "",
          derp_enabled: true,
          derp_only: false,
          version: "",
          deleted: false,
          token_hashed_secret: hashed,
          created_at: at,
          updated_at: at,
          status: "unregistered",
          status_report: { errors: [], warnings: [] },
          status_checked_at: at
        }
        yield* repo.insert(proxy).pipe(Effect.catchTag("UniqueViolation", () => Effect.fail(nameTaken(input.name))))
        yield* auditResource(resource(proxy), undefined, auditable(proxy))
        return new UpdateWorkspaceProxyResponse({ proxy: toProxy(proxy), proxy_token: token }, true)
      }).pipe(span("WorkspaceProxies.create"))

    const updatePrimary = (primary: WorkspaceProxyRecord, input: typeof PatchWorkspaceProxyRequest.Type) =>
      Effect.gen(function*() {
        if (input.name !== undefined && input.name !== "" && input.name !== primary.name) {
          return yield* new BadRequest({
            message: "Cannot update name of default primary proxy, did you mean to update the 'display name'?",
            validations: [new Validation({ field: "name", detail: "Cannot update name of default primary proxy" })]
          })
        }
        if (input.regenerate_token === true) {
          return yield* BadRequest.field("regenerate_token", "The primary proxy has no token.")
        }
        const displayName = input.display_name ?? ""
        const icon = input.icon ?? ""
        if (displayName === "" && icon === "") {
          return yield* new BadRequest({
            message: "No update arguments provided. Nothing to do.",
            validations: [
              new Validation({ field: "display_name", detail: "No value provided." }),
              new Validation({ field: "icon", detail: "No value provided." })
            ]
          })
        }
        yield* repo.setPrimary({
          display_name: displayName === "" ? primary.display_name : displayName,
          icon: icon === "" ? primary.icon : icon
        })
        const next = yield* primaryRecord
        yield* auditResource(resource(next), auditable(primary), auditable(next))
        return new UpdateWorkspaceProxyResponse({ proxy: toProxy(next), proxy_token: "" }, true)
      })

    const update = (ref: string, input: typeof PatchWorkspaceProxyRequest.Type) =>
      Effect.gen(function*() {
        const proxy = yield* find(ref)
        yield* authorize("update", object(proxy.id))
        if (proxy.id === primaryId) return yield* updatePrimary(proxy, input)
        if (proxy.deleted) return yield* NotFound.resource(PROXY)
        const name = input.name === undefined || input.name === "" ? proxy.name : input.name
        if (name.toLowerCase() === PRIMARY_PROXY_NAME) return yield* reservedName()
        const made = input.regenerate_token === true ? newProxyToken(proxy.id) : undefined
        const updated = yield* repo.update(proxy.id, {
          name,
          display_name: input.display_name ?? proxy.display_name,
          icon: input.icon ?? proxy.icon,
          token_hashed_secret: made?.hashed
        }, yield* now).pipe(Effect.catchTag("UniqueViolation", () => Effect.fail(nameTaken(name))))
        if (Option.isNone(updated)) return yield* NotFound.resource(PROXY)
        yield* auditResource(resource(updated.value), auditable(proxy), auditable(updated.value))
        return new UpdateWorkspaceProxyResponse({ proxy: toProxy(updated.value), proxy_token: made?.token ?? "" }, true)
      }).pipe(span("WorkspaceProxies.update"))

    const remove = (ref: string) =>
      Effect.gen(function*() {
        const proxy = yield* find(ref)
        yield* authorize("delete", object(proxy.id))
        if (proxy.id === primaryId) return yield* new BadRequest({ message: "Cannot delete primary proxy" })
        if (proxy.deleted || !(yield* repo.markDeleted(proxy.id, yield* now))) return yield* NotFound.resource(PROXY)
        yield* auditResource(resource(proxy), auditable(proxy), undefined)
        return new ResponseBody({ message: "Proxy has been deleted!" }, true)
      }).pipe(span("WorkspaceProxies.delete"))

    // --- The proxy's own routes (authenticated by its token) ---

    const unauthorized = () =>
      new Unauthorized({
        message: "Invalid external proxy token.",
        detail: `Send the workspace proxy's token, "<id>:<secret>", in the ${PROXY_TOKEN_HEADER} header.`
      })

    /** The live proxy whose token `raw` is; 401 otherwise. */
    const authenticate = (raw: string | undefined) =>
      Effect.gen(function*() {
        if (raw === undefined || raw === "") {
          return yield* new Unauthorized({ message: `Missing required external proxy token (${PROXY_TOKEN_HEADER}).` })
        }
        const colon = raw.indexOf(":")
        const id = colon < 0 ? "" : raw.slice(0, colon)
        const secret = colon < 0 ? "" : raw.slice(colon + 1)
        if (!isUuid(id) || secret === "" || secret.length > 256) return yield* unauthorized()
        const found = yield* repo.findById(id.toLowerCase())
        if (
          Option.isNone(found) || found.value.deleted || !sameHash(found.value.token_hashed_secret, hashSecret(secret))
        ) {
          return yield* unauthorized()
        }
        return found.value
      })

    const register = (token: string | undefined, input: typeof RegisterWorkspaceProxyRequest.Type) =>
      Effect.gen(function*() {
        const proxy = yield* authenticate(token)
        const problems: Array<Validation> = []
        const urlProblem = proxyUrlProblem(input.access_url)
        if (urlProblem !== undefined) problems.push(new Validation({ field: "access_url", detail: urlProblem }))
        const wildcard = input.wildcard_hostname ?? ""
        if (wildcard !== "" && !WILDCARD.test(wildcard)) {
          problems.push(
            new Validation({
              field: "wildcard_hostname",
              detail: "Must be a hostname with one '*' in its first label, e.g. *.apps.example.com."
            })
          )
        }
        if (input.replica_id.toLowerCase() === NIL_UUID) {
          problems.push(new Validation({ field: "replica_id", detail: "Replica ID is invalid." }))
        }
        const derpEnabled = input.derp_enabled ?? false
        const derpOnly = input.derp_only ?? false
        if (derpOnly && !derpEnabled) {
          problems.push(
            new Validation({ field: "derp_only", detail: "DerpOnly cannot be true when DerpEnabled is false." })
          )
        }
        if (problems.length > 0) {
          return yield* new BadRequest({ message: "Invalid registration.", validations: problems })
        }
        const registered = yield* repo.register(proxy.id, {
          url: input.access_url.replace(/\/+$/, ""),
          wildcard_hostname: wildcard,
          derp_enabled: derpEnabled,
          derp_only: derpOnly,
          version: input.version ?? ""
        }, yield* now)
        if (Option.isNone(registered)) return yield* unauthorized()
        // As the described system, the new URL is checked at once, beside the answer.
        yield* Effect.forkDaemon(health.checkOne(registered.value))
        return new RegisterWorkspaceProxyResponse({
          deployment_id: settings.deploymentId,
          derp_mesh_key: "",
          derp_region_id: 0,
          derp_force_websockets: false,
          sibling_replicas: []
        }, true)
      }).pipe(span("WorkspaceProxies.register"))

    const deregister = (token: string | undefined, input: typeof DeregisterWorkspaceProxyRequest.Type) =>
      Effect.gen(function*() {
        yield* authenticate(token)
        if (input.replica_id.toLowerCase() === NIL_UUID) {
          return yield* BadRequest.field("replica_id", "Replica ID is invalid.")
        }
      }).pipe(span("WorkspaceProxies.deregister"))

    return { list, regions, get, create, update, delete: remove, register, deregister } as const
  })
}) {}
