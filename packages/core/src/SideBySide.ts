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

/** `Effect.all(reads)`: at once where the storage's reads may run so, else in turn. */
export const sideBySide = <const T extends ReadonlyArray<Effect.Effect<any, any, any>>>(
  reads: T
): Effect.Effect<
  { -readonly [K in keyof T]: Effect.Effect.Success<T[K]> },
  Effect.Effect.Error<T[number]>,
  Effect.Effect.Context<T[number]>
> =>
  FiberRef.getWith(
    ReadsAtOnce,
    (atOnce): Effect.Effect<any, any, any> =>
      atOnce ? Effect.all(reads, { concurrency: "unbounded" }) : Effect.all(reads)
  ) as any
