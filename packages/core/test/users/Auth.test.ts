/**
 * Authentication rules on real services over an in-memory SQLite storage,
 * with Effect's TestClock driving time. No HTTP, no database server.
 */
import { describe, expect, it } from "@effect/vitest"
import { ApiKeyRepo, Auth, Conflict, CurrentActor, NotFound, Unauthorized, UserRepo } from "@workbay/core"
import { Duration, Effect, Option } from "effect"
import * as TestClock from "effect/TestClock"
import { NANOS_PER_SECOND } from "../../src/users/Auth.js"
import { services } from "../services.js"

const T0 = Date.UTC(2024, 4, 6, 7, 8, 9, 123)
const PASSWORD = "Correct-Horse-Battery-9"
const EMAIL = "admin@example.com"

/** The clock at T0, the first user created, and a session for them. */
const signedIn = Effect.gen(function*() {
  yield* TestClock.setTime(T0)
  const auth = yield* Auth
  yield* auth.createFirstUser({ email: EMAIL, username: "admin", password: PASSWORD })
  const { session_token } = yield* auth.login(EMAIL, PASSWORD)
  return session_token
})

const keyOf = (token: string) =>
  Effect.flatMap(ApiKeyRepo, (keys) => Effect.map(keys.findById(token.slice(0, 10)), Option.getOrThrow))

const authenticate = (token: string) => Effect.flatMap(Auth, (auth) => auth.authenticate(token))

const expectUnauthorized = (token: string, message: string) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(authenticate(token))
    expect(error).toBeInstanceOf(Unauthorized)
    expect(error.message).toBe(message)
  })

describe("Auth on in-memory storage with the TestClock", () => {
  it.effect("a token expires when the clock passes its expires_at", () =>
    Effect.gen(function*() {
      const auth = yield* Auth
      const session = yield* signedIn
      const actor = yield* auth.authenticate(session)
      const { key: token } = yield* auth
        .createToken("me", { token_name: "ci", lifetime: 3600 * NANOS_PER_SECOND })
        .pipe(Effect.provideService(CurrentActor, actor))
      const record = yield* keyOf(token)
      expect(record.expires_at.getTime()).toBe(T0 + 3_600_000)
      expect(record.lifetime_seconds).toBe(3600)

      yield* TestClock.adjust(Duration.millis(3_600_000 - 1))
      expect((yield* authenticate(token)).user.username).toBe("admin")
      // Using a token never extends it.
      expect((yield* keyOf(token)).expires_at.getTime()).toBe(T0 + 3_600_000)

      yield* TestClock.adjust(Duration.millis(2))
      yield* expectUnauthorized(token, "API key expired.")
      // Still expired later, and the failed attempt did not revive it.
      yield* TestClock.adjust(Duration.days(1))
      yield* expectUnauthorized(token, "API key expired.")
    }).pipe(Effect.provide(services())))

  it.effect("an unused session expires after the session duration", () =>
    Effect.gen(function*() {
      const session = yield* signedIn
      expect((yield* keyOf(session)).expires_at.getTime()).toBe(T0 + Duration.toMillis(Duration.hours(24)))
      yield* TestClock.adjust(Duration.hours(24))
      yield* expectUnauthorized(session, "API key expired.")
    }).pipe(Effect.provide(services())))

  it.effect("session expiry slides on use", () =>
    Effect.gen(function*() {
      const session = yield* signedIn
      const day = Duration.toMillis(Duration.hours(24))

      yield* TestClock.adjust(Duration.minutes(2))
      yield* authenticate(session)
      const slid = yield* keyOf(session)
      expect(slid.expires_at.getTime()).toBe(T0 + 120_000 + day)
      expect(slid.last_used.getTime()).toBe(T0 + 120_000)

      // Used every 23 hours, the session outlives its first expiry many times over.
      for (let i = 1; i <= 3; i++) {
        yield* TestClock.adjust(Duration.hours(23))
        yield* authenticate(session)
      }
      const now = T0 + 120_000 + 3 * 23 * 3_600_000
      expect((yield* keyOf(session)).expires_at.getTime()).toBe(now + day)

      // Left alone for a full session, it expires.
      yield* TestClock.adjust(Duration.hours(24))
      yield* expectUnauthorized(session, "API key expired.")
    }).pipe(Effect.provide(services())))

  it.effect("with expiry refresh disabled, sessions do not slide", () =>
    Effect.gen(function*() {
      const session = yield* signedIn
      const expiresAt = T0 + Duration.toMillis(Duration.hours(24))
      yield* TestClock.adjust(Duration.hours(12))
      yield* authenticate(session)
      const key = yield* keyOf(session)
      expect(key.expires_at.getTime()).toBe(expiresAt)
      expect(key.last_used.getTime()).toBe(T0 + 12 * 3_600_000)
      yield* TestClock.adjust(Duration.hours(12))
      yield* expectUnauthorized(session, "API key expired.")
    }).pipe(Effect.provide(services({ disableSessionExpiryRefresh: true }))))

  it.effect("last_used is written at most once a minute", () =>
    Effect.gen(function*() {
      const session = yield* signedIn
      const lastUsed = Effect.map(keyOf(session), (k) => k.last_used.getTime())
      const expiresAt = Effect.map(keyOf(session), (k) => k.expires_at.getTime())
      const initialExpiry = yield* expiresAt
      expect(yield* lastUsed).toBe(T0)

      yield* TestClock.adjust(Duration.seconds(30))
      yield* authenticate(session)
      expect(yield* lastUsed).toBe(T0)
      expect(yield* expiresAt).toBe(initialExpiry)

      yield* TestClock.adjust(Duration.seconds(29))
      yield* authenticate(session)
      expect(yield* lastUsed).toBe(T0)

      yield* TestClock.adjust(Duration.seconds(2))
      yield* authenticate(session)
      expect(yield* lastUsed).toBe(T0 + 61_000)
      expect(yield* expiresAt).toBe(T0 + 61_000 + Duration.toMillis(Duration.hours(24)))

      yield* TestClock.adjust(Duration.seconds(59))
      yield* authenticate(session)
      yield* authenticate(session)
      expect(yield* lastUsed).toBe(T0 + 61_000)

      yield* TestClock.adjust(Duration.seconds(2))
      yield* authenticate(session)
      expect(yield* lastUsed).toBe(T0 + 122_000)
    }).pipe(Effect.provide(services())))

  it.effect("bad tokens are rejected before any clock rule", () =>
    Effect.gen(function*() {
      const session = yield* signedIn
      yield* expectUnauthorized("not-a-key", "Invalid API key format.")
      const wrongSecret = session.slice(0, 11) + (session[11] === "a" ? "b" : "a") + session.slice(12)
      yield* expectUnauthorized(wrongSecret, "Invalid API key.")
      yield* expectUnauthorized(`zzzzzzzzzz-${session.slice(11)}`, "Invalid API key.")
      // Logging out deletes the session.
      const auth = yield* Auth
      yield* auth.logout.pipe(Effect.provideService(CurrentActor, yield* auth.authenticate(session)))
      yield* expectUnauthorized(session, "Invalid API key.")
    }).pipe(Effect.provide(services())))

  it.effect("the first user can be created once; the second attempt is a Conflict", () =>
    Effect.gen(function*() {
      const auth = yield* Auth
      expect(yield* Effect.flip(auth.firstUserStatus)).toBeInstanceOf(NotFound)
      const first = yield* auth.createFirstUser({ email: EMAIL, username: "admin", password: PASSWORD })
      yield* auth.firstUserStatus
      const owner = Option.getOrThrow(yield* Effect.flatMap(UserRepo, (users) => users.findById(first.user_id)))
      expect(owner.rbac_roles).toEqual(["owner"])

      const again = yield* Effect.flip(
        auth.createFirstUser({ email: "second@example.com", username: "second", password: PASSWORD })
      )
      expect(again).toBeInstanceOf(Conflict)
      expect(yield* Effect.flatMap(UserRepo, (users) => users.count)).toBe(1)
    }).pipe(Effect.provide(services())))

  it.effect("two racing first-user requests create exactly one user", () =>
    Effect.gen(function*() {
      const auth = yield* Auth
      const results = yield* Effect.all(
        [
          Effect.either(auth.createFirstUser({ email: "a@example.com", username: "first-a", password: PASSWORD })),
          Effect.either(auth.createFirstUser({ email: "b@example.com", username: "first-b", password: PASSWORD }))
        ],
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "Right").length).toBe(1)
      const failure = results.find((r) => r._tag === "Left")
      expect(failure?._tag === "Left" ? failure.left : undefined).toBeInstanceOf(Conflict)
      expect(yield* Effect.flatMap(UserRepo, (users) => users.count)).toBe(1)
    }).pipe(Effect.provide(services())))
})
