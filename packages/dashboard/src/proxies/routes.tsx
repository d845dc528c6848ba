import { lazy } from "react"
import type { RouteObject } from "react-router"
import { AdminFrame } from "../ui/Admin.tsx"

const ProxiesPage = lazy(() => import("./Proxies.tsx").then((m) => ({ default: m.ProxiesPage })))

export const proxiesRoutes: Array<RouteObject> = [
  {
    path: "deployment/workspace-proxies",
    element: (
      <AdminFrame need="editWorkspaceProxies">
        <ProxiesPage />
      </AdminFrame>
    )
  }
]
