/**
 * Reads that need none of each other, side by side: on Postgres each on one of the pool's
 * connections at once (a page waited for each round trip in turn), on SQLite one after the other.
 * SQLite's statements run on the event loop and never wait, so a fiber per read there is only cost:
 * forking, scheduling and joining the fibers of a workspace list's four rounds took about a quarter
 * of its CPU, and of a workspace page's nearly half (docs/scale.md, session 59). A storage layer
 * whose reads do not wait says so with {@link readsInTurn}.
 */
import { Effect, FiberRef, Layer } from "effect"

/** Whether the storage's reads may run at once (the default) or run in turn. */
export const ReadsAtOnce: FiberRef.FiberRef<boolean> = FiberRef.unsafeMake(true)

/** For a storage layer whose statements never wait (SQLite): reads side by side run in turn. */
export const readsInTurn: Layer.Layer<never> = Layer.locallyScoped(ReadsAtOnce, false)

/**
 * `reads` one after the other, their results in order: `Effect.all(reads)` without its machinery
 * (its options, its loop, a context read and a scope step per call: about 7 steps of the fiber
 * beside one per read, and a workspace read runs four such rounds). The results' array is made by
 * each run.
 */
const inTurn = (reads: ReadonlyArray<Effect.Effect<any, any, any>>): Effect.Effect<Array<unknown>, any, any> => {
  const from = (i: number, out: Array<unknown>): Effect.Effect<Array<unknown>, any, any> =>
    i === reads.length ? Effect.succeed(out) : Effect.flatMap(reads[i]!, (a) => {
      out[i] = a
      return from(i + 1, out)
    })
  return reads.length === 0 ? Effect.succeed([]) : Effect.flatMap(reads[0]!, (a) => {
    const out = new Array<unknown>(reads.length)
    out[0] = a
    return from(1, out)
  })
}

/** `Effect.all(reads)`: at once where the storage's reads may run so, else in turn. */
export const sideBySide = <const T extends ReadonlyArray<Effect.Effect<any, any, any>>>(
  reads: T
): Effect.Effect<
  { -readonly [K in keyof T]: Effect.Effect.Success<T[K]> },
  Effect.Effect.Error<T[number]>,
  Effect.Effect.Context<T[number]>
> =>
  Effect.withFiberRuntime((fiber): Effect.Effect<any, any, any> =>
    fiber.getFiberRef(ReadsAtOnce) ? Effect.all(reads, { concurrency: "unbounded" }) : inTurn(reads)
  ) as any
