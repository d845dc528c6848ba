import type { ReactNode } from "react"
import { ApiError } from "../api/client.ts"

/** A labelled input (the label names it for assistive technology). */
export const Field = (
  props: { label: string; name: string; type?: string; autoComplete?: string; required?: boolean; hint?: string }
) => (
  <div className="field">
    <label htmlFor={props.name}>{props.label}</label>
    <input
      id={props.name}
      name={props.name}
      type={props.type ?? "text"}
      autoComplete={props.autoComplete}
      required={props.required ?? true}
      aria-describedby={props.hint === undefined ? undefined : `${props.name}-hint`}
    />
    {props.hint === undefined ? null : <p id={`${props.name}-hint`} className="hint">{props.hint}</p>}
  </div>
)

/** The service's message (and detail, and one line per bad field) for a failed request, announced. */
export const ErrorMessage = ({ error }: { error: Error | null }) =>
  error === null ? null : (
    <div role="alert" className="error">
      <p>
        {error.message}
        {error instanceof ApiError && error.detail !== undefined && error.detail !== "" ? `: ${error.detail}` : ""}
      </p>
      {error instanceof ApiError && error.validations.length > 0
        ? (
          <ul>
            {error.validations.map((v) => <li key={v.field}>{v.field}: {v.detail}</li>)}
          </ul>
        )
        : null}
    </div>
  )

/** The centered card of the signed-out pages. */
export const Card = ({ title, children }: { title: string; children: ReactNode }) => (
  <main className="card" id="main">
    <h1>{title}</h1>
    {children}
  </main>
)

export const formValues = (form: HTMLFormElement) =>
  Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)])) as Record<string, string>
