/**
 * Repository ports shared by every area: the unique-key clash, paging, transactions.
 * Each area's own ports sit in its folder (`users/Repositories.ts`, ...). Storage
 * packages implement them; services depend only on these tags. Storage failures are
 * defects, except a unique-key clash, which is a typed {@link UniqueViolation} the
 * services turn into a 409.
 */
import { Context, Data, type Effect } from "effect"

/** A write hit a unique constraint (e.g. a duplicate username). */
export class UniqueViolation extends Data.TaggedError("UniqueViolation")<{ readonly constraint: string }> {}

export interface Page {
  readonly limit: number
  readonly offset: number
}

/** Runs a unit of work atomically (a database transaction). */
export class Transactions extends Context.Tag("@workbay/core/Transactions")<Transactions, {
  readonly atomic: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}

/**
 * What a stored record's one constructor takes (`newWorkspace`, `newTemplate`, ...): the fields
 * that have no default, when it is made (`at`), and any of the other fields over their defaults.
 */
export type NewRecord<R, Given extends keyof R> = Pick<R, Given> & { readonly at: Date } & Partial<Omit<R, Given>>
