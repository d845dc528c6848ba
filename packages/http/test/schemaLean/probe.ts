/**
 * The probe of SchemaLean.test.ts, bundled twice (with and without scripts/schema-lean.mjs) and run
 * by `node` in a process of its own: it writes, to the file its argument names, a fingerprint of
 * every schema core exports and of every endpoint's schemas (and of five made from each): a hash of
 * its description, AST, JSON Schema and statics, and a hash of what it does with generated values
 * of its encoded side and with junk (decoding, validating, re-encoding, `make`). Generated from the
 * same seeds, the values are the same in both bundles.
 */
import * as Core from "@workbay/core"
import { WorkbayApi } from "@workbay/http"
import { Arbitrary, Either, FastCheck, JSONSchema, ParseResult, Schema } from "effect"
import { createHash } from "node:crypto"
import { writeFileSync } from "node:fs"

type AnySchema = Schema.Schema.Any

/**
 * The schemas to compare, by a name that is the same in both bundles: core's exports, the
 * endpoints' schemas, and what is made from each of them.
 */
const catalogue = (): Map<string, AnySchema> => {
  const out = new Map<string, AnySchema>()
  const add = (name: string, value: unknown) => {
    if (Schema.isSchema(value) && !out.has(name)) out.set(name, value as AnySchema)
  }
  for (const [name, value] of Object.entries(Core)) add(`core.${name}`, value)
  for (const [groupName, group] of Object.entries(WorkbayApi.groups)) {
    for (
      const [endpointName, endpoint] of Object.entries(
        group.endpoints as unknown as Record<string, Record<string, unknown>>
      )
    ) {
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
    out.set(`${name}+array`, Schema.Array(schema))
    out.set(`${name}+struct`, Schema.Struct({ inner: schema, other: Schema.optional(Schema.Number) }))
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
const shapeOf = (schema: AnySchema): string => {
  // The data statics with each schema in them named by its description (a schema is a class).
  const named = (v: unknown): unknown =>
    Schema.isSchema(v)
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
    jsonSchema = JSON.stringify(JSONSchema.make(schema))
  } catch (e) {
    jsonSchema = `throws ${(e as Error).message}`
  }
  return `${String(schema)}\n${describeValue(schema.ast)}\n${jsonSchema}\n${statics.join(",")}`
}

/** The outcome of `f`: the value, or the failure's message. */
const outcome = (f: () => unknown): string => {
  try {
    const result = f()
    if (Either.isEither(result)) {
      return Either.isRight(result)
        ? `right ${describeValue(result.right)}`
        : `left ${ParseResult.TreeFormatter.formatIssueSync((result.left as ParseResult.ParseError).issue)}`
    }
    return `value ${describeValue(result)}`
  } catch (e) {
    return `throws ${e instanceof Error ? e.message : String(e)}`
  }
}

const JUNK: ReadonlyArray<unknown> = [undefined, null, "", "x", 0, -1.5, true, [], {}, [1, "a"], { id: 1 }]

/** What `schema` does with generated values (given encoded, as a client sends them) and with junk. */
const behaviourOf = (schema: AnySchema, encodedSamples: ReadonlyArray<unknown>) => {
  const S = Schema as unknown as {
    decodeUnknownEither: (s: AnySchema) => (u: unknown) => unknown
    encodeUnknownEither: (s: AnySchema) => (u: unknown) => unknown
    decodeUnknownSync: (s: AnySchema) => (u: unknown) => unknown
    encodeSync: (s: AnySchema) => (u: unknown) => unknown
    is: (s: AnySchema) => (u: unknown) => boolean
  }
  const make = (schema as { make?: unknown }).make
  return [...encodedSamples, ...JUNK].map((input) => {
    const decoded = outcome(() => S.decodeUnknownEither(schema)(input))
    let reencoded = "-"
    let valid = "-"
    let made = "-"
    try {
      const value = S.decodeUnknownSync(schema)(input)
      reencoded = outcome(() => S.encodeUnknownEither(schema)(value))
      valid = String(S.is(schema)(value))
      // Called detached, as `.map(X.make)` does.
      if (typeof make === "function" && value !== null && typeof value === "object" && !Array.isArray(value)) {
        const detached = make as (v: unknown) => unknown
        made = outcome(() => S.encodeSync(schema)(detached({ ...value })))
      }
    } catch {
      // Not decodable: the decoding's outcome above says why.
    }
    return { input: describeValue(input), decoded, reencoded, valid, made }
  })
}

/**
 * Values of `schema`'s encoded side, as a client sends them, generated from `seed` (the same
 * in both bundles). Its encoded side has no refinements (a filter with no arbitrary of its own has
 * fast-check generate until one passes, which for a pattern may be forever); those it refuses are
 * compared as refusals.
 */
const samplesOf = (schema: AnySchema, seed: number): ReadonlyArray<unknown> => {
  try {
    return FastCheck.sample(Arbitrary.make(Schema.encodedSchema(schema)), { seed, numRuns: 4 })
  } catch {
    // No arbitrary for it (a declaration without one): junk only.
    return []
  }
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16)

/** The chain of classes a struct schema is made of, and the methods it has as its own. */
const struct = Schema.Struct({ a: Schema.String })
const chain: Array<string> = []
for (let c: unknown = Schema.Struct({}); c !== Function.prototype; c = Object.getPrototypeOf(c)) {
  chain.push((c as { name: string }).name)
}
const ownMethods = ["annotations", "pick", "omit", "pipe", "toString"].filter((m) => Object.hasOwn(struct, m))

const schemas = catalogue()
let seed = 1
let decoded = 0
const fingerprints = [...schemas].map(([name, schema]) => {
  const shape = hash(shapeOf(schema))
  if (name.includes("+")) return { name, shape }
  const behaviour = behaviourOf(schema, samplesOf(schema, seed++))
  decoded += behaviour.filter((b) => b.decoded.startsWith("right")).length
  return { name, shape, behaviour: hash(JSON.stringify(behaviour)) }
})
writeFileSync(process.argv[2]!, JSON.stringify({ chain, ownMethods, decoded, fingerprints }))
