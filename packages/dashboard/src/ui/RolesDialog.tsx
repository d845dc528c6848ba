/**
 * "Edit roles": a button opening a modal dialog (the browser's `<dialog>`) with one checkbox per
 * role the caller may assign, the current ones checked; Save sends the checked names.
 */
import { useId, useRef } from "react"

export interface RoleChoice {
  readonly name: string
  readonly display_name: string
  readonly assignable: boolean
}

export const RolesButton = (props: {
  /** Whose roles (in the dialog's title and the button's accessible name). */
  readonly who: string
  readonly roles: ReadonlyArray<RoleChoice>
  readonly current: ReadonlyArray<string>
  readonly disabled?: boolean
  readonly onSave: (roles: Array<string>) => void
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const formId = useId()
  return (
    <>
      <button
        type="button"
        className="secondary"
        aria-label={`Edit roles of ${props.who}`}
        disabled={props.disabled}
        onClick={() => dialog.current?.showModal()}
      >
        Edit roles
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} className="confirm">
        <h2 id={titleId}>Roles of {props.who}</h2>
        <form
          id={formId}
          method="dialog"
          key={props.current.join(",")}
          onSubmit={(e) => {
            const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null
            if (submitter?.value !== "save") return
            props.onSave([...new FormData(e.currentTarget).getAll("role")].map(String))
          }}
        >
          <fieldset>
            <legend>Roles</legend>
            {props.roles.map((r) => (
              <label key={r.name} className="check">
                <input
                  type="checkbox"
                  name="role"
                  value={r.name}
                  defaultChecked={props.current.includes(r.name)}
                  disabled={!r.assignable}
                />
                {r.display_name || r.name}
              </label>
            ))}
          </fieldset>
          <div className="actions">
            <button type="submit" value="cancel" className="secondary">Cancel</button>
            <button type="submit" value="save">Save roles</button>
          </div>
        </form>
      </dialog>
    </>
  )
}
