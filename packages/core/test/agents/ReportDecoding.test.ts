/**
 * The agents' periodic reports decoded without Schema's walk (ReportDecoding.ts) against Schema's
 * own decoder: for generated reports, valid ones (values of the schema's type, encoded) and
 * altered ones (a field replaced by any JSON value, or by a value just past a bound), both answer
 * the same value of the same class, or the same error.
 */
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { decodeMetadataUpdate, decodeStatsUpdate, reportFastPaths } from "../../src/agents/ReportDecoding.js"
import { MetadataUpdate, StatsUpdate } from "../../src/agents/Reports.js"

const same = <A>(
  fast: (u: unknown) => Either.Either<A, unknown>,
  slow: (u: unknown) => Either.Either<A, unknown>,
  input: unknown
) => {
  const a = fast(input)
  const b = slow(input)
  if (Either.isRight(b)) {
    expect(Either.isRight(a), JSON.stringify(input)).toBe(true)
    expect(Either.getOrThrow(a)).toStrictEqual(b.right)
  } else {
    expect(Either.isLeft(a), JSON.stringify(input)).toBe(true)
    expect(String(Either.flip(a).pipe(Either.getOrThrow))).toBe(String(b.left))
  }
}

/** A JSON round trip, as reports arrive. */
const json = (u: unknown): unknown => JSON.parse(JSON.stringify(u))

/** Values past the schemas' bounds, and of the wrong types. */
const awkward = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(
    -1,
    1.5,
    2 ** 53,
    Number.MAX_SAFE_INTEGER,
    "",
    "x".repeat(65),
    "x".repeat(129),
    "x".repeat(64 * 1024 + 1),
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "+010000-01-01T00:00:00Z",
    "not a date",
    "2026-11-27",
    null,
    {},
    [],
    { __proto__: null, a: 1 },
    JSON.parse("{\"__proto__\": 1}"),
    Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`p${i}`, 1])),
    Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`p${i}`, 1])),
    Array.from({ length: 129 }, (_, i) => ({ key: `k${i}`, result: { collected_at: "2026-11-27T10:00:00Z" } }))
  )
)

/** `value` with one field somewhere in it (a path of keys and indexes) replaced by `replacement`. */
const alter = (value: unknown, pick: number, replacement: unknown): unknown => {
  const paths: Array<Array<string | number>> = []
  const walk = (v: unknown, path: Array<string | number>) => {
    paths.push(path)
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]))
    else if (typeof v === "object" && v !== null) { for (const [k, x] of Object.entries(v)) walk(x, [...path, k]) }
  }
  walk(value, [])
  const path = paths[pick % paths.length]!
  if (path.length === 0) return replacement
  const copy = json(value) as any
  let at = copy
  for (const key of path.slice(0, -1)) at = at[key]
  at[path[path.length - 1]!] = replacement
  return copy
}

const cases = [
  { name: "batch_update_metadata", schema: MetadataUpdate, fast: decodeMetadataUpdate, path: reportFastPaths.metadata },
  { name: "update_stats", schema: StatsUpdate, fast: decodeStatsUpdate, path: reportFastPaths.stats }
] as const

describe.each(cases)("$name decoded without Schema's walk", ({ fast, path, schema }) => {
  const slow = Schema.decodeUnknownEither(schema as Schema.Schema<any, any>, { errors: "all" })
  const encode = Schema.encodeSync(schema as Schema.Schema<any, any>)
  const valid = Arbitrary.make(schema as Schema.Schema<any, any>).map((v) => json(encode(v)))

  it("answers what Schema answers for valid reports, without Schema", () => {
    fc.assert(
      fc.property(valid, (input) => {
        same(fast, slow, input)
        // The fast path takes every valid report (a "__proto__" key it leaves to Schema).
        if (!JSON.stringify(input).includes("__proto__")) expect(path(input)).toBeDefined()
      }),
      { numRuns: 500 }
    )
  })

  it("answers what Schema answers for reports with a field altered", () => {
    fc.assert(
      fc.property(
        valid,
        fc.nat(),
        awkward,
        (input, pick, replacement) => same(fast, slow, alter(input, pick, replacement))
      ),
      { numRuns: 2000 }
    )
  })

  it("answers what Schema answers for reports with fields left out or added", () => {
    fc.assert(
      fc.property(valid, fc.nat(), fc.string(), fc.jsonValue(), (input, pick, key, extra) => {
        same(fast, slow, alter(input, pick, undefined))
        const added = json(input) as Record<string, unknown>
        added[key] = extra
        same(fast, slow, added)
      }),
      { numRuns: 1000 }
    )
  })
})

describe("the reports' fast path", () => {
  it("takes a typical report (not Schema's decoder)", () => {
    // A valid report decodes to the class, fields in Schema's order with the defaults filled in.
    const metadata = decodeMetadataUpdate({
      metadata: [{ key: "cpu", result: { collected_at: "2026-11-27T10:00:00Z", value: "12%", extra: 1 } }]
    })
    expect(Either.getOrThrow(metadata)).toStrictEqual(
      new MetadataUpdate({
        metadata: [{
          key: "cpu",
          result: { collected_at: new Date("2026-11-27T10:00:00Z"), age: 0, value: "12%", error: "" }
        }]
      })
    )
    const stats = Either.getOrThrow(decodeStatsUpdate({ stats: { rx_bytes: 10, connections_by_proto: { ssh: 1 } } }))
    expect(Object.keys(stats.stats)).toEqual(Object.keys(Schema.decodeUnknownSync(StatsUpdate)({ stats: {} }).stats))
    expect(stats.stats.rx_bytes).toBe(10)
  })
})
