/**
 * The cache of authenticated keys by itself (no database): what it keeps and for how long (the
 * TestClock), its bound, what another replica's message and a resync drop, and that a read under
 * way when a change arrives is not kept. The repositories' side is KeyCacheSuite.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { AllowListEntry, PubSub, PUBSUB_RESYNC, UserAppearance } from "@workbay/core"
import { Deferred, Effect, Fiber, Layer, Option, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import {
  KEY_CACHE_SIZE,
  KEY_CACHE_TTL_MS,
  KeyCache,
  KEYS_CHANGED_CHANNEL,
  type KeyWithUser,
  layer
} from "../../src/users/KeyCache.js"

const DAY = 86_400_000

/** A read of key `id` of user `userId`, expiring `expiresIn` ms after the TestClock's now. */
const found = (id: string, userId: string, expiresIn = DAY): KeyWithUser => ({
  key: {
    id,
    hashed_secret: "h",
    user_id: userId,
    login_type: "token",
    token_name: id,
    scopes: ["all"],
    allow_list: [new AllowListEntry({ type: "*", id: "*" })],
    lifetime_seconds: 86_400,
    created_at: new Date(0),
    updated_at: new Date(0),
    expires_at: new Date(expiresIn),
    last_used: new Date(0)
  },
  user: {
    id: userId,
    email: "u@example.com",
    username: "u",
    name: "",
    avatar_url: "",
    login_type: "password",
    status: "active",
    rbac_roles: [],
    is_service_account: false,
    hashed_password: "",
    created_at: new Date(0),
    updated_at: new Date(0),
    last_seen_at: new Date(0),
    deleted: false,
    appearance: UserAppearance.defaults,
    quiet_hours_schedule: "",
    hashed_one_time_passcode: null,
    one_time_passcode_expires_at: null
  },
  memberships: []
})

/** Reads of key `id` through the cache, counting the times the read itself runs. */
const counted = (value: KeyWithUser) => {
  let reads = 0
  const read = Effect.sync(() => {
    reads++
    return Option.some(value)
  })
  return { read, reads: () => reads }
}

const withCache = <A, E>(body: Effect.Effect<A, E, KeyCache | PubSub>) =>
  Effect.scoped(Effect.provide(body, Layer.provideMerge(layer, PubSub.memory)))

describe("the authenticated key cache", () => {
  it.effect("keeps a read for its time to live, and reads a key near its expiry every time", () =>
    withCache(Effect.gen(function*() {
      const cache = yield* KeyCache
      const a = counted(found("a", randomUUID()))
      yield* cache.through("a", a.read)
      yield* cache.through("a", a.read)
      expect(a.reads()).toBe(1)
      yield* TestClock.adjust(KEY_CACHE_TTL_MS - 1)
      yield* cache.through("a", a.read)
      expect(a.reads()).toBe(1)
      yield* TestClock.adjust(1)
      yield* cache.through("a", a.read)
      expect(a.reads()).toBe(2)

      const near = counted(found("near", randomUUID(), KEY_CACHE_TTL_MS * 3))
      yield* cache.through("near", near.read)
      yield* cache.through("near", near.read)
      expect(near.reads()).toBe(1)
      // Within the time to live of its expiry: read every time (another replica may have slid it).
      yield* TestClock.adjust(KEY_CACHE_TTL_MS * 2)
      yield* cache.through("near", near.read)
      yield* cache.through("near", near.read)
      expect(near.reads()).toBe(3)

      const missing = Effect.sync(() => Option.none<KeyWithUser>())
      yield* cache.through("nobody", missing)
      expect(cache.size()).toBe(1)
    })))

  it.effect("holds at most KEY_CACHE_SIZE entries, the oldest dropped first", () =>
    withCache(Effect.gen(function*() {
      const cache = yield* KeyCache
      const userId = randomUUID()
      for (let i = 0; i <= KEY_CACHE_SIZE; i++) {
        yield* cache.through(`k${i}`, Effect.succeed(Option.some(found(`k${i}`, userId))))
      }
      expect(cache.size()).toBe(KEY_CACHE_SIZE)
      const first = counted(found("k0", userId))
      yield* cache.through("k0", first.read)
      expect(first.reads()).toBe(1)
      const last = counted(found(`k${KEY_CACHE_SIZE}`, userId))
      yield* cache.through(`k${KEY_CACHE_SIZE}`, last.read)
      expect(last.reads()).toBe(0)
    })))

  it.effect("another replica's message drops the users it names, a resync everything; its own are skipped", () =>
    withCache(Effect.gen(function*() {
      const cache = yield* KeyCache
      const pubsub = yield* PubSub
      const alice = randomUUID()
      const bob = randomUUID()
      const a = counted(found("a", alice))
      const b = counted(found("b", bob))
      const both = Effect.zipRight(cache.through("a", a.read), cache.through("b", b.read))
      yield* both
      yield* pubsub.publish(KEYS_CHANGED_CHANNEL, `othermark ${alice.replaceAll("-", "")}`)
      yield* both
      expect([a.reads(), b.reads()]).toEqual([2, 1])
      yield* pubsub.publish(KEYS_CHANGED_CHANNEL, PUBSUB_RESYNC)
      yield* both
      expect([a.reads(), b.reads()]).toEqual([3, 2])
      // This cache's own change drops bob here once; the message it sends does not drop him again.
      yield* cache.changed([bob])
      yield* both
      yield* both
      expect([a.reads(), b.reads()]).toEqual([3, 3])
    })))

  it.effect("a read under way when a change arrives is not kept", () =>
    withCache(Effect.gen(function*() {
      const cache = yield* KeyCache
      const userId = randomUUID()
      const gate = yield* Deferred.make<void>()
      const slow = Effect.zipRight(Deferred.await(gate), Effect.succeed(Option.some(found("s", userId))))
      const fiber = yield* Effect.fork(cache.through("s", slow))
      yield* Effect.yieldNow()
      yield* cache.changed([userId])
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(fiber)
      expect(cache.size()).toBe(0)
    })))
})
