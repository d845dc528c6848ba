/**
 * A button that asks before it acts: it opens a modal dialog (the browser's `<dialog>`, which
 * traps focus and closes on Escape) naming what will happen, with the confirming button and
 * Cancel. For deletions and other changes that cannot be undone. With `typeToConfirm`, the
 * confirming button stays disabled until that text (a workspace's name, say) is typed.
 */
import { type ReactNode, useId, useRef, useState } from "react"

export const ConfirmButton = (props: {
  /** The button's text (and accessible name). */
  readonly label: string
  /** The dialog's title. */
  readonly title: string
  /** What will happen, in the dialog. */
  readonly children: ReactNode
  /** The confirming button's text (defaults to the label). */
  readonly confirm?: string
  readonly disabled?: boolean
  readonly danger?: boolean
  readonly onConfirm: () => void
  /** What must be typed to confirm (the described system asks for a workspace's name). */
  readonly typeToConfirm?: string
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const typedId = useId()
  const [typed, setTyped] = useState("")
  const confirmed = props.typeToConfirm === undefined || typed === props.typeToConfirm
  return (
    <>
      <button
        type="button"
        className={props.danger === true ? "danger" : undefined}
        disabled={props.disabled}
        onClick={() => {
          setTyped("")
          dialog.current?.showModal()
        }}
      >
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} className="confirm">
        <h2 id={titleId}>{props.title}</h2>
        <div>{props.children}</div>
        {props.typeToConfirm === undefined ? null : (
          <div className="field">
            <label htmlFor={typedId}>Type “{props.typeToConfirm}” to confirm</label>
            <input id={typedId} value={typed} autoComplete="off" onChange={(e) => setTyped(e.currentTarget.value)} />
          </div>
        )}
        <form method="dialog" className="actions">
          <button type="submit" value="cancel" className="secondary">Cancel</button>
          <button
            type="submit"
            value="confirm"
            className={props.danger === true ? "danger" : undefined}
            disabled={!confirmed}
            onClick={() => props.onConfirm()}
          >
            {props.confirm ?? props.label}
          </button>
        </form>
      </dialog>
    </>
  )
}
