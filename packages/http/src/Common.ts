/** Schemas shared by several groups. */
import { HttpApiSchema } from "@effect/platform"
import { BadRequest, Conflict, Forbidden, InternalError, NotFound, ResponseBody } from "@workbay/core"
import { Schema } from "effect"

export { BadRequest, Conflict, Forbidden, InternalError, NotFound, ResponseBody }

/** `{user}`: a user id, a username, or `me`. */
export const UserPath = Schema.Struct({ user: Schema.String })
export const OrganizationPath = Schema.Struct({ organization: Schema.String })

/** An integer query parameter. */
export const IntParam = Schema.NumberFromString.pipe(Schema.int({ message: () => "Must be an integer." }))
export const NonNegativeIntParam = IntParam.pipe(Schema.nonNegative({ message: () => "Must not be negative." }))
export const BooleanParam = Schema.Literal("true", "false", "1", "0").pipe(
  Schema.transform(Schema.Boolean, { decode: (s) => s === "true" || s === "1", encode: (b) => (b ? "true" : "false") }),
  Schema.annotations({ message: () => "Must be true or false." })
)

/** 200 with no body. */
export const EmptyOk = HttpApiSchema.Empty(200)
/** 204 with no body. */
export const NoContent = HttpApiSchema.NoContent
