import { lazy, Suspense } from "react"
import type { RouteObject } from "react-router"

// The inbox page carries the markdown renderer: a chunk of its own.
const InboxPage = lazy(() => import("./Inbox.tsx").then((m) => ({ default: m.InboxPage })))

export const notificationsRoutes: Array<RouteObject> = [
  {
    path: "inbox",
    element: (
      <Suspense fallback={<p role="status">Loading…</p>}>
        <InboxPage />
      </Suspense>
    )
  }
]
