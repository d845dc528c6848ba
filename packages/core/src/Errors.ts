/**
 * Typed errors of the service. Every error carries the fields of the spec's
 * `Response` object and is annotated with the HTTP status it answers with, so
 * the HTTP layer can encode any of them without knowing its kind.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** One entry of `Response.validations`: the JSON path of a bad field and why. */
export class Validation extends Schema.Class<Validation>("Validation")({
  field: Schema.String,
  detail: Schema.String
}) {}

/**
 * The generic message object used for every error and message body. A body of a fixed or
 * service-made message is built with `new ResponseBody(props, true)`: Schema's constructor
 * check costs more than the rest of a small request (7% of an agent's log append).
 */
export class ResponseBody extends Schema.Class<ResponseBody>("Response")({
  message: Schema.String,
  detail: Schema.optional(Schema.String),
  validations: Schema.optional(Schema.Array(Validation))
}) {}

const fields = {
  message: Schema.String,
  detail: Schema.optional(Schema.String),
  validations: Schema.optional(Schema.Array(Validation))
}

/** 400: the request is malformed or breaks a rule about its contents. */
export class BadRequest extends Schema.TaggedError<BadRequest>()(
  "BadRequest",
  fields,
  HttpApiSchema.annotations({ status: 400 })
) {
  /** A 400 whose validations name one field. */
  static field(field: string, detail: string, message = "Validation failed.") {
    return new BadRequest({ message, validations: [new Validation({ field, detail })] })
  }
}

/** 401: no credentials, or credentials that are unknown, expired or revoked. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  fields,
  HttpApiSchema.annotations({ status: 401 })
) {}

/** 403: the caller is known but may not perform the action. */
export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  fields,
  HttpApiSchema.annotations({ status: 403 })
) {
  static readonly default = () =>
    new Forbidden({ message: "Forbidden.", detail: "You do not have permission to perform this action." })
}

/** 404: the resource does not exist, or the caller may not see it. */
export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  fields,
  HttpApiSchema.annotations({ status: 404 })
) {
  static readonly resource = (what: string) => new NotFound({ message: `${what} not found.` })
}

/** 409: the change conflicts with existing state (a duplicate name, a first user that exists). */
export class Conflict extends Schema.TaggedError<Conflict>()(
  "Conflict",
  fields,
  HttpApiSchema.annotations({ status: 409 })
) {}

/** 412: the resource is not in the state the request expected (a build's `expect_status`). */
export class PreconditionFailed extends Schema.TaggedError<PreconditionFailed>()(
  "PreconditionFailed",
  fields,
  HttpApiSchema.annotations({ status: 412 })
) {}

/** 413: what the request would store is over a limit (an agent's logs). */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  fields,
  HttpApiSchema.annotations({ status: 413 })
) {}

/** 500: something failed on our side; the detail never carries internals. */
export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  fields,
  HttpApiSchema.annotations({ status: 500 })
) {}

/** 502: what the request needs could not be reached (a workspace agent, its app, the replica that holds it). */
export class BadGateway extends Schema.TaggedError<BadGateway>()(
  "BadGateway",
  fields,
  HttpApiSchema.annotations({ status: 502 })
) {}

/** 504: what the request needs did not answer in time (an app, an agent). */
export class GatewayTimeout extends Schema.TaggedError<GatewayTimeout>()(
  "GatewayTimeout",
  fields,
  HttpApiSchema.annotations({ status: 504 })
) {}

/** Errors any authenticated operation may answer with. */
export type AuthErrors = Unauthorized | Forbidden

/** 502: an outside provider (sign-in, external auth) could not be reached or answered something unusable. */
export class ProviderUnavailable extends Schema.TaggedError<ProviderUnavailable>()(
  "ProviderUnavailable",
  ResponseBody.fields,
  HttpApiSchema.annotations({ status: 502 })
) {}

/** 428: a precondition the request must meet is missing (a rate-limit bypass asked for by someone not an owner). */
export class PreconditionRequired extends Schema.TaggedError<PreconditionRequired>()(
  "PreconditionRequired",
  fields,
  HttpApiSchema.annotations({ status: 428 })
) {}

/** 429: the caller sent more requests than the rate limit allows (docs/configuration.md, "Rate limits"). */
export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()(
  "TooManyRequests",
  fields,
  HttpApiSchema.annotations({ status: 429 })
) {}

/**
 * A 429 whose wait is known (an account's sign-in back-off, docs/authentication.md): the HTTP
 * layer answers it with `Retry-After: <retryAfterSeconds>`. The body is the Response object.
 */
export class RetryLater extends TooManyRequests {
  constructor(
    props: { readonly message: string; readonly detail?: string | undefined },
    readonly retryAfterSeconds: number
  ) {
    super(props, true)
  }
}

/** 503: the service cannot answer now (starting, migrating, its database unreachable). */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()(
  "ServiceUnavailable",
  fields,
  HttpApiSchema.annotations({ status: 503 })
) {}
