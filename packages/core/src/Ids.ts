/**
 * Identifiers: ids are plain UUID strings everywhere (records, ports, wire), with the schema the
 * wire checks them by, the optional id of the wire, and the id generator port.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { randomUUID } from "node:crypto"

/** A UUID string as the wire carries it (a path, query or body value), "Must be a UUID." otherwise. */
export const Uuid = Schema.UUID.annotations({ message: () => ({ message: "Must be a UUID.", override: true }) })

/** NullUUID: an optional identifier as `{uuid, valid}`. */
export class NullUuid extends Schema.Class<NullUuid>("NullUUID")({
  uuid: Schema.String,
  valid: Schema.Boolean
}) {
  static readonly none = new NullUuid({ uuid: "00000000-0000-0000-0000-000000000000", valid: false })
  static readonly of = (uuid: string) => new NullUuid({ uuid, valid: true })
}

/**
 * A random UUID as one flat string. Node builds `randomUUID()`'s answer of many pieces, a string of
 * some 490 bytes of heap until something reads a character of it; read once here, it is some 70.
 * For every id that is kept (records cached, sessions, requests that live as long as a connection).
 */
export const newUuid = (): string => {
  const id = randomUUID()
  id.charCodeAt(0)
  return id
}

/** Generates identifiers; tests may swap it for a deterministic one. */
export class IdGenerator extends Context.Tag("@workbay/core/IdGenerator")<
  IdGenerator,
  { readonly uuid: Effect.Effect<string> }
>() {
  static readonly layer = Layer.succeed(IdGenerator, { uuid: Effect.sync(newUuid) })
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Whether a string is a UUID (used where a path segment is an id or a name). */
export const isUuid = (s: string): boolean => uuidPattern.test(s)
