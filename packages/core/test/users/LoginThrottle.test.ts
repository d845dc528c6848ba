/**
 * The per-account sign-in throttle (docs/authentication.md, "Failed sign-ins"): the pure rule, and
 * password logins and one-time-passcode password changes on an in-memory SQLite storage, with
 * Effect's TestClock driving the window and the back-off (no sleeps).
 */
import { describe, expect, it } from "@effect/vitest"
import {
  Auth,
  decideAttempt,
  type LoginFailures,
  loginThrottleKey,
  LoginThrottleRepo,
  PasswordHasher,
  RetryLater,
  TooManyRequests,
  Unauthorized,
  UserRepo
} from "@workbay/core"
import { Duration, Effect, Layer, Option } from "effect"
import * as TestClock from "effect/TestClock"
import { defaultLoginThrottlePolicy } from "../../src/users/LoginThrottle.js"
import { services } from "../services.js"

const T0 = Date.UTC(2024, 4, 6, 7, 8, 9, 123)
const PASSWORD = "Correct-Horse-Battery-9"
const EMAIL = "admin@example.com"
const MINUTE = 60_000

/** Applies `n` counted attempts at `at` (each allowed) to `state`. */
const failTimes = (state: LoginFailures | undefined, n: number, at: Date) => {
  let s = state
  for (let i = 0; i < n; i++) {
    const d = decideAttempt(s, at)
    if (d._tag !== "Allowed") throw new Error(`attempt ${i + 1} refused`)
    s = d.next
  }
  return s!
}

describe("decideAttempt", () => {
  it("counts nine failures without a back-off; the tenth starts a one-minute back-off", () => {
    const now = new Date(T0)
    const nine = failTimes(undefined, 9, now)
    expect(nine).toEqual({ failures: 9, last_attempt_at: now, blocked_until: null })
    const ten = failTimes(nine, 1, now)
    expect(ten.blocked_until).toEqual(new Date(T0 + MINUTE))
  })

  it("refuses during the back-off without changing anything, then doubles the back-off per failure up to 15 minutes", () => {
    let s = failTimes(undefined, 10, new Date(T0))
    let t = T0
    const delays: Array<number> = []
    for (let i = 0; i < 6; i++) {
      // Just before the end: refused, and the refusal itself does not lengthen the back-off.
      expect(decideAttempt(s, new Date(s.blocked_until!.getTime() - 1))).toEqual({
        _tag: "Refused",
        until: s.blocked_until
      })
      t = s.blocked_until!.getTime()
      s = failTimes(s, 1, new Date(t))
      delays.push((s.blocked_until!.getTime() - t) / MINUTE)
    }
    expect(delays).toEqual([2, 4, 8, 15, 15, 15])
  })

  it("forgets the count after the window without attempts, measured from the end of the back-off", () => {
    const nine = failTimes(undefined, 9, new Date(T0))
    expect(failTimes(nine, 1, new Date(T0 + 10 * MINUTE)).failures).toBe(10)
    expect(failTimes(nine, 1, new Date(T0 + 10 * MINUTE + 1)).failures).toBe(1)
    // A 15-minute back-off is longer than the window: the next failure after it still escalates.
    const capped: LoginFailures = {
      failures: 14,
      last_attempt_at: new Date(T0),
      blocked_until: new Date(T0 + 15 * MINUTE)
    }
    expect(failTimes(capped, 1, new Date(T0 + 20 * MINUTE)).failures).toBe(15)
    expect(failTimes(capped, 1, new Date(T0 + 25 * MINUTE + 1)).failures).toBe(1)
  })

  it("keys accounts by the normalized email", () => {
    expect(loginThrottleKey("password", " Admin@Example.COM ")).toBe("password:admin@example.com")
    expect(loginThrottleKey("otp", "a@b.c")).not.toBe(loginThrottleKey("password", "a@b.c"))
    expect(defaultLoginThrottlePolicy.threshold).toBe(10)
  })
})

/** A scrypt hasher (cost 4) that counts the passwords it verifies. */
const countingHasher = () => {
  const verified: Array<string> = []
  const layer = Layer.effect(
    PasswordHasher,
    Effect.map(Effect.provide(PasswordHasher, PasswordHasher.scrypt(4)), (inner) => ({
      hash: inner.hash,
      verify: (password: string, hashed: string) =>
        Effect.zipRight(Effect.sync(() => void verified.push(password)), inner.verify(password, hashed))
    }))
  )
  return { verified, layer }
}

const setup = Effect.gen(function*() {
  yield* TestClock.setTime(T0)
  const auth = yield* Auth
  yield* auth.createFirstUser({ email: EMAIL, username: "admin", password: PASSWORD })
  return auth
})

describe("Auth's per-account throttle on in-memory storage with the TestClock", () => {
  it.effect("ten wrong passwords start a back-off in which the right one is refused unchecked; after it the right one signs in and resets", () => {
    const hasher = countingHasher()
    return Effect.gen(function*() {
      const auth = yield* setup
      for (let i = 0; i < 10; i++) {
        expect(yield* Effect.flip(auth.login(EMAIL, `wrong-${i}`))).toBeInstanceOf(Unauthorized)
      }
      hasher.verified.length = 0

      yield* TestClock.adjust(Duration.seconds(30))
      const refused = yield* Effect.flip(auth.login(EMAIL, PASSWORD))
      expect(refused).toBeInstanceOf(RetryLater)
      expect(refused).toBeInstanceOf(TooManyRequests)
      expect((refused as RetryLater).retryAfterSeconds).toBe(30)
      expect(refused.message).toBe("Too many failed sign-in attempts for this account. Try again later.")
      // The password was not checked (no oracle), and the refusal did not lengthen the back-off.
      expect(hasher.verified).toEqual([])
      const stored = yield* Effect.flatMap(LoginThrottleRepo, (r) => r.find(loginThrottleKey("password", EMAIL)))
      expect(stored?.failures).toBe(10)
      expect(stored?.blocked_until?.getTime()).toBe(T0 + MINUTE)

      yield* TestClock.adjust(Duration.seconds(30))
      const { session_token } = yield* auth.login(EMAIL.toUpperCase(), PASSWORD)
      expect(session_token).toMatch(/^.{10}-.{22}$/)
      expect(yield* Effect.flatMap(LoginThrottleRepo, (r) => r.find(loginThrottleKey("password", EMAIL))))
        .toBeUndefined()
      // The count starts over: nine more failures are plain 401s.
      for (let i = 0; i < 9; i++) expect(yield* Effect.flip(auth.login(EMAIL, "wrong"))).toBeInstanceOf(Unauthorized)
    }).pipe(Effect.provide(services({}, undefined, { hasher: hasher.layer })))
  })

  it.effect("a failure after the back-off doubles it; unknown accounts are throttled alike", () =>
    Effect.gen(function*() {
      const auth = yield* setup
      for (const email of [EMAIL, "nobody@example.com"]) {
        yield* TestClock.setTime(T0)
        for (let i = 0; i < 10; i++) yield* Effect.flip(auth.login(email, "wrong"))
        yield* TestClock.adjust(Duration.minutes(1))
        expect(yield* Effect.flip(auth.login(email, "wrong"))).toBeInstanceOf(Unauthorized)
        const refused = yield* Effect.flip(auth.login(email, PASSWORD))
        expect((refused as RetryLater).retryAfterSeconds).toBe(120)
        expect(refused.detail).toBe("Try again in 120 seconds.")
      }
    }).pipe(Effect.provide(services())))

  it.effect("one-time passcode attempts are throttled the same way, apart from logins", () =>
    Effect.gen(function*() {
      const auth = yield* setup
      const users = yield* UserRepo
      const admin = Option.getOrThrow(yield* users.findByEmail(EMAIL))
      const hasher = yield* PasswordHasher
      yield* users.update(admin.id, {
        hashed_one_time_passcode: yield* hasher.hash("the-passcode"),
        one_time_passcode_expires_at: new Date(T0 + 60 * MINUTE)
      })
      const change = (passcode: string) =>
        auth.changePasswordWithPasscode({
          email: EMAIL,
          one_time_passcode: passcode,
          password: "Another-Battery-Staple-7"
        })
      for (let i = 0; i < 10; i++) expect(yield* Effect.flip(change(`guess-${i}`))).toBeInstanceOf(Unauthorized)
      const refused = yield* Effect.flip(change("the-passcode"))
      expect(refused).toBeInstanceOf(RetryLater)
      expect(refused.message).toBe("Too many failed one-time passcode attempts for this account. Try again later.")
      // Password logins have their own count.
      yield* auth.login(EMAIL, PASSWORD)
      yield* TestClock.adjust(Duration.minutes(1))
      yield* change("the-passcode")
      yield* auth.login(EMAIL, "Another-Battery-Staple-7")
    }).pipe(Effect.provide(services())))
})
