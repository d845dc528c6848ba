/**
 * A button that asks before it acts: it opens a modal dialog (the browser's `<dialog>`, which
 * traps focus and closes on Escape) naming what will happen, with the confirming button and
 * Cancel. For deletions and other changes that cannot be undone.
 */
import { type ReactNode, useId, useRef } from "react"

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
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  return (
    <>
      <button
        type="button"
        className={props.danger === true ? "danger" : undefined}
        disabled={props.disabled}
        onClick={() => dialog.current?.showModal()}
      >
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} className="confirm">
        <h2 id={titleId}>{props.title}</h2>
        <div>{props.children}</div>
        <form method="dialog" className="actions">
          <button type="submit" value="cancel" className="secondary">Cancel</button>
          <button
            type="submit"
            value="confirm"
            className={props.danger === true ? "danger" : undefined}
            onClick={() => props.onConfirm()}
          >
            {props.confirm ?? props.label}
          </button>
        </form>
      </dialog>
    </>
  )
}
