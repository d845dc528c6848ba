import { lazy } from "react"
import type { RouteObject } from "react-router"
import { AdminFrame } from "../ui/Admin.tsx"

const GeneralPage = lazy(() => import("./General.tsx").then((m) => ({ default: m.GeneralPage })))

export const generalRoutes: Array<RouteObject> = [
  {
    path: "deployment/general",
    element: (
      <AdminFrame need="viewDeploymentConfig">
        <GeneralPage />
      </AdminFrame>
    )
  }
]
