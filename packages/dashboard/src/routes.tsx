/**
 * Every page of the dashboard, by area (each area's `routes.tsx` lists its pages and its entries
 * in the main navigation, joined in `navigation.ts`); `main.tsx` makes the router of them.
 */
import { Navigate, type RouteObject } from "react-router"
import { agentsRoutes } from "./agents/routes.tsx"
import { auditRoutes } from "./audit/routes.tsx"
import { enterpriseRoutes } from "./enterprise/routes.tsx"
import { externalAuthRoutes } from "./externalauth/routes.tsx"
import { generalRoutes } from "./general/routes.tsx"
import { insightsRoutes } from "./insights/routes.tsx"
import { Layout } from "./Layout.tsx"
import { notificationsRoutes } from "./notifications/routes.tsx"
import { oauth2Routes } from "./oauth2/routes.tsx"
import { organizationsRoutes } from "./organizations/routes.tsx"
import { proxiesRoutes } from "./proxies/routes.tsx"
import { tasksRoutes } from "./tasks/routes.tsx"
import { templatesRoutes } from "./templates/routes.tsx"
import { usersAdminRoutes, usersRoutes, usersSignedOutRoutes } from "./users/routes.tsx"
import { workspacesRoutes } from "./workspaces/routes.tsx"

export const routes: Array<RouteObject> = [
  ...usersSignedOutRoutes,
  {
    path: "/",
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/workspaces" replace /> },
      ...workspacesRoutes,
      ...agentsRoutes,
      ...templatesRoutes,
      ...notificationsRoutes,
      ...usersRoutes,
      ...tasksRoutes,
      ...usersAdminRoutes,
      ...auditRoutes,
      ...organizationsRoutes,
      ...generalRoutes,
      ...enterpriseRoutes,
      ...insightsRoutes,
      ...oauth2Routes,
      ...externalAuthRoutes,
      ...proxiesRoutes,
      { path: "*", element: <Navigate to="/workspaces" replace /> }
    ]
  }
]
