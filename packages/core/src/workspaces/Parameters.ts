/**
 * A build's parameter values, checked against its template version's parameters: the values
 * given, else (on later builds) the previous build's, else the preset's, else the default.
 * Pure: no I/O, so every rule is a unit test (packages/core/test/workspaces/Parameters.test.ts).
 *
 * Rules, as the described system's: a required parameter needs a value; a value must be one of
 * the options when there are options, match the regex, be a number within min and max (number
 * parameters), `true`/`false` (bool), a JSON array of strings (list(string)); an immutable
 * parameter cannot change after the first build; a monotonic one may only grow (increasing) or
 * shrink (decreasing); ephemeral values are used for one build and never carried to the next.
 * Values of names the version does not declare are ignored.
 */
import { Either } from "effect"
import { Validation } from "../Errors.js"
import type { NameValue, RichParameter } from "../provisioners/Provisioner.js"
import { checkValue } from "../templates/ParameterValues.js"

export { checkValue }

export interface ParameterInput {
  /** What the caller gave (`rich_parameter_values`). */
  readonly given: ReadonlyArray<NameValue>
  /** The previous build's values; `undefined` for a workspace's first build. */
  readonly previous: ReadonlyArray<NameValue> | undefined
  /** The chosen preset's values (they win over given ones, as presets fix them). */
  readonly preset?: ReadonlyArray<NameValue> | undefined
}

const field = (name: string) => `rich_parameter_values.${name}`

const invalid = (p: RichParameter, detail: string) => new Validation({ field: field(p.name), detail })

/**
 * The values a build uses for every parameter of the version, or the validations that refuse
 * them (one per bad parameter, `field` = `rich_parameter_values.<name>`).
 */
export const resolveParameters = (
  parameters: ReadonlyArray<RichParameter>,
  input: ParameterInput
): Either.Either<ReadonlyArray<NameValue>, ReadonlyArray<Validation>> => {
  const given = new Map(input.given.map((v) => [v.name, v.value]))
  const previous = new Map((input.previous ?? []).map((v) => [v.name, v.value]))
  const preset = new Map((input.preset ?? []).map((v) => [v.name, v.value]))
  const firstBuild = input.previous === undefined
  const out: Array<NameValue> = []
  const problems: Array<Validation> = []
  for (const p of [...parameters].sort((a, b) => a.order - b.order)) {
    const was = p.ephemeral ? undefined : previous.get(p.name)
    const explicit = preset.get(p.name) ?? given.get(p.name)
    if (!firstBuild && !p.mutable && explicit !== undefined && was !== undefined && explicit !== was) {
      problems.push(
        invalid(p, `Parameter "${p.name}" is not mutable, so it can't be updated after creating a workspace.`)
      )
      continue
    }
    const value = explicit ?? was ?? (p.required ? undefined : p.default_value)
    if (value === undefined) {
      problems.push(invalid(p, `Parameter "${p.name}" is required but was not provided.`))
      continue
    }
    const bad = checkValue(p, value)
    if (bad.length > 0) {
      problems.push(invalid(p, bad.join(" ")))
      continue
    }
    if (p.validation_monotonic !== "" && p.type === "number" && was !== undefined && explicit !== undefined) {
      const a = Number(was)
      const b = Number(value)
      if (p.validation_monotonic === "increasing" && b < a) {
        problems.push(invalid(p, `Parameter "${p.name}" must be equal or greater than previous value: ${was}.`))
        continue
      }
      if (p.validation_monotonic === "decreasing" && b > a) {
        problems.push(invalid(p, `Parameter "${p.name}" must be equal or lower than previous value: ${was}.`))
        continue
      }
    }
    out.push({ name: p.name, value })
  }
  return problems.length > 0 ? Either.left(problems) : Either.right(out)
}

/** The values carried to the next build: ephemeral ones are dropped. */
export const keptParameters = (
  parameters: ReadonlyArray<RichParameter>,
  values: ReadonlyArray<NameValue>
): ReadonlyArray<NameValue> => {
  const ephemeral = new Set(parameters.filter((p) => p.ephemeral).map((p) => p.name))
  return values.filter((v) => !ephemeral.has(v.name))
}
