/**
 * The response schema table's rows of the notification and inbox endpoints (packages/http/src/notifications/),
 * run by ../responseSchemas.ts.
 */
import { randomUUID } from "node:crypto"
import { type Row, row } from "../responseSchemas.js"
import { SESSION_HEADER } from "../support.js"
import { connect, eventually } from "../websocket.js"
import { deliver } from "./InboxFixtures.js"

export const responseRows: ReadonlyArray<Row> = [
  // inbox: notifications delivered through the InboxDelivery port, as the notifier does
  row("inbox.list", "GET /api/v2/notifications/inbox", 200, "ListInboxNotificationsResponse", async (w) => {
    const n = await deliver(w.srv, w.bob.user.id, { targets: [randomUUID()] })
    await deliver(w.srv, w.bob.user.id, { actions: [], icon: "DEFAULT_WORKSPACE_ICON" })
    await w.bob.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true })
    return [
      await w.bob.client.get("/notifications/inbox"),
      await w.bob.client.get(`/notifications/inbox?read_status=unread&starting_before=${n.id}`),
      await w.owner.get("/notifications/inbox")
    ]
  }),
  row("inbox.watch", "GET /api/v2/notifications/inbox/watch", 101, "GetInboxNotificationResponse", async (w) => {
    const ws = await connect(`${w.srv.wsUrl}/api/v2/notifications/inbox/watch?format=plaintext`, {
      [SESSION_HEADER]: w.bob.client.token!
    })
    await deliver(w.srv, w.bob.user.id)
    await eventually(() => ws.messages.length > 0)
    ws.socket.close()
    return { status: 101, body: JSON.parse(ws.messages[0]!), headers: new Headers() }
  }),
  row("inbox.markAllRead", "PUT /api/v2/notifications/inbox/mark-all-as-read", 204, "none", async (w) => {
    await deliver(w.srv, w.bob.user.id)
    return w.bob.client.put("/notifications/inbox/mark-all-as-read")
  }),
  row(
    "inbox.setReadStatus",
    "PUT /api/v2/notifications/inbox/:id/read-status",
    200,
    "UpdateInboxNotificationReadStatusResponse",
    async (w) => {
      const n = await deliver(w.srv, w.bob.user.id)
      return [
        await w.bob.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true }),
        await w.bob.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: false })
      ]
    }
  ),
  // notifications
  row(
    "notifications.systemTemplates",
    "GET /api/v2/notifications/templates/system",
    200,
    "[NotificationTemplate]",
    async (w) => {
      await w.owner.put("/notifications/templates/c425f63e-716a-4bf4-ae24-78348f706c3f/method", { method: "webhook" })
      return w.bob.client.get("/notifications/templates/system")
    }
  ),
  row(
    "notifications.customTemplates",
    "GET /api/v2/notifications/templates/custom",
    200,
    "[NotificationTemplate]",
    (w) => w.bob.client.get("/notifications/templates/custom")
  ),
  row(
    "notifications.updateTemplateMethod",
    "PUT /api/v2/notifications/templates/:notification_template/method",
    200,
    "none",
    async (w) => [
      await w.owner.put("/notifications/templates/29a09665-2a4c-403f-9648-54301670e7be/method", { method: "smtp" }),
      await w.owner.put("/notifications/templates/29a09665-2a4c-403f-9648-54301670e7be/method", { method: "" })
    ]
  ),
  row(
    "notifications.getPreferences",
    "GET /api/v2/users/:user/notifications/preferences",
    200,
    "[NotificationPreference]",
    async (w) => {
      const empty = await w.alice.client.get("/users/me/notifications/preferences")
      await w.bob.client.put("/users/me/notifications/preferences", {
        template_disabled_map: { "f517da0b-cdc9-410f-ab89-a86107c420ed": true }
      })
      return [empty, await w.bob.client.get("/users/me/notifications/preferences")]
    }
  ),
  row(
    "notifications.updatePreferences",
    "PUT /api/v2/users/:user/notifications/preferences",
    200,
    "[NotificationPreference]",
    (w) =>
      w.bob.client.put("/users/me/notifications/preferences", {
        template_disabled_map: { "281fdf73-c6d6-4cbb-8ff5-888baf8a2fff": false }
      })
  ),
  row(
    "notifications.getSettings",
    "GET /api/v2/notifications/settings",
    200,
    "NotificationsSettings",
    (w) => w.bob.client.get("/notifications/settings")
  ),
  row("notifications.updateSettings", "PUT /api/v2/notifications/settings", 200, "NotificationsSettings", async (w) => [
    await w.owner.put("/notifications/settings", { notifier_paused: true }),
    await w.owner.put("/notifications/settings", { notifier_paused: false })
  ]),
  row(
    "notifications.dispatchMethods",
    "GET /api/v2/notifications/dispatch-methods",
    200,
    "NotificationMethodsResponse",
    (w) => w.bob.client.get("/notifications/dispatch-methods")
  ),
  row(
    "notifications.sendCustom",
    "POST /api/v2/notifications/custom",
    204,
    "none",
    (w) => w.bob.client.post("/notifications/custom", { content: { title: "Hello", message: "World" } })
  ),
  row(
    "notifications.sendTest",
    "POST /api/v2/notifications/test",
    200,
    "none",
    (w) => w.owner.post("/notifications/test")
  )
]
