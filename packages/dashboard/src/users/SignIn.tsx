import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Link, Navigate, useLocation, useNavigate } from "react-router"
import { Card, ErrorMessage, Field, formValues } from "../ui/Form.tsx"
import { usersApi as api } from "./api.ts"
import { authMethodsQuery, refreshMe } from "./queries.ts"
import { useFirstUserExists, useMe } from "./session.ts"

/** Where a provider's sign-in starts (its callback without a code), coming back to the workspaces. */
const providerStart = (provider: "oauth2/github" | "oidc") =>
  `/api/v2/users/${provider}/callback?${new URLSearchParams({ redirect: "/workspaces" })}`

/**
 * Sign in with email and password (`POST /users/login`, which sets the session cookie), and with
 * GitHub and OpenID Connect when `/users/authmethods` says they are on.
 */
export const SignInPage = () => {
  const first = useFirstUserExists()
  const methods = useQuery(authMethodsQuery)
  const me = useMe()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const changed = (useLocation().state as { passwordChanged?: boolean } | null)?.passwordChanged === true
  const signIn = useMutation({
    mutationFn: (v: { email: string; password: string }) => api.login(v.email, v.password),
    onSuccess: async () => {
      await refreshMe(queryClient)
      navigate("/workspaces", { replace: true })
    }
  })
  if (first.data === false) return <Navigate to="/setup" replace />
  if (me.data !== undefined && me.data !== null) return <Navigate to="/workspaces" replace />
  const github = methods.data?.github.enabled === true
  const oidc = methods.data?.oidc.enabled === true
  const password = methods.data?.password.enabled !== false
  return (
    <Card title="Sign in to Workbay">
      {changed ? <p role="status">Your password was changed: sign in with the new one.</p> : null}
      {github || oidc
        ? (
          <ul className="providers">
            {github
              ? (
                <li>
                  <a className="provider" href={providerStart("oauth2/github")}>Sign in with GitHub</a>
                </li>
              )
              : null}
            {oidc
              ? (
                <li>
                  <a className="provider" href={providerStart("oidc")}>
                    Sign in with {methods.data?.oidc.signInText || "OpenID Connect"}
                  </a>
                </li>
              )
              : null}
          </ul>
        )
        : null}
      {password ? null : <p>Password sign-in is turned off on this deployment.</p>}
      <form
        hidden={!password}
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
        <p>
          <Link to="/reset-password">Forgot password?</Link>
        </p>
      </form>
    </Card>
  )
}
