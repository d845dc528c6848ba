import type { RouteObject } from "react-router"
import { lazyPage } from "../ui/LazyPage.tsx"
import type { NavEntry } from "../ui/nav.ts"
import { WorkspacesPage } from "./Workspaces.tsx"

// The workspace page and the creation forms are chunks of their own, loaded when opened.
const workspace = () => import("./Workspace.tsx")
const create = () => import("./CreateWorkspace.tsx")

export const workspacesRoutes: Array<RouteObject> = [
  { path: "workspaces", element: <WorkspacesPage /> },
  { path: "workspaces/new", element: lazyPage(create, (m) => m.NewWorkspacePage) },
  // The described system's CreateWorkspacePage (the template by name, or id).
  { path: "templates/:template/workspace", element: lazyPage(create, (m) => m.CreateWorkspacePage) },
  { path: "templates/:organization/:template/workspace", element: lazyPage(create, (m) => m.CreateWorkspacePage) },
  // The described system's address, /@owner/workspace (a route segment is all dynamic or all
  // static: the page checks the "@").
  { path: ":owner/:workspace", element: lazyPage(workspace, (m) => m.WorkspacePage) }
]

export const workspacesNav: Array<NavEntry> = [{ to: "/workspaces", label: "Workspaces" }]
