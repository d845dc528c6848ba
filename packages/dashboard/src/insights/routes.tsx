import { lazy } from "react"
import type { RouteObject } from "react-router"
import { AdminFrame } from "../ui/Admin.tsx"

// The charts (uPlot) come with the page's chunk, loaded when it is opened.
const InsightsPage = lazy(() => import("./Insights.tsx").then((m) => ({ default: m.InsightsPage })))

export const insightsRoutes: Array<RouteObject> = [
  {
    path: "insights",
    element: (
      <AdminFrame need="viewInsights">
        <InsightsPage />
      </AdminFrame>
    )
  }
]
