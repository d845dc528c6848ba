/**
 * The templates area's form fields: labelled, with a hint, and with the service's message for
 * the field (one of its validations) shown under it and tied to it (`aria-describedby`,
 * `aria-invalid`).
 */
import type { ReactNode } from "react"

const describedBy = (name: string, hint: unknown, error: unknown) =>
  [hint === undefined ? "" : `${name}-hint`, error === undefined ? "" : `${name}-error`].filter((s) => s !== "")
    .join(" ") || undefined

const Under = ({ name, hint, error }: { name: string; hint?: ReactNode; error?: string | undefined }) => (
  <>
    {hint === undefined ? null : <p id={`${name}-hint`} className="hint">{hint}</p>}
    {error === undefined ? null : <p id={`${name}-error`} className="error field-error">{error}</p>}
  </>
)

export const TextField = (props: {
  readonly label: string
  readonly name: string
  readonly defaultValue?: string
  readonly type?: "text" | "number" | "url"
  readonly required?: boolean
  readonly hint?: ReactNode
  readonly error?: string | undefined
  readonly multiline?: boolean
  readonly step?: string
  /** The id of a `<datalist>` of suggestions. */
  readonly list?: string
}) => {
  const common = {
    id: props.name,
    name: props.name,
    defaultValue: props.defaultValue,
    required: props.required ?? false,
    "aria-invalid": props.error !== undefined,
    "aria-describedby": describedBy(props.name, props.hint, props.error)
  }
  return (
    <div className="field">
      <label htmlFor={props.name}>{props.label}</label>
      {props.multiline === true
        ? <textarea {...common} rows={3} />
        : <input {...common} type={props.type ?? "text"} step={props.step} list={props.list} />}
      <Under name={props.name} hint={props.hint} error={props.error} />
    </div>
  )
}

export const CheckField = (props: {
  readonly label: string
  readonly name: string
  readonly defaultChecked: boolean
  readonly hint?: ReactNode
  readonly error?: string | undefined
}) => (
  <div className="field check">
    <label htmlFor={props.name}>
      <input
        id={props.name}
        name={props.name}
        type="checkbox"
        defaultChecked={props.defaultChecked}
        aria-invalid={props.error !== undefined}
        aria-describedby={describedBy(props.name, props.hint, props.error)}
      />{" "}
      {props.label}
    </label>
    <Under name={props.name} hint={props.hint} error={props.error} />
  </div>
)

/** The service's message for a field that is not one input (a group of checkboxes), by the field's name. */
export const FieldMessage = ({ id, error }: { id: string; error?: string | undefined }) =>
  error === undefined ? null : <p id={`${id}-error`} className="error field-error" role="alert">{error}</p>
