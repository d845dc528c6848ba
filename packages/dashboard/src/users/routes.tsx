import { type ComponentType, lazy, Suspense } from "react"
import { Navigate, type RouteObject } from "react-router"
import { ChangePasswordPage, RequestPasscodePage } from "./ResetPassword.tsx"
import { SetupPage } from "./Setup.tsx"
import { SignInPage } from "./SignIn.tsx"

/** The pages shown signed out (outside the signed-in frame). */
export const usersSignedOutRoutes: Array<RouteObject> = [
  { path: "/setup", element: <SetupPage /> },
  { path: "/login", element: <SignInPage /> },
  { path: "/reset-password", element: <RequestPasscodePage /> },
  { path: "/reset-password/change", element: <ChangePasswordPage /> }
]

/** A page of the settings, loaded when first shown (the settings are chunks of their own). */
const page = (load: () => Promise<ComponentType>) => {
  const Page = lazy(() => load().then((c) => ({ default: c })))
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <Page />
    </Suspense>
  )
}

const SettingsLayout = lazy(() => import("./settings/Settings.tsx").then((m) => ({ default: m.SettingsLayout })))

/** The account's settings, in the signed-in frame (the described system's /settings/...). */
export const usersRoutes: Array<RouteObject> = [
  {
    path: "settings",
    element: (
      <Suspense fallback={<p role="status">Loading…</p>}>
        <SettingsLayout />
      </Suspense>
    ),
    children: [
      { index: true, element: <Navigate to="/settings/account" replace /> },
      { path: "account", element: page(() => import("./settings/Account.tsx").then((m) => m.AccountPage)) },
      { path: "appearance", element: page(() => import("./settings/Appearance.tsx").then((m) => m.AppearancePage)) },
      {
        path: "external-auth",
        element: page(() => import("./settings/ExternalAuth.tsx").then((m) => m.ExternalAuthPage))
      },
      {
        path: "notifications",
        element: page(() => import("./settings/Notifications.tsx").then((m) => m.NotificationsPage))
      },
      { path: "schedule", element: page(() => import("./settings/Schedule.tsx").then((m) => m.SchedulePage)) },
      { path: "security", element: page(() => import("./settings/Security.tsx").then((m) => m.SecurityPage)) },
      { path: "ssh-keys", element: page(() => import("./settings/SshKeys.tsx").then((m) => m.SshKeysPage)) },
      { path: "tokens", element: page(() => import("./settings/Tokens.tsx").then((m) => m.TokensPage)) }
    ]
  }
]
