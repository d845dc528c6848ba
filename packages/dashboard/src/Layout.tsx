import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useEffect, useRef } from "react"
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from "react-router"
import { usePermissions } from "./api/permissions.ts"
import { ServiceBanner, useAppearance } from "./enterprise/ServiceBanner.tsx"
import { navigation } from "./navigation.ts"
import { InboxBadge } from "./notifications/InboxBadge.tsx"
import { usersApi as api } from "./users/api.ts"
import { refreshMe } from "./users/queries.ts"
import { useFirstUserExists, useMe } from "./users/session.ts"
import { AppliedTheme } from "./users/theme.ts"

/** The signed-in frame: a skip link, the navigation, the user's name and sign out, then the page. */
export const Layout = () => {
  const me = useMe()
  const first = useFirstUserExists()
  const permissions = usePermissions()
  const appearance = useAppearance()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  useSessionRecheck()
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
      <ServiceBanner />
      <header className="bar">
        <span className="brand">{appearance.data?.application_name || "Workbay"}</span>
        <nav aria-label="Main">
          <ul>
            {navigation.filter((e) =>
              e.requires === undefined || e.requires.some((p) => permissions.data?.[p] === true)
            ).map((entry) => (
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

/**
 * The session is asked again at each navigation (and when the window gets focus): a user signed
 * out elsewhere, or suspended or deleted by an administrator, gets 401 for it, which makes the
 * signed-in user null, and the frame sends them to sign in (no page keeps a request open to
 * learn it sooner).
 */
const useSessionRecheck = () => {
  const location = useLocation()
  const queryClient = useQueryClient()
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    void refreshMe(queryClient)
  }, [location.key])
  useEffect(() => {
    const recheck = () => void refreshMe(queryClient)
    window.addEventListener("focus", recheck)
    return () => window.removeEventListener("focus", recheck)
  }, [])
}
