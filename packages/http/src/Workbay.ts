/**
 * Assembly: the services on a storage layer, and the handlers that serve them.
 * `layer` is for Effect users; `makeWorkbay` for everybody else.
 */
import {
  AgentCommand,
  agentConnectionMonitorPeriodic,
  type AgentMonitorOptions,
  AgentReportBatch,
  type Auth,
  Binaries,
  HangDetector,
  type HangDetectorOptions,
  IdGenerator,
  lifecycleExecutorPeriodic,
  type LifecycleOptions,
  type MailSender,
  PasswordHasher,
  type PrebuildsOptions,
  PrebuildsReconciler,
  prebuildsReconcilerPeriodic,
  type Provisioner,
  ProvisionerHosts,
  Provisioners,
  ProvisionerWorkers,
  replicaRegistration,
  type ReportBatchOptions,
  Retention,
  type RetentionOptions,
  SecretBox,
  SecretKeyRepo,
  ServicesLive,
  type Settings,
  type SettingsShape,
  settingsWithDeploymentId,
  ThisReplica,
  UNENCRYPTED_SECRETS_WARNING,
  workbayProvisioner,
  type WorkerOptions
} from "@workbay/core"
import { NotificationSenders, Notifier, type NotifierOptions, notifierPeriodic } from "@workbay/core"
import { type InsightsRollupOptions, insightsRollupPeriodic } from "@workbay/core"
import { type ProxyHealthOptions, proxyHealthPeriodic } from "@workbay/core"
import { DEFAULT_MAX_FILE_BYTES, sequential } from "@workbay/core"
import { Metrics, MetricsSnapshotRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Context, Effect, Layer, type Logger, type LogLevel, ManagedRuntime } from "effect"
import type { Server } from "node:http"
import {
  type NodeHandler,
  type NodeUpgradeHandler,
  toNodeHandler,
  toNodeUpgradeHandler,
  toWebHandler,
  type WebHandler
} from "./Adapters.js"
import { makeAppProxyHandler } from "./agents/AppProxyHttp.js"
import { binariesFromDirectories } from "./agents/BinariesDirectory.js"
import { AgentBinariesHttp } from "./agents/BinariesHttp.js"
import { AgentMeHttp, AgentsHttp } from "./agents/Http.js"
import { AgentIdentityHttp } from "./agents/IdentityHttp.js"
import { AgentLogsHttp, AgentReportsHttp } from "./agents/LogsHttp.js"
import { AgentMetadataHttp, AgentRpcHttp } from "./agents/RpcHttp.js"
import { StreamEnds } from "./agents/StreamEnds.js"
import { AgentStreamEndHttp, AgentStreamsHttp } from "./agents/StreamsHttp.js"
import { TailnetAgentHttp, TailnetHttp } from "./agents/TailnetHttp.js"
import { WorkbayApi } from "./Api.js"
import { ApplicationsHttp } from "./applications/Http.js"
import { AuditHttp } from "./audit/Http.js"
import { type DashboardOptions, withDashboardHandlers } from "./Dashboard.js"
import { DebugHttp } from "./debug/Http.js"
import { type Dispatcher, makeDispatcher } from "./dispatch/Dispatcher.js"
import type { HttpOptions } from "./dispatch/Options.js"
import { EnterpriseHttp } from "./enterprise/Http.js"
import { AgentExternalAuthHttp, ExternalAuthHttp } from "./externalauth/Http.js"
import { IdpSyncHttp } from "./externalauth/IdpSyncHttp.js"
import { DeploymentHttp, GeneralHttp } from "./general/Http.js"
import { GroupsHttp } from "./groups/Http.js"
import type { GroupImplementation } from "./Handlers.js"
import { InsightsHttp } from "./insights/Http.js"
import { type LogFormat, loggingLayer, type LogLevelName } from "./Logging.js"
import type { PrometheusMetrics } from "./Metrics.js"
import { NotificationsHttp } from "./notifications/Http.js"
import { InboxHttp } from "./notifications/InboxHttp.js"
import { OAuth2AppsHttp, OAuth2DiscoveryHttp, OAuth2Http } from "./oauth2/Http.js"
import { OrganizationsHttp } from "./organizations/Http.js"
import { ProvisionerJobsHttp } from "./provisioners/JobsHttp.js"
import { ProvisionerDaemonServeHttp, ProvisionerKeysHttp } from "./provisioners/KeysHttp.js"
import { WorkspaceProxiesHttp, WorkspaceProxyMeHttp } from "./proxies/Http.js"
import { TaskAgentHttp, TasksHttp } from "./tasks/Http.js"
import { FilesHttp } from "./templates/FilesHttp.js"
import { TemplatesHttp } from "./templates/TemplatesHttp.js"
import { TemplateVersionsHttp } from "./templates/VersionsHttp.js"
import { AuthorizationHttp, SessionHttp } from "./users/AuthHttp.js"
import { UsersHttp } from "./users/Http.js"
import { SignInHttp, SignInSessionHttp } from "./users/SignInHttp.js"
import { makeWebSocketHub, type WebSocketHub } from "./WebSocket.js"
import { WorkspacesHttp } from "./workspaces/Http.js"
import { MoveLinks } from "./workspaces/MoveLinks.js"
import { WorkspaceMoveLinkHttp, WorkspaceMovesHttp } from "./workspaces/MovesHttp.js"
import { PortSharesHttp } from "./workspaces/PortSharesHttp.js"
import { WorkspaceSchedulesHttp } from "./workspaces/ScheduleHttp.js"
import { WorkspaceSharingHttp } from "./workspaces/SharingHttp.js"
import { WorkspaceWatchHttp } from "./workspaces/WatchHttp.js"

/** Every group's handlers. */
export const implementations = [
  GeneralHttp,
  DeploymentHttp,
  AuthorizationHttp,
  SessionHttp,
  UsersHttp,
  OrganizationsHttp,
  GroupsHttp,
  AuditHttp,
  FilesHttp,
  ProvisionerJobsHttp,
  ProvisionerKeysHttp,
  ProvisionerDaemonServeHttp,
  TemplatesHttp,
  TemplateVersionsHttp,
  WorkspaceSharingHttp,
  PortSharesHttp,
  WorkspaceMovesHttp,
  WorkspaceMoveLinkHttp,
  WorkspacesHttp,
  WorkspaceSchedulesHttp,
  WorkspaceWatchHttp,
  AgentsHttp,
  AgentMeHttp,
  AgentIdentityHttp,
  AgentBinariesHttp,
  TailnetHttp,
  TailnetAgentHttp,
  AgentLogsHttp,
  AgentReportsHttp,
  AgentRpcHttp,
  AgentMetadataHttp,
  AgentStreamsHttp,
  AgentStreamEndHttp,
  TasksHttp,
  TaskAgentHttp,
  InboxHttp,
  NotificationsHttp,
  OAuth2AppsHttp,
  OAuth2Http,
  OAuth2DiscoveryHttp,
  SignInHttp,
  SignInSessionHttp,
  ExternalAuthHttp,
  AgentExternalAuthHttp,
  IdpSyncHttp,
  ApplicationsHttp,
  InsightsHttp,
  EnterpriseHttp,
  WorkspaceProxiesHttp,
  WorkspaceProxyMeHttp,
  DebugHttp
]

export interface WorkbayHandlerShape {
  /** Mount on node:http, Express, Connect, Fastify (`fastify.all('/*', ...)` with the raw req/res). */
  readonly node: NodeHandler
  /**
   * Mount on anything that speaks Fetch `Request`/`Response` (Hono, Bun, Deno, workers); pass the
   * peer's address as `{ remoteAddress }` (the client's address, rate limits and audit follow it).
   * It cannot upgrade: WebSocket routes answer 426.
   */
  readonly web: WebHandler
  /** The WebSocket routes: `server.on("upgrade", workbay.upgrade)` on the node:http server (or use `attach`). */
  readonly upgrade: NodeUpgradeHandler
  /** Serves `server`'s requests and upgrades: `server.on("request", node)` and `server.on("upgrade", upgrade)`. */
  readonly attach: (server: Server) => void
  /** Closes every WebSocket (1001) and accepts no more: the first step of a graceful shutdown (`dispose` does it too). */
  readonly closeWebSockets: () => Promise<void>
  /** The open WebSockets (count, bytes waiting to be sent). */
  readonly webSockets: Pick<WebSocketHub, "size" | "bufferedBytes">
  readonly dispatcher: Dispatcher
}

export class WorkbayHandler
  extends Context.Tag("@workbay/http/WorkbayHandler")<WorkbayHandler, WorkbayHandlerShape>()
{}

/** What the services need besides storage; each has a production default. */
export interface WorkbayOptions {
  readonly settings?: Partial<SettingsShape> | undefined
  readonly http?: HttpOptions | undefined
  /** log2 of scrypt's N. Default 15; tests use less. */
  readonly passwordHashCost?: number | undefined
  /**
   * Deliver one-time passcode mail yourself. Default: none, and the passcode goes out through the
   * notifier (the One-Time Passcode template by smtp, with the `email` settings).
   */
  readonly mail?: Layer.Layer<MailSender> | undefined
  /**
   * The retention purge (audit entries, connection log entries, expired API keys, by the
   * `retention*` settings): runs at start and then every `interval` (default one hour).
   * `false` turns it off, e.g. when another process purges. Default: on.
   */
  readonly retention?: false | RetentionOptions | undefined
  /**
   * The hang detector: fails running provisioner jobs whose worker stopped reporting for
   * `timeout` (default 5 minutes), sweeping every `interval` (default one minute), and jobs
   * bound to a host no daemon of which took them within `hostWait` (default 2 minutes). Safe
   * with several processes on one database (each sweep is one conditional update). `false`
   * turns it off. Default: on.
   */
  readonly hangDetector?: false | HangDetectorOptions | undefined
  /**
   * The workspace lifecycle executor: autostart, autostop at deadlines, failed-build stops,
   * dormancy and autodelete, ticking every `interval` (default one minute). One tick runs at a
   * time across processes sharing a Postgres database (an advisory lock). `false` turns it off.
   * Default: on.
   */
  readonly lifecycle?: false | LifecycleOptions | undefined
  /**
   * The prebuilds reconciler (docs/prebuilds.md): keeps each template's active version's presets'
   * prebuilt workspaces, ticking every `interval` (default 15 s). One tick runs at a time across
   * processes sharing a Postgres database (an advisory lock). `false` turns it off. Default: on.
   */
  readonly prebuilds?: false | PrebuildsOptions | undefined
  /**
   * The agent connection monitor: marks agents disconnected whose connection vanished without a
   * close (not refreshed for 30 s) and deletes agent stats past their retention, sweeping every
   * `interval` (default 15 s). One sweep at a time across processes sharing a Postgres database.
   * `false` turns it off. Default: on.
   */
  readonly agentMonitor?: false | AgentMonitorOptions | undefined
  /**
   * The batches of agents' reports (docs/agents.md, "Batched reports"): stats, metadata values
   * and connection refreshes are kept in memory and written together every `interval` (default
   * 1 s), one statement per kind, and once more when the service stops. `false`: each report is
   * written as it comes. Default: on.
   */
  readonly reportBatch?: false | ReportBatchOptions | undefined
  /**
   * The insights rollup: folds agent stats and app opens into hourly rollups and records users'
   * status changes, every `interval` (default 5 minutes); one pass per tick across processes
   * sharing a Postgres database. `false` turns it off. Default: on.
   */
  readonly insightsRollup?: false | InsightsRollupOptions | undefined
  /**
   * The provisioners jobs can name (by `type`). Default: the built-in `workbay` one. Embedders
   * pass theirs, with `workbayProvisioner` if they keep it.
   */
  readonly provisioners?: ReadonlyArray<Provisioner> | undefined
  /**
   * The built-in provisioner workers, which run the queued jobs of every registered provisioner
   * type in every organization: `count` (default 2), `pollInterval` (1 s), `heartbeatInterval`
   * (10 s), `tags` (`{ scope: "organization" }`), `name` (`built-in`; give each replica its own).
   * `false` runs none, e.g. on API-only replicas: jobs wait for a process that runs workers.
   * Default: on.
   */
  readonly workers?: false | WorkerOptions | undefined
  /**
   * The command the external agent credentials route answers, before `--url <access URL> --token
   * <token>`: how a user starts an agent on their own machine. Default `npx -y @workbay/agent`;
   * the standalone server gives the path of its own agent bundle.
   */
  readonly agentCommand?: string | undefined
  /**
   * The folder of the agent's executables (`workbay-agent-<os>-<arch>`, as `scripts/executables.mjs`
   * builds them), served at `/bin/` for the init script (`/api/v2/init-script/{os}/{arch}`) to
   * download. Default: none, and `/bin/workbay-agent-*` answers 404. The standalone server gives the ones it was built with.
   */
  readonly agentBinaries?: string | undefined
  /**
   * The folder of the `workbay` command line's executables (`workbay-<os>-<arch>`, as
   * `scripts/executables.mjs cli` builds them), served at `/bin/workbay-<os>-<arch>` (and each
   * one's checksum at `.sha256`) for people to download with `curl`. Default: none, and those
   * answer 404. The standalone server gives the ones it was built with.
   */
  readonly cliBinaries?: string | undefined
  /**
   * The web dashboard (docs/dashboard.md): `{ dir: dashboardDir }` with `dashboardDir` from
   * `@workbay/dashboard` serves the built single-page application on every GET or HEAD path the
   * service does not own (`/api/v2`, the OAuth2 routes, `/bin/`, `/healthz` and the apps stay the
   * service's). Default: none, and those paths answer 404 as before.
   */
  readonly dashboard?: DashboardOptions | undefined
  /**
   * The notifier, which sends queued notifications (docs/notifications.md): fetches every
   * `interval` (default the `notificationsFetchInterval` setting, 15 s). Safe with several
   * processes on one database (leases with SKIP LOCKED). `false` turns it off. Default: on.
   */
  readonly notifier?: false | NotifierOptions | undefined
  /** Replace the smtp and webhook senders of notifications (default: nodemailer and fetch, from the settings). */
  readonly notificationSenders?: Layer.Layer<NotificationSenders> | undefined
  /**
   * The workspace proxies' health checker: asks each registered proxy for its health report every
   * `interval` (default the `proxyHealthStatusInterval` setting, one minute). One check at a time
   * across processes sharing a Postgres database. `false` turns it off. Default: on.
   */
  readonly proxyHealth?: false | ProxyHealthOptions | undefined
  /** The lowest level logged: `debug` (adds one line per request), `info` (default), `warning`, `error` or `none`. */
  readonly logLevel?: LogLevelName | LogLevel.LogLevel | undefined
  /**
   * Where the log goes: the built-in logger's `format` (`human`, the default, or `json`) and
   * `write` (default: standard error), which redacts secrets (docs/operations.md); or a logger of
   * your own, which replaces it.
   */
  readonly logger?:
    | { readonly format?: LogFormat | undefined; readonly write?: ((line: string) => void) | undefined }
    | Logger.Logger<unknown, unknown>
    | undefined
  /**
   * Prometheus metrics (`makePrometheusMetrics()`): requests, WebSockets, database statements,
   * provisioner jobs and notifications are reported into it, and its scrape-time gauges read
   * this service. Serve its `text()` yourself (docs/operations.md, "Metrics"). Default: none,
   * and nothing is measured.
   */
  readonly metrics?: PrometheusMetrics | undefined
  /**
   * A layer that sets the tracer spans go to (docs/tracing.md), e.g. `Tracer.layer` of
   * @effect/opentelemetry with its provider and resource: then each request has a server span
   * with its service calls and SQL statements under it, and each provisioner job run a span.
   * Released last, when the service is disposed (a batching exporter flushes then). Default:
   * none, and no span is recorded while serving requests.
   */
  readonly tracer?: Layer.Layer<never> | undefined
}

/** The core services and ports, given a storage layer. */
export const servicesLayer = <E>(storage: Layer.Layer<StoragePorts, E>, options: WorkbayOptions = {}) =>
  servicesOn(
    withSecretBox(
      options.metrics === undefined ? storage : storage.pipe(Layer.provide(Metrics.layer(options.metrics.port))),
      options
    ),
    options
  ).pipe(
    Layer.provideMerge(options.metrics === undefined ? Layer.empty : Metrics.layer(options.metrics.port))
  )

/**
 * The storage with the deployment's `SecretBox` (from `settings.externalTokenEncryptionKeys`):
 * its repositories seal and open third-party secrets with it, and it checks the keys against the
 * database at start. Without keys, a warning at start (docs/external-auth.md, "Tokens at rest").
 */
const withSecretBox = <E>(
  storage: Layer.Layer<StoragePorts, E>,
  options: WorkbayOptions
): Layer.Layer<StoragePorts, E> => {
  const keys = options.settings?.externalTokenEncryptionKeys ?? []
  const check = Layer.effectDiscard(Effect.gen(function*() {
    const box = yield* SecretBox
    yield* Effect.flatMap(SecretKeyRepo, (repo) => repo.ensure(box)).pipe(
      Effect.catchTag("EncryptionKeysRefused", (e) => Effect.die(new Error(e.message)))
    )
    if (box.primary === null) yield* Effect.logWarning(UNENCRYPTED_SECRETS_WARNING)
  }))
  return Layer.provideMerge(check, storage).pipe(Layer.provide(keys.length === 0 ? Layer.empty : SecretBox.layer(keys)))
}

/** The executables served at /bin/: the agent's and the command line's folders, when given. */
const binariesOf = (options: WorkbayOptions): Layer.Layer<Binaries> => {
  const dirs = [options.agentBinaries, options.cliBinaries].filter((d): d is string => d !== undefined)
  return dirs.length === 0 ? Binaries.none : binariesFromDirectories(dirs)
}

const servicesOn = <E>(storage: Layer.Layer<StoragePorts, E>, options: WorkbayOptions) =>
  Layer.mergeAll(ProvisionerWorkers.Default, Notifier.Default, StreamEnds.layer, MoveLinks.layer).pipe(
    Layer.provideMerge(ServicesLive),
    Layer.provideMerge(options.notificationSenders ?? NotificationSenders.live),
    Layer.provideMerge(
      Layer.mergeAll(
        storage,
        settingsWithDeploymentId(options.settings).pipe(Layer.provide(storage)),
        ThisReplica.layer(options.settings?.derpServerRelayUrl ?? "").pipe(Layer.provide(storage)),
        PasswordHasher.scrypt(options.passwordHashCost),
        options.mail ?? Layer.empty,
        IdGenerator.layer,
        Provisioners.layer(options.provisioners ?? [workbayProvisioner]),
        options.agentCommand === undefined ? Layer.empty : Layer.succeed(AgentCommand, options.agentCommand),
        binariesOf(options)
      )
    )
  )

type Services = Layer.Layer.Success<ReturnType<typeof servicesOn>>

/** The services and ports a Workbay runtime holds (what `Workbay.run` may use). */
export type WorkbayServices = Services

/** Options of `layer`: the HTTP options, and the background work (each default on; `false` turns it off). */
export interface LayerOptions extends HttpOptions {
  readonly retention?: false | RetentionOptions | undefined
  readonly hangDetector?: false | HangDetectorOptions | undefined
  readonly lifecycle?: false | LifecycleOptions | undefined
  readonly prebuilds?: false | PrebuildsOptions | undefined
  readonly agentMonitor?: false | AgentMonitorOptions | undefined
  readonly reportBatch?: false | ReportBatchOptions | undefined
  readonly insightsRollup?: false | InsightsRollupOptions | undefined
  readonly workers?: false | WorkerOptions | undefined
  readonly notifier?: false | NotifierOptions | undefined
  readonly proxyHealth?: false | ProxyHealthOptions | undefined
  /** The web dashboard on the paths the service does not own (`WorkbayOptions.dashboard`). */
  readonly dashboard?: DashboardOptions | undefined
}

/**
 * The handler as a layer, for applications built with Effect. It also runs the background work
 * (the retention purge, the provisioner jobs' hang detector, the provisioner workers) unless
 * told not to; all of it stops when the layer's scope closes.
 */
export const layer = (options?: LayerOptions): Layer.Layer<WorkbayHandler, never, Services | Auth | Settings> =>
  Layer.mergeAll(
    Layer.scoped(
      WorkbayHandler,
      Effect.flatMap(Effect.runtime<Services | Auth | Settings>(), (runtime) => {
        const dispatcher = makeDispatcher(
          WorkbayApi,
          implementations as ReadonlyArray<GroupImplementation<any>>,
          runtime,
          options
        )
        return Effect.map(webSocketHub(dispatcher), (hub) => handlerShape(dispatcher, hub, options?.dashboard))
      })
    ),
    options?.retention === false ? Layer.empty : Retention.periodic(options?.retention ?? {}),
    options?.hangDetector === false ? Layer.empty : HangDetector.periodic(options?.hangDetector ?? {}),
    ProvisionerHosts.periodic,
    options?.lifecycle === false ? Layer.empty : lifecycleExecutorPeriodic(options?.lifecycle ?? {}),
    options?.prebuilds === false ? Layer.empty : prebuildsReconcilerPeriodic(options?.prebuilds ?? {}),
    options?.agentMonitor === false ? Layer.empty : agentConnectionMonitorPeriodic(options?.agentMonitor ?? {}),
    options?.reportBatch === false ? Layer.empty : AgentReportBatch.periodic(options?.reportBatch ?? {}),
    options?.workers === false ? Layer.empty : ProvisionerWorkers.layer(options?.workers ?? {}),
    options?.notifier === false ? Layer.empty : notifierPeriodic(options?.notifier ?? {}),
    options?.insightsRollup === false ? Layer.empty : insightsRollupPeriodic(options?.insightsRollup ?? {}),
    options?.proxyHealth === false ? Layer.empty : proxyHealthPeriodic(options?.proxyHealth ?? {}),
    replicaRegistration
  )

/** The WebSocket hub of `dispatcher`, closed (every socket with 1001) when the scope closes. */
export const webSocketHub = (dispatcher: Dispatcher) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      makeWebSocketHub({
        maxMessageBytes: dispatcher.options.maxWebSocketMessageBytes ?? 32 * 1024,
        // Routes whose peers send large messages (the provisioner daemons' results) take the file limit.
        maxLargeMessageBytes: dispatcher.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
        pingIntervalMillis: dispatcher.options.webSocketPingIntervalMillis ?? 15_000,
        streamRelay: dispatcher.options.streamRelay,
        runFork: dispatcher.runFork
      })
    ),
    (hub) => Effect.promise(() => hub.close())
  )

/** The handlers of a dispatcher and its WebSocket hub. */
export const handlerShape = (
  dispatcher: Dispatcher,
  hub: WebSocketHub,
  dashboard?: DashboardOptions | undefined
): WorkbayHandlerShape => {
  const api = toNodeHandler(dispatcher)
  // Path-based workspace apps (`/@owner/workspace/apps/slug/...`) sit outside /api/v2, as in the described system.
  const apps = makeAppProxyHandler(dispatcher)
  const serviceNode: NodeHandler = (req, res, next) =>
    apps.owns(req.url ?? "/") ? apps.node(req, res) : api(req, res, next)
  const webApi = toWebHandler(dispatcher)
  const serviceWeb: WebHandler = (request, info) =>
    apps.owns(new URL(request.url).pathname) ? apps.web(request, info) : webApi(request, info)
  // The dashboard takes only what the service does not own.
  const inner = dashboard === undefined
    ? { node: serviceNode, web: serviceWeb }
    : withDashboardHandlers(
      { node: serviceNode, web: serviceWeb },
      (path) => dispatcher.owns(path) || apps.owns(path),
      dashboard
    )
  // A subdomain app's host (under the wildcard app host) is the app's on every path: neither the API nor the dashboard.
  const node: NodeHandler = (req, res, next) =>
    apps.ownsHost(req.headers.host) ? apps.node(req, res) : inner.node(req, res, next)
  const web: WebHandler = (request, info) =>
    apps.ownsHost(request.headers.get("host") ?? new URL(request.url).host)
      ? apps.web(request, info)
      : inner.web(request, info)
  const serviceUpgrade = toNodeUpgradeHandler(dispatcher, hub)
  // WebSockets to apps are not carried (docs/agents.md, "Web apps"): an upgrade on an app host goes to the host
  // application's listener, or 404, as one on an app path; never to the API.
  const upgrade: typeof serviceUpgrade = (req, socket, head, next) => {
    if (!apps.ownsHost(req.headers.host)) return serviceUpgrade(req, socket, head, next)
    if (next !== undefined) return next()
    const body = JSON.stringify({
      message: "Route not found.",
      detail: "WebSockets to workspace apps are not carried."
    })
    socket.end(
      `HTTP/1.1 404 Not Found\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${
        Buffer.byteLength(body)
      }\r\nconnection: close\r\n\r\n${body}`
    )
  }
  return {
    node,
    web,
    upgrade,
    attach: (server) => {
      server.on("request", node)
      server.on("upgrade", upgrade)
    },
    closeWebSockets: hub.close,
    webSockets: hub,
    dispatcher
  }
}

export interface Workbay extends WorkbayHandlerShape {
  /**
   * Runs an effect on the service's runtime (its storage and services): for in-process callers
   * such as agents recording connections (`AuditLogs.connect`), and for tests.
   */
  readonly run: <A, E>(effect: Effect.Effect<A, E, WorkbayServices>) => Promise<A>
  /** Closes the WebSockets (1001), stops the background work and closes storage connections. */
  readonly dispose: () => Promise<void>
}

/** Builds the service on `storage` (runs migrations) and returns its handlers. */
export const makeWorkbay = async <E>(
  storage: Layer.Layer<StoragePorts, E>,
  options: WorkbayOptions = {}
): Promise<Workbay> => {
  // Built node after node (core's SequentialLayer.ts): the same layer, without Effect's machinery per node.
  const runtime = ManagedRuntime.make(sequential(
    layer({
      ...options.http,
      retention: options.retention,
      hangDetector: options.hangDetector,
      lifecycle: options.lifecycle,
      prebuilds: options.prebuilds,
      agentMonitor: options.agentMonitor,
      reportBatch: options.reportBatch,
      workers: options.workers,
      notifier: options.notifier,
      insightsRollup: options.insightsRollup,
      proxyHealth: options.proxyHealth,
      dashboard: options.dashboard
    }).pipe(
      Layer.provideMerge(servicesLayer(storage, options)),
      // Below everything: each fiber of the runtime (requests, background work) logs through it.
      Layer.provide(workbayLogging(options)),
      // Under that, the tracer: every fiber of the runtime records its spans with it.
      Layer.provide(options.tracer ?? Layer.empty)
    )
  ))
  const handler = await runtime.runPromise(WorkbayHandler)
  options.metrics?.bind({
    webSockets: () => handler.webSockets.size(),
    // Storage's reads, and the prebuilds reconciler's metrics (docs/prebuilds.md, "Metrics").
    snapshot: () =>
      runtime.runPromise(
        Effect.all([
          Effect.flatMap(MetricsSnapshotRepo, (repo) => repo.snapshot),
          Effect.flatMap(PrebuildsReconciler, (reconciler) => reconciler.metrics)
        ], { concurrency: 2 }).pipe(Effect.map(([snapshot, prebuilds]) => ({ ...snapshot, prebuilds })))
      )
  })
  return { ...handler, run: (effect) => runtime.runPromise(effect), dispose: () => runtime.dispose() }
}

/** The logging layer of `options`: the built-in redacting logger (or the embedder's) at the chosen level. */
const workbayLogging = (options: WorkbayOptions) => {
  const given = options.logger
  const custom = given !== undefined && "log" in given ? given : undefined
  const builtIn = custom === undefined
    ? (given as { format?: LogFormat; write?: (line: string) => void } | undefined)
    : undefined
  return loggingLayer({
    level: options.logLevel,
    format: builtIn?.format ?? "human",
    write: builtIn?.write,
    ...(custom === undefined ? {} : { logger: custom })
  })
}
