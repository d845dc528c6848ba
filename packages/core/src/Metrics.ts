/**
 * The metrics port: what the service reports as it works (requests, WebSockets, database
 * statements, provisioner jobs, notifications). The default does nothing and costs nothing:
 * callers check `enabled` before measuring anything. `@workbay/http`'s `PrometheusMetrics`
 * implements it with prom-client (docs/operations.md, "Metrics").
 */
import { Context, Layer } from "effect"

/** Outcome of one notification dispatch attempt, as the described system labels it. */
export type NotificationResult = "success" | "temporary_failure" | "permanent_failure"

export interface MetricsShape {
  /** False for the no-op default: callers skip their clocks and label work. */
  readonly enabled: boolean
  /** An HTTP request began (not a WebSocket). */
  readonly requestStarted: () => void
  /** An HTTP request was answered: its method, route template (`/api/v2/users/{user}`), status and time. */
  readonly requestFinished: (method: string, path: string, status: number, seconds: number) => void
  /** A WebSocket of the route template `path` closed after `seconds`. */
  readonly webSocketClosed: (path: string, seconds: number) => void
  /** One database statement ran for `seconds`; `write` when it changes data (see {@link isWriteStatement}). */
  readonly databaseQuery: (seconds: number, write: boolean) => void
  /** A statement (or a transaction) waited `seconds` for one of the pool's connections (Postgres; near 0 when one was idle). */
  readonly databaseConnectionWait: (seconds: number) => void
  /** A built-in worker started (`1`) or stopped (`-1`) running a job of `provisioner`. */
  readonly jobRunning: (provisioner: string, delta: 1 | -1) => void
  /** A provisioner job of `provisioner` ended (`succeeded`, `failed`, `canceled`) after running `seconds`. */
  readonly jobFinished: (provisioner: string, status: string, seconds: number) => void
  /** One dispatch of a notification by `method` (smtp, webhook, inbox) ended with `result` after `seconds`. */
  readonly notificationDispatched: (
    method: string,
    templateId: string,
    result: NotificationResult,
    seconds: number
  ) => void
}

const nothing = () => {}

/** The default: metrics off. */
export const noopMetrics: MetricsShape = {
  enabled: false,
  requestStarted: nothing,
  requestFinished: nothing,
  webSocketClosed: nothing,
  databaseQuery: nothing,
  databaseConnectionWait: nothing,
  jobRunning: nothing,
  jobFinished: nothing,
  notificationDispatched: nothing
}

/** The metrics sink; the no-op one unless a layer provides another. */
export class Metrics extends Context.Reference<Metrics>()("@workbay/core/Metrics", {
  defaultValue: () => noopMetrics
}) {
  static layer = (metrics: MetricsShape): Layer.Layer<Metrics> => Layer.succeed(Metrics, metrics)
}

/**
 * Whether a statement changes data: it starts (after blanks) with INSERT, UPDATE, DELETE or REPLACE,
 * or is a WITH whose text holds one of them. A reading of the text, for counting only.
 */
export const isWriteStatement = (sql: string): boolean => {
  const head = sql.trimStart().slice(0, 7).toUpperCase()
  if (head.startsWith("SELECT")) return false
  if (
    head.startsWith("INSERT") || head.startsWith("UPDATE") || head.startsWith("DELETE") || head.startsWith("REPLACE")
  ) {
    return true
  }
  return head.startsWith("WITH") && /\b(INSERT|UPDATE|DELETE)\b/i.test(sql)
}

/** Seconds since `start` (a `performance.now()` reading). */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000
