/** Branded identifiers and the id generator port. */
import { Context, Effect, Layer, Schema } from "effect"
import { randomUUID } from "node:crypto"

/** A UUID string as the wire carries it. */
export const Uuid = Schema.UUID

export const UserId = Schema.UUID.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type

export const OrganizationId = Schema.UUID.pipe(Schema.brand("OrganizationId"))
export type OrganizationId = typeof OrganizationId.Type

/** NullUUID: an optional identifier as `{uuid, valid}`. */
export class NullUuid extends Schema.Class<NullUuid>("NullUUID")({
  uuid: Schema.String,
  valid: Schema.Boolean
}) {
  static readonly none = new NullUuid({ uuid: "00000000-0000-0000-0000-000000000000", valid: false })
  static readonly of = (uuid: string) => new NullUuid({ uuid, valid: true })
}

/** Generates identifiers; tests may swap it for a deterministic one. */
export class IdGenerator extends Context.Tag("@workbay/core/IdGenerator")<
  IdGenerator,
  { readonly uuid: Effect.Effect<string> }
>() {
  static readonly layer = Layer.succeed(IdGenerator, { uuid: Effect.sync(() => randomUUID()) })
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Whether a string is a UUID (used where a path segment is an id or a name). */
export const isUuid = (s: string): boolean => uuidPattern.test(s)
