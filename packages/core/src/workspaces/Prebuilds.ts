/**
 * Prebuilt workspaces (the described system's prebuilds, docs/prebuilds.md): the reconciler.
 * At each tick, under the `TickLock` (one replica at a time, as the lifecycle executor), it keeps
 * for each undeleted template's ACTIVE version and each of its presets with `prebuilds.instances`
 * that many workspaces owned by the system prebuilds user, named `prebuild-<random>` and built
 * with the preset's parameters; extras, and prebuilt workspaces of other versions or of presets
 * that no longer ask for any, get a delete build. A prebuilt workspace whose start build failed
 * is deleted. The backoff is read from the builds themselves, as the described system's
 * `GetPresetsBackoff`: when one of a preset's last N creations (N its instances) within the
 * lookback window failed, its next creation waits until the latest such failure plus the
 * window's failures × the backoff interval; so a replica taking over continues it. A tick does
 * nothing while the prebuilds settings pause reconciliation (read from the database each tick).
 * A preset whose latest `failureHardLimit` creations all failed is hard-limited (the described
 * system's `GetPresetsAtFailureLimit`): it creates nothing more (its deletions go on) until a new
 * template version, whose presets start afresh, is active; the template admins hear of it once
 * (`PrebuildPresetHardLimited`; which presets were told of is kept in the database).
 * Every creation and deletion is audited as the prebuilds user.
 */
import { Clock, Duration, Effect, Layer, Option } from "effect"
import {
  auditAdditional,
  AuditEntries,
  AuditRequest,
  auditResource,
  newAuditRequest,
  writeAuditEntry
} from "../Audit.js"
import { Licensing } from "../enterprise/Entitlements.js"
import { LicenseRepo } from "../enterprise/License.js"
import { Events } from "../Events.js"
import { IdGenerator } from "../Ids.js"
import { OrganizationRepo } from "../organizations/Repositories.js"
import { everyInterval } from "../Periodic.js"
import { jobStatus } from "../provisioners/ProvisionerJob.js"
import { Transactions } from "../Repositories.js"
import { type TemplateRecord, TemplateRepo } from "../templates/Template.js"
import { Templates } from "../templates/Templates.js"
import { type ImportedPreset, type TemplateVersionRecord, TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { PrebuildPresetHardLimited } from "./Events.js"
import { TickLock } from "./Lifecycle.js"
import { reconciliationPaused } from "./PrebuildsSettings.js"
import { makePrebuiltWorkspaces } from "./PrebuiltWorkspaces.js"
import { newWorkspace, PREBUILDS_USER_ID, type WorkspaceRecord, WorkspaceRepo } from "./Workspace.js"
import { type PrebuildCreation, WorkspaceBuildRepo } from "./WorkspaceBuild.js"
import { WorkspaceBuilds, workspaceResource } from "./WorkspaceBuilds.js"
import { auditedWorkspace } from "./Workspaces.js"

export { PREBUILDS_USER_ID } from "./Workspace.js"

/** The lock key of the reconciler's tick. */
export const PREBUILDS_LOCK = "workbay:prebuilds-reconciler"

/** The described system's `reconciliation_interval` and `reconciliation_backoff_interval` defaults. */
export const DEFAULT_PREBUILDS_INTERVAL = Duration.minutes(1)
export const DEFAULT_PREBUILDS_BACKOFF = Duration.seconds(15)
/** The described system's `reconciliation_backoff_lookback` default: failures older than this are forgotten. */
export const DEFAULT_PREBUILDS_LOOKBACK = Duration.hours(1)

/**
 * The described system's `failure_hard_limit` default: a preset whose latest this many creations
 * all failed creates no more prebuilt workspaces (0 turns the limit off).
 */
export const DEFAULT_PREBUILDS_FAILURE_HARD_LIMIT = 3

/**
 * The `site_configs` key under which the reconciler keeps the presets it found hard-limited (a
 * JSON array of preset ids; the described system's `template_version_presets.prebuild_status`),
 * so that their template admins are told once, whichever replica ticks and across restarts.
 */
export const PREBUILDS_HARD_LIMITED_KEY = "prebuilds_hard_limited_presets"

/** What one tick did. */
export interface PrebuildsTickStats {
  /** False when another holder of the lock was ticking, when unlicensed, and when paused. */
  readonly ran: boolean
  /** True when the prebuilds settings pause reconciliation (the tick did nothing). */
  readonly paused?: boolean | undefined
  /** Workspace ids created this tick. */
  readonly created: ReadonlyArray<string>
  /** Workspace ids given a delete build this tick. */
  readonly deleted: ReadonlyArray<string>
  /** Preset id to the time before which no prebuilt workspace of it is created (backing off). */
  readonly backoff: Readonly<Record<string, Date>>
  /** Preset id (or workspace id) to why an action failed. */
  readonly errors: Readonly<Record<string, string>>
  /** The desired presets at the failure hard limit (they create nothing). */
  readonly hardLimited: ReadonlyArray<string>
}

/**
 * One preset's prebuilds metrics (the described system's `coderd_prebuilt_workspaces_*`, labelled
 * by template, preset and organization name). The counters count every creation of the
 * non-deleted templates' presets of that name (all versions), from the builds: `created` each
 * first build the prebuilds user started, `failed` those whose job failed, `claimed` those now
 * owned by someone else. The gauges are of the active versions' presets with instances:
 * `desired` their instances, `running` the prebuilt workspaces whose latest build is a succeeded
 * start of the preset, `eligible` those a creation would claim (the same: Workbay does not wait
 * for agents).
 */
export interface PrebuildPresetMetrics {
  readonly template_name: string
  readonly preset_name: string
  readonly organization_name: string
  readonly created: number
  readonly failed: number
  readonly claimed: number
  readonly desired: number
  readonly running: number
  readonly eligible: number
  /** 1 when a preset of this name of the template's active version is hard-limited (the described system's `_preset_hard_limited`). */
  readonly hardLimited: number
}

/** What a metrics scrape reads of the prebuilds (see {@link PrebuildPresetMetrics}). */
export interface PrebuildsMetrics {
  /** Whether the prebuilds settings pause reconciliation. */
  readonly paused: boolean
  readonly presets: ReadonlyArray<PrebuildPresetMetrics>
}

interface Desired {
  readonly template: TemplateRecord
  readonly version: TemplateVersionRecord
  readonly preset: ImportedPreset
  readonly instances: number
}

export class PrebuildsReconciler extends Effect.Service<PrebuildsReconciler>()(
  "@workbay/core/PrebuildsReconciler",
  {
    effect: Effect.gen(function*() {
      const templates = yield* TemplateRepo
      const versions = yield* TemplateVersionRepo
      const workspaces = yield* WorkspaceRepo
      const builds = yield* WorkspaceBuildRepo
      const buildService = yield* WorkspaceBuilds
      const tx = yield* Transactions
      const ids = yield* IdGenerator
      const auditEntries = yield* AuditEntries
      const lock = yield* TickLock
      const templatesService = yield* Templates
      const licensing = yield* Licensing
      const siteConfigs = yield* LicenseRepo
      const organizations = yield* OrganizationRepo
      const events = yield* Events
      const paused = Effect.provideService(reconciliationPaused, LicenseRepo, siteConfigs)

      /**
       * The prebuilds user's undeleted workspaces (of one template, or all), each with its latest
       * build (a summary) and that build's job.
       */
      const readPrebuilt = yield* makePrebuiltWorkspaces
      const prebuiltWorkspaces = (templateId?: string) => readPrebuilt(builds.latestSummariesOf, templateId)

      /**
       * Preset id to creations refused before any build (a preset leaving out a required
       * parameter) in a row and when the next may be tried. These leave no build to read, so they
       * are the one part of the backoff kept in the process.
       */
      const refusals = new Map<string, { count: number; until: Date }>()

      /**
       * Preset id to the time before which it creates nothing, from its creations' builds within
       * the lookback (the described system's `GetPresetsBackoff`): when one of its last N
       * creations (N its instances) failed, the latest such failure plus the window's failures ×
       * `backoffMs`.
       */
      const backoffFromBuilds = (
        desired: ReadonlyArray<Desired>,
        creations: ReadonlyArray<PrebuildCreation>,
        at: Date,
        backoffMs: number,
        lookbackMs: number
      ) => {
        const instances = new Map(desired.map((d) => [d.preset.id, d.instances]))
        const since = at.getTime() - lookbackMs
        const byPreset = new Map<string, Array<PrebuildCreation>>()
        for (const c of creations) {
          if (!instances.has(c.preset_id) || c.created_at.getTime() < since) continue
          const list = byPreset.get(c.preset_id) ?? []
          list.push(c) // newest first
          byPreset.set(c.preset_id, list)
        }
        const out = new Map<string, Date>()
        for (const [presetId, list] of byPreset) {
          const failed = list.filter((c) => c.job_status === "failed")
          const recentFailed = list.slice(0, instances.get(presetId)).filter((c) => c.job_status === "failed")
          if (recentFailed.length === 0) continue
          const last = Math.max(...recentFailed.map((c) => c.created_at.getTime()))
          out.set(presetId, new Date(last + failed.length * backoffMs))
        }
        return out
      }

      /**
       * The desired presets at the failure hard limit (the described system's
       * `GetPresetsAtFailureLimit`): their latest `limit` creations (unclaimed, newest first) all
       * failed. None when `limit` is 0. Presets are per template version, so a new active
       * version's presets start afresh.
       */
      const hardLimitedOf = (
        desired: ReadonlyArray<Desired>,
        creations: ReadonlyArray<PrebuildCreation>,
        limit: number
      ) => {
        const out = new Set<string>()
        if (limit <= 0) return out
        const wanted = new Set(desired.map((d) => d.preset.id))
        const latest = new Map<string, Array<PrebuildCreation>>()
        for (const c of creations) {
          if (!wanted.has(c.preset_id)) continue
          const list = latest.get(c.preset_id) ?? []
          if (list.length < limit) list.push(c) // newest first
          latest.set(c.preset_id, list)
        }
        for (const [presetId, list] of latest) {
          if (list.length === limit && list.every((c) => c.job_status === "failed")) out.add(presetId)
        }
        return out
      }

      /** The presets already found hard-limited (their admins told), as kept in `site_configs`. */
      const toldHardLimited = Effect.map(
        siteConfigs.siteConfig(PREBUILDS_HARD_LIMITED_KEY),
        Option.match({
          onNone: () => new Set<string>(),
          onSome: (text) => {
            try {
              const parsed: unknown = JSON.parse(text)
              return new Set(Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === "string") : [])
            } catch {
              return new Set<string>()
            }
          }
        })
      )

      /**
       * Keeps the hard-limited presets in the database and publishes `PrebuildPresetHardLimited`
       * for those newly found (the described system marks the preset `hard_limited` and tells the
       * template admins once). A desired preset no longer at the limit (the limit raised or off)
       * is forgotten, so it is told of again should it reach it.
       */
      const markHardLimited = (desired: ReadonlyArray<Desired>, limited: ReadonlySet<string>) =>
        Effect.gen(function*() {
          const told = yield* toldHardLimited
          const desiredIds = new Set(desired.map((d) => d.preset.id))
          const fresh = desired.filter((d) => limited.has(d.preset.id) && !told.has(d.preset.id))
          const kept = [...told].filter((id) => !desiredIds.has(id) || limited.has(id))
          const next = [...kept, ...fresh.map((d) => d.preset.id)]
          if (next.length === told.size && fresh.length === 0) return
          yield* siteConfigs.setSiteConfig(PREBUILDS_HARD_LIMITED_KEY, JSON.stringify(next))
          for (const d of fresh) {
            yield* Effect.logWarning("prebuilds: preset is hard limited, notifying template admins", {
              template: d.template.name,
              preset: d.preset.name
            })
            yield* events.publish(
              new PrebuildPresetHardLimited({
                template: d.template,
                version: d.version,
                presetId: d.preset.id,
                presetName: d.preset.name
              })
            )
          }
        })

      const audited = <A, E, R>(action: "create" | "delete", work: Effect.Effect<A, E, R>) =>
        Effect.gen(function*() {
          const audit = newAuditRequest("workspace", action)
          audit.userId = PREBUILDS_USER_ID
          const result = yield* Effect.provideService(work, AuditRequest, audit)
          yield* writeAuditEntry(audit, {
            requestId: yield* ids.uuid,
            ip: "",
            userAgent: "prebuilds-reconciler",
            statusCode: 200
          }).pipe(Effect.provideService(AuditEntries, auditEntries), Effect.provideService(IdGenerator, ids))
          return result
        })

      /** The desired state: each undeleted template's active version's presets with instances. */
      const desiredState = Effect.gen(function*() {
        const all = (yield* templates.list({})).filter((t) => !t.deleted)
        // The active versions in one read, not one per template.
        const byId = new Map((yield* versions.findByIds(all.map((t) => t.active_version_id))).map((v) => [v.id, v]))
        const out: Array<Desired> = []
        for (const template of all) {
          const version = byId.get(template.active_version_id)
          if (version === undefined || version.archived) continue
          for (const preset of version.import_result?.presets ?? []) {
            const instances = preset.prebuild?.instances ?? 0
            if (instances > 0) out.push({ template, version, preset, instances })
          }
        }
        return out
      })

      const create = (d: Desired, at: Date) =>
        audited(
          "create",
          Effect.gen(function*() {
            const id = yield* ids.uuid
            const record = newWorkspace({
              id,
              at,
              owner_id: PREBUILDS_USER_ID,
              organization_id: d.template.organization_id,
              template_id: d.template.id,
              name: `prebuild-${id.replace(/-/g, "").slice(0, 8)}`
            })
            const importJob = yield* buildService.importedVersion(d.version)
            const parameters = yield* buildService.parametersFor(
              d.version,
              [],
              undefined,
              d.preset.parameters,
              PREBUILDS_USER_ID
            )
            yield* tx.atomic(Effect.gen(function*() {
              yield* Effect.orDie(workspaces.insert(record))
              yield* buildService.queue({
                workspace: record,
                template: d.template,
                version: d.version,
                previous: undefined,
                transition: "start",
                parameters,
                initiatorId: PREBUILDS_USER_ID,
                reason: "initiator",
                presetId: d.preset.id,
                orphan: false,
                importJob
              })
            }))
            yield* auditResource(workspaceResource(record), undefined, auditedWorkspace(record))
            return id
          })
        )

      const remove = (workspace: WorkspaceRecord) =>
        audited(
          "delete",
          Effect.gen(function*() {
            const template = Option.getOrUndefined(yield* templates.findById(workspace.template_id))
            const [previous] = yield* builds.latestOf([workspace.id])
            if (template === undefined || previous === undefined) return
            const version = Option.getOrUndefined(yield* versions.findById(previous.template_version_id))
            if (version === undefined) return
            const importJob = yield* buildService.importedVersion(version)
            const queued = yield* tx.atomic(buildService.queue({
              workspace,
              template,
              version,
              previous,
              transition: "delete",
              parameters: previous.parameters,
              initiatorId: PREBUILDS_USER_ID,
              reason: "initiator",
              presetId: previous.template_version_preset_id,
              orphan: false,
              importJob
            }))
            yield* auditAdditional({
              build_number: String(queued.build.build_number),
              build_reason: "initiator",
              workspace_name: workspace.name,
              workspace_id: workspace.id
            })
          })
        )

      const runOnce = (at: Date, backoffMs: number, lookbackMs: number, failureHardLimit: number) =>
        Effect.gen(function*() {
          const created: Array<string> = []
          const deleted: Array<string> = []
          const errors: Record<string, string> = {}
          const attempt = <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) =>
            effect.pipe(
              Effect.map(Option.some),
              Effect.catchAllCause((cause) => Effect.sync(() => (errors[key] = String(cause), Option.none<A>())))
            )
          const desired = yield* desiredState
          const { owned, latest, jobsById } = yield* prebuiltWorkspaces()
          const latestOf = new Map(latest.map((b) => [b.workspace_id, b]))
          /** Preset id to its live prebuilt workspaces (pending, running or built), oldest first. */
          const live = new Map<string, Array<WorkspaceRecord>>()
          const desiredByPreset = new Map(desired.map((d) => [d.preset.id, d]))
          const toDelete: Array<WorkspaceRecord> = []
          for (const w of [...owned].sort((a, b) => a.created_at.getTime() - b.created_at.getTime())) {
            const build = latestOf.get(w.id)
            const job = build === undefined ? undefined : jobsById.get(build.job_id)
            if (build === undefined || job === undefined) continue
            const status = jobStatus(job)
            if (build.transition === "delete") continue // already going away
            const presetId = build.template_version_preset_id
            const d = presetId === null ? undefined : desiredByPreset.get(presetId)
            if (status === "failed" || status === "canceled") {
              toDelete.push(w)
              continue
            }
            if (
              d === undefined || build.template_version_id !== d.version.id || build.transition !== "start"
            ) {
              toDelete.push(w)
              continue
            }
            const list = live.get(d.preset.id) ?? []
            list.push(w)
            live.set(d.preset.id, list)
          }
          // The creations of the prebuilds user's workspaces (along the owner index): those within
          // the lookback for the backoff; for the hard limit, which has no lookback, the newest
          // `failureHardLimit` of each preset since the oldest desired version was made.
          const lookbackStart = new Date(at.getTime() - lookbackMs)
          const creations = desired.length === 0
            ? []
            : yield* builds.prebuildCreations({ since: lookbackStart, unclaimed: true })
          const latestCreations = desired.length === 0 || failureHardLimit <= 0
            ? []
            : yield* builds.prebuildCreations({
              since: new Date(Math.min(...desired.map((d) => d.version.created_at.getTime()))),
              unclaimed: true,
              perPreset: failureHardLimit
            })
          const fromBuilds = backoffFromBuilds(desired, creations, at, backoffMs, lookbackMs)
          const limited = hardLimitedOf(desired, latestCreations, failureHardLimit)
          yield* attempt("hard-limit", markHardLimited(desired, limited))
          const backoff: Record<string, Date> = {}
          const waitUntil = (presetId: string) => {
            const times = [fromBuilds.get(presetId), refusals.get(presetId)?.until]
              .filter((t): t is Date => t !== undefined && t.getTime() > at.getTime())
            if (times.length === 0) return undefined
            const until = new Date(Math.max(...times.map((t) => t.getTime())))
            backoff[presetId] = until
            return until
          }
          for (const d of desired) {
            const have = live.get(d.preset.id) ?? []
            // Extras: the newest go first, so the oldest (likeliest ready) stay.
            for (const w of have.slice(d.instances).reverse()) toDelete.push(w)
            const missing = d.instances - have.length
            // A hard-limited preset creates nothing (its deletions go on).
            if (limited.has(d.preset.id) || waitUntil(d.preset.id) !== undefined || missing <= 0) continue
            for (let i = 0; i < missing; i++) {
              const id = yield* attempt(d.preset.id, create(d, at))
              if (Option.isSome(id)) {
                created.push(id.value)
                refusals.delete(d.preset.id)
                continue
              }
              // Refused before any build (parameters, a missing import): a failure as well.
              const count = (refusals.get(d.preset.id)?.count ?? 0) + 1
              refusals.set(d.preset.id, { count, until: new Date(at.getTime() + backoffMs * count) })
              waitUntil(d.preset.id)
              break
            }
          }
          for (const w of toDelete) {
            const done = yield* attempt(w.id, remove(w))
            if (Option.isSome(done)) deleted.push(w.id)
          }
          const stats: PrebuildsTickStats = {
            ran: true,
            created,
            deleted,
            backoff,
            errors,
            hardLimited: desired.map((d) => d.preset.id).filter((id) => limited.has(id))
          }
          return stats
        })

      /** The metrics a scrape reads (no authorization: the server's own read, as the lifecycle's). */
      const metrics = Effect.gen(function*() {
        const desired = yield* desiredState
        const all = new Map((yield* templates.list({})).filter((t) => !t.deleted).map((t) => [t.id, t]))
        const creations = (yield* builds.prebuildCreations({})).filter((c) => all.has(c.template_id))
        const versionIds = [...new Set(creations.map((c) => c.template_version_id))]
        const presetNames = new Map<string, string>()
        for (const v of yield* versions.findByIds(versionIds)) {
          for (const p of v.import_result?.presets ?? []) presetNames.set(p.id, p.name)
        }
        for (const d of desired) presetNames.set(d.preset.id, d.preset.name)
        const orgIds = [...new Set([...all.values()].map((t) => t.organization_id))]
        const orgNames = new Map((yield* organizations.findByIds(orgIds)).map((o) => [o.id, o.name]))
        const rows = new Map<string, { -readonly [K in keyof PrebuildPresetMetrics]: PrebuildPresetMetrics[K] }>()
        const rowOf = (templateId: string, presetId: string) => {
          const template = all.get(templateId)!
          const labels = {
            template_name: template.name,
            preset_name: presetNames.get(presetId) ?? "",
            organization_name: orgNames.get(template.organization_id) ?? ""
          }
          const key = JSON.stringify(labels)
          let row = rows.get(key)
          if (row === undefined) {
            row = { ...labels, created: 0, failed: 0, claimed: 0, desired: 0, running: 0, eligible: 0, hardLimited: 0 }
            rows.set(key, row)
          }
          return row
        }
        for (const c of creations) {
          const row = rowOf(c.template_id, c.preset_id)
          row.created++
          if (c.job_status === "failed") row.failed++
          if (c.owner_id !== PREBUILDS_USER_ID) row.claimed++
        }
        const { latest, jobsById } = yield* prebuiltWorkspaces()
        const running = new Map<string, number>()
        for (const b of latest) {
          const job = jobsById.get(b.job_id)
          if (b.transition !== "start" || b.template_version_preset_id === null) continue
          if (job === undefined || jobStatus(job) !== "succeeded") continue
          running.set(b.template_version_preset_id, (running.get(b.template_version_preset_id) ?? 0) + 1)
        }
        // As the described system's, the presets the reconciler found hard-limited at its ticks.
        const told = yield* toldHardLimited
        for (const d of desired) {
          const row = rowOf(d.template.id, d.preset.id)
          if (told.has(d.preset.id)) row.hardLimited = 1
          row.desired += d.instances
          row.running += running.get(d.preset.id) ?? 0
          row.eligible += running.get(d.preset.id) ?? 0
        }
        return {
          paused: yield* paused,
          presets: [...rows.values()].sort((a, b) =>
            a.template_name.localeCompare(b.template_name) || a.preset_name.localeCompare(b.preset_name) ||
            a.organization_name.localeCompare(b.organization_name)
          )
        } satisfies PrebuildsMetrics
      }).pipe(Effect.withSpan("PrebuildsReconciler.metrics"))

      /**
       * POST /templates/{template}/prebuilds/invalidate: the answer of `Templates.invalidatePresets`
       * (which authorizes `update` on the template), and every prebuilt workspace of the template
       * not already being deleted gets a delete build (each audited), so that the next tick builds
       * fresh ones of the active version. The described system marks the presets invalidated and
       * its reconciler replaces the older prebuilt workspaces; the effect is the same.
       */
      const invalidate = (ref: string) =>
        Effect.gen(function*() {
          const answer = yield* templatesService.invalidatePresets(ref)
          const template = yield* templatesService.resolve(ref, "act")
          const { owned, latest } = yield* prebuiltWorkspaces(template.id)
          const latestOf = new Map(latest.map((b) => [b.workspace_id, b]))
          for (const w of owned) {
            if (latestOf.get(w.id)?.transition === "delete") continue
            yield* remove(w).pipe(
              Effect.catchAllCause((cause) => Effect.logWarning("prebuild invalidation: a deletion failed", cause))
            )
          }
          return answer
        }).pipe(Effect.withSpan("PrebuildsReconciler.invalidate"))

      /**
       * One tick at the clock's time; skipped when another replica is ticking, when the licenses
       * do not grant `workspace_prebuilds` (with a license key set; as the described system's
       * unlicensed reconciler, existing prebuilt workspaces are then left as they are), and when
       * the prebuilds settings pause reconciliation (`paused: true`; read from the database at
       * every tick, so a pause stops every replica).
       */
      const tick = (
        backoff: Duration.DurationInput = DEFAULT_PREBUILDS_BACKOFF,
        lookback: Duration.DurationInput = DEFAULT_PREBUILDS_LOOKBACK,
        failureHardLimit: number = DEFAULT_PREBUILDS_FAILURE_HARD_LIMIT
      ) =>
        Effect.gen(function*() {
          const at = new Date(yield* Clock.currentTimeMillis)
          if (!(yield* licensing.enabled("workspace_prebuilds"))) {
            return {
              ran: false,
              created: [],
              deleted: [],
              backoff: {},
              errors: {},
              hardLimited: []
            } satisfies PrebuildsTickStats
          }
          if (yield* paused) {
            return {
              ran: false,
              paused: true,
              created: [],
              deleted: [],
              backoff: {},
              errors: {},
              hardLimited: []
            } satisfies PrebuildsTickStats
          }
          const result = yield* lock.withTryLock(
            PREBUILDS_LOCK,
            runOnce(at, Duration.toMillis(backoff), Duration.toMillis(lookback), failureHardLimit)
          )
          return Option.getOrElse(
            result,
            (): PrebuildsTickStats => ({
              ran: false,
              created: [],
              deleted: [],
              backoff: {},
              errors: {},
              hardLimited: []
            })
          )
        }).pipe(Effect.withSpan("PrebuildsReconciler.tick"))

      /** Ticks forever, `interval` apart (fork it); `onTick` sees each tick's stats. */
      const run = (
        interval: Duration.DurationInput = DEFAULT_PREBUILDS_INTERVAL,
        backoff: Duration.DurationInput = DEFAULT_PREBUILDS_BACKOFF,
        onTick: (stats: PrebuildsTickStats) => Effect.Effect<void> = () => Effect.void,
        lookback: Duration.DurationInput = DEFAULT_PREBUILDS_LOOKBACK,
        failureHardLimit: number = DEFAULT_PREBUILDS_FAILURE_HARD_LIMIT
      ) =>
        everyInterval(
          Effect.flatMap(tick(backoff, lookback, failureHardLimit), onTick),
          interval,
          "prebuilds reconciliation"
        )

      return { tick, run, invalidate, metrics }
    })
  }
) {}

/** Options of the prebuilds reconciler's background work. */
export interface PrebuildsOptions {
  /** Time between ticks. Default one minute (the described system's `reconciliation_interval`). */
  readonly interval?: Duration.DurationInput | undefined
  /** The wait after a failed prebuild, times the failures within the lookback. Default 15 s (the described system's `reconciliation_backoff_interval`). */
  readonly backoff?: Duration.DurationInput | undefined
  /** How far back failed prebuilds count. Default one hour (the described system's `reconciliation_backoff_lookback`). */
  readonly lookback?: Duration.DurationInput | undefined
  /**
   * A preset whose latest this many creations all failed creates no more prebuilt workspaces
   * until a new template version is active. Default 3 (the described system's
   * `failure_hard_limit`); 0 turns the limit off.
   */
  readonly failureHardLimit?: number | undefined
}

/** A layer whose fiber ticks the prebuilds reconciler every `interval` until its scope closes; a failed tick is logged. */
export const prebuildsReconcilerPeriodic = (
  options: PrebuildsOptions = {}
): Layer.Layer<never, never, PrebuildsReconciler> =>
  Layer.scopedDiscard(
    Effect.flatMap(PrebuildsReconciler, (reconciler) =>
      Effect.forkScoped(
        reconciler.run(
          options.interval ?? DEFAULT_PREBUILDS_INTERVAL,
          options.backoff ?? DEFAULT_PREBUILDS_BACKOFF,
          (stats) =>
            Object.keys(stats.errors).length > 0
              ? Effect.logWarning("prebuilds reconciliation: some actions failed", stats.errors)
              : Effect.void,
          options.lookback ?? DEFAULT_PREBUILDS_LOOKBACK,
          options.failureHardLimit ?? DEFAULT_PREBUILDS_FAILURE_HARD_LIMIT
        )
      ))
  )
