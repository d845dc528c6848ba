/**
 * Used workspaces stay up (docs/workspaces.md, "Extend, ttl, activity"), on the real services over
 * an in-memory SQLite storage, driven by the TestClock: the agents' stats reports (every 30 s, as
 * the reference agent sends them), the report batch's flusher that bumps the workspaces they show
 * in use, and the lifecycle executor's ticks (every minute) that stop a workspace past its
 * deadline. A workspace with a session open across its deadline keeps running, and stops an
 * activity bump after the session's last report; one whose agent reports no session stops at its
 * deadline; a tunnel or an app request (`connection_count`) counts as a session does.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  AgentReportBatch,
  AgentReports,
  type AgentStats,
  LifecycleExecutor,
  Templates,
  Workspaces
} from "@workbay/core"
import { Duration, Effect, Layer } from "effect"
import * as TestClock from "effect/TestClock"
import { recording, setupAgents } from "../agents/connection.js"
import { agentStats } from "../insights/fixtures.js"
import { drain, services } from "../services.js"

const MINUTE = 60_000
/** The workspaces' ttl and their template's activity bump. */
const BUMP = 10 * MINUTE
const T0 = Date.parse("2024-01-01T08:30:00Z")

describe("used workspaces stay up, with the TestClock", () => {
  it.scoped("a session open across the deadline keeps it running; without one it stops at its deadline", () =>
    Effect.gen(function*() {
      // Three workspaces of a 10-minute ttl (their template's bump: as long): one with an SSH
      // session open for 40 minutes, one with a port-forward tunnel for as long, one whose agent
      // reports none.
      const { agents, as } = yield* setupAgents(T0, 3, { ttlMs: BUMP })
      const [ssh, tunnel, idle] = agents
      const templateId = (yield* as(Effect.flatMap(Workspaces, (w) => w.get(ssh!.workspaceId)))).template_id
      yield* as(Effect.flatMap(Templates, (t) => t.update(templateId, { activity_bump_ms: BUMP })))
      // Flushes every 10 s (the default is 1 s: the same writes, more ticks to run here).
      yield* Layer.build(AgentReportBatch.periodic({ interval: Duration.seconds(10) }))
      const reports = yield* AgentReports
      const executor = yield* LifecycleExecutor
      const state = (id: string) =>
        Effect.map(as(Effect.flatMap(Workspaces, (w) => w.get(id))), (w) => ({
          transition: w.latest_build.transition,
          reason: w.latest_build.reason,
          deadline: w.latest_build.deadline === null ? null : new Date(w.latest_build.deadline!).getTime()
        }))
      const report = (agent: (typeof agents)[number], stats: Partial<AgentStats>) =>
        reports.updateStats(agent.session, { stats: agentStats(stats) })

      const stoppedAt: Record<string, number> = {}
      /** Half a minute on: each agent reports, and each minute the executor ticks and its builds run. */
      const halfMinute = (sessionOpen: boolean) =>
        Effect.gen(function*() {
          yield* report(ssh!, { session_count_ssh: sessionOpen ? 1 : 0 })
          yield* report(tunnel!, { connection_count: sessionOpen ? 1 : 0 })
          yield* report(idle!, {})
          yield* TestClock.adjust(Duration.seconds(30))
          const now = yield* TestClock.currentTimeMillis
          if (now % MINUTE === 0) {
            const { transitions } = yield* executor.tick
            yield* drain
            for (const [id, reason] of Object.entries(transitions)) {
              expect(reason).toBe("autostop")
              stoppedAt[id] ??= now
            }
          }
        })

      // 40 minutes with the sessions open: the idle one stops at its deadline (08:40); the used
      // ones run on, each report moving their deadline to 10 minutes after its flush (once a bump's
      // 5% has passed: at most every 30 s here).
      for (let i = 0; i < 2 * 40; i++) yield* halfMinute(true)
      expect(stoppedAt).toEqual({ [idle!.workspaceId]: T0 + BUMP })
      expect(yield* state(idle!.workspaceId)).toMatchObject({ transition: "stop", reason: "autostop" })
      const now = T0 + 40 * MINUTE
      for (const used of [ssh!, tunnel!]) {
        const s = yield* state(used.workspaceId)
        expect(s.transition).toBe("start")
        expect(s.deadline! - now).toBeGreaterThan(BUMP - MINUTE)
        expect(s.deadline! - now).toBeLessThanOrEqual(BUMP)
      }

      // The sessions close: no bump more, and each stops at the deadline its last bump gave it.
      const lastDeadlines = yield* Effect.forEach(
        [ssh!, tunnel!],
        (a) => Effect.map(state(a.workspaceId), (s) => s.deadline!)
      )
      for (let i = 0; i < 2 * 15; i++) yield* halfMinute(false)
      for (const [i, used] of [ssh!, tunnel!].entries()) {
        expect(yield* state(used.workspaceId)).toMatchObject({ transition: "stop", reason: "autostop" })
        // Stopped at the first minute tick at or after that deadline.
        expect(stoppedAt[used.workspaceId]! - lastDeadlines[i]!).toBeGreaterThanOrEqual(0)
        expect(stoppedAt[used.workspaceId]! - lastDeadlines[i]!).toBeLessThan(MINUTE)
      }
    }).pipe(Effect.provide(services({}, [recording]))))
})
