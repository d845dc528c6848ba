import { lazy } from "react"
import type { RouteObject } from "react-router"
import { AdminFrame } from "../ui/Admin.tsx"

const AuditPage = lazy(() => import("./Audit.tsx").then((m) => ({ default: m.AuditPage })))

export const auditRoutes: Array<RouteObject> = [
  {
    path: "audit",
    element: (
      <AdminFrame need="viewAuditLog">
        <AuditPage />
      </AdminFrame>
    )
  }
]
