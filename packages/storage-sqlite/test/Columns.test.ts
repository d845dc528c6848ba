/** Row mapping from column descriptions (storage-sql's Columns.ts): what a description reads, and what it refuses. */
import { describe, expect, it } from "@effect/vitest"
import { Columns, RowError } from "@workbay/storage-sql"
import { Cause, Effect, Exit } from "effect"

const {
  bool,
  columns,
  date,
  from,
  int,
  json,
  keyId,
  literal,
  literalOf,
  nullable,
  nullableDate,
  optional,
  orElse,
  text
} = Columns

type Kind = "a" | "b"
interface Thing {
  readonly id: string
  readonly kind: Kind
  readonly size: number
  readonly on: boolean
  readonly at: Date
  readonly gone_at: Date | null
  readonly note: string | null
  readonly label: string
  readonly tags: ReadonlyArray<string>
  readonly key: string | null
  readonly renamed: number
  readonly extra?: string | undefined
}

const thing = columns<Thing>("things", {
  id: text,
  kind: literal(["a", "b"]),
  size: int,
  on: bool,
  at: date,
  gone_at: nullableDate,
  note: nullable(text),
  label: orElse(text, "none"),
  tags: json<Array<string>>([]),
  key: keyId,
  renamed: from("old_name", int),
  extra: optional(text)
})

const at = "2024-02-29T12:34:56.789Z"
const expected: Thing = {
  id: "t1",
  kind: "b",
  size: 42,
  on: true,
  at: new Date(at),
  gone_at: null,
  note: null,
  label: "none",
  tags: ["x"],
  key: null,
  renamed: 7,
  extra: undefined
}

describe("column descriptions", () => {
  it("read SQLite's values and Postgres' into the same record, in the description's order", () => {
    const sqlite = {
      id: "t1",
      kind: "b",
      size: 42,
      on: 1,
      at,
      gone_at: null,
      note: null,
      label: null,
      tags: "[\"x\"]",
      key: "",
      old_name: 7,
      extra: null
    }
    const postgres = { ...sqlite, size: "42", on: true, at: new Date(at) }
    for (const row of [sqlite, postgres]) {
      const read = thing.read(row)
      expect(read).toEqual(expected)
      expect(Object.keys(read)).toEqual(Object.keys(expected))
    }
    expect(thing.read(sqlite).at.toISOString()).toBe(at)
  })

  it("name their columns, read prefixed columns of a join, and write select lists", () => {
    expect(thing.names).toContain("old_name")
    expect(thing.names).not.toContain("renamed")
    expect(thing.select("t")).toMatch(/^t\.id, t\.kind, /)
    expect(thing.select("t", "t_")).toMatch(/^t\.id AS t_id, t\.kind AS t_kind, /)
    const row = { t_id: "t1", t_kind: "a", t_size: 1, t_on: 0, t_at: at, t_old_name: 2, t_tags: "[]" }
    expect(thing.prefixed("t_")(row)).toMatchObject({ id: "t1", kind: "a", size: 1, on: false, renamed: 2, tags: [] })
  })

  it("refuse a value their column does not hold, naming the table and column (a defect, not a cast)", () => {
    const good = { id: "t1", kind: "a", size: 1, on: 0, at, old_name: 2 }
    const refused: ReadonlyArray<[Record<string, unknown>, string]> = [
      [{ ...good, kind: "c" }, "things.kind"],
      [{ ...good, id: null }, "things.id"],
      [{ ...good, size: "many" }, "things.size"],
      [{ ...good, on: 2 }, "things.on"],
      [{ ...good, at: "yesterday" }, "things.at"],
      [{ ...good, old_name: undefined }, "things.old_name"]
    ]
    for (const [row, column] of refused) {
      expect(() => thing.read(row)).toThrow(RowError)
      expect(() => thing.read(row)).toThrow(`Column ${column} holds`)
    }
    const exit = Effect.runSyncExit(Effect.map(Effect.succeed({ ...good, kind: "c" }), thing.read))
    expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
  })

  it("read through the written-out fast paths what each reader reads alone", () => {
    const values: ReadonlyArray<unknown> = [null, undefined, "", "a", "b", "t", "1", 0, 1, 2, 1n, true, false, at]
    const readers = {
      text,
      int,
      bool,
      nullableText: nullable(text),
      orElse: orElse(text, "none"),
      kind: literal(["a", "b"])
    }
    for (const [name, reader] of Object.entries(readers)) {
      const one = columns<{ v: unknown }>("t", { v: reader })
      for (const v of values) {
        let alone: unknown
        try {
          alone = reader(v, "t.v")
        } catch (e) {
          alone = e instanceof RowError ? "refused" : e
        }
        let described: unknown
        try {
          described = one.read({ v }).v
        } catch (e) {
          described = e instanceof RowError ? "refused" : e
        }
        expect([name, v, described]).toEqual([name, v, alone])
      }
    }
  })

  it("are checked against the record type when compiled", () => {
    const fields = { id: text, size: int }
    // @ts-expect-error a field of the record is missing
    columns<{ id: string; size: number; on: boolean }>("t", fields)
    // @ts-expect-error a field is read as the wrong type
    columns<{ id: string; size: string }>("t", fields)
    // @ts-expect-error a column the record does not have
    columns<{ id: string }>("t", { id: text, size: int })
    // @ts-expect-error a literal outside the field's values
    columns<{ kind: Kind }>("t", { kind: literal(["a", "c"]) })
    // @ts-expect-error the values must name every member of the union
    literalOf<Kind>()(["a"])
    expect(literalOf<Kind>()(["a", "b"])("b")).toBe("b")
  })
})
