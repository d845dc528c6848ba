/**
 * The health of workspace proxies: every `proxyHealthStatusInterval` one replica (the `TickLock`)
 * asks each registered live proxy for `GET <url>/healthz-report` (falling back to `/healthz`
 * when the proxy has no report route) and stores the verdict: `ok`, `unhealthy` (an error
 * status, an unreadable report, or a report with errors), `unreachable` (no answer: refused,
 * reset, timed out) or `unregistered` (no URL yet). The wire status comes from storage, so
 * every replica answers the same.
 */
import { Clock, Duration, Effect, Layer, Option } from "effect"
import { everyInterval } from "../Periodic.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { TickLock } from "../workspaces/Lifecycle.js"
import {
  type ProxyHealthReportRecord,
  type ProxyHealthStatus,
  type ProxyStatusUpdate,
  type WorkspaceProxyRecord,
  WorkspaceProxyRepo
} from "./WorkspaceProxy.js"

/** How many proxies one tick checks at most, and how many at once. */
export const PROXY_HEALTH_BATCH = 1000
export const PROXY_HEALTH_CONCURRENCY = 32
/** How long one check may take before the proxy counts as unreachable. */
export const PROXY_HEALTH_TIMEOUT_MS = 5_000
const LOCK_KEY = "workspace-proxy-health"
const MAX_REPORT_ITEMS = 50
const MAX_ITEM_LENGTH = 1024

/** What one check found. */
export interface ProxyCheck {
  readonly status: ProxyHealthStatus
  readonly report: ProxyHealthReportRecord
}

/** What one tick did. */
export interface ProxyHealthTick {
  /** False when another replica was checking. */
  readonly ran: boolean
  readonly checked: ReadonlyArray<ProxyStatusUpdate>
}

const messageOf = (e: unknown): string => {
  if (e instanceof Error) {
    const cause = (e as Error & { cause?: unknown }).cause
    return cause instanceof Error ? `${e.message}: ${cause.message}` : e.message
  }
  return String(e)
}

const strings = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string").slice(0, MAX_REPORT_ITEMS).map((v) =>
      v.slice(0, MAX_ITEM_LENGTH)
    )
    : []

const base = (url: string) => url.replace(/\/+$/, "")

/** One check of a proxy's URL (the URL must be http or https; registration checks it). */
export const checkProxyUrl = (url: string, timeoutMs: number = PROXY_HEALTH_TIMEOUT_MS): Effect.Effect<ProxyCheck> =>
  Effect.promise(async (): Promise<ProxyCheck> => {
    const get = (path: string) =>
      fetch(`${base(url)}${path}`, {
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "manual",
        headers: { accept: "application/json" }
      })
    let res: Response
    try {
      res = await get("/healthz-report")
      if (res.status === 404) {
        await res.body?.cancel()
        res = await get("/healthz")
        await res.body?.cancel()
        return res.status === 200
          ? { status: "ok", report: { errors: [], warnings: [] } }
          : {
            status: "unhealthy",
            report: { errors: [`unexpected status code ${res.status} from ${base(url)}/healthz`], warnings: [] }
          }
      }
    } catch (e) {
      return { status: "unreachable", report: { errors: [`request to proxy failed: ${messageOf(e)}`], warnings: [] } }
    }
    if (res.status !== 200) {
      await res.body?.cancel()
      return {
        status: "unhealthy",
        report: { errors: [`unexpected status code ${res.status} from ${base(url)}/healthz-report`], warnings: [] }
      }
    }
    let body: unknown
    try {
      body = await res.json()
    } catch (e) {
      return { status: "unhealthy", report: { errors: [`decode health report: ${messageOf(e)}`], warnings: [] } }
    }
    const record = typeof body === "object" && body !== null ? body as Record<string, unknown> : {}
    const report = { errors: strings(record.errors), warnings: strings(record.warnings) }
    return { status: report.errors.length > 0 ? "unhealthy" : "ok", report }
  })

export class ProxyHealth extends Effect.Service<ProxyHealth>()("@workbay/core/ProxyHealth", {
  effect: Effect.gen(function*() {
    const repo = yield* WorkspaceProxyRepo
    const lock = yield* TickLock

    const statusOf = (proxy: WorkspaceProxyRecord, at: Date): Effect.Effect<ProxyStatusUpdate> =>
      proxy.url === ""
        ? Effect.succeed({ id: proxy.id, status: "unregistered", report: { errors: [], warnings: [] }, checked_at: at })
        : Effect.map(checkProxyUrl(proxy.url), (c) => ({ id: proxy.id, ...c, checked_at: at }))

    /** Checks one proxy now and stores the verdict (after registration). */
    const checkOne = (proxy: WorkspaceProxyRecord) =>
      Effect.gen(function*() {
        const update = yield* statusOf(proxy, new Date(yield* Clock.currentTimeMillis))
        yield* repo.setStatuses([update])
        return update
      }).pipe(span("ProxyHealth.checkOne"))

    /** One tick: every live proxy checked (a few at a time) and the verdicts stored, by one replica. */
    const tick = Effect.gen(function*() {
      const result = yield* lock.withTryLock(
        LOCK_KEY,
        Effect.gen(function*() {
          const at = new Date(yield* Clock.currentTimeMillis)
          const proxies = yield* repo.list(PROXY_HEALTH_BATCH)
          const updates = yield* Effect.forEach(proxies, (p) => statusOf(p, at), {
            concurrency: PROXY_HEALTH_CONCURRENCY
          })
          yield* repo.setStatuses(updates)
          return updates
        })
      )
      return Option.match(result, {
        onNone: (): ProxyHealthTick => ({ ran: false, checked: [] }),
        onSome: (checked): ProxyHealthTick => ({ ran: true, checked })
      })
    }).pipe(span("ProxyHealth.tick"))

    return { tick, checkOne } as const
  })
}) {}

/** Options of the proxy health checker's background work. */
export interface ProxyHealthOptions {
  /** Time between ticks. Default the `proxyHealthStatusInterval` setting (one minute). */
  readonly interval?: Duration.DurationInput | undefined
}

/** A layer whose fiber checks the proxies at start and then every interval, until its scope closes. */
export const proxyHealthPeriodic = (
  options: ProxyHealthOptions = {}
): Layer.Layer<never, never, ProxyHealth | Settings> =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const health = yield* ProxyHealth
      const settings = yield* Settings
      const interval = options.interval ?? settings.proxyHealthStatusInterval
      yield* Effect.forkScoped(everyInterval(health.tick, Duration.decode(interval), "workspace proxy health check"))
    })
  )
