/**
 * The vocabulary the response types are written in (see ResponseSchemas.ts for its conventions):
 * JSON Schema's types and formats, lists, maps, and which fields may be absent.
 */
export type JsonSchema = Record<string, unknown>

export const ref = (name: string): JsonSchema => ({ $ref: `#/definitions/${name}` })
export const string: JsonSchema = { type: "string" }
export const boolean: JsonSchema = { type: "boolean" }
export const integer: JsonSchema = { type: "integer" }
export const number: JsonSchema = { type: "number" }
export const uuid: JsonSchema = { type: "string", format: "uuid" }
export const uri: JsonSchema = { type: "string", format: "uri" }
export const email: JsonSchema = { type: "string", format: "email" }
export const dateTime: JsonSchema = { type: "string", format: "date-time" }
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: "array", items })
export const mapOf = (values: JsonSchema): JsonSchema => ({ type: "object", additionalProperties: values })
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: "null" }] })
/** Schemas of fields that may be absent (`omitted`, `optional`); every other declared field is required. */
const mayBeAbsent = new WeakSet<JsonSchema>()

/** A field the client type declares optional (`?`), which may be sent empty when present. */
export const optional = (schema: JsonSchema): JsonSchema => {
  const copy = { ...schema }
  mayBeAbsent.add(copy)
  return copy
}

/**
 * An object whose declared fields are all required but those marked `omitted` or `optional`.
 * `required` names fields beyond those (a field declared elsewhere, as in `allOf`).
 */
export const object = (properties: Record<string, JsonSchema>, required: ReadonlyArray<string> = []): JsonSchema => {
  const all = [
    ...new Set([...required, ...Object.keys(properties).filter((key) => !mayBeAbsent.has(properties[key]!))])
  ]
  return { type: "object", properties, ...(all.length > 0 ? { required: all } : {}) }
}

/** A field left out when empty: present means non-empty. */
export const omitted = (schema: JsonSchema): JsonSchema => {
  switch (schema.type) {
    case "string":
      return optional({ ...schema, minLength: 1 })
    case "boolean":
      return optional({ ...schema, const: true })
    case "array":
      return optional({ ...schema, minItems: 1 })
    case "object":
      return optional({ ...schema, minProperties: 1 })
    default:
      return optional(schema)
  }
}
