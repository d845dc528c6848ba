/**
 * Prometheus metrics with prom-client: core's `Metrics` port as counters and histograms, and
 * gauges read when scraped (open WebSockets, queued jobs, builds in flight, workspaces by their
 * latest build's status, connected agents; the database reads cached `cacheMillis`). Names and labels follow the described
 * system's where it has them (`coderd_api_*`, `coderd_provisionerd_*`, `coderd_notifications_*`,
 * `coderd_db_*`); the series it has not are `workbay_*`. Every series: docs/operations.md.
 *
 * `makeWorkbay({ metrics })` reports into it and binds its gauges; the embedder serves `text()`
 * where it likes (the standalone server on `--prometheus-address`).
 */
import type { MetricsShape, MetricsSnapshot, PrebuildPresetMetrics, WorkspaceStatus } from "@workbay/core"
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client"

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

/** The job status behind each workspace status (the described system's gauge is by job status). */
const JOB_STATUS_OF: Readonly<Record<WorkspaceStatus, string>> = {
  pending: "pending",
  starting: "running",
  stopping: "running",
  deleting: "running",
  running: "succeeded",
  stopped: "succeeded",
  deleted: "succeeded",
  canceling: "canceling",
  canceled: "canceled",
  failed: "failed"
}

type Samples = ReadonlyArray<readonly [labels: Partial<Record<string, string>>, value: number]>

/** The metrics of one service. */
export const makePrometheusMetrics = (options: PrometheusMetricsOptions = {}): PrometheusMetrics => {
  const registry = options.registry ?? new Registry()
  const registers = [registry]
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry })
  const cacheMillis = options.cacheMillis ?? 5000

  const counter = <L extends string>(name: string, help: string, labelNames: ReadonlyArray<L>) =>
    new Counter<L>({ name, help, labelNames, registers })
  const histogram = <L extends string>(
    name: string,
    help: string,
    buckets: Array<number>,
    labelNames: ReadonlyArray<L> = []
  ) => new Histogram<L>({ name, help, labelNames, buckets, registers })
  const gauge = <L extends string>(name: string, help: string, labelNames: ReadonlyArray<L> = []) =>
    new Gauge<L>({ name, help, labelNames, registers })

  const requests = counter("coderd_api_requests_processed_total", "The total number of processed API requests", [
    "code",
    "method",
    "path"
  ])
  const concurrent = gauge("coderd_api_concurrent_requests", "The number of concurrent API requests")
  const latencies = histogram(
    "coderd_api_request_latencies_seconds",
    "Latency distribution of requests in seconds",
    LATENCY_BUCKETS,
    ["method", "path"]
  )
  const webSocketDurations = histogram(
    "coderd_api_websocket_durations_seconds",
    "Websocket duration distribution of requests in seconds",
    WEBSOCKET_BUCKETS,
    ["path"]
  )
  const queries = histogram(
    "coderd_db_query_latencies_seconds",
    "Latency distribution of database statements in seconds",
    QUERY_BUCKETS
  )
  const connectionWaits = histogram(
    "workbay_db_connection_wait_seconds",
    "Time a database statement or transaction waited for one of the pool's connections in seconds (Postgres)",
    QUERY_BUCKETS
  )
  const writes = counter(
    "workbay_db_writes_total",
    "Database statements that changed data (INSERT, UPDATE, DELETE)",
    []
  )
  const jobsCurrent = gauge(
    "coderd_provisionerd_jobs_current",
    "The number of currently running provisioner jobs of this process's built-in workers",
    ["provisioner"]
  )
  const jobTimings = histogram(
    "coderd_provisionerd_job_timings_seconds",
    "The provisioner job time duration in seconds",
    JOB_BUCKETS,
    ["provisioner", "status"]
  )
  const dispatchAttempts = counter(
    "coderd_notifications_dispatch_attempts_total",
    "The number of dispatch attempts, aggregated by the result type",
    ["method", "notification_template_id", "result"]
  )
  const sendSeconds = histogram(
    "coderd_notifications_dispatcher_send_seconds",
    "The time taken to dispatch notifications",
    SEND_BUCKETS,
    ["method"]
  )

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
  /** A gauge set from the database reads when scraped; a failed read keeps the last values. */
  const snapshotGauge = (
    name: string,
    help: string,
    labelNames: ReadonlyArray<string>,
    samples: (s: MetricsSnapshot) => Samples
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        const s = await snapshot()
        if (s === undefined) return
        this.reset()
        for (const [labels, value] of samples(s)) this.set(labels, value)
      }
    })

  new Gauge({
    name: "coderd_api_concurrent_websockets",
    help: "The total number of concurrent API websockets",
    registers,
    collect() {
      this.set(source?.webSockets() ?? 0)
    }
  })
  snapshotGauge(
    "workbay_provisioner_jobs_pending",
    "Queued provisioner jobs (the queue depth), by provisioner type; deployment-wide",
    ["provisioner"],
    (s) => s.pendingJobs.map((p) => [{ provisioner: p.provisioner }, p.count])
  )
  snapshotGauge(
    "workbay_workspace_builds_in_flight",
    "Workspace builds whose job is pending, running or canceling; deployment-wide",
    ["status"],
    (s) => s.buildsInFlight.map((b) => [{ status: b.status }, b.count])
  )
  snapshotGauge(
    "coderd_api_workspace_latest_build",
    "The latest workspace builds with a status.",
    ["status"],
    (s) => {
      const byJob = new Map<string, number>()
      for (const w of s.workspaces) {
        byJob.set(JOB_STATUS_OF[w.status], (byJob.get(JOB_STATUS_OF[w.status]) ?? 0) + w.count)
      }
      return [...byJob].map(([status, count]) => [{ status }, count])
    }
  )
  snapshotGauge(
    "workbay_workspaces",
    "Live workspaces by their latest build's status (pending, starting, running, ...); deployment-wide",
    ["status"],
    (s) => s.workspaces.map((w) => [{ status: w.status }, w.count])
  )
  snapshotGauge(
    "workbay_agents_connected",
    "Workspace agents with an open connection; deployment-wide",
    [],
    (s) => [[{}, s.connectedAgents]]
  )

  /** A counter set from the database reads when scraped (the described system's const metrics). */
  const snapshotCounter = (
    name: string,
    help: string,
    labelNames: ReadonlyArray<string>,
    samples: (s: MetricsSnapshot) => Samples
  ) =>
    new Counter({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        const s = await snapshot()
        if (s === undefined) return
        this.reset()
        for (const [labels, value] of samples(s)) this.inc(labels, value)
      }
    })
  // Prebuilt workspaces (docs/prebuilds.md, "Metrics"): the described system's names and labels.
  const PRESET_LABELS = ["template_name", "preset_name", "organization_name"]
  const presetSamples = (pick: (p: PrebuildPresetMetrics) => number) => (s: MetricsSnapshot): Samples =>
    (s.prebuilds?.presets ?? []).map((p) => [{
      template_name: p.template_name,
      preset_name: p.preset_name,
      organization_name: p.organization_name
    }, pick(p)])
  snapshotCounter(
    "coderd_prebuilt_workspaces_created_total",
    "Prebuilt workspaces created by the reconciler to keep each preset's instances",
    PRESET_LABELS,
    presetSamples((p) => p.created)
  )
  snapshotCounter(
    "coderd_prebuilt_workspaces_failed_total",
    "Prebuilt workspaces whose first build failed",
    PRESET_LABELS,
    presetSamples((p) => p.failed)
  )
  snapshotCounter(
    "coderd_prebuilt_workspaces_claimed_total",
    "Prebuilt workspaces taken over by a workspace creation with their preset",
    PRESET_LABELS,
    presetSamples((p) => p.claimed)
  )
  snapshotGauge(
    "coderd_prebuilt_workspaces_desired",
    "Prebuilt workspaces each preset of a template's active version asks for",
    PRESET_LABELS,
    presetSamples((p) => p.desired)
  )
  snapshotGauge(
    "coderd_prebuilt_workspaces_running",
    "Prebuilt workspaces whose latest build is a succeeded start of the preset",
    PRESET_LABELS,
    presetSamples((p) => p.running)
  )
  snapshotGauge(
    "coderd_prebuilt_workspaces_eligible",
    "Prebuilt workspaces a creation with the preset would claim now",
    PRESET_LABELS,
    presetSamples((p) => p.eligible)
  )
  snapshotGauge(
    "coderd_prebuilt_workspaces_preset_hard_limited",
    "Indicates whether a given preset has reached the hard failure limit (1 = hard-limited). Metric is omitted otherwise.",
    PRESET_LABELS,
    (s) => presetSamples((p) => p.hardLimited)(s).filter(([, value]) => value === 1)
  )
  snapshotGauge(
    "coderd_prebuilt_workspaces_reconciliation_paused",
    "1 while the prebuilds settings pause reconciliation, else 0",
    [],
    (s) => s.prebuilds === undefined ? [] : [[{}, s.prebuilds.paused ? 1 : 0]]
  )

  const port: MetricsShape = {
    enabled: true,
    requestStarted: () => concurrent.inc(),
    requestFinished: (method, path, status, seconds) => {
      concurrent.dec()
      requests.inc({ code: status, method, path })
      latencies.observe({ method, path }, seconds)
    },
    webSocketClosed: (path, seconds) => webSocketDurations.observe({ path }, seconds),
    databaseQuery: (seconds, write) => {
      queries.observe(seconds)
      if (write) writes.inc()
    },
    databaseConnectionWait: (seconds) => connectionWaits.observe(seconds),
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
