/**
 * The sign-in failure count contract (migration 0037), run against every storage: an attempt
 * reads and writes its key's failures; a refusal writes nothing; `clear` forgets; concurrent
 * attempts on one key are counted one after the other (none lost). Every test gets a fresh,
 * migrated database.
 */
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { decideAttempt, type LoginFailures, LoginThrottleRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect } from "effect"
import type { StorageFactory, SuiteOptions } from "./RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T0 = Date.UTC(2024, 6, 1, 10, 0, 0, 123)

export const loginThrottleRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`Login throttle repository on ${name}`, () => {
    test(
      "stores what an allowed attempt decides, with millisecond times; a refusal writes nothing; clear forgets",
      Effect.gen(function*() {
        const repo = yield* LoginThrottleRepo
        expect(yield* repo.find("password:a@example.com")).toBeUndefined()
        const seen: Array<LoginFailures | undefined> = []
        const next: LoginFailures = { failures: 3, last_attempt_at: new Date(T0), blocked_until: new Date(T0 + 60_000) }
        const decision = yield* repo.attempt("password:a@example.com", (current) => {
          seen.push(current)
          return { _tag: "Allowed", next }
        })
        expect(decision).toEqual({ _tag: "Allowed", next })
        expect(seen).toEqual([undefined])
        expect(yield* repo.find("password:a@example.com")).toEqual(next)
        // Another key is another count.
        expect(yield* repo.find("otp:a@example.com")).toBeUndefined()

        yield* repo.attempt("password:a@example.com", (current) => {
          seen.push(current)
          return { _tag: "Refused", until: new Date(T0 + 60_000) }
        })
        expect(seen[1]).toEqual(next)
        expect(yield* repo.find("password:a@example.com")).toEqual(next)

        const cleared: LoginFailures = { failures: 1, last_attempt_at: new Date(T0 + 1), blocked_until: null }
        yield* repo.attempt("password:a@example.com", () => ({ _tag: "Allowed", next: cleared }))
        expect(yield* repo.find("password:a@example.com")).toEqual(cleared)
        yield* repo.clear("password:a@example.com")
        expect(yield* repo.find("password:a@example.com")).toBeUndefined()
        // A refusal on an unknown key leaves no row behind.
        yield* repo.attempt("password:b@example.com", () => ({ _tag: "Refused", until: new Date(T0) }))
        expect(yield* repo.find("password:b@example.com")).toBeUndefined()
      })
    )

    test(
      "concurrent attempts on one key are all counted, and the threshold refuses the rest",
      Effect.gen(function*() {
        const repo = yield* LoginThrottleRepo
        const now = new Date(T0)
        const decisions = yield* Effect.all(
          Array.from(
            { length: 25 },
            () => repo.attempt("password:c@example.com", (current) => decideAttempt(current, now))
          ),
          { concurrency: "unbounded" }
        )
        expect(decisions.filter((d) => d._tag === "Allowed")).toHaveLength(10)
        expect(decisions.filter((d) => d._tag === "Refused")).toHaveLength(15)
        expect((yield* repo.find("password:c@example.com"))?.failures).toBe(10)
      })
    )

    test(
      "the purge deletes counts whose last attempt and back-off both ended before the cutoff, and only those",
      Effect.gen(function*() {
        const repo = yield* LoginThrottleRepo
        const store = (key: string, last: number, blocked: number | null) =>
          repo.attempt(key, () => ({
            _tag: "Allowed",
            next: {
              failures: 3,
              last_attempt_at: new Date(last),
              blocked_until: blocked === null ? null : new Date(blocked)
            }
          }))
        yield* store("password:idle@example.com", T0 - 3_600_000, null)
        yield* store("password:ended@example.com", T0 - 3_600_000, T0 - 1_000)
        yield* store("password:recent@example.com", T0 + 1_000, null)
        yield* store("password:blocked@example.com", T0 - 3_600_000, T0 + 60_000)
        expect(yield* repo.purgeIdleBefore(new Date(T0))).toBe(2)
        expect(yield* repo.find("password:idle@example.com")).toBeUndefined()
        expect(yield* repo.find("password:ended@example.com")).toBeUndefined()
        expect((yield* repo.find("password:recent@example.com"))?.failures).toBe(3)
        expect((yield* repo.find("password:blocked@example.com"))?.failures).toBe(3)
        expect(yield* repo.purgeIdleBefore(new Date(T0))).toBe(0)
      })
    )
  })
}
