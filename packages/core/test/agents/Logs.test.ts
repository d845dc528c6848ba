/**
 * Agent logs on the real services over an in-memory SQLite storage, with the TestClock: the
 * retention fiber purges agent log lines past `retentionWorkspaceAgentLogs` on its schedule;
 * a follow gives stored and new lines (signalled through the PubSub port) and ends once a newer
 * build replaces the agent, noticed at the fallback re-read.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  AgentLogs,
  AgentRepo,
  CurrentAgent,
  type PatchLogsRequest,
  Retention,
  UserRepo,
  WorkspaceBuilds,
  WorkspaceResourceRepo,
  Workspaces
} from "@workbay/core"
import { Duration, Effect, Fiber, Layer, Option, Stream } from "effect"
import * as TestClock from "effect/TestClock"
import { drain, services, signedInOwner, templateOf } from "../services.js"

const T0 = Date.UTC(2024, 4, 6, 7, 8, 9, 123)
const DAY = 86_400_000

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        scripts:
          - display_name: Install
            script: echo hi
            run_on_start: true
`

/** A running workspace of the signed-in owner; `asAgent` runs an effect as its agent. */
const setup = Effect.gen(function*() {
  const { as, organizationId, userId } = yield* signedInOwner(T0)
  const template = yield* as(templateOf(organizationId, TEMPLATE, "tpl"))
  const created = yield* as(
    Effect.flatMap(Workspaces, (w) => w.create(organizationId, "me", { name: "ws", template_id: template.id }))
  )
  yield* drain
  const latest = yield* as(Effect.flatMap(Workspaces, (w) => w.get(created.id)))
  const [stored] = yield* Effect.flatMap(WorkspaceResourceRepo, (r) => r.listByJobs([latest.latest_build.job.id]))
  const agent = stored!.agents[0]!
  const asAgent = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.gen(function*() {
      const inBuild = Option.getOrThrow(yield* Effect.flatMap(AgentRepo, (r) => r.findById(agent.id)))
      const owner = Option.getOrThrow(yield* Effect.flatMap(UserRepo, (r) => r.findById(userId)))
      return yield* Effect.provideService(effect, CurrentAgent, { ...inBuild, owner })
    })
  const append = (outputs: ReadonlyArray<string>, at: number) => {
    const input: typeof PatchLogsRequest.Type = {
      log_source_id: agent.scripts[0]!.id,
      logs: outputs.map((output) => ({ created_at: new Date(at), level: "info", output }))
    }
    return asAgent(Effect.flatMap(AgentLogs, (l) => l.append(input)))
  }
  const outputs = as(Effect.flatMap(AgentLogs, (l) => l.list(agent.id))).pipe(
    Effect.map((ls) => ls.map((l) => l.output))
  )
  return { as, agent, workspaceId: created.id, append, outputs }
})

/** Lets forked fibers run up to their next sleep. */
const settle = Effect.repeatN(Effect.yieldNow(), 50)

describe("agent logs with the TestClock", () => {
  it.scoped("the retention fiber purges agent log lines past workspace_agent_logs, at start and then each interval", () =>
    Effect.gen(function*() {
      const { append, outputs } = yield* setup
      yield* append(["ancient"], T0 - 8 * DAY)
      yield* append(["aging"], T0 - 7 * DAY + 2 * 3_600_000 - 60_000)
      yield* append(["fresh"], T0 - DAY)
      expect(yield* outputs).toEqual(["ancient", "aging", "fresh"])
      yield* Layer.buildWithScope(Retention.periodic({ interval: "2 hours" }), yield* Effect.scope)
      yield* settle
      expect(yield* outputs).toEqual(["aging", "fresh"])
      yield* TestClock.adjust(Duration.hours(1))
      yield* settle
      expect(yield* outputs).toEqual(["aging", "fresh"])
      yield* TestClock.adjust(Duration.hours(1))
      yield* settle
      expect(yield* outputs).toEqual(["fresh"])
    }).pipe(Effect.provide(services({ retentionWorkspaceAgentLogs: Duration.days(7) }))))

  it.scoped("follow gives stored lines, then new ones, and ends when a stop build replaces the agent", () =>
    Effect.gen(function*() {
      const { as, agent, workspaceId, append } = yield* setup
      yield* append(["one", "two"], T0)
      const stream = yield* as(Effect.flatMap(AgentLogs, (l) => l.follow(agent.id, 0, { fallback: "5 seconds" })))
      const collected: Array<string> = []
      const fiber = yield* Stream.runForEach(stream, (l) => Effect.sync(() => collected.push(l.output))).pipe(
        Effect.fork
      )
      yield* settle
      expect(collected).toEqual(["one", "two"])
      yield* append(["three"], T0)
      yield* settle
      // Delivered by the signal, with no time passing.
      expect(collected).toEqual(["one", "two", "three"])
      yield* as(Effect.flatMap(WorkspaceBuilds, (b) => b.create(workspaceId, { transition: "stop" })))
      yield* drain
      yield* settle
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      // The fallback re-read notices the agent no longer belongs to the latest build.
      yield* TestClock.adjust(Duration.seconds(5))
      yield* settle
      yield* Fiber.join(fiber)
      expect(collected).toEqual(["one", "two", "three"])
    }).pipe(Effect.provide(services())))
})
