/** Service spans: recorded by a collecting tracer, and no cost (nothing made, nothing provided) while tracing is off. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, FiberRef, Option, Tracer } from "effect"
import { span } from "../src/Tracing.js"

/** A tracer that records the names of the spans it makes (Effect's own tracer does the rest). */
const recording = Effect.map(Effect.tracer, (native) => {
  const names: Array<string> = []
  const tracer = Tracer.make({
    span: (name, ...rest) => {
      names.push(name)
      return native.span(name, ...rest)
    },
    context: native.context
  })
  return { names, tracer }
})

describe("span", () => {
  it.effect("records a span, the parent of the spans inside it, when tracing is on", () =>
    Effect.gen(function*() {
      const { names, tracer } = yield* recording
      const parent = yield* Effect.currentParentSpan.pipe(
        Effect.map(Option.some),
        Effect.catchAll(() => Effect.succeed(Option.none())),
        span("Outer.method"),
        Effect.withTracer(tracer)
      )
      expect(names).toEqual(["Outer.method"])
      expect(Option.map(parent, (p) => p._tag === "Span" ? p.name : "")).toEqual(Option.some("Outer.method"))
    }))

  it.effect("makes no span and leaves the parent span alone when tracing is off", () =>
    Effect.gen(function*() {
      const { names, tracer } = yield* recording
      const parent = yield* Effect.currentParentSpan.pipe(
        Effect.map(Option.some),
        Effect.catchAll(() => Effect.succeed(Option.none())),
        span("Outer.method"),
        Effect.withTracer(tracer),
        Effect.locally(FiberRef.currentTracerEnabled, false)
      )
      expect(names).toEqual([])
      expect(parent).toEqual(Option.none())
    }))
})
