/**
 * The administration's frame: its own navigation (the pages the user may see, by `POST
 * /authcheck`) beside the page, and the gate of each page: a user without the page's permission
 * reads that they may not see it (the service would refuse its requests with 403 anyway).
 */
import { type ReactNode, Suspense } from "react"
import { Navigate, NavLink } from "react-router"
import { type Permission, usePermissions } from "../api/permissions.ts"
import { ErrorMessage } from "./Form.tsx"
import "./admin.css"

interface AdminEntry {
  readonly to: string
  readonly label: string
  readonly requires: Permission
}

/** The administration's pages, in the order of its navigation. */
export const adminEntries: ReadonlyArray<AdminEntry> = [
  { to: "/deployment/users", label: "Users", requires: "editUsers" },
  { to: "/deployment/organizations", label: "Organizations", requires: "editAnyOrganization" },
  { to: "/audit", label: "Audit log", requires: "viewAuditLog" },
  { to: "/connectionlog", label: "Connection log", requires: "viewConnectionLog" },
  { to: "/insights", label: "Insights", requires: "viewInsights" },
  { to: "/deployment/general", label: "General", requires: "viewDeploymentConfig" },
  { to: "/deployment/appearance", label: "Appearance", requires: "editDeploymentConfig" },
  { to: "/deployment/notifications", label: "Notifications", requires: "editNotificationTemplates" },
  { to: "/deployment/oauth2-provider/apps", label: "OAuth2 applications", requires: "editOAuth2Apps" },
  { to: "/deployment/workspace-proxies", label: "Workspace proxies", requires: "editWorkspaceProxies" },
  { to: "/deployment/idp-org-sync", label: "IdP organization sync", requires: "editIdpSync" },
  { to: "/deployment/licenses", label: "Licenses", requires: "viewLicenses" },
  { to: "/deployment/health", label: "Health", requires: "viewDebugInfo" }
]

/** The page `children` in the administration's frame, shown when the user has `need`. */
export const AdminFrame = ({ need, children }: { need: Permission; children: ReactNode }) => {
  const permissions = usePermissions()
  if (permissions.isPending) return <p role="status">Loading…</p>
  if (permissions.isError) return <ErrorMessage error={permissions.error} />
  const may = permissions.data
  if (!may[need]) {
    return (
      <div role="alert" className="refused">
        <h1>Not allowed</h1>
        <p>You do not have permission to view this page. Ask an administrator of this deployment.</p>
      </div>
    )
  }
  return (
    <div className="admin">
      <nav aria-label="Administration" className="admin-nav">
        <ul>
          {adminEntries.filter((e) => may[e.requires]).map((e) => (
            <li key={e.to}>
              <NavLink to={e.to}>{e.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin-page">
        <Suspense fallback={<p role="status">Loading…</p>}>{children}</Suspense>
      </div>
    </div>
  )
}

/** The first administration page the user may see (where the main navigation's "Admin" leads). */
export const AdminIndex = () => {
  const permissions = usePermissions()
  if (permissions.isPending) return <p role="status">Loading…</p>
  const first = adminEntries.find((e) => permissions.data?.[e.requires] === true)
  return first === undefined ? <AdminFrame need="editUsers">{null}</AdminFrame> : <Navigate to={first.to} replace />
}
