/**
 * The request helpers every area's request schemas are written with (`<area>/Requests.ts`):
 * optional body fields and query parameters, where `null`, absence and an empty query value all
 * mean "not given", the parameter decoders, and the query of a searched, paged listing.
 */
import { Option, Schema } from "effect"
import { Uuid } from "./Ids.js"

/**
 * An optional body field. Absent and `null` both mean "not given": either decodes to an
 * absent key, which the services read as "keep the current value" (or the default). The
 * public client sends `null` for the fields it leaves alone (`T | null` in its types).
 * `exact`, so a wrong value yields one validation (its own), not one more about `undefined`;
 * the dispatcher drops the `null` alternative's "Expected null" the same way.
 */
export const optional = <S extends Schema.Schema.Any>(schema: S) =>
  Schema.optionalWith(schema, { exact: true, nullable: true })

/** Like `optional`, with the value a field takes when not given (absent or `null`). */
export const optionalOr = <S extends Schema.Schema.Any>(schema: S, fallback: () => Schema.Schema.Type<S>) =>
  Schema.optionalWith(schema, { exact: true, nullable: true, default: fallback })

/**
 * The given fields of `fields` (those not `undefined`): what a request gave, passed over a record
 * constructor's defaults (`newTemplate({ ..., ...givenFields({ icon: input.icon }) })`).
 */
export const givenFields = <A extends Record<string, unknown>>(
  fields: A
): { [K in keyof A]?: Exclude<A[K], undefined> } =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof A]?: Exclude<A[K], undefined>
  }

/** A text field of at most `max` characters (the one message every area's requests give). */
export const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

/**
 * Class annotations that name a request body's wire form too (the third place of a class's
 * annotations), so the OpenAPI document keeps `PatchGroupRequest` and the like as named schemas
 * once `optional` fields make the class a transformation.
 */
export const wireName = (identifier: string) => [undefined, undefined, { identifier }] as const

const isGiven = <A>(value: A | ""): value is A => value !== "" && !(Array.isArray(value) && value.length === 0)

/**
 * An optional query parameter. Absent and empty (`?limit=`, `?group_ids=`) both mean "not
 * given", as in the described system's query parser; a bad value still gets the schema's message.
 */
export const optionalParam = <A, I extends string | ReadonlyArray<string>>(schema: Schema.Schema<A, I, never>) =>
  Schema.optionalToOptional(Schema.Union(schema, Schema.Literal("")), Schema.typeSchema(schema), {
    decode: (value: Option.Option<A | "">) => Option.filter(value, isGiven<A>),
    encode: (value: Option.Option<A>): Option.Option<A | ""> => value
  })

/** A UUID path, query or body value, its 400 naming `what` ("<what> must be a valid UUID."). */
export const uuid = (what: string) =>
  Schema.UUID.annotations({ message: () => ({ message: `${what} must be a valid UUID.`, override: true }) })

/** An integer query parameter. */
export const IntParam = Schema.NumberFromString.pipe(Schema.int({ message: () => "Must be an integer." }))
export const NonNegativeIntParam = IntParam.pipe(Schema.nonNegative({ message: () => "Must not be negative." }))
export const BooleanParam = Schema.Literal("true", "false", "1", "0").pipe(
  Schema.transform(Schema.Boolean, { decode: (s) => s === "true" || s === "1", encode: (b) => (b ? "true" : "false") }),
  Schema.annotations({ message: () => "Must be true or false." })
)

/** The query of a searched, paged listing: `q`, the keyset cursor `after_id`, `limit`, `offset`. */
export const SearchPageQuery = Schema.Struct({
  q: optionalParam(Schema.String),
  after_id: optionalParam(Uuid),
  limit: optionalParam(NonNegativeIntParam),
  offset: optionalParam(NonNegativeIntParam)
})
