/**
 * The workspace's settings, as the described system's workspace settings page has them: its name
 * (`PATCH /workspaces/{id}` `{name}`; the page then moves to the new address), automatic updates
 * (`PUT /workspaces/{id}/autoupdates`: "always" updates to the active version at each start), and
 * dormancy: a dormant workspace says since when and when it will be deleted, and "Activate" wakes
 * it (`PUT /workspaces/{id}/dormant` `{dormant: false}`).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useId, useState } from "react"
import { useNavigate } from "react-router"
import { ApiError } from "../api/client.ts"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { type Workspace, workspacesApi as api } from "./api.ts"
import { workspacePath } from "./hooks.ts"
import { validateName } from "./parameters.ts"
import { workspaceKeys } from "./queries.ts"

export const WorkspaceSettings = ({ workspace: w }: { workspace: Workspace }) => {
  const id = useId()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [name, setName] = useState(w.name)
  const [updates, setUpdates] = useState(w.automatic_updates)
  const nameError = name === w.name ? undefined : validateName(name)
  const rename = useMutation({
    mutationFn: () => api.rename(w.id, name),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: workspaceKeys.lists })
      navigate(workspacePath(w.owner_name, name), { replace: true })
    }
  })
  const autoUpdates = useMutation({
    mutationFn: (value: "always" | "never") => api.autoUpdates(w.id, value)
  })
  const activate = useMutation({ mutationFn: () => api.dormant(w.id, false) })
  const serverNameError = rename.error instanceof ApiError
    ? rename.error.validations.find((v) => v.field === "name")?.detail
    : undefined
  const shownNameError = nameError ?? serverNameError
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      {w.dormant_at !== null
        ? (
          <div role="status" aria-label="Dormancy" className="notice">
            <p>
              Dormant since <Time value={w.dormant_at} />
              {w.deleting_at !== null
                ? (
                  <>
                    ; it will be deleted <Time value={w.deleting_at} />
                  </>
                )
                : null}. A dormant workspace cannot be started until it is activated.
            </p>
            <button type="button" disabled={activate.isPending} onClick={() => activate.mutate()}>Activate</button>
            <ErrorMessage error={activate.error} />
          </div>
        )
        : null}
      <form
        className="inline-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          if (name !== w.name && nameError === undefined) rename.mutate()
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-name`}>Workspace name</label>
          <input
            id={`${id}-name`}
            value={name}
            autoComplete="off"
            aria-invalid={shownNameError !== undefined ? true : undefined}
            aria-describedby={shownNameError !== undefined ? `${id}-name-error` : undefined}
            onChange={(e) => {
              setName(e.currentTarget.value)
              rename.reset()
            }}
          />
          {shownNameError !== undefined
            ? <p id={`${id}-name-error`} role="alert" className="error field-error">{shownNameError}</p>
            : null}
        </div>
        <button type="submit" disabled={rename.isPending || name === w.name}>Rename</button>
      </form>
      {rename.error !== null && serverNameError === undefined ? <ErrorMessage error={rename.error} /> : null}
      <div className="field">
        <label htmlFor={`${id}-updates`}>Automatic updates</label>
        <select
          id={`${id}-updates`}
          value={updates}
          onChange={(e) => {
            const value = e.currentTarget.value === "always" ? "always" : "never"
            setUpdates(value)
            autoUpdates.mutate(value)
          }}
        >
          <option value="never">Never: stay on this version until updated</option>
          <option value="always">Always: start on the template's active version</option>
        </select>
      </div>
      <ErrorMessage error={autoUpdates.error} />
    </section>
  )
}
