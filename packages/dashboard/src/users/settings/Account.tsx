import { useMutation, useQueryClient } from "@tanstack/react-query"
import { ErrorMessage } from "../../ui/Form.tsx"
import { userKeys } from "../queries.ts"
import { useMe } from "../session.ts"
import { settingsApi } from "./api.ts"
import { SettingsHeader } from "./Settings.tsx"

/** The profile: username and full name (`PUT /users/me/profile`); the email is shown, not edited. */
export const AccountPage = () => {
  const me = useMe()
  const queryClient = useQueryClient()
  const save = useMutation({
    mutationFn: settingsApi.updateProfile,
    onSuccess: (user) => queryClient.setQueryData(userKeys.me, user)
  })
  const user = me.data
  if (user === undefined || user === null) return <p role="status">Loading…</p>
  return (
    <>
      <SettingsHeader title="Account" description="Your name and username, as others see them." />
      <form
        // A new form after a save, so its fields start from the saved values.
        key={`${user.username}/${user.name ?? ""}`}
        onSubmit={(e) => {
          e.preventDefault()
          const data = new FormData(e.currentTarget)
          save.mutate({ username: String(data.get("username")), name: String(data.get("name")) })
        }}
      >
        <div className="field">
          <label htmlFor="email">Email</label>
          <input id="email" value={user.email} readOnly aria-readonly="true" />
        </div>
        <div className="field">
          <label htmlFor="username">Username</label>
          <input
            id="username"
            name="username"
            defaultValue={user.username}
            required
            autoComplete="username"
            aria-describedby="username-hint"
          />
          <p id="username-hint" className="hint">Letters, digits and single dashes. Changing it takes a user admin.</p>
        </div>
        <div className="field">
          <label htmlFor="name">Full name</label>
          <input id="name" name="name" defaultValue={user.name ?? ""} autoComplete="name" />
        </div>
        <ErrorMessage error={save.error} />
        <div className="actions">
          <button type="submit" disabled={save.isPending}>Update account</button>
          <p role="status" className="done">{save.isSuccess ? "Account updated." : ""}</p>
        </div>
      </form>
    </>
  )
}
