/**
 * The lifecycle executor: at each tick, the workspaces due for a look are listed, each is
 * decided on with {@link nextTransition} and the decisions are applied; a workspace with nothing
 * to do is told when to come back ({@link lifecycleDueAt}). One replica ticks at a time: the
 * tick runs under the `TickLock` port (a Postgres advisory lock across server processes, an
 * in-process lock on SQLite).
 */
import { Clock, Context, Duration, Effect, Option } from "effect"
import { everyInterval } from "../Periodic.js"
import type { ProvisionerJobRecord } from "../provisioners/ProvisionerJob.js"
import type { TemplateRecord } from "../templates/Template.js"
import type { UserStatus } from "../users/User.js"
import { type LifecycleDecision, lifecycleDueAt, type LifecycleRule, nextTransition } from "./Schedule.js"
import type { WorkspaceRecord } from "./Workspace.js"
import type { WorkspaceBuildRecord } from "./WorkspaceBuild.js"

/** A workspace the executor looks at, with what its decision reads. */
export interface LifecycleCandidate {
  readonly workspace: WorkspaceRecord
  readonly latestBuild: WorkspaceBuildRecord
  readonly job: ProvisionerJobRecord
  readonly template: TemplateRecord
  readonly ownerStatus: UserStatus
  /**
   * The storage's count of changes to the workspace's lifecycle inputs, read before the
   * records: `reschedule` stores nothing when it moved since.
   */
  readonly version: number
}

/**
 * Where the executor finds its work. The storage keeps, per workspace, when it is next due for a
 * look: the {@link lifecycleDueAt} of its state as the executor last saw it, or "at once" after
 * any change to what the rules read (the workspace's schedule, dormancy and template, a new
 * build, a job's end, a deadline moved earlier, the template's lifecycle settings, the owner's
 * status). So a tick reads only the workspaces due, through an index, however many are idle. A
 * wider list is harmless (the executor decides on each); a narrower one would miss a transition.
 */
export class LifecycleCandidates extends Context.Tag("@workbay/core/LifecycleCandidates")<LifecycleCandidates, {
  /** The undeleted workspaces due at `now`, earliest first, at most `limit` (the rest wait for the next tick). */
  readonly due: (now: Date, limit: number) => Effect.Effect<ReadonlyArray<LifecycleCandidate>>
  /**
   * Stores when `candidate`'s workspace is next due (`null`: not until it changes), unless it
   * changed since it was read (its `version` moved): then it stays due at once.
   */
  readonly reschedule: (candidate: LifecycleCandidate, at: Date | null) => Effect.Effect<void>
}>() {}

/** How many workspaces one tick looks at, at most; more due wait for the next tick, earliest first. */
export const LIFECYCLE_BATCH = 1000

/**
 * Applies a decision: stores `decision.patch` on the workspace and starts `decision.build` as
 * the owner with its reason (the template's active version when `activeVersion`), in one unit
 * of work, and audits it. The builds service refuses a build while another runs; such a
 * failure is counted, and the next tick decides again.
 */
export class LifecycleActions extends Context.Tag("@workbay/core/LifecycleActions")<LifecycleActions, {
  readonly apply: (
    candidate: LifecycleCandidate,
    decision: LifecycleDecision,
    now: Date
  ) => Effect.Effect<void, unknown>
}>() {}

/** A lock named by a string, held by one holder at a time across the processes sharing a storage. */
export class TickLock extends Context.Tag("@workbay/core/TickLock")<TickLock, {
  /** Runs `effect` holding lock `key` when it is free (Some of its result); None at once when another holder has it. */
  readonly withTryLock: <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<Option.Option<A>, E, R>
}>() {}

/** A `TickLock` for one process: a set of held keys. */
export const inProcessTickLock = (): Context.Tag.Service<TickLock> => {
  const held = new Set<string>()
  return {
    withTryLock: (key, effect) =>
      Effect.suspend(() => {
        if (held.has(key)) return Effect.succeed(Option.none())
        held.add(key)
        return Effect.map(effect, Option.some).pipe(Effect.ensuring(Effect.sync(() => held.delete(key))))
      })
  }
}

/** The lock key of the executor's tick. */
export const LIFECYCLE_LOCK = "workbay:lifecycle-executor"

/** What one tick did. */
export interface TickStats {
  /** The tick, truncated to the minute. */
  readonly tick: Date
  /** False when another holder of the lock was ticking. */
  readonly ran: boolean
  /** Workspace id to the rule applied. */
  readonly transitions: Readonly<Record<string, LifecycleRule>>
  /** Workspace id to why applying its decision failed. */
  readonly errors: Readonly<Record<string, string>>
}

/** The described system's default `autobuild_poll_interval`. */
export const DEFAULT_LIFECYCLE_INTERVAL = Duration.minutes(1)

export class LifecycleExecutor extends Effect.Service<LifecycleExecutor>()("@workbay/core/LifecycleExecutor", {
  effect: Effect.gen(function*() {
    const candidates = yield* LifecycleCandidates
    const actions = yield* LifecycleActions
    const lock = yield* TickLock

    const runOnce = (tick: Date) =>
      Effect.gen(function*() {
        const due = yield* candidates.due(tick, LIFECYCLE_BATCH)
        const transitions: Record<string, LifecycleRule> = {}
        const errors: Record<string, string> = {}
        yield* Effect.forEach(
          due,
          (candidate) => {
            const decision = nextTransition({ now: tick, ...candidate })
            // Nothing to do: come back when a rule could fire (a change brings it back sooner).
            if (decision === null) return candidates.reschedule(candidate, lifecycleDueAt(candidate))
            const id = candidate.workspace.id
            // Applied: its writes made it due at once; the next tick decides on the new state.
            // Failed: decided again at the next tick, behind the workspaces that were due before it.
            return actions.apply(candidate, decision, tick).pipe(
              Effect.matchCauseEffect({
                onSuccess: () => Effect.sync(() => void (transitions[id] = decision.rule)),
                onFailure: (cause) =>
                  Effect.sync(() => void (errors[id] = String(cause))).pipe(
                    Effect.zipRight(candidates.reschedule(candidate, tick))
                  )
              })
            )
          },
          { concurrency: 10, discard: true }
        )
        return { tick, ran: true, transitions, errors } satisfies TickStats
      })

    /** One tick at the clock's minute; skipped when another replica is ticking. */
    const tick = Effect.gen(function*() {
      const millis = yield* Clock.currentTimeMillis
      const at = new Date(millis - (millis % 60_000))
      const result = yield* lock.withTryLock(LIFECYCLE_LOCK, runOnce(at))
      return Option.getOrElse(result, (): TickStats => ({ tick: at, ran: false, transitions: {}, errors: {} }))
    }).pipe(Effect.withSpan("LifecycleExecutor.tick"))

    /** Ticks forever, `interval` apart (fork it); `onTick` sees each tick's stats. */
    const run = (
      interval: Duration.DurationInput = DEFAULT_LIFECYCLE_INTERVAL,
      onTick: (stats: TickStats) => Effect.Effect<void> = () => Effect.void
    ) => everyInterval(Effect.flatMap(tick, onTick), interval, "lifecycle tick")

    return { tick, run }
  })
}) {}
