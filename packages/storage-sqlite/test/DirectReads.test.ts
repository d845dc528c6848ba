/**
 * Direct reads on SQLite (storage-sql's DirectReads.ts): the rows a read answers on the direct path
 * (as objects at first, then as values made into rows) are the rows the ordinary path answers;
 * inside a transaction reads take the ordinary path and see its writes.
 */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect } from "effect"
import { directReads, directStatements } from "../../storage-sql/src/DirectReads.js"
import { transaction } from "@workbay/storage-sql"
import Database from "better-sqlite3"

/** The SQL texts better-sqlite3 prepares while `effect` runs (to see which path the reads took). */
const prepared = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const texts: Array<string> = []
    const proto = Database.prototype as unknown as { prepare: (source: string) => unknown }
    const original = proto.prepare
    proto.prepare = function(this: unknown, source: string) {
      texts.push(source)
      return original.call(this, source)
    }
    return Effect.map(Effect.ensuring(effect, Effect.sync(() => void (proto.prepare = original))), (a) => [a, texts] as const)
  })

const setUp = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE things (id TEXT PRIMARY KEY, n INTEGER, label TEXT, data BLOB, note TEXT)`
  yield* sql`INSERT INTO things VALUES ('a', 1, 'one', x'0102', NULL), ('b', 2, 'two', NULL, 'x')`
  // Enough rows that their reads are read as values (see VALUES_AT_LEAST).
  for (let i = 0; i < 10; i++) yield* sql`INSERT INTO things VALUES (${`m${i}`}, ${10 + i}, ${`more ${i}`}, NULL, NULL)`
  return { sql, reads: yield* directStatements(sql), read: yield* directReads(sql) }
})

describe("direct reads on SQLite", () => {
  it.live("answer the ordinary path's rows, the first time and every time after", () =>
    Effect.gen(function*() {
      const { sql, reads, read } = yield* setUp
      const statements = [
        () => sql`SELECT * FROM things ORDER BY id`,
        () => sql`SELECT * FROM things WHERE n < ${3} ORDER BY id`, // few values: read as objects
        () => sql`SELECT * FROM things WHERE ${sql.in("id", ["a", "b", "c"])} ORDER BY id`,
        () => sql`SELECT id, n AS "1", label FROM things ORDER BY id`, // a name that is an array index
        () => sql`SELECT t.*, u.id FROM things t JOIN things u ON u.id = t.id ORDER BY t.id`, // one name twice
        () => sql`SELECT id AS "__proto__", n FROM things ORDER BY n`,
        () => sql`SELECT * FROM things WHERE id = ${"none"}`
      ]
      const [, texts] = yield* prepared(Effect.gen(function*() {
        for (const make of statements) {
          const ordinary = yield* make()
          for (let i = 0; i < 3; i++) expect(yield* reads(make())).toEqual(ordinary)
        }
      }))
      // Wide reads were read as values (their own statement); narrow ones and odd names as objects. The
      // join naming one column twice was tried once as values, found wider than its rows, and read as objects since.
      expect(texts.filter((t) => t.endsWith("/* values */"))).toEqual([
        "SELECT * FROM things ORDER BY id /* values */",
        "SELECT t.*, u.id FROM things t JOIN things u ON u.id = t.id ORDER BY t.id /* values */"
      ])
      const text = "SELECT * FROM things WHERE id = ?"
      for (let i = 0; i < 3; i++) expect(yield* read(text, ["a"], () => sql`SELECT * FROM things WHERE id = ${"a"}`)).toEqual(yield* sql`SELECT * FROM things WHERE id = ${"a"}`)
      const [row] = yield* reads(sql`SELECT * FROM things ORDER BY id`)
      expect(Object.keys(row!)).toEqual(["id", "n", "label", "data", "note"])
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    }).pipe(Effect.provide(Sqlite.layerMemory), Effect.orDie))

  it.live("inside a transaction take the ordinary path and see its writes; outside, what was committed", () =>
    Effect.gen(function*() {
      const { sql, reads } = yield* setUp
      const count = () => Effect.map(reads(sql<{ n: number }>`SELECT count(*) AS n FROM things`), (rs) => rs[0]!.n)
      expect(yield* count()).toBe(12)
      const inside = yield* transaction(sql)(Effect.gen(function*() {
        yield* sql`INSERT INTO things VALUES ('c', 3, 'three', NULL, NULL)`
        return yield* count()
      }))
      expect(inside).toBe(13)
      const rolledBack = yield* Effect.exit(transaction(sql)(Effect.zipRight(sql`INSERT INTO things VALUES ('d', 4, 'four', NULL, NULL)`, Effect.fail("no"))))
      expect(rolledBack._tag).toBe("Failure")
      expect(yield* count()).toBe(13)
    }).pipe(Effect.provide(Sqlite.layerMemory), Effect.orDie))
})
