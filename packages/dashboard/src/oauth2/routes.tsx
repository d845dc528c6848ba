import { lazy } from "react"
import type { RouteObject } from "react-router"
import { AdminFrame } from "../ui/Admin.tsx"

const AppsPage = lazy(() => import("./Apps.tsx").then((m) => ({ default: m.AppsPage })))
const CreateAppPage = lazy(() => import("./Apps.tsx").then((m) => ({ default: m.CreateAppPage })))
const AppPage = lazy(() => import("./App.tsx").then((m) => ({ default: m.AppPage })))

// The described system's addresses.
export const oauth2Routes: Array<RouteObject> = [
  ["deployment/oauth2-provider/apps", <AppsPage />],
  ["deployment/oauth2-provider/apps/add", <CreateAppPage />],
  ["deployment/oauth2-provider/apps/:app", <AppPage />]
].map(([path, page]) => ({
  path: path as string,
  element: <AdminFrame need="editOAuth2Apps">{page}</AdminFrame>
}))
