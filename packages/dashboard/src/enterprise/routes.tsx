import { lazy } from "react"
import type { RouteObject } from "react-router"
import { AdminFrame } from "../ui/Admin.tsx"

const AppearancePage = lazy(() => import("./Appearance.tsx").then((m) => ({ default: m.AppearancePage })))
const LicensesPage = lazy(() => import("./Licenses.tsx").then((m) => ({ default: m.LicensesPage })))
const HealthPage = lazy(() => import("./Health.tsx").then((m) => ({ default: m.HealthPage })))

export const enterpriseRoutes: Array<RouteObject> = [
  {
    path: "deployment/appearance",
    element: (
      <AdminFrame need="editDeploymentConfig">
        <AppearancePage />
      </AdminFrame>
    )
  },
  {
    path: "deployment/licenses",
    element: (
      <AdminFrame need="viewLicenses">
        <LicensesPage />
      </AdminFrame>
    )
  },
  {
    path: "deployment/health",
    element: (
      <AdminFrame need="viewDebugInfo">
        <HealthPage />
      </AdminFrame>
    )
  }
]
