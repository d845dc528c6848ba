import { lazy } from "react"
import { Navigate, type RouteObject } from "react-router"
import { adminPermissions } from "../api/permissions.ts"
import { AdminFrame, AdminIndex } from "../ui/Admin.tsx"
import { lazyPage } from "../ui/LazyPage.tsx"
import type { NavEntry } from "../ui/nav.ts"
import { DeviceSignInPage } from "./DeviceSignIn.tsx"
import { ChangePasswordPage, RequestPasscodePage } from "./ResetPassword.tsx"
import { SetupPage } from "./Setup.tsx"
import { SignInPage } from "./SignIn.tsx"

/** The pages shown signed out (outside the signed-in frame). */
export const usersSignedOutRoutes: Array<RouteObject> = [
  { path: "/setup", element: <SetupPage /> },
  { path: "/login", element: <SignInPage /> },
  { path: "/login/device", element: <DeviceSignInPage /> },
  { path: "/reset-password", element: <RequestPasscodePage /> },
  { path: "/reset-password/change", element: <ChangePasswordPage /> }
]

/** The account's settings, in the signed-in frame (the described system's /settings/...). */
export const usersRoutes: Array<RouteObject> = [
  {
    path: "settings",
    // The settings are chunks of their own, loaded when first shown.
    element: lazyPage(() => import("./settings/Settings.tsx"), (m) => m.SettingsLayout),
    children: [
      { index: true, element: <Navigate to="/settings/account" replace /> },
      { path: "account", element: lazyPage(() => import("./settings/Account.tsx"), (m) => m.AccountPage) },
      { path: "appearance", element: lazyPage(() => import("./settings/Appearance.tsx"), (m) => m.AppearancePage) },
      {
        path: "external-auth",
        element: lazyPage(() => import("./settings/ExternalAuth.tsx"), (m) => m.ExternalAuthPage)
      },
      {
        path: "notifications",
        element: lazyPage(() => import("./settings/Notifications.tsx"), (m) => m.NotificationsPage)
      },
      { path: "schedule", element: lazyPage(() => import("./settings/Schedule.tsx"), (m) => m.SchedulePage) },
      { path: "security", element: lazyPage(() => import("./settings/Security.tsx"), (m) => m.SecurityPage) },
      { path: "ssh-keys", element: lazyPage(() => import("./settings/SshKeys.tsx"), (m) => m.SshKeysPage) },
      { path: "tokens", element: lazyPage(() => import("./settings/Tokens.tsx"), (m) => m.TokensPage) }
    ]
  }
]

// The administration's pages are chunks of their own, loaded when opened.
const UsersPage = lazy(() => import("./admin/Users.tsx").then((m) => ({ default: m.UsersPage })))
const CreateUserPage = lazy(() => import("./admin/CreateUser.tsx").then((m) => ({ default: m.CreateUserPage })))

/** The administration of the deployment's users (in the administration's frame). */
export const usersAdminRoutes: Array<RouteObject> = [
  { path: "deployment", element: <AdminIndex /> },
  {
    path: "deployment/users",
    element: (
      <AdminFrame need="editUsers">
        <UsersPage />
      </AdminFrame>
    )
  },
  {
    path: "deployment/users/create",
    element: (
      <AdminFrame need="createUser">
        <CreateUserPage />
      </AdminFrame>
    )
  }
]

/** The main navigation's "Admin", shown to who may see one of the administration's pages. */
export const adminNav: Array<NavEntry> = [{ to: "/deployment", label: "Admin", requires: adminPermissions }]
