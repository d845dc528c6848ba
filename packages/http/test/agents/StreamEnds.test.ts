/** The pairing of a client's stream with the agent's end (src/agents/StreamEnds.ts), without HTTP. */
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Fiber, Layer, Option, Scope } from "effect"
import { StreamEnds } from "../../src/agents/StreamEnds.js"
import type { StreamEnd } from "../../src/WebSocketSplice.js"

const socket = { _tag: "Held", held: { ws: undefined, queued: [] } } as unknown as StreamEnd

describe("StreamEnds", () => {
  it.scoped("hands the agent's socket to the wait of its stream, once", () =>
    Effect.gen(function*() {
      const ends = yield* StreamEnds
      const agentEnd = yield* ends.expect("r1", "S-1", "agent-a")
      const waiter = yield* Effect.fork(agentEnd)
      // Another agent, another replica's key or another stream find nothing.
      expect(Option.isNone(yield* ends.take("r1", "s-1", "agent-b"))).toBe(true)
      expect(Option.isNone(yield* ends.take("r2", "s-1", "agent-a"))).toBe(true)
      expect(Option.isNone(yield* ends.take("r1", "s-2", "agent-a"))).toBe(true)
      // Stream ids are compared lower-cased, as the route's path carries them.
      const hand = yield* ends.take("r1", "s-1", "agent-a")
      expect(Option.isSome(hand)).toBe(true)
      expect(Option.isNone(yield* ends.take("r1", "s-1", "agent-a"))).toBe(true)
      yield* Option.getOrThrow(hand)(socket)
      expect(yield* Fiber.join(waiter)).toBe(socket)
    }).pipe(Effect.provide(StreamEnds.layer)))

  it.scoped("forgets a wait when its scope closes", () =>
    Effect.gen(function*() {
      const ends = yield* StreamEnds
      const scope = yield* Scope.make()
      yield* Scope.extend(ends.expect("r1", "s-1", "agent-a"), scope)
      yield* Scope.close(scope, Exit.void)
      expect(Option.isNone(yield* ends.take("r1", "s-1", "agent-a"))).toBe(true)
    }).pipe(Effect.provide(StreamEnds.layer)))

  // Live clock: the bound below is real time.
  it.live("fails the waits left when the service stops", () =>
    Effect.gen(function*() {
      const service = yield* Scope.make()
      const ends = Context.get(yield* Layer.buildWithScope(StreamEnds.layer, service), StreamEnds)
      const waiter = yield* Effect.fork(Effect.scoped(Effect.flatten(ends.expect("r1", "s-1", "agent-a"))))
      yield* Effect.yieldNow()
      yield* Scope.close(service, Exit.void)
      // Bounded: without the service's finalizer the wait would never end.
      const exit = yield* Fiber.await(waiter).pipe(Effect.timeout("5 seconds"))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).toMatch(/stopping/)
    }))
})
