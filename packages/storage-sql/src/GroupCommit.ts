/**
 * Group commit: small writes that arrive while an earlier one is being written are written
 * together, in one transaction, by one fiber. Under load this turns many transactions into a few:
 * on SQLite a commit and @effect/sql's transaction steps cost more than a small write's own
 * statements, and on Postgres each is a round trip. A write that arrives alone is written at
 * after one turn of the event loop (what arrived in that turn joins it), so nothing waits longer
 * for company.
 *
 * A group that fails (a constraint of one of its writes, a Postgres deadlock) is written again one
 * write per transaction, so one bad write fails alone and the others are stored. Each write's
 * statements run in order of arrival; the caller waits for its own result.
 */
import type { SqlError } from "@effect/sql"
import { Cause, Deferred, Effect, Exit, Queue, type Scope } from "effect"

interface Pending<I, O> {
  readonly item: I
  readonly done: Deferred.Deferred<O>
}

export interface GroupCommitOptions<I, O> {
  /** Writes in one transaction at most. */
  readonly maxItems: number
  /** The (counted) transaction of the repository's client. */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** One write's statements; they run inside the group's transaction. */
  readonly write: (item: I) => Effect.Effect<O, SqlError.SqlError>
  /** Orders a group's writes before they run (to take row locks in one order); must keep the order of equal keys. */
  readonly sortKey?: (item: I) => string
}

/**
 * Starts the writer (its fiber lives as long as `Scope`) and answers the function that submits
 * one write and waits for its result. A write that fails even alone is a defect of its caller.
 */
export const groupCommit = <I, O>(
  options: GroupCommitOptions<I, O>
): Effect.Effect<(item: I) => Effect.Effect<O>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<Pending<I, O>>()
    const settle = (pending: Pending<I, O>, exit: Exit.Exit<O, SqlError.SqlError>) =>
      Exit.isSuccess(exit)
        ? Deferred.succeed(pending.done, exit.value)
        : Deferred.die(pending.done, Cause.squash(exit.cause))

    const alone = (pending: Pending<I, O>) =>
      Effect.flatMap(Effect.exit(options.transaction(options.write(pending.item))), (exit) => settle(pending, exit))

    const together = (group: ReadonlyArray<Pending<I, O>>) => {
      const sortKey = options.sortKey
      // Array.prototype.sort is stable: writes of one key keep their order of arrival.
      const ordered = sortKey === undefined
        ? group
        : [...group].sort((a, b) => compare(sortKey(a.item), sortKey(b.item)))
      return Effect.flatMap(
        Effect.exit(options.transaction(Effect.forEach(ordered, (p) => options.write(p.item)))),
        (exit) =>
          Exit.isSuccess(exit)
            ? Effect.forEach(ordered, (p, i) => Deferred.succeed(p.done, exit.value[i]!), { discard: true })
            : Effect.forEach(group, alone, { discard: true })
      )
    }

    const writeNext = Effect.gen(function*() {
      const first = yield* Queue.take(queue)
      // One turn of the event loop: the requests and messages already read from sockets submit
      // their writes before the group is taken (each arrives in its own I/O callback).
      yield* nextTurn
      const rest = yield* Queue.takeUpTo(queue, options.maxItems - 1)
      if (rest.length === 0) return yield* alone(first)
      return yield* together([first, ...rest])
    })
    yield* Effect.forkScoped(Effect.forever(writeNext))

    return (item: I) =>
      Effect.flatMap(Deferred.make<O>(), (done) =>
        Effect.zipRight(Queue.offer(queue, { item, done }), Deferred.await(done)))
  })

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Resumes after the event loop's I/O callbacks of this turn (setImmediate). */
const nextTurn = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})
