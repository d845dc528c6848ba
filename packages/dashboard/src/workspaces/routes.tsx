import type { RouteObject } from "react-router"
import type { NavEntry } from "../ui/nav.ts"
import { WorkspacePage } from "./Workspace.tsx"
import { WorkspacesPage } from "./Workspaces.tsx"

export const workspacesRoutes: Array<RouteObject> = [
  { path: "workspaces", element: <WorkspacesPage /> },
  // The described system's address, /@owner/workspace (a route segment is all dynamic or all
  // static: the page checks the "@").
  { path: ":owner/:workspace", element: <WorkspacePage /> }
]

export const workspacesNav: Array<NavEntry> = [{ to: "/workspaces", label: "Workspaces" }]
