import { lazy } from "react"
import type { RouteObject } from "react-router"
import { AdminFrame } from "../ui/Admin.tsx"

const OrganizationSyncPage = lazy(() => import("./IdpSync.tsx").then((m) => ({ default: m.OrganizationSyncPage })))

/** The deployment's IdP organization sync (an organization's group and role sync is a tab of the organization). */
export const externalAuthRoutes: Array<RouteObject> = [
  {
    path: "deployment/idp-org-sync",
    element: (
      <AdminFrame need="editIdpSync">
        <OrganizationSyncPage />
      </AdminFrame>
    )
  }
]
