/**
 * Following rows that grow at the end (log lines keyed by an increasing id) across replicas:
 * subscribe to a PubSub channel first, then read from a cursor, then read again on each signal
 * (or after a quiet `fallback`, for a lost signal). Provisioner job logs and agent logs follow
 * this way.
 */
import { Chunk, Duration, Effect, Option, Queue, Stream } from "effect"
import { PubSub } from "./PubSub.js"

export interface FollowByIdOptions<A, E> {
  /** The PubSub channel whose messages say that rows were stored or that the source moved. */
  readonly channel: string
  /** The message that only says "rows were stored"; any other one (and a quiet fallback) re-asks `finished`. */
  readonly rowsSignal: string
  /** Only rows with a larger id. */
  readonly after: number
  /** Re-read without a signal this often. */
  readonly fallback: Duration.DurationInput
  /** Rows read per query. */
  readonly page: number
  /** Up to `limit` rows with an id above `cursor`, in id order. */
  readonly read: (cursor: number, limit: number) => Effect.Effect<ReadonlyArray<A>>
  readonly idOf: (row: A) => number
  /** Whether no row will come any more, asked once the subscription is in place (its failure ends the stream). */
  readonly start: Effect.Effect<boolean, E>
  /** Whether no row will come any more, asked again after a signal other than `rowsSignal` or a quiet fallback. */
  readonly finished: Effect.Effect<boolean>
}

/**
 * The rows after `after`, then each row as it is stored, until the source is finished and its
 * last rows were read.
 */
export const followById = <A, E>(options: FollowByIdOptions<A, E>): Stream.Stream<A, E, PubSub> =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const pubsub = yield* PubSub
    const fallback = Duration.decode(options.fallback)
    const signals = yield* pubsub.subscribe(options.channel)
    let finished = yield* options.start
    let cursor = options.after
    let more = true
    let recheck = false

    const waitForSignal = Effect.gen(function*() {
      const first = yield* Effect.timeoutOption(Queue.take(signals), fallback)
      // Signals that arrived meanwhile are served by the same read.
      const rest = yield* Queue.takeAll(signals)
      recheck = Option.isNone(first) || first.value !== options.rowsSignal ||
        Chunk.some(rest, (m) => m !== options.rowsSignal)
    })

    const next: Effect.Effect<Chunk.Chunk<A>, Option.Option<never>> = Effect.gen(function*() {
      for (;;) {
        if (!more) {
          if (finished) return yield* Effect.fail(Option.none())
          yield* waitForSignal
        }
        if (recheck) {
          recheck = false
          finished = yield* options.finished
        }
        const rows = yield* options.read(cursor, options.page)
        more = rows.length === options.page
        if (rows.length > 0) {
          cursor = options.idOf(rows[rows.length - 1]!)
          return Chunk.unsafeFromArray(rows)
        }
      }
    })
    return Stream.repeatEffectChunkOption(next)
  }))
