/**
 * Health: readiness (the database answers a cheap query in time) and the described system's
 * health report (`GET /debug/health`, its `healthsdk.HealthcheckReport`): the database's
 * latency, the access URL's `/healthz`, a WebSocket echo, workspace proxies and provisioner
 * daemons, each a section with a severity, warnings and whether it is dismissed. The report is
 * cached for `cacheFor` (the described system's `healthcheck.refresh`, 10 minutes) unless forced.
 * The sections an owner dismissed (`/debug/health/settings`, stored in `site_configs`) are
 * applied on every read, cached or not, so a change shows at once on every replica.
 * See docs/health.md.
 */
import { Clock, Context, Duration, Effect, Option, Schema } from "effect"
import { authorize } from "../Actor.js"
import { auditResource, NIL_UUID } from "../Audit.js"
import { LicenseRepo } from "../enterprise/License.js"
import { ServiceUnavailable } from "../Errors.js"
import { OrganizationRepo } from "../organizations/Repositories.js"
import { DAEMON_STALE_INTERVAL, daemonStatus, ProvisionerDaemonRepo } from "../provisioners/ProvisionerDaemon.js"
import { WorkspaceProxies } from "../proxies/WorkspaceProxies.js"
import { UNENCRYPTED_SECRETS_WARNING } from "../SecretBox.js"
import { Settings } from "../Settings.js"
import { HEALTH_SECTIONS, type HealthSection, HealthSettings } from "./HealthSettings.js"
import type { UpdateHealthSettingsRequest } from "./Requests.js"

/** The storage's cheapest round trip (`SELECT 1`), the readiness and latency probe. */
export class DatabasePing extends Context.Tag("@workbay/core/DatabasePing")<DatabasePing, {
  readonly ping: Effect.Effect<void, unknown>
}>() {}

/** How long readiness waits for the database. */
export const READY_TIMEOUT: Duration.Duration = Duration.seconds(2)
/** The database latency past which the report warns (the described system's `healthcheck.threshold_database`). */
export const DATABASE_THRESHOLD: Duration.Duration = Duration.millis(15)

export const HealthSeverity = Schema.Literal("ok", "warning", "error")
export type HealthSeverity = typeof HealthSeverity.Type

export const HealthMessage = Schema.Struct({ code: Schema.String, message: Schema.String })
export type HealthMessage = typeof HealthMessage.Type

const base = {
  severity: HealthSeverity,
  warnings: Schema.Array(HealthMessage),
  dismissed: Schema.Boolean,
  error: Schema.optionalWith(Schema.String, { exact: true })
}

export const DatabaseReport = Schema.Struct({
  ...base,
  healthy: Schema.Boolean,
  reachable: Schema.Boolean,
  latency: Schema.String,
  latency_ms: Schema.Number,
  threshold_ms: Schema.Number
})
export const AccessUrlReport = Schema.Struct({
  ...base,
  healthy: Schema.Boolean,
  access_url: Schema.String,
  reachable: Schema.Boolean,
  status_code: Schema.Number,
  healthz_response: Schema.String
})
export const WebsocketReport = Schema.Struct({
  ...base,
  healthy: Schema.Boolean,
  body: Schema.String,
  code: Schema.Number
})
export type WebsocketReport = typeof WebsocketReport.Type
export const DerpReport = Schema.Struct({
  ...base,
  healthy: Schema.Boolean,
  regions: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  netcheck_logs: Schema.Array(Schema.String)
})
export const WorkspaceProxyReport = Schema.Struct({
  ...base,
  healthy: Schema.Boolean,
  workspace_proxies: Schema.Struct({ regions: Schema.Array(Schema.Unknown) })
})
export const ProvisionerDaemonsReport = Schema.Struct({
  ...base,
  items: Schema.Array(Schema.Struct({ provisioner_daemon: Schema.Unknown, warnings: Schema.Array(HealthMessage) }))
})

export class HealthcheckReport extends Schema.Class<HealthcheckReport>("HealthcheckReport")({
  time: Schema.Date,
  healthy: Schema.Boolean,
  severity: HealthSeverity,
  derp: DerpReport,
  access_url: AccessUrlReport,
  websocket: WebsocketReport,
  database: DatabaseReport,
  workspace_proxy: WorkspaceProxyReport,
  provisioner_daemons: ProvisionerDaemonsReport,
  coder_version: Schema.String
}) {}

/** The report field each section is. */
const SECTION_FIELDS = {
  DERP: "derp",
  AccessURL: "access_url",
  Websocket: "websocket",
  Database: "database",
  WorkspaceProxy: "workspace_proxy",
  ProvisionerDaemons: "provisioner_daemons"
} as const satisfies Record<HealthSection, keyof HealthcheckReport>

/** The `site_configs` key of the health settings (JSON), as in the described system. */
export const HEALTH_SETTINGS_KEY = "health_settings"

const isSection = (s: unknown): s is HealthSection =>
  typeof s === "string" && (HEALTH_SECTIONS as ReadonlyArray<string>).includes(s)

/** The stored settings' sections; none when nothing (or nothing readable) is stored. */
const parseSettings = (json: string): ReadonlyArray<HealthSection> => {
  try {
    const v = JSON.parse(json) as { dismissed_healthchecks?: unknown }
    return Array.isArray(v?.dismissed_healthchecks) ? v.dismissed_healthchecks.filter(isSection) : []
  } catch {
    return []
  }
}

/** Go's `time.Duration.String()` for a latency (`1.234ms`, `2.5s`, `850µs`). */
export const goDuration = (nanos: number): string => {
  if (nanos === 0) return "0s"
  if (nanos < 1_000) return `${nanos}ns`
  if (nanos < 1_000_000) return `${trim(nanos / 1_000)}µs`
  if (nanos < 1_000_000_000) return `${trim(nanos / 1_000_000)}ms`
  return `${trim(nanos / 1_000_000_000)}s`
}
const trim = (n: number) => String(Number(n.toFixed(6)))

const worst = (severities: ReadonlyArray<HealthSeverity>): HealthSeverity =>
  severities.includes("error") ? "error" : severities.includes("warning") ? "warning" : "ok"

/**
 * The report with `dismissed` sections marked and left out of the overall severity and health,
 * as the described system does; the relay (DERP) is always dismissed here (docs/health.md).
 */
export const applyDismissed = (
  report: HealthcheckReport,
  dismissed: ReadonlyArray<HealthSection>
): HealthcheckReport => {
  const sections = Object.fromEntries(
    HEALTH_SECTIONS.map((name) => {
      const field = SECTION_FIELDS[name]
      const section = report[field]
      return [field, { ...section, dismissed: name === "DERP" || dismissed.includes(name) }]
    })
  ) as Pick<HealthcheckReport, (typeof SECTION_FIELDS)[HealthSection]>
  const severity = worst(Object.values(sections).filter((s) => !s.dismissed).map((s) => s.severity))
  return new HealthcheckReport({ ...report, ...sections, severity, healthy: severity !== "error" }, true)
}

/** The probes only the HTTP layer can make (it owns the WebSocket machinery and knows the caller's token). */
export interface HealthProbes {
  readonly websocket: Effect.Effect<WebsocketReport>
}

export class Health extends Effect.Service<Health>()("@workbay/core/Health", {
  effect: Effect.gen(function*() {
    const db = yield* DatabasePing
    const settings = yield* Settings
    const organizations = yield* OrganizationRepo
    const daemons = yield* ProvisionerDaemonRepo
    const proxies = yield* WorkspaceProxies
    const siteConfigs = yield* LicenseRepo
    let cached: { readonly report: HealthcheckReport; readonly at: number } | undefined
    const cacheFor = Duration.toMillis(Duration.minutes(10))

    /** Succeeds when the database answers within READY_TIMEOUT; else 503 saying why. */
    const ready = db.ping.pipe(
      Effect.timeoutFail({
        duration: READY_TIMEOUT,
        onTimeout: () =>
          new ServiceUnavailable({
            message: "Not ready.",
            detail: `The database did not answer within ${Duration.format(READY_TIMEOUT)}.`
          })
      }),
      Effect.catchAll((e) =>
        Effect.fail(
          e instanceof ServiceUnavailable
            ? e
            : new ServiceUnavailable({ message: "Not ready.", detail: "The database is unreachable." })
        )
      )
    )

    /** Third-party secrets are stored unencrypted: no external token encryption key is configured (EDB03, Workbay's own code). */
    const unencrypted = settings.externalTokenEncryptionKeys.length === 0

    /** Five pings, the median latency (as the described system measures it); a warning while secrets are stored unencrypted. */
    const database = Effect.gen(function*() {
      const threshold = Duration.toMillis(DATABASE_THRESHOLD)
      const latencies: Array<number> = []
      for (let i = 0; i < 5; i++) {
        const start = yield* Clock.currentTimeNanos
        const r = yield* Effect.either(Effect.timeout(db.ping, READY_TIMEOUT))
        if (r._tag === "Left") {
          return {
            healthy: false,
            reachable: false,
            severity: "error" as const,
            dismissed: false,
            latency: "",
            latency_ms: 0,
            threshold_ms: threshold,
            warnings: [],
            error: `EDB01: Database could not be reached: ${r.left instanceof Error ? r.left.message : String(r.left)}`
          }
        }
        latencies.push(Number((yield* Clock.currentTimeNanos) - start))
      }
      latencies.sort((a, b) => a - b)
      const median = latencies[2]!
      const ms = Math.round(median / 1_000_000)
      const slow = median > threshold * 1_000_000
      const warnings: Array<HealthMessage> = [
        ...(slow
          ? [{
            code: "EDB02",
            message: `Median database latency of ${goDuration(median)} exceeds the threshold of ${
              Duration.format(DATABASE_THRESHOLD)
            }.`
          }]
          : []),
        ...(unencrypted ? [{ code: "EDB03", message: UNENCRYPTED_SECRETS_WARNING }] : [])
      ]
      return {
        healthy: true,
        reachable: true,
        dismissed: false,
        latency: goDuration(median),
        latency_ms: ms,
        threshold_ms: threshold,
        severity: warnings.length > 0 ? "warning" as const : "ok" as const,
        warnings
      }
    })

    /** `GET <access URL>/healthz`, bounded to 5 s. */
    const accessUrl = Effect.promise(async () => {
      const url = settings.accessUrl
      const common = { access_url: url, dismissed: false, warnings: [] as Array<HealthMessage> }
      if (url === "") {
        return {
          ...common,
          healthy: false,
          reachable: false,
          status_code: 0,
          healthz_response: "",
          severity: "error" as const,
          error: "EACS01: Access URL not set"
        }
      }
      let target: URL
      try {
        target = new URL("/healthz", url)
      } catch {
        return {
          ...common,
          healthy: false,
          reachable: false,
          status_code: 0,
          healthz_response: "",
          severity: "error" as const,
          error: "EACS02: Access URL invalid"
        }
      }
      try {
        const res = await fetch(target, { signal: AbortSignal.timeout(5_000), redirect: "manual" })
        const body = (await res.text()).slice(0, 1024)
        const ok = res.status === 200
        return {
          ...common,
          healthy: ok,
          reachable: true,
          status_code: res.status,
          healthz_response: body,
          severity: ok ? "ok" as const : "error" as const,
          ...(ok ? {} : { error: `EACS04: Access URL not ok: /healthz answered ${res.status}` })
        }
      } catch (e) {
        return {
          ...common,
          healthy: false,
          reachable: false,
          status_code: 0,
          healthz_response: "",
          severity: "error" as const,
          error: `EACS03: Could not fetch ${target.href}: ${e instanceof Error ? e.message : String(e)}`
        }
      }
    })

    /** The live daemons of every organization (built-in ones once); a warning when there is none. */
    const provisionerDaemons = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const staleBefore = new Date(now - Duration.toMillis(DAEMON_STALE_INTERVAL))
      const seen = new Map<string, unknown>()
      for (const org of yield* organizations.list) {
        for (const d of yield* daemons.list({ organizationId: org.id, limit: 1000, staleBefore })) {
          if (seen.has(d.id) || d.last_seen_at === null || d.last_seen_at < staleBefore) continue
          seen.set(d.id, {
            id: d.id,
            organization_id: d.organization_id ?? org.id,
            created_at: d.created_at,
            last_seen_at: d.last_seen_at,
            name: d.name,
            version: d.version,
            api_version: d.api_version,
            provisioners: d.provisioners,
            tags: d.tags,
            key_name: d.key_name,
            status: daemonStatus(d, now)
          })
        }
      }
      const items = [...seen.values()].map((provisioner_daemon) => ({ provisioner_daemon, warnings: [] }))
      return {
        severity: items.length === 0 ? "error" as const : "ok" as const,
        dismissed: false,
        items,
        warnings: items.length === 0 ? [{ code: "EPD01", message: "No active provisioner daemons found!" }] : []
      }
    })

    /** The registered proxies with the health their checker last saw (docs/workspace-proxies.md). */
    const workspaceProxy = Effect.gen(function*() {
      // Owners read every proxy; a caller who may not (never here: the route is owners') sees none.
      const all = yield* Effect.map(proxies.list, (l) => l.regions).pipe(
        Effect.catchTag("NotFound", () => Effect.succeed([]))
      )
      const regions = all.filter((p) => !p.deleted)
      const unhealthy = regions.filter((p) =>
        p.status !== undefined && p.status.status !== "ok" && p.name !== "primary"
      )
      return {
        healthy: unhealthy.length === 0,
        dismissed: false,
        workspace_proxies: { regions: all },
        severity: unhealthy.length === 0 ? "ok" as const : "warning" as const,
        warnings: unhealthy.map((p) => ({ code: "EWP04", message: `${p.name}: ${p.status?.status ?? "unknown"}` }))
      }
    })

    /**
     * The relay: the embedded relay is this process's own WebSocket relay, which the WebSocket
     * check exercises; DERP's STUN and netcheck probes have no counterpart here, so the section
     * reports itself dismissed (as the described system shows a dismissed section).
     */
    const derp = {
      healthy: true,
      severity: "ok" as const,
      warnings: [],
      dismissed: true,
      regions: {},
      netcheck_logs: []
    }

    const run = (probes: HealthProbes) =>
      Effect.gen(function*() {
        const [db, access, ws, daemonsReport, proxyReport] = yield* Effect.all(
          [database, accessUrl, probes.websocket, provisionerDaemons, workspaceProxy],
          { concurrency: "unbounded" }
        )
        const sections = [db, access, ws, daemonsReport, proxyReport].filter((s) => !s.dismissed)
        const severity = worst(sections.map((s) => s.severity))
        return new HealthcheckReport({
          time: new Date(yield* Clock.currentTimeMillis),
          healthy: severity !== "error",
          severity,
          derp,
          access_url: access,
          websocket: ws,
          database: db,
          workspace_proxy: proxyReport,
          provisioner_daemons: daemonsReport,
          coder_version: settings.version
        })
      })

    /** The dismissed sections, read from the database each time (another replica may have changed them). */
    const dismissed: Effect.Effect<ReadonlyArray<HealthSection>> = Effect.map(
      siteConfigs.siteConfig(HEALTH_SETTINGS_KEY),
      Option.match({ onNone: () => [], onSome: parseSettings })
    )

    /**
     * The report: the cached one unless `force` or older than 10 minutes, with the dismissed
     * sections as stored now. Owners only (`debug_info`).
     */
    const report = (force: boolean, probes: HealthProbes) =>
      Effect.gen(function*() {
        yield* authorize("read", { type: "debug_info" })
        const now = yield* Clock.currentTimeMillis
        const current = !force && cached !== undefined && now - cached.at < cacheFor ? cached.report : undefined
        const checked = current ?? (yield* run(probes))
        if (current === undefined) cached = { report: checked, at: now }
        return applyDismissed(checked, yield* dismissed)
      }).pipe(Effect.withSpan("Health.report"))

    /** The health settings (`GET /debug/health/settings`): owners (`debug_info`, then `deployment_config` read). */
    const settings_ = Effect.gen(function*() {
      yield* authorize("read", { type: "debug_info" })
      yield* authorize("read", { type: "deployment_config" })
      return new HealthSettings({ dismissed_healthchecks: yield* dismissed }, true)
    }).pipe(Effect.withSpan("Health.settings"))

    /**
     * Stores the dismissed sections (`PUT /debug/health/settings`), each once, in the order given;
     * none when nothing changes (the same sections, in any order: 204). Owners (`debug_info`,
     * then `deployment_config` update); audited as `health_settings`.
     */
    const updateSettings = (input: typeof UpdateHealthSettingsRequest.Type) =>
      Effect.gen(function*() {
        yield* authorize("read", { type: "debug_info" })
        yield* authorize("update", { type: "deployment_config" })
        const next = [...new Set(input.dismissed_healthchecks)]
        const before = yield* dismissed
        if (before.length === next.length && next.every((s) => before.includes(s))) return Option.none()
        const stored = new HealthSettings({ dismissed_healthchecks: next }, true)
        yield* siteConfigs.setSiteConfig(HEALTH_SETTINGS_KEY, JSON.stringify({ dismissed_healthchecks: next }))
        yield* auditResource(
          { type: "health_settings", id: NIL_UUID, target: "" },
          { dismissed_healthchecks: before },
          { dismissed_healthchecks: next }
        )
        return Option.some(stored)
      }).pipe(Effect.withSpan("Health.updateSettings"))

    return {
      ready,
      report,
      settings: settings_,
      updateSettings,
      cached: () => Option.fromNullable(cached?.report)
    } as const
  })
}) {}
