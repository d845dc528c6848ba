/**
 * Statement texts made once per shape (storage-sql's StatementText.ts, what the direct paths run):
 * the text and parameters @effect/sql's compiler makes, for every kind of segment the
 * repositories use; the same text object for a shape seen before; identifiers keyed apart from
 * literals of the same text; the compiler's own answer for segments it does not key and for new
 * shapes past its bound.
 */
import { SqlClient, type Statement } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { makeStatementText, MAX_NODES } from "@workbay/storage-sql"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect } from "effect"

const layer = Sqlite.SqliteClient.layer({ filename: ":memory:" })

/** `statement`, failing the test should its text be compiled again (a shape seen before is not). */
const uncompiled = <A>(statement: Statement.Statement<A>): Statement.Statement<A> =>
  Object.assign(statement, {
    compile: () => expect.unreachable("a shape seen before is compiled again")
  })

describe("statement texts", () => {
  it.effect("are what @effect/sql compiles, for each kind of segment", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, deleted INTEGER NOT NULL DEFAULT 0)`
      yield* sql`INSERT INTO t (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')`
      const textOf = makeStatementText()
      const statements = (ids: ReadonlyArray<number>, name?: string) => [
        sql`SELECT * FROM t WHERE id = ${ids[0] ?? 0}`,
        sql`SELECT * FROM t WHERE id IN ${sql.in(ids)} ORDER BY id`,
        sql`SELECT * FROM t WHERE ${
          sql.and([
            sql`deleted = FALSE`,
            ...(name === undefined ? [] : [sql`name = ${name}`]),
            sql.or([sql`id IN ${sql.in(ids)}`, sql`id > ${10}`])
          ])
        } ORDER BY id`,
        sql`SELECT ${sql.literal("id, name")} FROM t WHERE ${sql.unsafe("id >= ?", [ids.length])} LIMIT ${5}`,
        sql.unsafe("SELECT * FROM t WHERE id = ? OR name = ?", [ids[0] ?? 0, name ?? ""]),
        sql`SELECT ${sql("name")} FROM t WHERE ${sql.in("id", ids)} ORDER BY ${sql("id")}`
      ]
      for (const [ids, name] of [[[1], "a"], [[1, 2], undefined], [[], "b"], [[3, 2, 1], "c"], [[2], "b"]] as const) {
        for (const statement of statements(ids, name)) {
          const [text, params] = textOf(statement)
          expect([text, params]).toEqual(statement.compile())
          // And the database answers the same rows either way.
          expect(yield* sql.unsafe(text, params)).toEqual(yield* statement)
        }
      }
    }).pipe(Effect.provide(layer)))

  it.effect("answer the same text object for a shape seen before", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const textOf = makeStatementText()
      const read = (id: string, ids: ReadonlyArray<string>) =>
        sql`SELECT * FROM t WHERE id = ${id} AND id IN ${sql.in(ids)}`
      const [first] = textOf(read("a", ["b"]))
      const [again, params] = textOf(uncompiled(read("x", ["y"])))
      expect(again).toBe(first)
      expect(params).toEqual(["x", "y"])
      // Another list length is another shape, with its own text.
      const [longer, more] = textOf(read("x", ["y", "z"]))
      expect(longer).not.toBe(first)
      expect(longer).toBe(read("x", ["y", "z"]).compile()[0])
      expect(more).toEqual(["x", "y", "z"])
      // A column's IN list (an identifier, then the list) is a shape like any other.
      const byIds = (ids: ReadonlyArray<string>) => sql`SELECT * FROM t WHERE ${sql.in("id", ids)}`
      const [inFirst] = textOf(byIds(["a"]))
      const [inAgain, inParams] = textOf(uncompiled(byIds(["b"])))
      expect(inAgain).toBe(inFirst)
      expect(inParams).toEqual(["b"])
    }).pipe(Effect.provide(layer)))

  it.effect("key an identifier apart from a literal of the same text, and from other names", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const textOf = makeStatementText()
      const statements = [
        sql`SELECT ${sql("name")} FROM t`,
        sql`SELECT ${sql.literal("name")} FROM t`,
        sql`SELECT ${sql("id")} FROM t`,
        sql`SELECT ${sql("name")} FROM t`
      ]
      for (const statement of statements) expect(textOf(statement)).toEqual(statement.compile())
      expect(new Set(statements.map((st) => textOf(st)[0])).size).toBe(3)
    }).pipe(Effect.provide(layer)))

  it.effect("leave record helpers and shapes past the bound to the compiler", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const textOf = makeStatementText()
      const update = sql`UPDATE t SET ${sql.update({ name: "z" })} WHERE id = ${1}`
      expect(textOf(update)).toEqual(update.compile())
      // Literals made at run time, each a new shape: past the bound each is compiled, alike.
      for (let i = 0; i < MAX_NODES + 10; i++) {
        const statement = sql`SELECT * FROM t WHERE ${sql.literal(`id = ${i}`)} AND name = ${"n"}`
        if (i % 997 === 0 || i >= MAX_NODES - 5) expect(textOf(statement)).toEqual(statement.compile())
        else textOf(statement)
      }
    }).pipe(Effect.provide(layer)))
})
