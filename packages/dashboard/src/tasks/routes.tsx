import type { RouteObject } from "react-router"
import { lazyPage } from "../ui/LazyPage.tsx"
import type { NavEntry } from "../ui/nav.ts"

export const tasksRoutes: Array<RouteObject> = [
  { path: "tasks", element: lazyPage(() => import("./Tasks.tsx"), (m) => m.TasksPage) },
  { path: "tasks/:owner/:task", element: lazyPage(() => import("./Task.tsx"), (m) => m.TaskPage) }
]

export const tasksNav: Array<NavEntry> = [{ to: "/tasks", label: "Tasks" }]
