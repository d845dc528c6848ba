/**
 * The template variables' form, one field per variable (text, number, a password field for a
 * sensitive one, a checkbox for a bool; the required ones marked and checked before sending), and
 * what the pages that use it share: which variables an import that failed for want of required ones
 * asks for (`REQUIRED_TEMPLATE_VARIABLES`), the values to import with, and each failure's message
 * on its field. Used after a failed import, as the variables step of a new template
 * (CreateTemplate.tsx) and on a template's Variables page (Variables.tsx).
 */
import { type FormEvent, useId, useState } from "react"
import { ApiError } from "../api/client.ts"
import type { TemplateVariable, TemplateVersion, VariableValue } from "./api.ts"

const MISSING = /Required template variables need values: (.+?)\.?$/m

/** The names of the required variables a failed import's error says have no value. */
const missingNames = (error: string | undefined) =>
  MISSING.exec(error ?? "")?.[1]?.split(",").map((n) => n.trim()).filter((n) => n !== "") ?? []

/**
 * The variables to ask for after a failed import: the version's own (`GET .../variables`), and
 * the required ones its error names that the service did not list (it lists none for a failed
 * import: those are read from the message, as plain required strings).
 */
export const variablesToAsk = (
  version: Pick<TemplateVersion, "job">,
  listed: ReadonlyArray<TemplateVariable>
): ReadonlyArray<TemplateVariable> => {
  const known = new Set(listed.map((v) => v.name))
  return [
    ...listed,
    ...missingNames(version.job.error).filter((n) => !known.has(n)).map((name): TemplateVariable => ({
      name,
      description: "",
      type: "string",
      value: "",
      default_value: "",
      required: true,
      sensitive: false
    }))
  ]
}

/**
 * The values of the form's fields for `variables`, or one message per bad field: a required
 * variable left empty, a number that is not one. A checkbox (a bool) is always "true" or "false".
 * With `keepSecrets`, a sensitive field left empty is no value and no error: the field never
 * shows the value the variable has, which the service keeps (the template's active version's).
 */
export const variableValues = (
  variables: ReadonlyArray<TemplateVariable>,
  read: (name: string) => string | null,
  keepSecrets = false
): { values: Array<VariableValue>; errors: Record<string, string> } => {
  const values: Array<VariableValue> = []
  const errors: Record<string, string> = {}
  for (const v of variables) {
    const raw = read(v.name)
    const value = v.type === "bool" ? (raw === null ? "false" : "true") : (raw ?? "").trim()
    if (value === "") {
      if (v.required && !(keepSecrets && v.sensitive)) errors[v.name] = "A value is required."
      // Left empty and optional: the default applies.
      continue
    }
    if (v.type === "number" && !Number.isFinite(Number(value))) {
      errors[v.name] = "Must be a number."
      continue
    }
    values.push({ name: v.name, value })
  }
  return { values, errors }
}

/**
 * The values to import with: the fields' `chosen` ones, and the value `given` before for each
 * sensitive variable whose field was left empty (the field never shows it).
 */
export const withKeptSecrets = (
  variables: ReadonlyArray<TemplateVariable>,
  chosen: ReadonlyArray<VariableValue>,
  given: ReadonlyArray<VariableValue>
): Array<VariableValue> => {
  const named = new Set(chosen.map((v) => v.name))
  const sensitive = new Set(variables.filter((v) => v.sensitive).map((v) => v.name))
  return [...chosen, ...given.filter((v) => sensitive.has(v.name) && !named.has(v.name))]
}

/** Whether importing with `next` gives any variable another value than `previous` did (absent: the default). */
export const changesValues = (
  variables: ReadonlyArray<TemplateVariable>,
  previous: ReadonlyArray<VariableValue>,
  next: ReadonlyArray<VariableValue>
) => {
  const before = new Map(previous.map((v) => [v.name, v.value]))
  const after = new Map(next.map((v) => [v.name, v.value]))
  return variables.some((v) => (before.get(v.name) ?? v.default_value) !== (after.get(v.name) ?? v.default_value))
}

/**
 * Each variable's message from a failed import of `version` made with the values `sent`: the
 * required ones its error names, the one whose value the provisioner refused (`The value of
 * template variable "cpus" must be a number.`); and the service's refusal of the request itself
 * (`error`: a validation of `user_variable_values.N`).
 */
export const variableErrors = (
  version: Pick<TemplateVersion, "job"> | undefined,
  error: Error | null,
  sent: ReadonlyArray<VariableValue>
): Record<string, string> => {
  const errors: Record<string, string> = {}
  if (error instanceof ApiError) {
    for (const v of error.validations) {
      const i = /^user_variable_values\.(\d+)\./.exec(v.field)?.[1]
      const name = i === undefined ? undefined : sent[Number(i)]?.name
      if (name !== undefined) errors[name] = v.detail
    }
  }
  if (version !== undefined && version.job.status === "failed") {
    const message = version.job.error ?? ""
    for (const name of missingNames(message)) errors[name] = "A value is required."
    for (const line of message.split("\n")) {
      const name = /template variable "([^"]+)"/.exec(line)?.[1]
      if (name !== undefined) errors[name] = line.trim()
    }
  }
  return errors
}

/** A variable's field as the form first shows it: the value given, else its value, else its default; a secret never. */
const initialValue = (v: TemplateVariable, given: ReadonlyMap<string, string>) =>
  given.get(v.name) ?? (v.sensitive ? "" : v.value !== "" ? v.value : v.default_value)

/** One field per variable; `onSubmit` gets the values once every field is good. */
export const VariablesForm = (props: {
  readonly variables: ReadonlyArray<TemplateVariable>
  /** The values given last time (shown again, secrets included: this person typed them). */
  readonly given?: ReadonlyArray<VariableValue>
  readonly busy?: boolean
  /** What the form is for, under its heading. */
  readonly intro?: string
  /** The submit button's text. */
  readonly action?: string
  /** Under a sensitive field: what leaving it empty does. */
  readonly sensitiveNote?: string
  /** A sensitive field left empty keeps the variable's value (see `variableValues`). */
  readonly keepSecrets?: boolean
  /** Messages for fields from elsewhere (the service's, a failed import's). */
  readonly errors?: Readonly<Record<string, string>>
  /** Its heading's level: 3 under a page's own `h2`. */
  readonly level?: 2 | 3
  readonly onSubmit: (values: Array<VariableValue>) => void
}) => {
  const Heading = props.level === 3 ? "h3" : "h2"
  const [checked, setChecked] = useState<Record<string, string>>({})
  const prefix = useId()
  const given = new Map((props.given ?? []).map((v) => [v.name, v.value]))
  const errors = { ...props.errors, ...checked }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const read = (name: string) => {
      const v = data.get(`var.${name}`)
      return v === null ? null : String(v)
    }
    const result = variableValues(props.variables, read, props.keepSecrets)
    setChecked(result.errors)
    if (Object.keys(result.errors).length === 0) props.onSubmit(result.values)
  }
  const bad = props.variables.map((v) => v.name).filter((name) => errors[name] !== undefined)
  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${prefix}-title`}>
      <Heading id={`${prefix}-title`}>Template variables</Heading>
      <p className="hint">{props.intro ?? "The import needs values for these variables."}</p>
      {bad.length > 0
        ? (
          <div role="alert" className="error">
            <p>Check the variables:</p>
            <ul>
              {bad.map((name) => <li key={name}>{name}: {errors[name]}</li>)}
            </ul>
          </div>
        )
        : null}
      {props.variables.map((v) => {
        const id = `${prefix}-${v.name}`
        const initial = initialValue(v, given)
        const note = v.sensitive && props.sensitiveNote !== undefined ? props.sensitiveNote : ""
        const hint = [v.description, note].filter((s) => s !== "").join(" ")
        const described = [hint !== "" ? `${id}-hint` : "", errors[v.name] ? `${id}-error` : ""]
          .filter((s) => s !== "").join(" ")
        const common = {
          id,
          name: `var.${v.name}`,
          disabled: props.busy,
          "aria-invalid": errors[v.name] !== undefined,
          "aria-describedby": described === "" ? undefined : described
        }
        return (
          <div className={v.type === "bool" ? "field check" : "field"} key={v.name}>
            {v.type === "bool"
              ? (
                <label htmlFor={id}>
                  <input {...common} type="checkbox" defaultChecked={initial === "true"} /> {v.name}
                </label>
              )
              : (
                <>
                  <label htmlFor={id}>
                    {v.name}
                    {v.required ? " (required)" : ""}
                  </label>
                  <input
                    {...common}
                    type={v.sensitive ? "password" : v.type === "number" ? "number" : "text"}
                    required={v.required && !(props.keepSecrets === true && v.sensitive)}
                    defaultValue={initial}
                    placeholder={v.sensitive || v.default_value === "" ? undefined : v.default_value}
                    autoComplete={v.sensitive ? "new-password" : "off"}
                  />
                </>
              )}
            {hint !== "" ? <p id={`${id}-hint`} className="hint">{hint}</p> : null}
            {errors[v.name] ? <p id={`${id}-error`} className="error field-error">{errors[v.name]}</p> : null}
          </div>
        )
      })}
      <button type="submit" disabled={props.busy}>{props.action ?? "Import with these values"}</button>
    </form>
  )
}
