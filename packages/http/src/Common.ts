/** Schemas shared by several groups. */
import { HttpApiSchema } from "@effect/platform"
import * as Core from "@workbay/core"
import { ResponseBody, Validation } from "@workbay/core"
import { Option, Schema, SchemaAST } from "effect"

export { ResponseBody }

/** The Response object as it travels: no `_tag`. */
const ResponseWire = Schema.Struct({
  message: Schema.String,
  detail: Schema.optional(Schema.String),
  validations: Schema.optional(Schema.Array(Validation))
})

type ErrorClass<A> = Schema.Schema<A, any, never> & {
  new(props: typeof ResponseWire.Type): A
}

/**
 * An error as the API declares it: the wire form is exactly the Response
 * object, the decoded form is the core error class (so the typed client fails
 * with `NotFound`, `Conflict`, ...), and the status comes from the class.
 */
export const wire = <
  A extends {
    readonly message: string
    readonly detail?: string | undefined
    readonly validations?: ReadonlyArray<Validation> | undefined
  }
>(
  cls: ErrorClass<A>
) =>
  Schema.transform(ResponseWire, Schema.typeSchema(cls), {
    strict: false,
    decode: (r) => new cls(r),
    encode: (e) => ({
      message: e.message,
      ...(e.detail !== undefined ? { detail: e.detail } : {}),
      ...(e.validations !== undefined ? { validations: e.validations } : {})
    })
  }).annotations({
    ...HttpApiSchema.annotations({ status: HttpApiSchema.getStatusErrorAST(cls.ast) }),
    identifier: String(cls.ast.annotations[SchemaAST.IdentifierAnnotationId] ?? "Response")
  })

export const BadRequest = wire(Core.BadRequest)
export const Unauthorized = wire(Core.Unauthorized)
export const Forbidden = wire(Core.Forbidden)
export const NotFound = wire(Core.NotFound)
export const Conflict = wire(Core.Conflict)
export const InternalError = wire(Core.InternalError)
export const PreconditionFailed = wire(Core.PreconditionFailed)
export const PayloadTooLarge = wire(Core.PayloadTooLarge)

/** `{user}`: a user id, a username, or `me`. */
export const UserPath = Schema.Struct({ user: Schema.String })
export const OrganizationPath = Schema.Struct({ organization: Schema.String })

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

/** An integer query parameter. */
export const IntParam = Schema.NumberFromString.pipe(Schema.int({ message: () => "Must be an integer." }))
export const NonNegativeIntParam = IntParam.pipe(Schema.nonNegative({ message: () => "Must not be negative." }))
export const BooleanParam = Schema.Literal("true", "false", "1", "0").pipe(
  Schema.transform(Schema.Boolean, { decode: (s) => s === "true" || s === "1", encode: (b) => (b ? "true" : "false") }),
  Schema.annotations({ message: () => "Must be true or false." })
)

/** A UUID (a path or query value), "Must be a UUID." otherwise. */
export const Uuid = Schema.UUID.annotations({ message: () => ({ message: "Must be a UUID.", override: true }) })

/** The query of a searched, paged listing: `q`, the keyset cursor `after_id`, `limit`, `offset`. */
export const SearchPageQuery = Schema.Struct({
  q: optionalParam(Schema.String),
  after_id: optionalParam(Uuid),
  limit: optionalParam(NonNegativeIntParam),
  offset: optionalParam(NonNegativeIntParam)
})

/** 200 with no body. */
export const EmptyOk = HttpApiSchema.Empty(200)
/** 204 with no body. */
export const NoContent = HttpApiSchema.NoContent

/** A UUID path or body field, its 400 naming `what`. */
export const uuid = (what: string) =>
  Schema.UUID.annotations({ message: () => ({ message: `${what} must be a valid UUID.`, override: true }) })
