/**
 * Starts the standalone server: storage from config, the API on node:http, and the graceful
 * shutdown. Its parts: the answers while starting (Starting.ts), the requests in flight
 * (RequestTracking.ts), the metrics listener (MetricsListener.ts), the settings given to the
 * service (WorkbaySettings.ts) and the tracer of `--trace` (Tracing.ts).
 */
import { defaultSettings, workbayProvisioner } from "@workbay/core"
import { watchVanishedContainers } from "@workbay/docker"
import { type LogLevelName, makePrometheusMetrics, makeWorkbay, type Workbay } from "@workbay/http"
import { Duration, Effect, Fiber } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { hostname } from "node:os"
import {
  agentBinariesOf,
  agentCommandOf,
  cliBinariesOf,
  dashboardDirOf,
  redactUrl,
  type ServerConfig,
  sqlitePath,
  streamRelayOf
} from "./Config.js"
import { chooseDocker } from "./Docker.js"
import { serveMetrics } from "./MetricsListener.js"
import { trackRequests } from "./RequestTracking.js"
import { answerWhileStarting } from "./Starting.js"
import { workbaySettings } from "./WorkbaySettings.js"

export interface RunningServer {
  readonly server: Server
  readonly workbay: Workbay
  readonly url: string
  readonly storage: string
  /** The Prometheus listener's URL (`http://host:port/metrics`), when metrics are on. */
  readonly metricsUrl: string | undefined
  /** Where the dashboard is served from, or that none is (a start-up line). */
  readonly dashboard: string
  /** The dashboard's URL, when it is served. */
  readonly dashboardUrl: string | undefined
  /** What was decided about the docker provisioner, and why (a start-up line). */
  readonly docker: string
  /** Where spans are exported, when `--trace` is on (a start-up line). */
  readonly tracing: string | undefined
  /**
   * The graceful shutdown (docs/operations.md): stops accepting connections, closes the WebSockets
   * (1001), waits up to `timeout` (default the `--shutdown-timeout` setting) for in-flight requests
   * (event streams are ended), then stops the background work (a running provisioner job is
   * failed, leased notifications go back to pending) and closes the database.
   */
  readonly close: (timeout?: Duration.Duration) => Promise<void>
}

/** Where the metrics listener binds when `--prometheus-address` is not given. */
const DEFAULT_METRICS_ADDRESS = { host: "127.0.0.1", port: 2112 }

/**
 * Listens at once (answering 503 but `/healthz` while starting), builds the service (storage,
 * migrations), then serves it. Resolves once the service serves.
 */
export const startServer = async (config: ServerConfig): Promise<RunningServer> => {
  const server = createServer({ keepAliveTimeout: 65_000 })
  const started = answerWhileStarting(server)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(config.port, config.host, () => resolve())
  })
  try {
    return await serve(server, config, started)
  } catch (e) {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    throw e
  }
}

const serve = async (server: Server, config: ServerConfig, started: () => void): Promise<RunningServer> => {
  // Each storage is loaded only when used: the Postgres driver alone costs a SQLite deployment
  // about 60 ms of start-up and several MB (the bundle puts it in a chunk of its own).
  const storage = config.databaseUrl
    ? {
      layer: (await import("@workbay/storage-postgres")).layer({
        url: config.databaseUrl,
        maxConnections: config.settings.pgConnMaxOpen?.value as number | undefined
      }),
      label: `PostgreSQL at ${redactUrl(config.databaseUrl)}`
    }
    : {
      layer: (await import("@workbay/storage-sqlite")).layer({
        filename: sqlitePath(config),
        locking: config.sqliteLocking
      }),
      label: `SQLite at ${sqlitePath(config)}`
    }
  const prometheus = config.prometheus
  const metrics = prometheus.enable?.value === true ? makePrometheusMetrics() : undefined
  const settings = workbaySettings(config)
  const docker = await chooseDocker(settings)
  const dashboardDir = dashboardDirOf()
  // Loaded only when on: off, no module of OpenTelemetry is evaluated and requests record no span.
  const tracer = config.trace === undefined
    ? undefined
    : (await import("./Tracing.js")).tracingLayer(config.trace, settings.version ?? defaultSettings.version)
  // The retention purge runs inside the server (makeWorkbay's default): at start, then hourly.
  const workbay = await makeWorkbay(storage.layer, {
    settings: { ...settings, dockerProvisioner: docker.provisioner === undefined ? "off" : "on" },
    provisioners: docker.provisioner === undefined ? [workbayProvisioner] : [workbayProvisioner, docker.provisioner],
    http: {
      sessionHeader: config.sessionHeader,
      sessionCookie: config.sessionCookie,
      streamRelay: streamRelayOf(config)
    },
    agentCommand: agentCommandOf(config),
    agentBinaries: agentBinariesOf(config),
    cliBinaries: cliBinariesOf(config),
    ...(dashboardDir === undefined ? {} : { dashboard: { dir: dashboardDir } }),
    metrics,
    // Named after the host and the process, so each replica's workers have their own daemon rows,
    // replicas on one host included (a row is per name: a second process of the same name took it).
    workers: config.provisionerDaemons === 0
      ? false
      : { count: config.provisionerDaemons, name: `${hostname()}-${process.pid}` },
    ...(config.autobuildPollInterval !== undefined ? { lifecycle: { interval: config.autobuildPollInterval } } : {}),
    hangDetector: {
      ...(config.hangDetector.interval !== undefined ? { interval: config.hangDetector.interval } : {}),
      ...(config.hangDetector.timeout !== undefined ? { timeout: config.hangDetector.timeout } : {}),
      ...(config.hangDetector.hostWait !== undefined ? { hostWait: config.hangDetector.hostWait } : {})
    },
    logLevel: config.logLevel as LogLevelName,
    logger: { format: config.logFormat },
    tracer
  })
  // Workspaces whose containers are removed behind Workbay's back are stopped (docs/docker.md).
  const dockerWatch = docker.docker === undefined
    ? undefined
    : await workbay.run(Effect.forkDaemon(watchVanishedContainers(docker.docker)))
  started()
  workbay.attach(server)
  const inFlight = trackRequests(server)
  const metricsListener = metrics === undefined
    ? undefined
    : await serveMetrics(metrics, prometheus.address?.value ?? DEFAULT_METRICS_ADDRESS).catch(async (e) => {
      server.close()
      await workbay.dispose()
      throw e
    })
  const address = server.address() as AddressInfo
  const host = config.host ?? "localhost"
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`
  return {
    server,
    workbay,
    url,
    storage: storage.label,
    metricsUrl: metricsListener?.url,
    dashboardUrl: dashboardDir === undefined ? undefined : `${url}/`,
    dashboard: dashboardDir === undefined
      ? "No dashboard: it is not built (npm start builds it); serving the API only."
      : `Dashboard at ${url}/ (from ${dashboardDir}).`,
    docker: docker.line,
    tracing: config.trace === undefined
      ? undefined
      : `Tracing: spans exported over OTLP/HTTP to ${redactUrl(config.trace.endpoint)} as ${config.trace.serviceName}.`,
    close: async (timeout = config.shutdownTimeout) => {
      // No new connections; idle keep-alive connections are closed, busy ones after their answer.
      await metricsListener?.close()
      const drained = inFlight.drain(Duration.toMillis(timeout))
      // Upgraded sockets count as the server's connections: close them (1001) so that it can stop.
      await workbay.closeWebSockets()
      await drained
      // What is left: event streams, and requests past the bound.
      server.closeAllConnections()
      await inFlight.listenerClosed
      if (dockerWatch !== undefined) await workbay.run(Fiber.interrupt(dockerWatch))
      await workbay.dispose()
    }
  }
}
