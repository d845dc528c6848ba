import { useMutation, useQueryClient } from "@tanstack/react-query"
import { Navigate, NavLink, Outlet, useNavigate } from "react-router"
import { navigation } from "./navigation.ts"
import { InboxBadge } from "./notifications/InboxBadge.tsx"
import { usersApi as api } from "./users/api.ts"
import { useFirstUserExists, useMe } from "./users/session.ts"
import { AppliedTheme } from "./users/theme.ts"

/** The signed-in frame: a skip link, the navigation, the user's name and sign out, then the page. */
export const Layout = () => {
  const me = useMe()
  const first = useFirstUserExists()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const signOut = useMutation({
    mutationFn: api.logout,
    onSettled: () => {
      queryClient.clear()
      navigate("/login", { replace: true })
    }
  })
  if (me.isPending || first.isPending) return <p role="status">Loading…</p>
  if (first.data === false) return <Navigate to="/setup" replace />
  if (me.isError) return <p role="alert">Could not reach the service: {me.error.message}</p>
  if (me.data === null) return <Navigate to="/login" replace />
  const user = me.data
  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      <header className="bar">
        <span className="brand">Workbay</span>
        <nav aria-label="Main">
          <ul>
            {navigation.map((entry) => (
              <li key={entry.to}>
                <NavLink to={entry.to}>{entry.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="account">
          <AppliedTheme />
          <InboxBadge />
          <NavLink to="/settings">Account</NavLink>
          <span aria-label="Signed in as">
            {user.name !== undefined && user.name !== "" ? user.name : user.username}
          </span>
          <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  )
}
