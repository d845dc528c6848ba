/**
 * Periodic work over thousands of members (connections, streams) spread over the period: the
 * members are kept in a few slots and one slot is visited per tick, so each member is still visited
 * once a period but they are not all visited in the same tick. A keep-alive ping or a refresh of
 * every agent's connection done at once is a burst of work that every other answer of the process
 * waits behind (at 2,000 agents, thousands of writes in one turn of the event loop, every period).
 */

/** How many slots a period is cut into by default. */
export const DEFAULT_SLOTS = 16

/** Members spread over slots: a new member joins the emptiest slot; `advance` gives the next slot's. */
export class Slots<A> {
  private readonly slots: ReadonlyArray<Set<A>>
  private tick = 0
  private members = 0

  constructor(readonly count: number = DEFAULT_SLOTS) {
    this.slots = Array.from({ length: Math.max(1, count) }, () => new Set<A>())
  }

  get size(): number {
    return this.members
  }

  /** Adds `member` to the emptiest slot; the slot is what `delete` takes back. */
  add(member: A): Set<A> {
    let slot = this.slots[0]!
    for (const s of this.slots) if (s.size < slot.size) slot = s
    slot.add(member)
    this.members++
    return slot
  }

  /** Removes `member` from `slot` (the one `add` gave); false when it was not there. */
  delete(member: A, slot: Set<A>): boolean {
    if (!slot.delete(member)) return false
    this.members--
    return true
  }

  /** The members of the slot whose turn it is now, a copy (a visit may add or delete members). */
  advance(): ReadonlyArray<A> {
    this.tick = (this.tick + 1) % this.slots.length
    return [...this.slots[this.tick]!]
  }

  /** Calls `f` with every member, in no particular order. */
  forEach(f: (member: A) => void): void {
    for (const slot of this.slots) for (const member of slot) f(member)
  }

  /** Every member, in no particular order. */
  all(): ReadonlyArray<A> {
    return this.slots.flatMap((s) => [...s])
  }
}

/**
 * A timer that visits the members of `slots` one slot per tick, each member once every `periodMs`
 * (the timer ticks every `periodMs / slots.count`). Unreferenced: it never keeps the process up.
 * Returns the function that stops it.
 */
export const visitEvery = <A>(slots: Slots<A>, periodMs: number, visit: (member: A) => void): () => void => {
  const timer = setInterval(() => {
    for (const member of slots.advance()) visit(member)
  }, Math.max(1, Math.floor(periodMs / slots.count)))
  timer.unref?.()
  return () => clearInterval(timer)
}
