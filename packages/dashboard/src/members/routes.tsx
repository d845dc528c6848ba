import { lazy } from "react"
import type { RouteObject } from "react-router"
import { adminPermissions } from "../api/permissions.ts"
import { AdminFrame, AdminIndex } from "../ui/Admin.tsx"
import type { NavEntry } from "../ui/nav.ts"

// The administration's pages are chunks of their own, loaded when opened.
const UsersPage = lazy(() => import("./Users.tsx").then((m) => ({ default: m.UsersPage })))
const CreateUserPage = lazy(() => import("./CreateUser.tsx").then((m) => ({ default: m.CreateUserPage })))

export const membersRoutes: Array<RouteObject> = [
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
