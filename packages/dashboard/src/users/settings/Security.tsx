import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useNavigate } from "react-router"
import { ErrorMessage, Field } from "../../ui/Form.tsx"
import { settingsApi } from "./api.ts"
import { SettingsHeader } from "./Settings.tsx"

/**
 * The password: the old one, the new one twice (`PUT /users/me/password`). The service ends every
 * session of the user on a change, this one too: then the sign-in page, saying so.
 */
export const SecurityPage = () => {
  const [mismatch, setMismatch] = useState(false)
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const change = useMutation({
    mutationFn: settingsApi.updatePassword,
    onSuccess: () => {
      queryClient.clear()
      navigate("/login", { replace: true, state: { passwordChanged: true } })
    }
  })
  return (
    <>
      <SettingsHeader
        title="Security"
        description="Change the password you sign in with. You will be signed out everywhere, here too."
      />
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const data = new FormData(e.currentTarget)
          const password = String(data.get("password"))
          const same = password === String(data.get("confirm_password"))
          setMismatch(!same)
          if (!same) return
          change.mutate({ old_password: String(data.get("old_password")), password })
        }}
      >
        <Field label="Old password" name="old_password" type="password" autoComplete="current-password" />
        <Field label="New password" name="password" type="password" autoComplete="new-password" />
        <Field label="Confirm new password" name="confirm_password" type="password" autoComplete="new-password" />
        {mismatch ? <ErrorMessage error={new Error("The new passwords do not match.")} /> : null}
        <ErrorMessage error={change.error} />
        <div className="actions">
          <button type="submit" disabled={change.isPending}>Update password</button>
        </div>
      </form>
    </>
  )
}
