/**
 * The app session repository contract, run against every storage: a session starts on its first
 * request and again after it went idle, not in between; any part of its key makes another
 * session; of racing first requests exactly one starts it; idle sessions are purged; a long user
 * agent is a key like any other. Every test gets a fresh, migrated database.
 */
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type AppSessionKey, AppSessionRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"
import { agentRows } from "./ReportRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const at = (seconds: number) => new Date(Date.UTC(2024, 6, 1, 10) + seconds * 1000)
const HOUR = 3600

export const appSessionSuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))
  const keyOf = (agentId: string, overrides: Partial<AppSessionKey> = {}): AppSessionKey => ({
    agentId,
    appId: randomUUID(),
    userId: randomUUID(),
    ip: "10.0.0.1",
    userAgent: "browser",
    slugOrPort: "web",
    statusCode: 200,
    ...overrides
  })
  /** Touches `key` at `seconds`, an hour being the idle timeout. */
  const touch = (key: AppSessionKey, seconds: number) =>
    Effect.flatMap(AppSessionRepo, (repo) => repo.touch(key, at(seconds), at(seconds - HOUR)))

  describe.skipIf(options.skip === true)(`app session repositories on ${name}`, () => {
    test(
      "starts a session on its first request and after an idle hour, not in between; each part of the key counts",
      Effect.gen(function*() {
        const { agents: [agent] } = yield* agentRows(1)
        const key = keyOf(agent!)
        expect(yield* touch(key, 0)).toBe(true)
        expect(yield* touch(key, 60)).toBe(false)
        // Active within the hour each time: still the same session after more than an hour in all.
        expect(yield* touch(key, 60 + HOUR - 1)).toBe(false)
        expect(yield* touch(key, 60 + 2 * HOUR + 5)).toBe(true)
        expect(yield* touch(key, 60 + 2 * HOUR + 6)).toBe(false)
        for (
          const other of [{ ip: "10.0.0.2" }, { userAgent: "other" }, { statusCode: 404 }, { userId: undefined }, {
            appId: randomUUID()
          }]
        ) {
          expect(yield* touch({ ...key, ...other }, 60 + 2 * HOUR + 7)).toBe(true)
        }
        // A user agent of 20 KB is a key like any other.
        const long = { ...key, userAgent: "x".repeat(20_000) }
        expect(yield* touch(long, 0)).toBe(true)
        expect(yield* touch(long, 1)).toBe(false)
      })
    )

    test(
      "of racing first requests, exactly one starts the session",
      Effect.gen(function*() {
        const { agents: [agent] } = yield* agentRows(1)
        const key = keyOf(agent!)
        const started = yield* Effect.all(Array.from({ length: 8 }, () => touch(key, 0)), { concurrency: "unbounded" })
        expect(started.filter((s) => s)).toHaveLength(1)
      })
    )

    test(
      "purges sessions idle since before a time, and a purged session starts again",
      Effect.gen(function*() {
        const repo = yield* AppSessionRepo
        const { agents: [agent] } = yield* agentRows(1)
        const old = keyOf(agent!)
        const recent = keyOf(agent!)
        yield* touch(old, 0)
        yield* touch(recent, 100)
        expect(yield* repo.purgeIdle(at(50))).toBe(1)
        expect(yield* repo.purgeIdle(at(50))).toBe(0)
        expect(yield* touch(recent, 101)).toBe(false)
        expect(yield* touch(old, 102)).toBe(true)
      })
    )
  })
}
