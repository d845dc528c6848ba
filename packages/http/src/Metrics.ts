/**
 * Prometheus metrics with prom-client: core's `Metrics` port as counters and histograms, and
 * gauges read when scraped (open WebSockets, queued jobs, builds in flight, workspaces, connected
 * agents; the database reads cached `cacheMillis`). Names and labels follow the described
 * system's where it has them (`coderd_api_*`, `coderd_provisionerd_*`, `coderd_notifications_*`,
 * `coderd_db_*`); the series it has not are `workbay_*`. Every series: docs/operations.md.
 *
 * `makeWorkbay({ metrics })` reports into it and binds its gauges; the embedder serves `text()`
 * where it likes (the standalone server on `--prometheus-address`).
 */
import { type MetricsShape, type MetricsSnapshot } from "@workbay/core"
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client"

export interface PrometheusMetricsOptions {
  /** Register into this registry (default: a new one, so two services in one process do not clash). */
  readonly registry?: Registry | undefined
  /** Also collect prom-client's process metrics (CPU, memory, event loop lag, GC). Default true. */
  readonly processMetrics?: boolean | undefined
  /** How long the database gauges' reads are kept before a scrape reads again. Default 5000 ms. */
  readonly cacheMillis?: number | undefined
}

/** What the scrape-time gauges read from a running service. */
export interface MetricsSource {
  /** Open WebSockets of this process. */
  readonly webSockets: () => number
  /** The database gauges' reads (core's `MetricsSnapshotRepo`). */
  readonly snapshot: () => Promise<MetricsSnapshot>
}

export interface PrometheusMetrics {
  /** The core port: give it to `makeWorkbay({ metrics })` (which takes this whole object). */
  readonly port: MetricsShape
  readonly registry: Registry
  /** The exposition format's content type, for the `Content-Type` of a scrape's answer. */
  readonly contentType: string
  /** The exposition text of every series: the body of `GET /metrics`. */
  readonly text: () => Promise<string>
  /** Connects the scrape-time gauges to a running service (`makeWorkbay` does it). */
  readonly bind: (source: MetricsSource) => void
}

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5, 10, 30]
const WEBSOCKET_BUCKETS = [0.001, 1, 60, 3600, 54000, 108000]
const QUERY_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5]
const JOB_BUCKETS = [1, 10, 30, 60, 300, 600, 1800, 3600]
const SEND_BUCKETS = [0.001, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120]

/** The metrics of one service. */
export const makePrometheusMetrics = (options: PrometheusMetricsOptions = {}): PrometheusMetrics => {
  const registry = options.registry ?? new Registry()
  const registers = [registry]
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry })
  const cacheMillis = options.cacheMillis ?? 5000

  const requests = new Counter({
    name: "coderd_api_requests_processed_total",
    help: "The total number of processed API requests",
    labelNames: ["code", "method", "path"] as const,
    registers
  })
  const concurrent = new Gauge({ name: "coderd_api_concurrent_requests", help: "The number of concurrent API requests", registers })
  const latencies = new Histogram({
    name: "coderd_api_request_latencies_seconds",
    help: "Latency distribution of requests in seconds",
    labelNames: ["method", "path"] as const,
    buckets: LATENCY_BUCKETS,
    registers
  })
  const webSocketDurations = new Histogram({
    name: "coderd_api_websocket_durations_seconds",
    help: "Websocket duration distribution of requests in seconds",
    labelNames: ["path"] as const,
    buckets: WEBSOCKET_BUCKETS,
    registers
  })
  const queries = new Histogram({
    name: "coderd_db_query_latencies_seconds",
    help: "Latency distribution of database statements in seconds",
    buckets: QUERY_BUCKETS,
    registers
  })
  const jobsCurrent = new Gauge({
    name: "coderd_provisionerd_jobs_current",
    help: "The number of currently running provisioner jobs of this process's built-in workers",
    labelNames: ["provisioner"] as const,
    registers
  })
  const jobTimings = new Histogram({
    name: "coderd_provisionerd_job_timings_seconds",
    help: "The provisioner job time duration in seconds",
    labelNames: ["provisioner", "status"] as const,
    buckets: JOB_BUCKETS,
    registers
  })
  const dispatchAttempts = new Counter({
    name: "coderd_notifications_dispatch_attempts_total",
    help: "The number of dispatch attempts, aggregated by the result type",
    labelNames: ["method", "notification_template_id", "result"] as const,
    registers
  })
  const sendSeconds = new Histogram({
    name: "coderd_notifications_dispatcher_send_seconds",
    help: "The time taken to dispatch notifications",
    labelNames: ["method"] as const,
    buckets: SEND_BUCKETS,
    registers
  })

  let source: MetricsSource | undefined
  let cached: { at: number; value: Promise<MetricsSnapshot | undefined> } | undefined
  /** The database reads, at most once per `cacheMillis` (concurrent scrapes share one read). */
  const snapshot = (): Promise<MetricsSnapshot | undefined> => {
    if (source === undefined) return Promise.resolve(undefined)
    const now = Date.now()
    if (cached === undefined || now - cached.at >= cacheMillis) {
      cached = { at: now, value: source.snapshot().catch(() => undefined) }
    }
    return cached.value
  }

  new Gauge({
    name: "coderd_api_concurrent_websockets",
    help: "The total number of concurrent API websockets",
    registers,
    collect() {
      this.set(source?.webSockets() ?? 0)
    }
  })
  new Gauge({
    name: "workbay_provisioner_jobs_pending",
    help: "Queued provisioner jobs (the queue depth), by provisioner type; deployment-wide",
    labelNames: ["provisioner"] as const,
    registers,
    async collect() {
      const s = await snapshot()
      this.reset()
      for (const p of s?.pendingJobs ?? []) this.set({ provisioner: p.provisioner }, p.count)
    }
  })
  new Gauge({
    name: "workbay_workspace_builds_in_flight",
    help: "Workspace builds whose job is pending, running or canceling; deployment-wide",
    labelNames: ["status"] as const,
    registers,
    async collect() {
      const s = await snapshot()
      if (s === undefined) return
      for (const b of s.buildsInFlight) this.set({ status: b.status }, b.count)
    }
  })
  new Gauge({
    name: "workbay_workspaces",
    help: "Live workspaces: started (latest build a succeeded start) and other; deployment-wide",
    labelNames: ["state"] as const,
    registers,
    async collect() {
      const s = await snapshot()
      if (s === undefined) return
      this.set({ state: "started" }, s.workspaces.started)
      this.set({ state: "other" }, s.workspaces.other)
    }
  })
  new Gauge({
    name: "workbay_agents_connected",
    help: "Workspace agents with an open connection; deployment-wide",
    registers,
    async collect() {
      const s = await snapshot()
      if (s !== undefined) this.set(s.connectedAgents)
    }
  })

  const port: MetricsShape = {
    enabled: true,
    requestStarted: () => concurrent.inc(),
    requestFinished: (method, path, status, seconds) => {
      concurrent.dec()
      requests.inc({ code: status, method, path })
      latencies.observe({ method, path }, seconds)
    },
    webSocketClosed: (path, seconds) => webSocketDurations.observe({ path }, seconds),
    databaseQuery: (seconds) => queries.observe(seconds),
    jobRunning: (provisioner, delta) => jobsCurrent.inc({ provisioner }, delta),
    jobFinished: (provisioner, status, seconds) => jobTimings.observe({ provisioner, status }, seconds),
    notificationDispatched: (method, templateId, result, seconds) => {
      dispatchAttempts.inc({ method, notification_template_id: templateId, result })
      sendSeconds.observe({ method }, seconds)
    }
  }

  return {
    port,
    registry,
    contentType: registry.contentType,
    text: () => registry.metrics(),
    bind: (s) => {
      source = s
      cached = undefined
    }
  }
}
