/**
 * The SQLite client (storage-sqlite's Client.ts) and the direct reads it registers (storage-sql's
 * DirectReads.ts): rows are the rows better-sqlite3 itself answers, whichever way the client made
 * them (from values or as objects) and whichever path ran them; outside a transaction reads skip
 * @effect/sql's pipeline, inside one they take it and see its writes.
 */
import { SqlClient, SqlError } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { transaction } from "@workbay/storage-sql"
import { directReads, directStatements } from "@workbay/storage-sql"
import * as Sqlite from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { Effect, Exit, Tracer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** Runs `effect` on a client of a fresh database file, with better-sqlite3 opened on the same file beside it. */
const withFile = <A, E>(
  effect: (plain: Database.Database) => Effect.Effect<A, E, SqlClient.SqlClient>,
  config: Partial<Sqlite.SqliteClient.SqliteClientConfig> = {}
) =>
  Effect.acquireUseRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "workbay-client-"))),
    (dir) => {
      const filename = join(dir, "db.sqlite")
      return Effect.acquireUseRelease(
        Effect.sync(() => new Database(filename)),
        (plain) => Effect.provide(effect(plain), Sqlite.SqliteClient.layer({ ...config, filename })),
        (plain) => Effect.sync(() => plain.close())
      )
    },
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

/**
 * The names of the spans started while `effect` runs (`sql.execute`: a statement took @effect/sql's
 * pipeline; `sql.execute (direct)`: a direct read, which records its span as the pipeline would).
 */
const spansOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.tracer, (base) => {
    const names: Array<string> = []
    const tracer = Tracer.make({
      span: (...args) => {
        names.push(args[6]?.attributes?.["db.operation.name"] === "direct" ? `${args[0]} (direct)` : args[0])
        return base.span(...args)
      },
      context: base.context
    })
    return Effect.map(Effect.withTracer(effect, tracer), (a) => [a, names] as const)
  })

const setUp = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE things (id TEXT PRIMARY KEY, n INTEGER, label TEXT, data BLOB, note TEXT)`
  yield* sql`INSERT INTO things VALUES ('a', 1, 'one', x'0102', NULL), ('b', 2, 'two', NULL, 'x')`
  for (let i = 0; i < 10; i++) yield* sql`INSERT INTO things VALUES (${`m${i}`}, ${10 + i}, ${`more ${i}`}, NULL, NULL)`
  return { sql, reads: yield* directStatements(sql), read: yield* directReads(sql) }
})

describe("the SQLite client and its direct reads", () => {
  it.live("answer better-sqlite3's own rows on both paths, every time, whatever the column names", () =>
    withFile((plain) =>
      Effect.gen(function*() {
        const { sql, reads, read } = yield* setUp
        const statements = [
          () => sql`SELECT * FROM things ORDER BY id`,
          () => sql`SELECT * FROM things WHERE n < ${3} ORDER BY id`,
          () => sql`SELECT * FROM things WHERE ${sql.in("id", ["a", "b", "c"])} ORDER BY id`,
          () => sql`SELECT id, n AS "1", label FROM things ORDER BY id`, // a name that is an array index
          () => sql`SELECT t.*, u.id FROM things t JOIN things u ON u.id = t.id ORDER BY t.id`, // one name twice
          () => sql`SELECT id AS "__proto__", n FROM things ORDER BY n`,
          () => sql`SELECT * FROM things WHERE id = ${"none"}`
        ]
        for (const make of statements) {
          const [text, params] = make().compile()
          const own = plain.prepare(text).all(...params)
          expect(own.length).toBeGreaterThanOrEqual(0)
          for (let i = 0; i < 3; i++) {
            expect(yield* make()).toEqual(own)
            expect(yield* reads(make())).toEqual(own)
            expect(yield* read(text, params, make)).toEqual(own)
          }
        }
        const [row] = yield* reads(sql`SELECT * FROM things ORDER BY id`)
        expect(Object.keys(row!)).toEqual(["id", "n", "label", "data", "note"])
        expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
        const [odd] = yield* sql`SELECT id AS "__proto__", n FROM things ORDER BY n`
        expect(Object.getOwnPropertyNames(odd)).toEqual(
          plain.prepare(`SELECT id AS "__proto__", n FROM things ORDER BY n`).all().map((r) =>
            Object.getOwnPropertyNames(r)
          )[0]
        )
        expect(yield* sql`SELECT * FROM things ORDER BY id`.values).toEqual(
          plain.prepare("SELECT * FROM things ORDER BY id").raw(true).all()
        )
        const changed = yield* sql`UPDATE things SET note = 'y' WHERE n > 10`.raw
        expect(changed).toMatchObject({ changes: 9 })
      })
    ).pipe(Effect.orDie))

  it.live("skip @effect/sql's pipeline outside a transaction; inside, take it and see its writes", () =>
    withFile(() =>
      Effect.gen(function*() {
        const { sql, reads } = yield* setUp
        const count = () => Effect.map(reads(sql<{ n: number }>`SELECT count(*) AS n FROM things`), (rs) => rs[0]!.n)
        const [outside, outsideSpans] = yield* spansOf(count())
        expect(outside).toBe(12)
        expect(outsideSpans).toEqual(["sql.execute (direct)"])
        const [inside, insideSpans] = yield* spansOf(
          transaction(sql)(Effect.gen(function*() {
            yield* sql`INSERT INTO things VALUES ('c', 3, 'three', NULL, NULL)`
            return yield* count()
          }))
        )
        expect(inside).toBe(13)
        expect(insideSpans.filter((n) => n === "sql.execute")).toHaveLength(2)
        const rolledBack = yield* Effect.exit(
          transaction(sql)(
            Effect.zipRight(sql`INSERT INTO things VALUES ('d', 4, 'four', NULL, NULL)`, Effect.fail("no"))
          )
        )
        expect(rolledBack._tag).toBe("Failure")
        expect(yield* count()).toBe(13)
      })
    ).pipe(Effect.orDie))

  it.live("mapped: f of the rows on both paths, in the direct span, a database's failure or f's a defect", () =>
    withFile(() =>
      Effect.gen(function*() {
        const { sql, reads } = yield* setUp
        const labels = () =>
          reads.mapped(sql<{ label: string }>`SELECT label FROM things WHERE n < ${3} ORDER BY n`, (rs) =>
            rs.map((r) => r.label))
        const [outside, outsideSpans] = yield* spansOf(labels())
        expect(outside).toEqual(["one", "two"])
        expect(outsideSpans).toEqual(["sql.execute (direct)"])
        const [inside, insideSpans] = yield* spansOf(
          transaction(sql)(Effect.zipRight(sql`INSERT INTO things VALUES ('z', 0, 'zero', NULL, NULL)`, labels()))
        )
        expect(inside).toEqual(["zero", "one", "two"])
        expect(insideSpans.filter((n) =>
          n === "sql.execute"
        )).toHaveLength(2)
        // Without a tracer the direct path answers at once: the same rows.
        expect(yield* labels()).toEqual(["zero", "one", "two"])
        const missing = yield* Effect.exit(reads.mapped(sql`SELECT * FROM missing`, (rs) => rs.length))
        expect(
          Exit.isFailure(missing) && missing.cause._tag === "Die" && missing.cause.defect instanceof SqlError.SqlError
        )
          .toBe(true)
        const thrown = yield* Effect.exit(reads.mapped(sql`SELECT id FROM things`, () => {
          throw new Error("bad row")
        }))
        expect(Exit.isFailure(thrown) && thrown.cause._tag === "Die" && (thrown.cause.defect as Error).message)
          .toBe("bad row")
      })
    ).pipe(Effect.orDie))

  it.live("fail with a SqlError for bad SQL on both paths, read safe integers when asked, and keep working past its cache's size", () =>
    withFile(() =>
      Effect.gen(function*() {
        const { sql, reads } = yield* setUp
        for (
          const exit of [
            yield* Effect.exit(reads(sql`SELECT * FROM missing`)),
            yield* Effect.exit(sql`SELECT * FROM missing`),
            yield* Effect.exit(sql`INSERT INTO things VALUES ('a', 1, 'dup', NULL, NULL)`)
          ]
        ) {
          expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error instanceof SqlError.SqlError)
            .toBe(true)
        }
        const big = yield* reads(sql<{ n: bigint }>`SELECT n FROM things WHERE id = 'a'`).pipe(
          Effect.provideService(SqlClient.SafeIntegers, true)
        )
        expect(big[0]!.n).toBe(1n)
        expect((yield* reads(sql<{ n: number }>`SELECT n FROM things WHERE id = 'a'`))[0]!.n).toBe(1)
        for (let round = 0; round < 2; round++) {
          for (const id of ["a", "b", "m1", "m2"]) {
            expect(yield* reads(sql`SELECT id FROM things WHERE id = ${id} AND ${round} = ${round}`)).toEqual([{ id }])
            expect(yield* sql.unsafe(`SELECT id FROM things WHERE id = '${id}'`)).toEqual([{ id }])
          }
        }
      }), { prepareCacheSize: 2 }).pipe(Effect.orDie))
})
