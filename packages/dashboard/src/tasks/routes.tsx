import { lazy, Suspense } from "react"
import type { RouteObject } from "react-router"
import type { NavEntry } from "../navigation.ts"

const TasksPage = lazy(() => import("./Tasks.tsx").then((m) => ({ default: m.TasksPage })))
const TaskPage = lazy(() => import("./Task.tsx").then((m) => ({ default: m.TaskPage })))

export const tasksRoutes: Array<RouteObject> = [
  {
    path: "tasks",
    element: (
      <Suspense fallback={<p role="status">Loading…</p>}>
        <TasksPage />
      </Suspense>
    )
  },
  {
    path: "tasks/:owner/:task",
    element: (
      <Suspense fallback={<p role="status">Loading…</p>}>
        <TaskPage />
      </Suspense>
    )
  }
]

export const tasksNav: Array<NavEntry> = [{ to: "/tasks", label: "Tasks" }]
