import { lazy } from "react"
import type { RouteObject } from "react-router"
import { AdminFrame } from "../ui/Admin.tsx"

const AuditPage = lazy(() => import("./Audit.tsx").then((m) => ({ default: m.AuditPage })))
const ConnectionLogPage = lazy(() => import("./ConnectionLog.tsx").then((m) => ({ default: m.ConnectionLogPage })))

export const auditRoutes: Array<RouteObject> = [
  {
    path: "audit",
    element: (
      <AdminFrame need="viewAuditLog">
        <AuditPage />
      </AdminFrame>
    )
  },
  {
    path: "connectionlog",
    element: (
      <AdminFrame need="viewConnectionLog">
        <ConnectionLogPage />
      </AdminFrame>
    )
  }
]
