import { lazy } from "react"
import { Navigate, type RouteObject } from "react-router"
import { AdminFrame } from "../ui/Admin.tsx"

const OrganizationsPage = lazy(() => import("./Organizations.tsx").then((m) => ({ default: m.OrganizationsPage })))
const OrganizationFrame = lazy(() => import("./Organization.tsx").then((m) => ({ default: m.OrganizationFrame })))
const MembersPage = lazy(() => import("./Members.tsx").then((m) => ({ default: m.MembersPage })))
const RolesPage = lazy(() => import("./Roles.tsx").then((m) => ({ default: m.RolesPage })))
const RoleFormPage = lazy(() => import("./Roles.tsx").then((m) => ({ default: m.RoleFormPage })))
const ProvisionersPage = lazy(() => import("./Provisioners.tsx").then((m) => ({ default: m.ProvisionersPage })))
const GroupsPage = lazy(() => import("../groups/Groups.tsx").then((m) => ({ default: m.GroupsPage })))
const GroupPage = lazy(() => import("../groups/Groups.tsx").then((m) => ({ default: m.GroupPage })))
const IdpSyncPage = lazy(() =>
  import("../externalauth/IdpSync.tsx").then((m) => ({ default: m.OrganizationIdpSyncPage }))
)

/** The organizations, and an organization's pages (its groups are the groups area's pages). */
export const organizationsRoutes: Array<RouteObject> = [
  {
    path: "deployment/organizations",
    element: (
      <AdminFrame need="editAnyOrganization">
        <OrganizationsPage />
      </AdminFrame>
    )
  },
  {
    path: "organizations/:org",
    element: (
      <AdminFrame need="editAnyOrganization">
        <OrganizationFrame />
      </AdminFrame>
    ),
    children: [
      { index: true, element: <Navigate to="members" replace /> },
      { path: "members", element: <MembersPage /> },
      { path: "groups", element: <GroupsPage /> },
      { path: "groups/:group", element: <GroupPage /> },
      { path: "roles", element: <RolesPage /> },
      { path: "roles/create", element: <RoleFormPage /> },
      { path: "roles/:role", element: <RoleFormPage /> },
      { path: "provisioners", element: <ProvisionersPage /> },
      { path: "idp-sync", element: <IdpSyncPage /> }
    ]
  }
]
