/**
 * Path-based workspace apps (`/@{owner}/{workspace}[.{agent}]/apps/{app_slug}/...`): the service
 * finds the app, checks who may open it (its `sharing_level`, through the one evaluator), and
 * carries the HTTP request to the app's `url` through the agent's own connection
 * (`/workspaceagents/me/rpc`, its tunnel: Tunnels.ts), since the agent is not assumed reachable
 * from the server. The agent
 * performs the request against its local app and streams the answer back in JSON frames with
 * base64 bodies. Each app session's open is recorded once in the connection log (type
 * `workspace_app`). See docs/agents.md, "Web apps".
 *
 * A request is carried by the process the agent is connected to; another process relays it there
 * (Holder.ts decides; the relay is http's), and the replica that serves the request records the
 * session, never the one that relays it.
 */
import { Cause, Clock, Context, Effect, Exit, Option } from "effect"
import { type Actor, allowed, CurrentActor } from "../Actor.js"
import { Replicas } from "../enterprise/Replicas.js"
import {
  BadGateway,
  BadRequest,
  Forbidden,
  type GatewayTimeout,
  NotFound,
  PayloadTooLarge,
  Unauthorized
} from "../Errors.js"
import { isUuid } from "../Ids.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import { PortShareRepo } from "../workspaces/PortShare.js"
import { WorkspaceSharing } from "../workspaces/Sharing.js"
import { type WorkspaceRecord, WorkspaceRepo } from "../workspaces/Workspace.js"
import {
  type StoredAgentApp,
  type WorkspaceAgentRecord,
  WorkspaceBuildRepo,
  WorkspaceResourceRepo
} from "../workspaces/WorkspaceBuild.js"
import { agentStatus } from "../workspaces/WorkspaceWire.js"
import { ConnectionLogSink } from "./ConnectionEvents.js"
import { type AgentHolder, agentHolder } from "./Holder.js"
import { AgentTunnels, type AppResponse, type HeaderMap, notConnected } from "./Tunnels.js"

/** The largest request body carried to an app (413 past it). */
export const APP_PROXY_MAX_REQUEST_BYTES = 1024 * 1024
/**
 * An app session's idle time before its next request counts as a new open in the connection log
 * (the described system's `WorkspaceAppAuditSessionTimeout`, one hour).
 */
export const APP_SESSION_TIMEOUT_SECONDS = 3600
/** How often a process deletes app sessions idle past APP_SESSION_TIMEOUT_SECONDS (at its next app request). */
export const APP_SESSION_PURGE_SECONDS = 600

/** What makes an app session: a request with another of these starts another session. */
export interface AppSessionKey {
  readonly agentId: string
  readonly appId: string
  /** Absent: an anonymous request. */
  readonly userId?: string | undefined
  readonly ip: string
  readonly userAgent: string
  readonly slugOrPort: string
  readonly statusCode: number
}

/** App sessions, shared by every replica (the described system's `workspace_app_audit_sessions`). */
export class AppSessionRepo extends Context.Tag("@workbay/core/AppSessionRepo")<AppSessionRepo, {
  /**
   * Marks a request of the session `key` at `now`, in one statement: true when it starts a session
   * (there was none, or its last request was before `staleBefore`); false while one goes on.
   * Of racing first requests exactly one answers true.
   */
  readonly touch: (key: AppSessionKey, now: Date, staleBefore: Date) => Effect.Effect<boolean>
  /** Deletes sessions whose last request was before `before`; answers how many. */
  readonly purgeIdle: (before: Date) => Effect.Effect<number>
}>() {}

// ---------------------------------------------------------------------------
// Opening an app

/** A request to an app, as the HTTP layer decoded it (its path, or its subdomain host). */
export interface AppRequest {
  /** How the app was named: `/@owner/workspace/apps/slug/` (default) or its subdomain host (docs/agents.md, "Subdomain apps"). */
  readonly access?: "path" | "subdomain" | undefined
  /** `{owner}`: a username, a user id, or `me`. */
  readonly owner: string
  readonly workspace: string
  /** The agent's name; absent: the one agent with an app of that slug. */
  readonly agent?: string | undefined
  /** The app's slug; in the subdomain port form `{port}` or `{port}s`, with `port` set. */
  readonly slug: string
  /** A port of the agent's machine (the subdomain port form), with the scheme its server speaks. */
  readonly port?: { readonly number: number; readonly protocol: "http" | "https" } | undefined
  /** The rest of the path after the app's prefix (from its `/`), with the query. */
  readonly path: string
  readonly method: string
  /** The headers to pass on (the HTTP layer leaves out hop-by-hop headers and the caller's credentials). */
  readonly headers: HeaderMap
  readonly body: Uint8Array
  readonly ip: string
  readonly userAgent: string
  /** The request came from another replica (it is never relayed again). */
  readonly relayed?: boolean | undefined
}

/**
 * What opening an app comes to: the app's answer, carried here; or the request is for the replica
 * at `address`, which holds the agent's connection (relay it there as it came: that replica
 * checks it again, answers it, and records the session).
 */
export type AppOpened =
  | { readonly _tag: "Answer"; readonly response: AppResponse }
  | Extract<AgentHolder, { _tag: "Relay" }>

/** The app id of a port opened as an app (the subdomain port form): it has no row of its own. */
export const PORT_APP_ID = "00000000-0000-0000-0000-000000000000"

/** The errors an app open answers with, each a Response object with its status. */
export type AppOpenError =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | PayloadTooLarge
  | BadGateway
  | GatewayTimeout

const statusOf: Record<AppOpenError["_tag"], number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  PayloadTooLarge: 413,
  BadGateway: 502,
  GatewayTimeout: 504
}

interface FoundApp {
  readonly workspace: WorkspaceRecord
  readonly agent: WorkspaceAgentRecord
  readonly app: StoredAgentApp
}

/** The app's URL with the request's path and query: `path` goes under the URL's own path. */
export const appTarget = (appUrl: string, path: string): string => {
  const base = new URL(appUrl)
  const q = path.indexOf("?")
  const rest = q < 0 ? path : path.slice(0, q)
  const query = q < 0 ? "" : path.slice(q + 1)
  base.pathname = base.pathname.replace(/\/$/, "") + (rest.startsWith("/") ? rest : `/${rest}`)
  base.search = [base.search.replace(/^\?/, ""), query].filter((s) => s !== "").join("&")
  return base.toString()
}

export class AppProxy extends Effect.Service<AppProxy>()("@workbay/core/AppProxy", {
  effect: Effect.gen(function*() {
    const users = yield* UserRepo
    const workspaces = yield* WorkspaceRepo
    const builds = yield* WorkspaceBuildRepo
    const resources = yield* WorkspaceResourceRepo
    const sharing = yield* WorkspaceSharing
    const tunnels = yield* AgentTunnels
    const audit = yield* ConnectionLogSink
    const settings = yield* Settings
    const appSessions = yield* AppSessionRepo
    const replicas = yield* Replicas
    const shares = yield* PortShareRepo

    /** The workspace, agent and app a request names (404 when any is missing). */
    const find = (req: AppRequest, actor: Option.Option<Actor>) =>
      Effect.gen(function*() {
        const workspaceNotFound = NotFound.resource("Workspace")
        let ownerId: string | undefined
        if (req.owner === "me") {
          if (Option.isNone(actor)) {
            return yield* new Unauthorized({ message: "You must be logged in to open your own apps (\"@me\")." })
          }
          ownerId = actor.value.user.id
        } else {
          const owner = isUuid(req.owner)
            ? yield* users.findById(req.owner.toLowerCase())
            : yield* users.findByUsername(req.owner)
          ownerId = Option.isSome(owner) && !owner.value.deleted ? owner.value.id : undefined
        }
        if (ownerId === undefined) return yield* workspaceNotFound
        const w = yield* workspaces.findByOwnerAndName(ownerId, req.workspace, false)
        if (Option.isNone(w)) return yield* workspaceNotFound
        const latest = (yield* builds.latestOf([w.value.id]))[0]
        const agents = latest === undefined
          ? []
          : (yield* resources.listByJobs([latest.job_id])).flatMap((r) => r.agents)
        const candidates = req.agent === undefined
          ? agents.filter((a) => a.apps.some((app) => app.slug === req.slug))
          : agents.filter((a) => a.name === req.agent)
        if (req.agent !== undefined && candidates.length === 0) return yield* NotFound.resource("Workspace agent")
        if (candidates.length > 1) {
          return yield* BadRequest.field(
            "agent",
            `Agents ${
              candidates.map((a) => `"${a.name}"`).join(", ")
            } each have an app "${req.slug}": name one, as /@${req.owner}/${req.workspace}.<agent>/apps/${req.slug}/.`,
            "Several agents have an app of that slug."
          )
        }
        const agent = candidates[0]
        if (agent !== undefined && req.port !== undefined) {
          // A port as an app (the described system's): owner-level unless the port is shared.
          const share = yield* shares.find(w.value.id, agent.name, req.port.number)
          const app: StoredAgentApp = {
            id: PORT_APP_ID,
            slug: req.slug,
            display_name: "",
            icon: "",
            url: `${req.port.protocol}://127.0.0.1:${req.port.number}`,
            command: "",
            subdomain: true,
            sharing_level: Option.match(share, { onNone: () => "owner" as const, onSome: (s) => s.share_level }),
            external: false,
            hidden: true,
            open_in: "tab",
            group: "",
            tooltip: "",
            healthcheck: undefined,
            order: 0
          }
          return { workspace: w.value, agent, app } satisfies FoundApp
        }
        const app = agent?.apps.find((a) => a.slug === req.slug)
        if (agent === undefined || app === undefined) return yield* NotFound.resource("Workspace app")
        return { workspace: w.value, agent, app } satisfies FoundApp
      })

    /**
     * Who may open the app (the described system's rules for path-based apps): without
     * `dangerousAllowPathAppSharing` every app counts as `owner`-level; an anonymous caller opens
     * only `public` apps; an `owner`-level app only its workspace's owner (site owners too with
     * `dangerousAllowPathAppSiteOwnerAccess`); whoever may `application_connect` to the workspace;
     * `authenticated`: any user whose token may connect to their own workspaces; `organization`:
     * members of the workspace's organization. A refused caller who may read the workspace gets
     * 403, another 404.
     */
    const authorizeOpen = (
      { app, workspace }: FoundApp,
      actor: Option.Option<Actor>,
      access: "path" | "subdomain"
    ): Effect.Effect<void, Unauthorized | Forbidden | NotFound> => {
      // A subdomain app has an origin of its own: its sharing level always counts (as the described system's).
      const isPath = access === "path"
      const level = !isPath || settings.dangerousAllowPathAppSharing ? app.sharing_level : "owner"
      if (Option.isNone(actor)) {
        return level === "public"
          ? Effect.void
          : Effect.fail(
            new Unauthorized({
              message: "You must be logged in to open this app.",
              detail: "Send a session token in the session header or cookie, or \"Authorization: Bearer\"."
            })
          )
      }
      const user = actor.value.user
      const object = sharing.object(workspace)
      return Effect.gen(function*() {
        const siteOwnerBlocked = isPath && level === "owner" && workspace.owner_id !== user.id &&
          !settings.dangerousAllowPathAppSiteOwnerAccess
        if (!siteOwnerBlocked) {
          if (yield* allowed("application_connect", object)) return
          if (level === "public") return
          if (
            level === "authenticated" &&
            (yield* allowed("application_connect", { type: "workspace", ownerId: user.id, anyOrg: true }))
          ) return
          if (
            level === "organization" &&
            (yield* allowed("application_connect", {
              type: "workspace",
              ownerId: user.id,
              orgId: workspace.organization_id
            }))
          ) return
        }
        if (!(yield* allowed("read", object))) return yield* NotFound.resource("Workspace")
        return yield* new Forbidden({
          message: "You may not open this app.",
          detail: siteOwnerBlocked && app.sharing_level !== "owner" && !settings.dangerousAllowPathAppSharing && isPath
            ? "Path-based apps are shared with nobody on this deployment: only the workspace's owner opens them."
            : `The app is shared at the "${level}" level.`
        })
      }).pipe(Effect.provideService(CurrentActor, actor.value))
    }

    const serve = (found: FoundApp, req: AppRequest, actor: Option.Option<Actor>) =>
      Effect.gen(function*() {
        const access = req.access ?? "path"
        yield* authorizeOpen(found, actor, access)
        const { agent, app } = found
        if (app.subdomain && access === "path") {
          return yield* new BadRequest({
            message: "The app is served on a subdomain, not on a path.",
            detail: settings.wildcardAccessUrl === ""
              ? "The deployment has no wildcard app host (wildcard_access_url), so subdomain apps cannot be opened."
              : `Open it on its own host: ${
                settings.wildcardAccessUrl.replace("*", `${app.slug}--${agent.name}--${found.workspace.name}--<owner>`)
              }.`
          })
        }
        if (app.url === "" || app.external) {
          return yield* new BadRequest({
            message: "The app is not a web app its agent serves.",
            detail: app.external
              ? "An external app is a link the browser opens itself."
              : "The app has no URL (it runs a command)."
          })
        }
        if (req.body.length > APP_PROXY_MAX_REQUEST_BYTES) {
          return yield* new PayloadTooLarge({
            message: "Request body is too large.",
            detail: `The limit is ${APP_PROXY_MAX_REQUEST_BYTES} bytes.`
          })
        }
        const health = app.healthcheck !== undefined && app.healthcheck.url !== ""
          ? agent.app_health?.[app.id] ?? "initializing"
          : "disabled"
        if (health === "initializing" || health === "unhealthy") {
          return yield* new BadGateway({
            message: "The app is not healthy.",
            detail: `The app's health is "${health}", not "healthy".`
          })
        }
        let url: string
        try {
          url = appTarget(app.url, req.path)
        } catch {
          return yield* new BadGateway({ message: "The app's URL is not valid.", detail: `"${app.url}" is not a URL.` })
        }
        const connectedHere = tunnels.connectedHere(agent.id)
        if (!connectedHere && agentStatus(agent, yield* Clock.currentTimeMillis) !== "connected") {
          return yield* notConnected()
        }
        const holder = yield* agentHolder(agent, { connectedHere, relayed: req.relayed === true }).pipe(
          Effect.provideService(Replicas, replicas)
        )
        if (holder._tag === "Relay") return holder
        const response = yield* tunnels.forward(agent.id, {
          method: req.method,
          url,
          headers: req.headers,
          body: req.body
        })
        return { _tag: "Answer", response } as const
      })

    // One connection log entry per app session: (agent, app, user, ip, user agent, status), idle at most APP_SESSION_TIMEOUT_SECONDS.
    let lastPurge = 0
    const purgeIdle = (now: number) => {
      if (now - lastPurge < APP_SESSION_PURGE_SECONDS * 1000) return Effect.void
      lastPurge = now
      return Effect.forkDaemon(appSessions.purgeIdle(new Date(now - APP_SESSION_TIMEOUT_SECONDS * 1000)))
    }

    const record = (
      { workspace, agent, app }: FoundApp,
      req: AppRequest,
      actor: Option.Option<Actor>,
      statusCode: number
    ) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const userId = Option.getOrUndefined(Option.map(actor, (a) => a.user.id))
        yield* purgeIdle(now)
        const key = {
          agentId: agent.id,
          appId: app.id,
          userId,
          ip: req.ip,
          userAgent: req.userAgent,
          slugOrPort: app.slug,
          statusCode
        }
        if (!(yield* appSessions.touch(key, new Date(now), new Date(now - APP_SESSION_TIMEOUT_SECONDS * 1000)))) return
        yield* audit.connect({
          time: new Date(now),
          organizationId: workspace.organization_id,
          workspaceOwnerId: workspace.owner_id,
          workspaceId: workspace.id,
          workspaceName: workspace.name,
          agentName: agent.name,
          type: "workspace_app",
          ip: req.ip,
          slugOrPort: app.slug,
          statusCode,
          userId,
          userAgent: req.userAgent
        })
      }).pipe(
        Effect.catchAllCause((cause) => Effect.logError("could not record an app open in the connection log", cause))
      )

    /**
     * Opens a path-based app for `actor` (none: an anonymous request): the app's answer, streaming,
     * or the replica to relay the request to. Once the app is found, the outcome (the app's status,
     * or the refusal's) is recorded in the connection log, once per session; a request to relay is
     * not: the replica that serves it records it.
     */
    const open = (req: AppRequest, actor: Option.Option<Actor>): Effect.Effect<AppOpened, AppOpenError> =>
      Effect.gen(function*() {
        if (settings.disablePathApps && (req.access ?? "path") === "path") {
          return yield* new Forbidden({
            message: "Path-based applications are disabled on this deployment.",
            detail: "The deployment's disable_path_apps setting is on."
          })
        }
        const found = yield* find(req, actor)
        const outcome = yield* Effect.exit(serve(found, req, actor))
        if (Exit.isSuccess(outcome) && outcome.value._tag === "Relay") return outcome.value
        const status = Exit.isSuccess(outcome)
          ? outcome.value._tag === "Answer" ? outcome.value.response.status : 500
          : Option.match(Cause.failureOption(outcome.cause), { onNone: () => 500, onSome: (e) => statusOf[e._tag] })
        yield* record(found, req, actor, status)
        return yield* outcome
      }).pipe(span("AppProxy.open"))

    return { open } as const
  })
}) {}
