import { useMutation, useQueryClient } from "@tanstack/react-query"
import { Navigate, useNavigate } from "react-router"
import { Card, ErrorMessage, Field, formValues } from "../ui/Form.tsx"
import { usersApi as api } from "./api.ts"
import { refreshMe, userKeys } from "./queries.ts"
import { useFirstUserExists } from "./session.ts"

/** The first user (the owner), when none exists yet: `POST /users/first`, then signed in. */
export const SetupPage = () => {
  const first = useFirstUserExists()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const create = useMutation({
    mutationFn: async (v: { email: string; username: string; name: string; password: string }) => {
      await api.createFirstUser(v)
      await api.login(v.email, v.password)
    },
    onSuccess: async () => {
      queryClient.setQueryData(userKeys.firstUser, true)
      await refreshMe(queryClient)
      navigate("/workspaces", { replace: true })
    }
  })
  if (first.isPending) return <p role="status">Loading…</p>
  if (first.data === true && !create.isPending) return <Navigate to="/login" replace />
  return (
    <Card title="Create the first user">
      <p>No one uses this deployment yet: the first user owns it.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const v = formValues(e.currentTarget)
          create.mutate({
            email: v.email ?? "",
            username: v.username ?? "",
            name: v.name ?? "",
            password: v.password ?? ""
          })
        }}
      >
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <Field label="Username" name="username" autoComplete="username" hint="Letters, digits and dashes." />
        <Field label="Full name" name="name" autoComplete="name" required={false} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" />
        <ErrorMessage error={create.error} />
        <button type="submit" disabled={create.isPending}>Create account</button>
      </form>
    </Card>
  )
}
