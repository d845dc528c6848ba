/**
 * The in-memory PubSub: fan-out per channel, subscriptions for the life of a scope, channel and size
 * checks; `onSignals`: a follower with no fiber between bursts.
 */
import { describe, expect, it } from "@effect/vitest"
import { onSignals, PubSub } from "@workbay/core"
import { Chunk, Deferred, Effect, Exit, Queue, Scope } from "effect"
import { MAX_PUBSUB_MESSAGE_BYTES, PUBSUB_SUBSCRIBER_CAPACITY } from "../src/PubSub.js"

describe("PubSub.memory", () => {
  it.scoped("delivers to every subscriber of the channel, only to them, in order", () =>
    Effect.gen(function*() {
      const pubsub = yield* PubSub
      const a = yield* pubsub.subscribe("job_logs_a")
      const b = yield* pubsub.subscribe("job_logs_a")
      const other = yield* pubsub.subscribe("job_logs_b")
      yield* pubsub.publish("job_logs_a", "one")
      yield* pubsub.publish("job_logs_a", "two")
      expect(Chunk.toArray(yield* Queue.takeAll(a))).toEqual(["one", "two"])
      expect(Chunk.toArray(yield* Queue.takeAll(b))).toEqual(["one", "two"])
      expect(yield* Queue.size(other)).toBe(0)
    }).pipe(Effect.provide(PubSub.memory)))

  it.effect("a subscription ends with its scope; publishing to no one is a no-op", () =>
    Effect.gen(function*() {
      const pubsub = yield* PubSub
      const scope = yield* Scope.make()
      const q = yield* Scope.extend(pubsub.subscribe("chan"), scope)
      yield* Scope.close(scope, Exit.void)
      expect(yield* Queue.isShutdown(q)).toBe(true)
      yield* pubsub.publish("chan", "nobody listens")
    }).pipe(Effect.provide(PubSub.memory)))

  it.scoped("a slow subscriber keeps the newest messages", () =>
    Effect.gen(function*() {
      const pubsub = yield* PubSub
      const q = yield* pubsub.subscribe("busy")
      for (let i = 0; i < PUBSUB_SUBSCRIBER_CAPACITY + 10; i++) yield* pubsub.publish("busy", String(i))
      const got = Chunk.toArray(yield* Queue.takeAll(q))
      expect(got).toHaveLength(PUBSUB_SUBSCRIBER_CAPACITY)
      expect(got.at(-1)).toBe(String(PUBSUB_SUBSCRIBER_CAPACITY + 9))
    }).pipe(Effect.provide(PubSub.memory)))

  it.scoped("refuses bad channel names and messages over the Postgres payload limit", () =>
    Effect.gen(function*() {
      const pubsub = yield* PubSub
      for (const bad of ["", "Upper", "has-dash", "1digit", "x".repeat(49), "quote\"d"]) {
        expect(Exit.isFailure(yield* Effect.exit(pubsub.publish(bad, "m")))).toBe(true)
        expect(Exit.isFailure(yield* Effect.exit(Effect.scoped(pubsub.subscribe(bad))))).toBe(true)
      }
      yield* pubsub.publish("ok", "x".repeat(MAX_PUBSUB_MESSAGE_BYTES))
      expect(Exit.isFailure(yield* Effect.exit(pubsub.publish("ok", "x".repeat(MAX_PUBSUB_MESSAGE_BYTES + 1))))).toBe(
        true
      )
      // Bytes, not characters: 2667 three-byte characters are 8001 bytes.
      expect(Exit.isFailure(yield* Effect.exit(pubsub.publish("ok", "€".repeat(2667))))).toBe(true)
    }).pipe(Effect.provide(PubSub.memory)))
})

/** Lets forked fibers run. */
const settle = Effect.gen(function*() {
  for (let i = 0; i < 20; i++) yield* Effect.yieldNow()
})

describe("onSignals", () => {
  it.scoped("runs the handler after each burst, one run at a time; what comes during a run makes one more", () =>
    Effect.gen(function*() {
      const pubsub = yield* PubSub
      const runs: Array<ReadonlyArray<string>> = []
      const gate = yield* Deferred.make<void>()
      let active = 0
      yield* onSignals(pubsub, "signals_a", (messages) =>
        Effect.gen(function*() {
          active++
          runs.push(messages)
          // The first run waits for the gate: the messages meanwhile wait for one more run.
          if (runs.length === 1) yield* Deferred.await(gate)
        }).pipe(Effect.ensuring(Effect.sync(() => active--))))
      // Followed when it completes, and nothing runs until a message comes.
      yield* settle
      expect(runs).toEqual([])
      yield* pubsub.publish("signals_a", "1")
      yield* settle
      expect(runs).toEqual([["1"]])
      yield* pubsub.publish("signals_a", "2")
      yield* pubsub.publish("signals_a", "3")
      yield* pubsub.publish("signals_b", "elsewhere")
      yield* settle
      expect(runs).toEqual([["1"]])
      yield* Deferred.succeed(gate, undefined)
      yield* settle
      expect(runs).toEqual([["1"], ["2", "3"]])
      // Between bursts no run is left waiting.
      expect(active).toBe(0)
    }).pipe(Effect.provide(PubSub.memory)))

  it.effect("closing the scope interrupts a run and stops following", () =>
    Effect.gen(function*() {
      const pubsub = yield* PubSub
      const scope = yield* Scope.make()
      const runs: Array<string> = []
      const interrupted = yield* Deferred.make<void>()
      yield* Scope.extend(
        onSignals(pubsub, "signals_c", (messages) =>
          Effect.zipRight(
            Effect.sync(() => runs.push(...messages)),
            Effect.onInterrupt(Effect.never, () => Deferred.succeed(interrupted, undefined))
          )),
        scope
      )
      yield* pubsub.publish("signals_c", "1")
      yield* settle
      yield* Scope.close(scope, Exit.void)
      expect(yield* Deferred.isDone(interrupted)).toBe(true)
      yield* pubsub.publish("signals_c", "2")
      yield* settle
      expect(runs).toEqual(["1"])
    }).pipe(Effect.provide(PubSub.memory)))
})
