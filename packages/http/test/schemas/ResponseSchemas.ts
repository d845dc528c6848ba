/**
 * JSON Schemas of the response types, written by hand from the public API reference of
 * the described system (its resource lists, required fields and formats, and which
 * fields its types leave out when empty). They are independent of the service's own
 * Effect schemas, so a response that drifts from the reference fails here even when it
 * matches our declarations.
 *
 * Conventions:
 * - Every declared field is required, as the client's types (`typesGenerated.ts`) declare a
 *   field without `?`: a field we leave out that a client reads as always present fails here.
 *   Only fields wrapped in `omitted(...)` or `optional(...)` may be absent.
 * - A field the reference omits when empty (Go's `omitempty`) is declared with `omitted(...)`:
 *   when present it is never empty (`""`, `false`, `[]`, `{}`), so sending it empty fails.
 * - `optional(...)` marks a field the client type declares optional (`?`) that may be sent empty
 *   (a pointer left out when nil, or a field only some answers carry).
 * - Objects stay open (`additionalProperties` is not set) unless the reference closes them.
 * - Formats `uuid`, `uri`, `email` and `date-time` are enforced by ajv-formats.
 */
import { Ajv, type ValidateFunction } from "ajv"
import addFormats from "ajv-formats"
import { fromEveryArea } from "../areas.js"
import { arrayOf, type JsonSchema, object, omitted, ref, string } from "./jsonSchema.js"

/** Every area's response types (`<area>/responseTypes.ts`), joined; a name declared twice fails here. */
const areaTypes = await fromEveryArea<Record<string, JsonSchema>>("responseTypes", "responseTypes")

/** Every response type an endpoint answers, by the reference's name: the errors' here, the rest by area. */
export const definitions: Record<string, JsonSchema> = {
  Response: object({
    message: string,
    detail: omitted(string),
    validations: omitted(arrayOf(ref("ValidationError")))
  }),
  ValidationError: object({ field: string, detail: string }, ["detail", "field"])
}
for (const [area, types] of areaTypes) {
  for (const [name, schema] of Object.entries(types)) {
    if (name in definitions) throw new Error(`${area}/responseTypes.ts declares ${name} again.`)
    definitions[name] = schema
  }
}

/** Schema names a table row may use: a type, or `[Type]` for a list of it. */
export type SchemaName = keyof typeof definitions | `[${string}]` | "Experiments"

const root = { $id: "reference", definitions: { ...definitions, Experiments: arrayOf(string) } }

/** An ajv instance that knows every definition and enforces the formats. */
export const makeValidator = () => {
  const ajv = new Ajv({ allErrors: true, strict: true, allowMatchingProperties: true })
  addFormats.default(ajv, ["uuid", "uri", "email", "date-time"])
  ajv.addSchema(root)
  const cache = new Map<string, ValidateFunction>()
  /** The validator of `name` (`User`) or of a list of it (`[User]`). */
  return (name: string): ValidateFunction => {
    const cached = cache.get(name)
    if (cached !== undefined) return cached
    const list = /^\[(.+)\]$/.exec(name)
    const target = list === null ? name : list[1]!
    if (!(target in root.definitions)) throw new Error(`No schema named ${target}.`)
    const schema = list === null
      ? { $ref: `reference#/definitions/${target}` }
      : { type: "array", items: { $ref: `reference#/definitions/${target}` } }
    const validate = ajv.compile(schema)
    cache.set(name, validate)
    return validate
  }
}
