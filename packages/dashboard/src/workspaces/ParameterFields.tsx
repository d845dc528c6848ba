/**
 * A template version's rich parameters as form controls, controlled by the caller (`values`,
 * `onChange`): a text box for strings (a list of lines for a list(string) without options), a
 * number box for numbers, a checkbox for bools, radio buttons (up to four options, or when the
 * template asks for them) or a select for options, checkboxes for a list(string) with options.
 * Each control is named by the parameter's label and described by its description, its notes
 * (immutable, ephemeral, set by the preset) and its error, which is announced.
 */
import { useId } from "react"
import type { Parameter } from "./api.ts"
import { type Errors, labelOf, listOf, type Values } from "./parameters.ts"

export const ParameterFields = (props: {
  readonly parameters: ReadonlyArray<Parameter>
  readonly values: Values
  readonly errors: Errors
  /** Notes that are not errors (the service's warnings), by name. */
  readonly warnings?: Errors
  /** Names whose value is fixed (by the chosen preset). */
  readonly fixed?: ReadonlySet<string>
  /** Names that cannot change (immutable parameters of a workspace that has their value). */
  readonly locked?: ReadonlySet<string>
  readonly onChange: (name: string, value: string) => void
  /** A control lost focus (the form then shows its error). */
  readonly onBlur?: (name: string) => void
}) => (
  <>
    {props.parameters.map((p) => (
      <ParameterField
        key={p.name}
        parameter={p}
        value={props.values[p.name] ?? ""}
        error={props.errors[p.name]}
        warning={props.warnings?.[p.name]}
        fixed={props.fixed?.has(p.name) === true}
        locked={props.locked?.has(p.name) === true}
        onChange={(v) => props.onChange(p.name, v)}
        onBlur={() => props.onBlur?.(p.name)}
      />
    ))}
  </>
)

const notesOf = (p: Parameter, fixed: boolean, locked: boolean) => {
  const notes: Array<string> = []
  if (p.required) notes.push("Required.")
  if (fixed) notes.push("Set by the preset.")
  if (locked) notes.push("Cannot be changed after the workspace is created.")
  else if (!p.mutable) notes.push("Cannot be changed once the workspace is created.")
  if (p.ephemeral) notes.push("Ephemeral: used for this build only.")
  if (p.validation_min !== undefined || p.validation_max !== undefined) {
    notes.push(
      `From ${p.validation_min ?? "any"} to ${p.validation_max ?? "any"}${
        p.validation_monotonic !== undefined ? `, ${p.validation_monotonic} only` : ""
      }.`
    )
  }
  return notes.join(" ")
}

const ParameterField = ({ parameter: p, value, error, warning, fixed, locked, onChange, onBlur }: {
  parameter: Parameter
  value: string
  error: string | undefined
  warning: string | undefined
  fixed: boolean
  locked: boolean
  onChange: (value: string) => void
  onBlur: () => void
}) => {
  const id = useId()
  const label = labelOf(p)
  const description = p.description_plaintext !== "" ? p.description_plaintext : p.description
  const notes = notesOf(p, fixed, locked)
  const describedBy = [
    description !== "" ? `${id}-description` : undefined,
    notes !== "" ? `${id}-notes` : undefined,
    warning !== undefined ? `${id}-warning` : undefined,
    error !== undefined ? `${id}-error` : undefined
  ].filter((x) => x !== undefined).join(" ") || undefined
  const common = {
    "aria-describedby": describedBy,
    "aria-invalid": error !== undefined ? true : undefined,
    disabled: fixed || locked,
    onBlur
  }
  const useRadios = p.form_type === "radio" || (p.form_type !== "dropdown" && p.options.length <= 4)
  const grouped = p.options.length > 0 && (useRadios || p.type === "list(string)")
  let control
  if (p.options.length > 0 && p.type === "list(string)") {
    const chosen = new Set(listOf(value) ?? [])
    control = p.options.map((o) => (
      <label key={o.value} className="choice">
        <input
          type="checkbox"
          name={p.name}
          value={o.value}
          checked={chosen.has(o.value)}
          {...common}
          onChange={(e) => {
            const next = p.options.map((x) => x.value).filter((v) =>
              v === o.value ? e.currentTarget.checked : chosen.has(v)
            )
            onChange(JSON.stringify(next))
          }}
        />
        {o.name}
      </label>
    ))
  } else if (p.options.length > 0 && useRadios) {
    control = p.options.map((o) => (
      <label key={o.value} className="choice">
        <input
          type="radio"
          name={p.name}
          value={o.value}
          checked={value === o.value}
          {...common}
          onChange={() => onChange(o.value)}
        />
        {o.name}
        {o.description !== "" ? <span className="hint">{o.description}</span> : null}
      </label>
    ))
  } else if (p.options.length > 0) {
    control = (
      <select id={id} name={p.name} value={value} {...common} onChange={(e) => onChange(e.currentTarget.value)}>
        {p.options.some((o) => o.value === value) ? null : <option value={value}>Choose…</option>}
        {p.options.map((o) => <option key={o.value} value={o.value}>{o.name}</option>)}
      </select>
    )
  } else if (p.type === "bool") {
    control = (
      <label className="choice">
        <input
          type="checkbox"
          id={id}
          name={p.name}
          checked={value === "true"}
          {...common}
          onChange={(e) => onChange(e.currentTarget.checked ? "true" : "false")}
        />
        {label}
      </label>
    )
  } else if (p.type === "list(string)") {
    control = (
      <textarea
        id={id}
        name={p.name}
        rows={3}
        value={(listOf(value) ?? []).join("\n")}
        {...common}
        onChange={(e) => onChange(JSON.stringify(e.currentTarget.value.split("\n").filter((l) => l !== "")))}
      />
    )
  } else {
    control = (
      <input
        id={id}
        name={p.name}
        type={p.type === "number" ? "number" : "text"}
        inputMode={p.type === "number" ? "decimal" : undefined}
        value={value}
        {...common}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    )
  }
  const extra = (
    <>
      {description !== "" ? <p id={`${id}-description`} className="hint">{description}</p> : null}
      {notes !== "" ? <p id={`${id}-notes`} className="hint">{notes}</p> : null}
      {warning !== undefined ? <p id={`${id}-warning`} className="hint warning">{warning}</p> : null}
      {error !== undefined ? <p id={`${id}-error`} role="alert" className="error field-error">{error}</p> : null}
    </>
  )
  if (grouped || p.type === "bool") {
    return (
      <fieldset className="field parameter" aria-describedby={describedBy}>
        <legend>{label}</legend>
        <div className="choices">{control}</div>
        {extra}
      </fieldset>
    )
  }
  return (
    <div className="field parameter">
      <label htmlFor={id}>{label}</label>
      {control}
      {extra}
    </div>
  )
}
