/** Starts the standalone server: storage from config, the API on node:http. */
import { type LogLevelName, makePrometheusMetrics, makeWorkbay, type PrometheusMetrics, type Workbay } from "@workbay/http"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { hostname } from "node:os"
import type { AddressInfo } from "node:net"
import { Duration } from "effect"
import { agentCommandOf, redactUrl, type ServerConfig, sqlitePath } from "./Config.js"

export interface RunningServer {
  readonly server: Server
  readonly workbay: Workbay
  readonly url: string
  readonly storage: string
  /** The Prometheus listener's URL (`http://host:port/metrics`), when metrics are on. */
  readonly metricsUrl: string | undefined
  /**
   * The graceful shutdown (docs/operations.md): stops accepting connections, closes the WebSockets
   * (1001), waits up to `timeout` (default the `--shutdown-timeout` setting) for in-flight requests
   * (event streams are ended), then stops the background work (a running provisioner job is
   * failed, leased notifications go back to pending) and closes the database.
   */
  readonly close: (timeout?: Duration.Duration) => Promise<void>
}

/**
 * What the server answers while it starts (storage connecting, migrations running): `/healthz`
 * 200 (the process serves), everything else 503 with the Response object, so that a load
 * balancer sees it alive but not ready (docs/health.md).
 */
const starting = (req: IncomingMessage, res: ServerResponse) => {
  const path = (req.url ?? "/").split("?")[0]
  if (path === "/healthz") {
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }).end(req.method === "HEAD" ? undefined : "OK")
    return
  }
  res.writeHead(503, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "retry-after": "1" })
    .end(JSON.stringify({ message: "Not ready.", detail: "The service is starting: its database is connecting or being migrated." }))
}
const startingUpgrade = (_req: IncomingMessage, socket: Duplex) => {
  socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
}

/**
 * Listens at once (answering 503 but `/healthz` while starting), builds the service (storage,
 * migrations), then serves it. Resolves once the service serves.
 */
export const startServer = async (config: ServerConfig): Promise<RunningServer> => {
  const server = createServer({ keepAliveTimeout: 65_000 })
  server.on("request", starting)
  server.on("upgrade", startingUpgrade)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(config.port, config.host, () => resolve())
  })
  try {
    return await serve(server, config)
  } catch (e) {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    throw e
  }
}

const serve = async (server: Server, config: ServerConfig): Promise<RunningServer> => {
  // Each storage is loaded only when used: the Postgres driver alone costs a SQLite deployment
  // about 60 ms of start-up and several MB (the bundle puts it in a chunk of its own).
  const storage = config.databaseUrl
    ? {
        layer: (await import("@workbay/storage-postgres")).layer({ url: config.databaseUrl }),
        label: `PostgreSQL at ${redactUrl(config.databaseUrl)}`
      }
    : {
        layer: (await import("@workbay/storage-sqlite")).layer({ filename: sqlitePath(config), locking: config.sqliteLocking }),
        label: `SQLite at ${sqlitePath(config)}`
      }
  // The retention purge runs inside the server (makeWorkbay's default): at start, then hourly.
  const { auditLogs, connectionLogs, apiKeys, workspaceAgentLogs } = config.retention
  const sharing = config.disableWorkspaceSharing
  const identity = config.instanceIdentity
  const pathApps = config.pathApps
  const given = Object.entries(config.settings)
  const prometheus = config.prometheus
  const metrics = prometheus.enable?.value === true ? makePrometheusMetrics() : undefined
  const workbay = await makeWorkbay(storage.layer, {
    settings: {
      accessUrl: config.accessUrl, swaggerEnable: config.swaggerEnable, experiments: config.experiments,
      ...(auditLogs !== undefined ? { retentionAuditLogs: auditLogs.value } : {}),
      ...(connectionLogs !== undefined ? { retentionConnectionLogs: connectionLogs.value } : {}),
      ...(apiKeys !== undefined ? { retentionApiKeys: apiKeys.value } : {}),
      ...(workspaceAgentLogs !== undefined ? { retentionWorkspaceAgentLogs: workspaceAgentLogs.value } : {}),
      ...(sharing !== undefined ? { disableWorkspaceSharing: sharing.value } : {}),
      ...(pathApps.disable !== undefined ? { disablePathApps: pathApps.disable.value } : {}),
      ...(pathApps.allowSharing !== undefined ? { dangerousAllowPathAppSharing: pathApps.allowSharing.value } : {}),
      ...(pathApps.allowSiteOwnerAccess !== undefined ? { dangerousAllowPathAppSiteOwnerAccess: pathApps.allowSiteOwnerAccess.value } : {}),
      ...(config.relayMap !== undefined ? { relayMap: config.relayMap } : {}),
      ...(identity.aws !== undefined ? { awsInstanceIdentityCertificates: [identity.aws.value] } : {}),
      ...(identity.azure !== undefined ? { azureInstanceIdentityCertificates: [identity.azure.value] } : {}),
      ...(identity.google !== undefined ? { googleInstanceIdentityKeys: [identity.google.value] } : {}),
      ...Object.fromEntries(given.map(([setting, { value }]) => [setting, value])),
      ...(config.externalAuth !== undefined ? { externalAuth: config.externalAuth.value } : {}),
      ...(prometheus.enable !== undefined ? { prometheusEnable: prometheus.enable.value } : {}),
      ...(prometheus.address !== undefined ? { prometheusAddress: prometheus.address.value.text } : {}),
      valueSources: {
        ...Object.fromEntries(given.map(([setting, { source }]) => [setting, source])),
        ...(prometheus.enable !== undefined ? { prometheusEnable: prometheus.enable.source } : {}),
        ...(prometheus.address !== undefined ? { prometheusAddress: prometheus.address.source } : {}),
        ...(auditLogs !== undefined ? { retentionAuditLogs: auditLogs.source } : {}),
        ...(connectionLogs !== undefined ? { retentionConnectionLogs: connectionLogs.source } : {}),
        ...(apiKeys !== undefined ? { retentionApiKeys: apiKeys.source } : {}),
        ...(workspaceAgentLogs !== undefined ? { retentionWorkspaceAgentLogs: workspaceAgentLogs.source } : {}),
        ...(sharing !== undefined ? { disableWorkspaceSharing: sharing.source } : {}),
        ...(pathApps.disable !== undefined ? { disablePathApps: pathApps.disable.source } : {}),
        ...(pathApps.allowSharing !== undefined ? { dangerousAllowPathAppSharing: pathApps.allowSharing.source } : {}),
        ...(pathApps.allowSiteOwnerAccess !== undefined ? { dangerousAllowPathAppSiteOwnerAccess: pathApps.allowSiteOwnerAccess.source } : {}),
        ...(identity.aws !== undefined ? { awsInstanceIdentityCertificates: identity.aws.source } : {}),
        ...(identity.azure !== undefined ? { azureInstanceIdentityCertificates: identity.azure.source } : {}),
        ...(identity.google !== undefined ? { googleInstanceIdentityKeys: identity.google.source } : {}),
        ...(config.externalAuth !== undefined ? { externalAuth: config.externalAuth.source } : {})
      }
    },
    http: { sessionHeader: config.sessionHeader, sessionCookie: config.sessionCookie },
    agentCommand: agentCommandOf(config),
    metrics,
    // Named after the host and the process, so each replica's workers have their own daemon rows,
    // replicas on one host included (a row is per name: a second process of the same name took it).
    workers: config.provisionerDaemons === 0 ? false : { count: config.provisionerDaemons, name: `${hostname()}-${process.pid}` },
    ...(config.autobuildPollInterval !== undefined ? { lifecycle: { interval: config.autobuildPollInterval } } : {}),
    hangDetector: {
      ...(config.hangDetector.interval !== undefined ? { interval: config.hangDetector.interval } : {}),
      ...(config.hangDetector.timeout !== undefined ? { timeout: config.hangDetector.timeout } : {})
    },
    logLevel: config.logLevel as LogLevelName,
    logger: { format: config.logFormat }
  })
  server.off("request", starting)
  server.off("upgrade", startingUpgrade)
  workbay.attach(server)
  const inFlight = trackRequests(server)
  const metricsServer = metrics === undefined
    ? undefined
    : await serveMetrics(metrics, prometheus.address?.value ?? { host: "127.0.0.1", port: 2112, text: "127.0.0.1:2112" }).catch(async (e) => {
      server.close()
      await workbay.dispose()
      throw e
    })
  const address = server.address() as AddressInfo
  const host = config.host ?? "localhost"
  return {
    server,
    workbay,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`,
    storage: storage.label,
    metricsUrl: metricsServer?.url,
    close: async (timeout = config.shutdownTimeout) => {
      // No new connections; idle keep-alive connections are closed, busy ones after their answer.
      await metricsServer?.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      // Upgraded sockets count as the server's connections: close them (1001) so that it can stop.
      await workbay.closeWebSockets()
      await inFlight.drained(Duration.toMillis(timeout))
      // What is left: event streams, and requests past the bound.
      server.closeAllConnections()
      await closed
      await workbay.dispose()
    }
  }
}

/**
 * Counts the server's requests in flight (event streams aside: they never end by themselves).
 * Once the server is closing, each connection is closed after its answer (`Connection: close`).
 */
const trackRequests = (server: Server) => {
  let active = 0
  let closing = false
  const waiters = new Set<() => void>()
  const settle = () => {
    if (active === 0) for (const w of waiters) w()
  }
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    active++
    let counted = true
    const done = () => {
      if (!counted) return
      counted = false
      active--
      settle()
    }
    if (closing) res.shouldKeepAlive = false
    const writeHead = res.writeHead
    res.writeHead = function(this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
      if (closing) res.shouldKeepAlive = false
      const answer = writeHead.apply(this, args)
      const given = args.find((a) => typeof a === "object" && a !== null && !Array.isArray(a)) as Record<string, unknown> | undefined
      const type = given?.["content-type"] ?? res.getHeader("content-type")
      if (String(type ?? "").startsWith("text/event-stream")) done()
      return answer
    } as ServerResponse["writeHead"]
    res.once("finish", done)
    res.once("close", done)
    void req
  })
  return {
    /** Resolves once no request is in flight, or after `ms`. */
    drained: (ms: number) =>
      new Promise<void>((resolve) => {
        closing = true
        if (active === 0) return resolve()
        const timer = setTimeout(finish, ms)
        function finish() {
          clearTimeout(timer)
          waiters.delete(finish)
          resolve()
        }
        waiters.add(finish)
      })
  }
}

/** The Prometheus listener: `GET /metrics` (and `/`), the exposition text; 404 elsewhere. */
const serveMetrics = async (metrics: PrometheusMetrics, at: { readonly host: string; readonly port: number }) => {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]
    if ((req.method !== "GET" && req.method !== "HEAD") || (path !== "/metrics" && path !== "/")) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found. Metrics are at /metrics.\n")
      return
    }
    metrics.text().then(
      (text) => res.writeHead(200, { "content-type": metrics.contentType }).end(req.method === "HEAD" ? undefined : text),
      () => res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Collecting the metrics failed.\n")
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(at.port, at.host === "" ? undefined : at.host, () => resolve())
  })
  const bound = server.address() as AddressInfo
  const host = at.host === "" ? "localhost" : at.host
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${bound.port}/metrics`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  }
}
