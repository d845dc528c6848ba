/**
 * A secret shown once (an API token, an OAuth2 client secret, a proxy token): a titled box with
 * the secret in a read-only field named `label` (selected on focus), Copy (announced) and Done,
 * which calls `onDone` so the caller forgets the secret.
 */
import { type ReactNode, useId, useState } from "react"

export const SecretOnce = (props: {
  readonly title: string
  readonly label: string
  readonly secret: string
  readonly onDone: () => void
  /** What to do with it (default: copy it now). */
  readonly children?: ReactNode
  readonly level?: 2 | 3
}) => {
  const id = useId()
  const [copied, setCopied] = useState(false)
  const Heading = props.level === 3 ? "h3" : "h2"
  return (
    <section className="secret" aria-labelledby={id}>
      <Heading id={id}>{props.title}</Heading>
      {props.children ?? <p>Copy it now: it will not be shown again.</p>}
      <div className="row">
        <input aria-label={props.label} readOnly value={props.secret} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          onClick={() => void navigator.clipboard?.writeText(props.secret).then(() => setCopied(true))}
        >
          Copy
        </button>
        <button type="button" className="secondary" onClick={props.onDone}>Done</button>
      </div>
      <p role="status">{copied ? "Copied." : ""}</p>
    </section>
  )
}
