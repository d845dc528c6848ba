/**
 * The server's and the CLI's bundles make Effect's schemas without a class of methods each
 * (scripts/schema-lean.mjs). Here core, the API's definition and Effect are bundled twice, with
 * and without that plugin, and every schema core exports and every schema of every endpoint (its
 * path, query, payload, successes and errors), with a few made from each (annotated, in an array,
 * in a struct, picked and omitted), is compared between the two: the same description, AST and
 * JSON Schema, the same statics to read, and the same outcome (the value, or the error's message)
 * when decoding, validating, re-encoding and `make`-ing generated values and decoding junk.
 */
import type * as Effect from "effect"
import { build } from "esbuild"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { leanSchemaSource, schemaLean } from "../../../scripts/schema-lean.mjs"

/** What each bundle exports (the entry below). */
interface Bundle {
  readonly Core: Record<string, unknown>
  readonly WorkbayApi: {
    readonly groups: Record<string, { readonly endpoints: Record<string, Record<string, unknown>> }>
  }
  readonly Schema: typeof Effect.Schema
  readonly JSONSchema: typeof Effect.JSONSchema
  readonly Arbitrary: typeof Effect.Arbitrary
  readonly FastCheck: typeof Effect.FastCheck
  readonly ParseResult: typeof Effect.ParseResult
  readonly Either: typeof Effect.Either
}

const ENTRY = `
export * as Core from "@workbay/core"
export { WorkbayApi } from "@workbay/http"
export { Arbitrary, Either, FastCheck, JSONSchema, ParseResult, Schema } from "effect"
`

type AnySchema = Effect.Schema.Schema.Any

/**
 * The schemas to compare, by a name that is the same in both bundles: core's exports, the
 * endpoints' schemas, and what is made from each of them.
 */
const catalogue = (b: Bundle): Map<string, AnySchema> => {
  const out = new Map<string, AnySchema>()
  const add = (name: string, value: unknown) => {
    if (b.Schema.isSchema(value) && !out.has(name)) out.set(name, value as AnySchema)
  }
  for (const [name, value] of Object.entries(b.Core)) add(`core.${name}`, value)
  for (const [groupName, group] of Object.entries(b.WorkbayApi.groups)) {
    for (const [endpointName, endpoint] of Object.entries(group.endpoints)) {
      const at = `api.${groupName}.${endpointName}`
      for (const part of ["pathSchema", "urlParamsSchema", "payloadSchema", "headersSchema"]) {
        const option = endpoint[part] as { _tag: string; value?: unknown } | undefined
        if (option?._tag === "Some") add(`${at}.${part}`, option.value)
      }
      for (const part of ["successSchema", "errorSchema"]) add(`${at}.${part}`, endpoint[part])
    }
  }
  for (const [name, schema] of [...out]) {
    out.set(`${name}+annotations`, schema.annotations({ title: "retitled", description: "described" }))
    out.set(`${name}+array`, b.Schema.Array(schema))
    out.set(`${name}+struct`, b.Schema.Struct({ inner: schema, other: b.Schema.optional(b.Schema.Number) }))
    const fields = (schema as { fields?: Record<string, unknown> }).fields
    const first = fields === undefined ? undefined : Object.keys(fields)[0]
    if (first !== undefined && typeof (schema as { pick?: unknown }).pick === "function") {
      const struct = schema as unknown as { pick: (k: string) => AnySchema; omit: (k: string) => AnySchema }
      out.set(`${name}+pick`, struct.pick(first))
      out.set(`${name}+omit`, struct.omit(first))
    }
  }
  return out
}

/**
 * A value as comparable text: plain data, with what differs between two copies of a library named
 * instead. An object met again (ASTs share their nodes) is written as a reference to its first
 * place, so that the text grows with the nodes, not with the paths to them.
 */
const describeValue = (value: unknown): string => {
  const met = new Map<object, number>()
  const walk = (v: unknown): unknown => {
    if (typeof v === "function") return `[function ${v.name}]`
    if (typeof v === "symbol") return `[symbol ${v.description}]`
    if (typeof v === "bigint") return `[bigint ${v}]`
    if (typeof v === "number" && !Number.isFinite(v)) return `[number ${v}]`
    if (v === undefined) return "[undefined]"
    if (v === null || typeof v !== "object") return v
    if (v instanceof Date) return `[date ${Number.isNaN(v.getTime()) ? "invalid" : v.toISOString()}]`
    if (v instanceof Uint8Array) return `[bytes ${Buffer.from(v).toString("hex")}]`
    const seen = met.get(v)
    if (seen !== undefined) return `[#${seen}]`
    met.set(v, met.size)
    return Array.isArray(v)
      ? v.map(walk)
      : Object.fromEntries(
        // An error's stack names the bundle's file and lines: not what is compared.
        Reflect.ownKeys(v).filter((k) => k !== "stack").map((
          k
        ) => [typeof k === "symbol" ? `[${k.description}]` : k, walk((v as never)[k])])
      )
  }
  return JSON.stringify(walk(value))
}

/** What a schema is: its description, AST, JSON Schema and the statics its kind gives. */
const shapeOf = (b: Bundle, schema: AnySchema): string => {
  // The data statics with each schema in them named by its description (a schema is a class).
  const named = (v: unknown): unknown =>
    b.Schema.isSchema(v)
      ? `[schema ${String(v)}]`
      : Array.isArray(v)
      ? v.map(named)
      : v !== null && typeof v === "object"
      ? Object.fromEntries(Reflect.ownKeys(v).map((k) => [String(k), named((v as never)[k])]))
      : v
  const data = [
    "fields",
    "records",
    "members",
    "literals",
    "elements",
    "rest",
    "value",
    "from",
    "to",
    "key",
    "identifier"
  ]
    .map((name) => `${name}:${describeValue(named((schema as never)[name]))}`)
  const methods = ["ast", "filter", "typeParameters", "make", "pick", "omit", "annotations", "pipe"]
    .map((name) => `${name}:${typeof (schema as never)[name]}`)
  const statics = [...data, ...methods]
  let jsonSchema: string
  try {
    jsonSchema = JSON.stringify(b.JSONSchema.make(schema))
  } catch (e) {
    jsonSchema = `throws ${(e as Error).message}`
  }
  return `${String(schema)}\n${describeValue(schema.ast)}\n${jsonSchema}\n${statics.join(",")}`
}

/** The outcome of `f`: the value, or the failure's message. */
const outcome = (b: Bundle, f: () => unknown): string => {
  try {
    const result = f()
    if (b.Either.isEither(result)) {
      return b.Either.isRight(result)
        ? `right ${describeValue(result.right)}`
        : `left ${b.ParseResult.TreeFormatter.formatIssueSync((result.left as Effect.ParseResult.ParseError).issue)}`
    }
    return `value ${describeValue(result)}`
  } catch (e) {
    return `throws ${e instanceof Error ? e.message : String(e)}`
  }
}

const JUNK: ReadonlyArray<unknown> = [undefined, null, "", "x", 0, -1.5, true, [], {}, [1, "a"], { id: 1 }]

/** What `schema` does with generated values (given encoded, as a client sends them) and with junk. */
const behaviourOf = (b: Bundle, schema: AnySchema, encodedSamples: ReadonlyArray<unknown>) => {
  const S = b.Schema as unknown as {
    decodeUnknownEither: (s: AnySchema) => (u: unknown) => unknown
    encodeUnknownEither: (s: AnySchema) => (u: unknown) => unknown
    decodeUnknownSync: (s: AnySchema) => (u: unknown) => unknown
    encodeSync: (s: AnySchema) => (u: unknown) => unknown
    is: (s: AnySchema) => (u: unknown) => boolean
  }
  const make = (schema as { make?: unknown }).make
  return [...encodedSamples, ...JUNK].map((input) => {
    const decoded = outcome(b, () => S.decodeUnknownEither(schema)(input))
    let reencoded = "-"
    let valid = "-"
    let made = "-"
    try {
      const value = S.decodeUnknownSync(schema)(input)
      reencoded = outcome(b, () => S.encodeUnknownEither(schema)(value))
      valid = String(S.is(schema)(value))
      // Called detached, as `.map(X.make)` does.
      if (typeof make === "function" && value !== null && typeof value === "object" && !Array.isArray(value)) {
        const detached = make as (v: unknown) => unknown
        made = outcome(b, () => S.encodeSync(schema)(detached({ ...value })))
      }
    } catch {
      // Not decodable: the decoding's outcome above says why.
    }
    return { input: describeValue(input), decoded, reencoded, valid, made }
  })
}

/**
 * Values of `schema`'s encoded side, as a client sends them, generated by the stock bundle (the same
 * for both). Its encoded side has no refinements (a filter with no arbitrary of its own has
 * fast-check generate until one passes, which for a pattern may be forever); those it refuses are
 * compared as refusals.
 */
const samplesOf = (b: Bundle, schema: AnySchema, seed: number): ReadonlyArray<unknown> => {
  try {
    return b.FastCheck.sample(b.Arbitrary.make(b.Schema.encodedSchema(schema)), { seed, numRuns: 4 })
  } catch {
    // No arbitrary for it (a declaration without one): junk only.
    return []
  }
}

describe("Effect's Schema as the server's bundle has it (scripts/schema-lean.mjs)", () => {
  let dir: string
  let stock: Bundle
  let lean: Bundle
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "schema-lean-"))
    const bundleTo = async (name: string, plugins: Array<typeof schemaLean>) => {
      const outfile = join(dir, `${name}.mjs`)
      await build({
        stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: "ts" },
        bundle: true,
        platform: "node",
        target: "node20",
        format: "esm",
        outfile,
        conditions: ["@workbay/source"],
        logLevel: "warning",
        external: ["better-sqlite3", "pg-native", "bufferutil", "utf-8-validate", "ssh2", "@lydell/node-pty"],
        banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
        plugins
      })
      return (await import(pathToFileURL(outfile).href)) as Bundle
    }
    stock = await bundleTo("stock", [])
    lean = await bundleTo("lean", [schemaLean])
  }, 120_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("makes each schema a class of its own data only, its methods inherited (and the stock bundle does not)", () => {
    const ownMethods = (b: Bundle) => {
      const struct = b.Schema.Struct({ a: b.Schema.String })
      return ["annotations", "pick", "omit", "pipe", "toString"].filter((m) => Object.hasOwn(struct, m))
    }
    expect(ownMethods(stock)).toEqual(["annotations", "pick", "omit"])
    expect(ownMethods(lean)).toEqual([])
    // The chain a lean struct has: its class, the struct base, the schema base.
    const chain = (b: Bundle) => {
      const names: Array<string> = []
      for (let c = b.Schema.Struct({}) as unknown; c !== Function.prototype; c = Object.getPrototypeOf(c)) {
        names.push((c as { name: string }).name)
      }
      return names
    }
    expect(chain(lean)).toEqual(["TypeLiteralClass", "TypeLiteralBase", "SchemaBase"])
    expect(chain(stock)).toEqual(["TypeLiteralClass", "SchemaClass"])
  })

  it("gives every schema of core and of the API the same description, AST, JSON Schema and statics", () => {
    const stockSchemas = catalogue(stock)
    const leanSchemas = catalogue(lean)
    expect([...leanSchemas.keys()]).toEqual([...stockSchemas.keys()])
    expect(stockSchemas.size).toBeGreaterThan(2_000)
    // Compared as text, the differences listed (none expected).
    const differences = [...stockSchemas].filter(([name, schema]) =>
      shapeOf(lean, leanSchemas.get(name)!) !== shapeOf(stock, schema)
    ).map(([name]) => name)
    expect(differences).toEqual([])
  })

  it("decodes, validates, encodes and makes the same values with both, and refuses junk with the same messages", () => {
    const stockSchemas = catalogue(stock)
    const leanSchemas = catalogue(lean)
    let compared = 0
    let seed = 1
    for (const [name, schema] of stockSchemas) {
      if (name.includes("+")) continue
      const samples = samplesOf(stock, schema, seed++)
      const expected = behaviourOf(stock, schema, samples)
      const actual = behaviourOf(lean, leanSchemas.get(name)!, samples)
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        expect({ name, behaviour: actual }).toEqual({ name, behaviour: expected })
      }
      compared += expected.filter((e) => e.decoded.startsWith("right")).length
    }
    expect(compared).toBeGreaterThan(1_000)
  })

  it("refuses an Effect whose Schema module is not the text it rewrites", () => {
    const source = readFileSync(join(process.cwd(), "node_modules/effect/dist/esm/Schema.js"), "utf8")
    expect(leanSchemaSource(source)).toContain("class TypeLiteralBase extends SchemaBase")
    expect(() => leanSchemaSource(source.replace("static members = [...members];", "static members = members;")))
      .toThrow(/not the text this plugin rewrites/)
  })
})
