/**
 * `followEvents`: events written one at a time as they come, and keep-alive pings written by one
 * timer shared by every answer of an interval (no fiber each), which stops pinging an answer once
 * it ends.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Queue } from "effect"
import { type EventStreamAnswer, followEvents } from "../src/ServerSentEvents.js"

/** Runs `answer` into a recording sink; `texts` holds what was written. */
const run = (answer: EventStreamAnswer) =>
  Effect.gen(function*() {
    const texts: Array<string> = []
    const fiber = yield* Effect.fork(answer.run({ write: (text) => Effect.sync(() => void texts.push(text)) }))
    return { texts, fiber }
  })

const pings = (texts: ReadonlyArray<string>) => texts.filter((t) => t === "event: ping\n\n").length

describe("followEvents", () => {
  it.live("writes each event as it comes and pings every answer on the shared timer until it ends", () =>
    Effect.gen(function*() {
      const events = yield* Queue.unbounded<string>()
      const answer = (pingIntervalMillis: number) =>
        followEvents(Effect.succeed(Effect.map(Queue.take(events), (data) => ({ event: "data", data }))), {
          pingIntervalMillis
        })
      const a = yield* run(yield* answer(20))
      const b = yield* run(yield* answer(20))
      yield* Queue.offer(events, "{\"n\":1}")
      // One of the two takes it, once.
      const data = () => [...a.texts, ...b.texts].filter((t) => t.startsWith("event: data"))
      while (data().length === 0) yield* Effect.sleep("5 millis")
      yield* Effect.sleep("20 millis")
      expect(data()).toEqual(["event: data\ndata: {\"n\":1}\n\n"])
      // Both are pinged.
      while (pings(a.texts) < 2 || pings(b.texts) < 2) yield* Effect.sleep("10 millis")
      // An ended answer is pinged no more; the other still is.
      yield* Fiber.interrupt(a.fiber)
      const after = pings(a.texts)
      const bBefore = pings(b.texts)
      while (pings(b.texts) < bBefore + 2) yield* Effect.sleep("10 millis")
      expect(pings(a.texts)).toBe(after)
      yield* Fiber.interrupt(b.fiber)
    }))
})
