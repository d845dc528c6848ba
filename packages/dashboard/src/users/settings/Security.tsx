import { useMutation } from "@tanstack/react-query"
import { useState } from "react"
import { ErrorMessage, Field } from "../../ui/Form.tsx"
import { settingsApi } from "./api.ts"
import { SettingsHeader } from "./Settings.tsx"

/** The password: the old one, the new one twice (`PUT /users/me/password`). */
export const SecurityPage = () => {
  const [mismatch, setMismatch] = useState(false)
  const change = useMutation({ mutationFn: settingsApi.updatePassword })
  return (
    <>
      <SettingsHeader title="Security" description="Change the password you sign in with." />
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const data = new FormData(form)
          const password = String(data.get("password"))
          const same = password === String(data.get("confirm_password"))
          setMismatch(!same)
          if (!same) return
          change.mutate({ old_password: String(data.get("old_password")), password }, {
            onSuccess: () => form.reset()
          })
        }}
      >
        <Field label="Old password" name="old_password" type="password" autoComplete="current-password" />
        <Field label="New password" name="password" type="password" autoComplete="new-password" />
        <Field label="Confirm new password" name="confirm_password" type="password" autoComplete="new-password" />
        {mismatch ? <ErrorMessage error={new Error("The new passwords do not match.")} /> : null}
        <ErrorMessage error={change.error} />
        <div className="actions">
          <button type="submit" disabled={change.isPending}>Update password</button>
          <p role="status" className="done">{change.isSuccess ? "Password updated." : ""}</p>
        </div>
      </form>
    </>
  )
}
