/** Starts the standalone server: storage from config, the API on node:http. */
import { makePrometheusMetrics, makeWorkbay, type PrometheusMetrics, type Workbay } from "@workbay/http"
import { createServer, type Server } from "node:http"
import { hostname } from "node:os"
import type { AddressInfo } from "node:net"
import { agentCommandOf, redactUrl, type ServerConfig, sqlitePath } from "./Config.js"

export interface RunningServer {
  readonly server: Server
  readonly workbay: Workbay
  readonly url: string
  readonly storage: string
  /** The Prometheus listener's URL (`http://host:port/metrics`), when metrics are on. */
  readonly metricsUrl: string | undefined
  readonly close: () => Promise<void>
}

/** Builds the service and listens. Resolves once the port is bound. */
export const startServer = async (config: ServerConfig): Promise<RunningServer> => {
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
  const prometheus = config.prometheus
  const metrics = prometheus.enable?.value === true ? makePrometheusMetrics() : undefined
  const notifications = [...Object.entries(config.notifications), ...Object.entries(config.signIn)]
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
      ...Object.fromEntries(notifications.map(([setting, given]) => [setting, given.value])),
      ...(config.externalAuth !== undefined ? { externalAuth: config.externalAuth.value } : {}),
      ...(prometheus.enable !== undefined ? { prometheusEnable: prometheus.enable.value } : {}),
      ...(prometheus.address !== undefined ? { prometheusAddress: prometheus.address.value.text } : {}),
      valueSources: {
        ...(prometheus.enable !== undefined ? { prometheusEnable: prometheus.enable.source } : {}),
        ...(prometheus.address !== undefined ? { prometheusAddress: prometheus.address.source } : {}),
        ...Object.fromEntries(notifications.map(([setting, given]) => [setting, given.source])),
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
    // Named after the host, so each replica's workers have their own daemon rows.
    workers: config.provisionerDaemons === 0 ? false : { count: config.provisionerDaemons, name: hostname() }
  })
  const server = createServer({ keepAliveTimeout: 65_000 })
  workbay.attach(server)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(config.port, config.host, () => resolve())
  })
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
    close: async () => {
      await metricsServer?.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      // Upgraded sockets count as the server's connections: close them (1001) so that it can stop.
      await workbay.closeWebSockets()
      await closed
      server.closeAllConnections()
      await workbay.dispose()
    }
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
