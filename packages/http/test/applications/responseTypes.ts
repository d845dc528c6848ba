/** The JSON Schemas of the applications response types (see ../schemas/ResponseSchemas.ts). */
import { type JsonSchema, object, string } from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  AppHostResponse: { ...object({ host: string }, ["host"]), additionalProperties: false }
}
