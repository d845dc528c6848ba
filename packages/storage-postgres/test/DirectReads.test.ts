/**
 * The hot reads on Postgres (storage-sql's DirectReads.ts, PoolReads.ts): outside a transaction
 * the key read runs on the pool as a prepared statement and sees committed data only; inside
 * the fiber's transaction it runs on the transaction's connection and sees its writes.
 * A prepared statement lives on its connection: with a pool of one, `pg_prepared_statements`
 * (per connection) shows which path a read took.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, inject, it } from "@effect/vitest"
import { ApiKeyRepo, MemberRepo, OrganizationRepo, Transactions, UserRepo } from "@workbay/core"
import { Deferred, Effect, Exit, Fiber, Option } from "effect"
import pg from "pg"
import { apiKey, membership, org, user } from "../../storage-sql/test/users/RepositorySuite.js"
import { poolRead, utcTimestampIso } from "../src/PoolReads.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

const storage = (maxConnections: number, preparedStatements?: boolean) =>
  freshStorage(url, { maxConnections, preparedStatements })

/** The prepared statements of the connection this runs on that read API keys. */
const preparedKeyReads = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<
      { n: number | string }
    >`SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE '%FROM api_keys k JOIN users u%'`,
    (rows) => Number(rows[0]!.n)
  ))

/** A user with a key and one membership. */
const seed = Effect.gen(function*() {
  const alice = user("alice")
  const o = org("acme")
  yield* (yield* UserRepo).insert(alice)
  yield* (yield* OrganizationRepo).insert(o)
  yield* (yield* MemberRepo).insert(membership(o.id, alice.id, 0, ["organization-admin"]))
  return { alice, o }
})

describe.skipIf(url === null)("direct reads on Postgres", () => {
  it.live("the key read brings the user's memberships in the same statement", () =>
    Effect.gen(function*() {
      const { alice, o } = yield* seed
      const keys = yield* ApiKeyRepo
      const key = apiKey(alice.id)
      yield* keys.insert(key)
      const found = Option.getOrThrow(yield* keys.findWithUser(key.id))
      expect(found.user).toEqual(alice)
      expect(found.memberships).toEqual([{ organization_id: o.id, roles: ["organization-admin"] }])
    }).pipe(Effect.provide(storage(2)), Effect.orDie))

  it.live("outside a transaction the key read is prepared on the pool; inside, it runs on the transaction's connection", () =>
    Effect.gen(function*() {
      const { alice } = yield* seed
      const keys = yield* ApiKeyRepo
      const tx = yield* Transactions
      const key = apiKey(alice.id)
      // One connection: the transaction's, and the pool's afterwards.
      yield* tx.atomic(Effect.gen(function*() {
        yield* keys.insert(key)
        const inside = yield* keys.findWithUser(key.id)
        expect(Option.getOrThrow(inside).key.id).toBe(key.id)
        expect(yield* preparedKeyReads).toBe(0)
      }))
      const outside = yield* keys.findWithUser(key.id)
      expect(Option.getOrThrow(outside).memberships).toHaveLength(1)
      expect(yield* preparedKeyReads).toBe(1)
    }).pipe(Effect.provide(storage(1)), Effect.orDie))

  it.live("a direct read sees committed data only, while another fiber's transaction is open", () =>
    Effect.gen(function*() {
      const { alice } = yield* seed
      const keys = yield* ApiKeyRepo
      const tx = yield* Transactions
      const key = apiKey(alice.id)
      const written = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const writer = yield* Effect.fork(tx.atomic(Effect.gen(function*() {
        yield* keys.insert(key)
        yield* Deferred.succeed(written, undefined)
        yield* Deferred.await(release)
      })))
      yield* Deferred.await(written)
      expect(Option.isNone(yield* keys.findWithUser(key.id))).toBe(true)
      yield* Deferred.succeed(release, undefined)
      expect(Exit.isSuccess(yield* Fiber.await(writer))).toBe(true)
      expect(Option.getOrThrow(yield* keys.findWithUser(key.id)).key).toEqual(key)
    }).pipe(Effect.provide(storage(2)), Effect.orDie))

  it.live("without prepared statements the key read still runs on the pool, unnamed", () =>
    Effect.gen(function*() {
      const { alice } = yield* seed
      const keys = yield* ApiKeyRepo
      const key = apiKey(alice.id)
      yield* keys.insert(key)
      expect(Option.getOrThrow(yield* keys.findWithUser(key.id)).memberships).toHaveLength(1)
      expect(yield* preparedKeyReads).toBe(0)
    }).pipe(Effect.provide(storage(1, false)), Effect.orDie))

  it.live("a column whose type changed under the prepared read (another replica's migration) gets it prepared afresh", () =>
    Effect.gen(function*() {
      const { alice } = yield* seed
      const keys = yield* ApiKeyRepo
      const sql = yield* SqlClient.SqlClient
      const key = apiKey(alice.id)
      yield* keys.insert(key)
      expect(Option.isSome(yield* keys.findWithUser(key.id))).toBe(true)
      yield* sql`ALTER TABLE api_keys ALTER COLUMN token_name TYPE VARCHAR(256)`
      expect(Option.getOrThrow(yield* keys.findWithUser(key.id)).key).toEqual(key)
      expect(Option.getOrThrow(yield* keys.findWithUser(key.id)).key).toEqual(key)
      // The refused read's connection is gone (the pool drops a connection a query failed on); this one has the new name.
      expect(yield* preparedKeyReads).toBe(1)
    }).pipe(Effect.provide(storage(1)), Effect.orDie))
})

describe("a prepared read's timestamps", () => {
  const parse = pg.types.getTypeParser(1184, "text") as (text: string) => Date
  it("UTC text reads as the ISO text of the time pg's parser reads", () => {
    const fractions = ["", ".1", ".12", ".123", ".1234", ".12345", ".123456", ".999999", ".000001", ".07"]
    for (const date of ["2026-11-23 03:07:43", "0100-01-01 00:00:00", "9999-12-31 23:59:59", "2024-02-29 12:00:00"]) {
      for (const fraction of fractions) {
        const text = `${date}${fraction}+00`
        const iso = utcTimestampIso(text)
        expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
        expect(new Date(iso!).getTime()).toBe(parse(text).getTime())
      }
    }
  })
  it("leaves any other text to pg's parser", () => {
    for (
      const text of [
        "2026-11-23 03:07:43+01",
        "2026-11-23 03:07:43.5-03:30",
        "0099-01-01 00:00:00+00",
        "2026-11-23 03:07:43+00 BC",
        "infinity",
        "-infinity",
        "12345-01-01 00:00:00+00",
        "11/23/2026 03:07:43.716 UTC",
        "2026-11-23 03:07:43.+00"
      ]
    ) expect(utcTimestampIso(text)).toBeUndefined()
  })
})

describe.skipIf(url === null)("batched pool reads", () => {
  const withPool = <A>(max: number, f: (pool: pg.Pool) => Promise<A>) => async () => {
    const pool = new pg.Pool({ connectionString: url ?? "", max })
    try {
      return await f(pool)
    } finally {
      await pool.end()
    }
  }

  it(
    "reads asked for together are answered each with its own rows, in batches over the pool",
    withPool(2, async (pool) => {
      const read = poolRead(pool)
      const n = 50
      const results = await Effect.runPromise(Effect.all(
        Array.from(
          { length: n },
          (_, i) => read("SELECT $1::int AS i, now() AS at, 't'::boolean AS b, NULL::text AS none", [i])
        ),
        { concurrency: "unbounded" }
      ))
      expect(results.map((rows) => rows[0]!.i)).toEqual(Array.from({ length: n }, (_, i) => i))
      for (const rows of results) {
        expect(rows).toHaveLength(1)
        expect(typeof rows[0]!.at).toBe("string")
        expect(rows[0]!.b).toBe(true)
        expect(rows[0]!.none).toBeNull()
      }
      // And a read of no rows, in a batch with others.
      const [none, one] = await Effect.runPromise(Effect.all(
        [read("SELECT 1 AS x WHERE $1::int < 0", [1]), read("SELECT 1 AS x WHERE $1::int > 0", [1])],
        { concurrency: "unbounded" }
      ))
      expect(none).toEqual([])
      expect(one).toEqual([{ x: 1 }])
    })
  )

  it(
    "a read that fails fails alone: the reads batched after it (which Postgres skipped) run again",
    withPool(1, async (pool) => {
      const read = poolRead(pool)
      const exits = await Effect.runPromise(Effect.all(
        [0, 1, 2, 0, 3].map((d) => Effect.exit(read("SELECT 6 / $1::int AS q", [d]))),
        { concurrency: "unbounded" }
      ))
      expect(exits.map((e) => Exit.isSuccess(e) ? e.value[0]!.q : "failed")).toEqual(["failed", 6, 3, "failed", 2])
    })
  )
})

describe.skipIf(url === null)("batched pool reads when the pool fails", () => {
  it("reads queued on an ended pool fail, none is left waiting", async () => {
    const pool = new pg.Pool({ connectionString: url ?? "", max: 1 })
    const read = poolRead(pool)
    await Effect.runPromise(read("SELECT $1::int AS i", [1]))
    await pool.end()
    const exits = await Effect.runPromise(Effect.all(
      [1, 2, 3].map((i) => Effect.exit(read("SELECT $1::int AS i", [i]))),
      { concurrency: "unbounded" }
    ))
    expect(exits.every(Exit.isFailure)).toBe(true)
  })

  it("a connection lost mid-batch fails the read it was running; the others run again on another", async () => {
    const pool = new pg.Pool({ connectionString: url ?? "", max: 1 })
    pool.on("error", () => {})
    const admin = new pg.Client({ connectionString: url ?? "" })
    await admin.connect()
    try {
      const read = poolRead(pool)
      const pid = (await Effect.runPromise(read("SELECT pg_backend_pid() AS pid WHERE $1::int = 1", [1])))[0]!.pid
      const reads = Effect.all(
        [
          Effect.exit(read("SELECT $1::int AS i FROM pg_sleep(0.5)", [0])),
          ...[1, 2, 3].map((i) => Effect.exit(read("SELECT $1::int AS i", [i])))
        ],
        { concurrency: "unbounded" }
      )
      const killed = new Promise((resolve) => setTimeout(resolve, 150)).then(() =>
        admin.query("SELECT pg_terminate_backend($1)", [pid])
      )
      const [exits] = await Promise.all([Effect.runPromise(reads), killed])
      expect(Exit.isFailure(exits[0]!)).toBe(true)
      expect(exits.slice(1).map((e) => Exit.isSuccess(e) ? e.value[0]!.i : "failed")).toEqual([1, 2, 3])
    } finally {
      await admin.end()
      await pool.end()
    }
  })
})
