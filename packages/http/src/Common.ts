/** Schemas shared by several groups. */
import { HttpApiSchema } from "@effect/platform"
import * as Core from "@workbay/core"
import { ResponseBody, Validation } from "@workbay/core"
import { Schema, SchemaAST } from "effect"

export { ResponseBody }

/**
 * The UUID helpers, declared in core beside the request schemas written with them
 * (`core/src/Requests.ts`); re-exported for the path parameters, which are routing and stay here.
 */
export { Uuid, uuid } from "@workbay/core"

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
export const TooManyRequests = wire(Core.TooManyRequests)

/** `{user}`: a user id, a username, or `me`. */
export const UserPath = Schema.Struct({ user: Schema.String })
export const OrganizationPath = Schema.Struct({ organization: Schema.String })

/** 200 with no body. */
export const EmptyOk = HttpApiSchema.Empty(200)
/** 204 with no body. */
export const NoContent = HttpApiSchema.NoContent
