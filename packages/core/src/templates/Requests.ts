/**
 * The request schemas of the templates area that other areas' requests are written with: the
 * `{name, value}` pair of variable and parameter values (template versions' requests and the
 * workspaces' create and build requests).
 */
import { Schema } from "effect"

const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

/** A `{name, value}` pair: a template variable's value, or a workspace parameter's. */
export class NameValue extends Schema.Class<NameValue>("VariableValue")({
  name: Text(256).pipe(Schema.minLength(1, { message: () => "Name is required." })),
  value: Text(65_536)
}) {}
