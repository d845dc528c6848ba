import { lazy } from "react"
import type { RouteObject } from "react-router"
import { AdminFrame } from "../ui/Admin.tsx"
import { lazyPage } from "../ui/LazyPage.tsx"

const NotificationsSettingsPage = lazy(() =>
  import("./Settings.tsx").then((m) => ({ default: m.NotificationsSettingsPage }))
)

export const notificationsRoutes: Array<RouteObject> = [
  // The inbox page carries the markdown renderer: a chunk of its own.
  { path: "inbox", element: lazyPage(() => import("./Inbox.tsx"), (m) => m.InboxPage) },
  {
    path: "deployment/notifications",
    element: (
      <AdminFrame need="editNotificationTemplates">
        <NotificationsSettingsPage />
      </AdminFrame>
    )
  }
]
