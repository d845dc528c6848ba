/**
 * The template variables' form: what an import that failed for want of required variables
 * (`REQUIRED_TEMPLATE_VARIABLES`) asks the template's author for, before the version is created
 * again with `user_variable_values`.
 */
import { type FormEvent, useId, useState } from "react"
import type { TemplateVariable, TemplateVersion, VariableValue } from "./api.ts"

const MISSING = /Required template variables need values: (.+?)\.?$/m

/**
 * The variables to ask for after a failed import: the version's own (`GET .../variables`), and
 * the required ones its error names that the service did not list (it lists none for a failed
 * import: those are read from the message, as plain required strings).
 */
export const variablesToAsk = (
  version: Pick<TemplateVersion, "job">,
  listed: ReadonlyArray<TemplateVariable>
): ReadonlyArray<TemplateVariable> => {
  const named = MISSING.exec(version.job.error ?? "")?.[1]?.split(",").map((n) => n.trim()).filter((n) => n !== "") ??
    []
  const known = new Set(listed.map((v) => v.name))
  return [
    ...listed,
    ...named.filter((n) => !known.has(n)).map((name): TemplateVariable => ({
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
 */
export const variableValues = (
  variables: ReadonlyArray<TemplateVariable>,
  read: (name: string) => string | null
): { values: Array<VariableValue>; errors: Record<string, string> } => {
  const values: Array<VariableValue> = []
  const errors: Record<string, string> = {}
  for (const v of variables) {
    const raw = read(v.name)
    const value = v.type === "bool" ? (raw === null ? "false" : "true") : (raw ?? "").trim()
    if (value === "") {
      if (v.required) errors[v.name] = "A value is required."
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

/** One field per variable; `onSubmit` gets the values once every field is good. */
export const VariablesForm = (props: {
  readonly variables: ReadonlyArray<TemplateVariable>
  /** The values given last time (kept when the form is shown again). */
  readonly given?: ReadonlyArray<VariableValue>
  readonly busy?: boolean
  readonly onSubmit: (values: Array<VariableValue>) => void
}) => {
  const [errors, setErrors] = useState<Record<string, string>>({})
  const prefix = useId()
  const given = new Map((props.given ?? []).map((v) => [v.name, v.value]))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const read = (name: string) => {
      const v = data.get(`var.${name}`)
      return v === null ? null : String(v)
    }
    const result = variableValues(props.variables, read)
    setErrors(result.errors)
    if (Object.keys(result.errors).length === 0) props.onSubmit(result.values)
  }
  const bad = Object.keys(errors)
  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>Template variables</h2>
      <p className="hint">The import needs values for these variables.</p>
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
        const initial = given.get(v.name) ?? (v.sensitive ? "" : v.value !== "" ? v.value : v.default_value)
        const described = [v.description !== "" ? `${id}-hint` : "", errors[v.name] ? `${id}-error` : ""]
          .filter((s) => s !== "").join(" ")
        const common = {
          id,
          name: `var.${v.name}`,
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
                    required={v.required}
                    defaultValue={initial}
                    autoComplete="off"
                  />
                </>
              )}
            {v.description !== "" ? <p id={`${id}-hint`} className="hint">{v.description}</p> : null}
            {errors[v.name] ? <p id={`${id}-error`} className="error">{errors[v.name]}</p> : null}
          </div>
        )
      })}
      <button type="submit" disabled={props.busy}>Import with these values</button>
    </form>
  )
}
