/**
 * A template version's rich parameters as a form's values, checked as the service checks them
 * (packages/core/src/workspaces/Parameters.ts): a required parameter needs a value; a number lies
 * within min and max; a bool is "true" or "false"; a list(string) is a JSON array of strings; a
 * value is one of the options when there are options; a string matches the regex (the template's
 * error message, when it has one); a monotonic number only grows (increasing) or shrinks
 * (decreasing) from the previous build's value. Pure: no React, no I/O (test/components/Parameters.test.tsx).
 *
 * Values are kept as on the wire: strings, `list(string)` as a JSON array.
 */
import type { NameValue, Parameter, Preset } from "./api.ts"

export type Values = Readonly<Record<string, string>>
export type Errors = Readonly<Record<string, string>>

/** The name a person reads: the display name, else the name. */
export const labelOf = (
  p: Parameter
) => (p.display_name !== undefined && p.display_name !== "" ? p.display_name : p.name)

/** Each parameter's starting value: the previous build's, else the default. */
export const initialValues = (
  parameters: ReadonlyArray<Parameter>,
  previous: ReadonlyArray<NameValue> = []
): Values => {
  const was = new Map(previous.map((v) => [v.name, v.value]))
  return Object.fromEntries(
    parameters.map((p) => [p.name, (p.ephemeral ? undefined : was.get(p.name)) ?? p.default_value])
  )
}

/** The strings of a list(string) value, or undefined when it is not a JSON array of strings. */
export const listOf = (value: string): ReadonlyArray<string> | undefined => {
  if (value.trim() === "") return []
  try {
    const parsed: unknown = JSON.parse(value)
    return Array.isArray(parsed) && parsed.every((x) => typeof x === "string") ? parsed : undefined
  } catch {
    return undefined
  }
}

/** The template's regex as JavaScript reads it (RE2 syntax is mostly the same), or undefined. */
const pattern = (source: string) => {
  try {
    return new RegExp(source, "u")
  } catch {
    return undefined
  }
}

/** What is wrong with `value` of `p`, or undefined. `previous`: the last build's value, for `monotonic`. */
export const validateValue = (p: Parameter, value: string, previous?: string): string | undefined => {
  const label = labelOf(p)
  if (value === "" && p.type !== "list(string)") {
    return p.required ? `${label} is required.` : p.type === "string" ? undefined : `${label} needs a value.`
  }
  if (p.type === "number") {
    const n = Number(value)
    if (value.trim() === "" || !Number.isFinite(n)) return `${label} must be a number.`
    const custom = p.validation_error !== undefined && p.validation_error !== "" ? p.validation_error : undefined
    if (p.validation_min !== undefined && n < p.validation_min) {
      return custom ?? `${label} must be at least ${p.validation_min}.`
    }
    if (p.validation_max !== undefined && n > p.validation_max) {
      return custom ?? `${label} must be at most ${p.validation_max}.`
    }
    if (previous !== undefined && previous !== "" && Number.isFinite(Number(previous))) {
      const was = Number(previous)
      if (p.validation_monotonic === "increasing" && n < was) {
        return `${label} must be equal or greater than the previous value, ${previous}.`
      }
      if (p.validation_monotonic === "decreasing" && n > was) {
        return `${label} must be equal or lower than the previous value, ${previous}.`
      }
    }
  }
  if (p.type === "bool" && value !== "true" && value !== "false") return `${label} must be true or false.`
  let items: ReadonlyArray<string> = [value]
  if (p.type === "list(string)") {
    const list = listOf(value)
    if (list === undefined) return `${label} must be a list of strings.`
    if (list.length === 0 && p.required) return `${label} is required.`
    items = list
  }
  if (p.options.length > 0) {
    const allowed = new Set(p.options.map((o) => o.value))
    const bad = items.find((x) => !allowed.has(x))
    if (bad !== undefined) return `${label}: “${bad}” is not one of the options.`
  }
  if (p.type === "string" && p.validation_regex !== undefined && p.validation_regex !== "") {
    const re = pattern(p.validation_regex)
    if (re !== undefined && !re.test(value)) {
      return p.validation_error !== undefined && p.validation_error !== ""
        ? p.validation_error
        : `${label} must match ${p.validation_regex}.`
    }
  }
  return undefined
}

/** Every bad value, by parameter name. */
export const validateAll = (
  parameters: ReadonlyArray<Parameter>,
  values: Values,
  previous: ReadonlyArray<NameValue> = []
): Errors => {
  const was = new Map(previous.map((v) => [v.name, v.value]))
  const errors: Record<string, string> = {}
  for (const p of parameters) {
    const problem = validateValue(p, values[p.name] ?? "", was.get(p.name))
    if (problem !== undefined) errors[p.name] = problem
  }
  return errors
}

/**
 * The parameters of `parameters` the previous values do not answer: required ones without a
 * value, and values the (new) version's rules refuse. Ephemeral ones are asked at each build by
 * choice, never by need.
 */
export const unanswered = (parameters: ReadonlyArray<Parameter>, previous: ReadonlyArray<NameValue>) => {
  const was = new Map(previous.map((v) => [v.name, v.value]))
  return parameters.filter((p) => {
    if (p.ephemeral) return false
    const value = was.get(p.name)
    return value === undefined ? p.required : validateValue(p, value) !== undefined
  })
}

/** The values with `preset`'s filled in, and the names the preset sets. */
export const applyPreset = (values: Values, preset: Preset | undefined) => {
  if (preset === undefined) return { values, fixed: new Set<string>() }
  const next: Record<string, string> = { ...values }
  for (const p of preset.Parameters) next[p.Name] = p.Value
  return { values: next as Values, fixed: new Set(preset.Parameters.map((p) => p.Name)) }
}

/** The request's `rich_parameter_values`: one per parameter, in the parameters' order. */
export const toRequest = (parameters: ReadonlyArray<Parameter>, values: Values): Array<NameValue> =>
  parameters.map((p) => ({ name: p.name, value: values[p.name] ?? "" }))

/**
 * The service's validations on the fields of this form: `rich_parameter_values.<name>` to the
 * parameter's name, other fields (`name`) as they are. What matches no field stays in `rest`.
 */
export const serverErrors = (
  validations: ReadonlyArray<{ field: string; detail: string }>,
  fields: ReadonlyArray<string>
) => {
  const known = new Set(fields)
  const errors: Record<string, string> = {}
  const rest: Array<{ field: string; detail: string }> = []
  for (const v of validations) {
    const field = v.field.startsWith("rich_parameter_values.")
      ? v.field.slice("rich_parameter_values.".length)
      : v.field
    if (known.has(field)) errors[field] = errors[field] === undefined ? v.detail : `${errors[field]} ${v.detail}`
    else rest.push(v)
  }
  return { errors: errors as Errors, rest }
}

/** A workspace name as the service takes it: letters and digits, single dashes between, at most 32. */
export const validateName = (name: string): string | undefined => {
  if (name === "") return "Name is required."
  if (name.length > 32) return "Name must be at most 32 characters."
  if (!/^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/.test(name)) {
    return "Name must be letters and digits, with single dashes between them."
  }
  return undefined
}
