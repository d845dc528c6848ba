/**
 * `followEvents`: events pushed as they come, and keep-alive pings written by one timer shared by
 * every answer of an interval (no fiber each), which stops pinging an answer once it ends; served
 * without a fiber (`open`, in a scope the client's leaving closes) or on one (`run`).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Scope } from "effect"
import { type EventStreamAnswer, followEvents, type ServerSentEvent } from "../src/ServerSentEvents.js"

/** A source of events its listeners are told of; each listener leaves with its scope. */
const source = () => {
  const listeners = new Set<(e: ServerSentEvent) => void>()
  const listen = (emit: (e: ServerSentEvent) => void) =>
    Effect.acquireRelease(Effect.sync(() => void listeners.add(emit)), () => Effect.sync(() => listeners.delete(emit)))
  return { listeners, listen, emit: (data: string) => listeners.forEach((l) => l({ event: "data", data })) }
}

/** Opens `answer` as the dispatcher does (pushed, no fiber); `texts` holds what was written. */
const open = (answer: EventStreamAnswer) =>
  Effect.gen(function*() {
    const texts: Array<string> = []
    const scope = yield* Scope.make()
    yield* Scope.extend(answer.open!({ write: (text) => void texts.push(text), backedUp: () => false }), scope)
    return { texts, close: Scope.close(scope, Exit.void) }
  })

/** Runs `answer` on a fiber of its own; `texts` holds what was written. */
const run = (answer: EventStreamAnswer) =>
  Effect.gen(function*() {
    const texts: Array<string> = []
    const fiber = yield* Effect.fork(answer.run({ write: (text) => Effect.sync(() => void texts.push(text)) }))
    return { texts, fiber }
  })

const pings = (texts: ReadonlyArray<string>) => texts.filter((t) => t === "event: ping\n\n").length
const data = (texts: ReadonlyArray<string>) => texts.filter((t) => t.startsWith("event: data"))

describe("followEvents", () => {
  it.live("writes each event as it comes and pings every answer on the shared timer until it ends", () =>
    Effect.gen(function*() {
      const events = source()
      const answer = () => followEvents(events.listen, { pingIntervalMillis: 20 })
      const a = yield* open(yield* answer())
      const b = yield* run(yield* answer())
      while (events.listeners.size < 2) yield* Effect.sleep("5 millis")
      events.emit("{\"n\":1}")
      while (data(b.texts).length === 0) yield* Effect.sleep("5 millis")
      expect(data(a.texts)).toEqual(["event: data\ndata: {\"n\":1}\n\n"])
      expect(data(b.texts)).toEqual(["event: data\ndata: {\"n\":1}\n\n"])
      // Both are pinged.
      while (pings(a.texts) < 2 || pings(b.texts) < 2) yield* Effect.sleep("10 millis")
      // An ended answer is pinged no more and listens no more; the other still is pinged.
      yield* a.close
      expect(events.listeners.size).toBe(1)
      const after = pings(a.texts)
      const bBefore = pings(b.texts)
      while (pings(b.texts) < bBefore + 2) yield* Effect.sleep("10 millis")
      expect(pings(a.texts)).toBe(after)
      yield* Fiber.interrupt(b.fiber)
      expect(events.listeners.size).toBe(0)
    }))

  it.live("a reader that has not taken what was written gets no ping", () =>
    Effect.gen(function*() {
      const answer = yield* followEvents(() => Effect.void, { pingIntervalMillis: 10 })
      const texts: Array<string> = []
      let backedUp = true
      const scope = yield* Scope.make()
      yield* Scope.extend(answer.open!({ write: (t) => void texts.push(t), backedUp: () => backedUp }), scope)
      yield* Effect.sleep("60 millis")
      expect(texts).toEqual([])
      backedUp = false
      while (pings(texts) === 0) yield* Effect.sleep("5 millis")
      yield* Scope.close(scope, Exit.void)
    }))
})
