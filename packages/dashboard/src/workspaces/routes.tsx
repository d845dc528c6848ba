import { lazy, type ReactNode, Suspense } from "react"
import type { RouteObject } from "react-router"
import type { NavEntry } from "../navigation.ts"
import { WorkspacesPage } from "./Workspaces.tsx"

// The workspace page and the creation form are chunks of their own, loaded when opened.
const WorkspacePage = lazy(() => import("./Workspace.tsx").then((m) => ({ default: m.WorkspacePage })))
const NewWorkspacePage = lazy(() => import("./CreateWorkspace.tsx").then((m) => ({ default: m.NewWorkspacePage })))
const CreateWorkspacePage = lazy(() =>
  import("./CreateWorkspace.tsx").then((m) => ({ default: m.CreateWorkspacePage }))
)

const loading = (element: ReactNode) => <Suspense fallback={<p role="status">Loading…</p>}>{element}</Suspense>

export const workspacesRoutes: Array<RouteObject> = [
  { path: "workspaces", element: <WorkspacesPage /> },
  { path: "workspaces/new", element: loading(<NewWorkspacePage />) },
  // The described system's CreateWorkspacePage (the template by name, or id).
  { path: "templates/:template/workspace", element: loading(<CreateWorkspacePage />) },
  // The described system's address, /@owner/workspace (a route segment is all dynamic or all
  // static: the page checks the "@").
  { path: ":owner/:workspace", element: loading(<WorkspacePage />) }
]

export const workspacesNav: Array<NavEntry> = [{ to: "/workspaces", label: "Workspaces" }]
