import type { RouteObject } from "react-router"
import { lazyPage } from "../ui/LazyPage.tsx"

export const notificationsRoutes: Array<RouteObject> = [
  // The inbox page carries the markdown renderer: a chunk of its own.
  { path: "inbox", element: lazyPage(() => import("./Inbox.tsx"), (m) => m.InboxPage) }
]
