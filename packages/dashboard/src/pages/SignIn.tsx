import { useMutation, useQueryClient } from "@tanstack/react-query"
import { Navigate, useNavigate } from "react-router"
import { api } from "../api.ts"
import { useFirstUserExists, useMe } from "../session.ts"
import { Card, ErrorMessage, Field, formValues } from "./Form.tsx"

/** Sign in with email and password (`POST /users/login`, which sets the session cookie). */
export const SignInPage = () => {
  const first = useFirstUserExists()
  const me = useMe()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const signIn = useMutation({
    mutationFn: (v: { email: string; password: string }) => api.login(v.email, v.password),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["me"] })
      navigate("/workspaces", { replace: true })
    }
  })
  if (first.data === false) return <Navigate to="/setup" replace />
  if (me.data !== undefined && me.data !== null) return <Navigate to="/workspaces" replace />
  return (
    <Card title="Sign in to Workbay">
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const v = formValues(e.currentTarget)
          signIn.mutate({ email: v.email ?? "", password: v.password ?? "" })
        }}
      >
        <Field label="Email" name="email" type="email" autoComplete="username" />
        <Field label="Password" name="password" type="password" autoComplete="current-password" />
        <ErrorMessage error={signIn.error} />
        <button type="submit" disabled={signIn.isPending}>Sign in</button>
      </form>
    </Card>
  )
}
