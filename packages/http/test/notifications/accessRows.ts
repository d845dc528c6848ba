/**
 * The access table's rows of the notification templates, settings, preferences and the inbox routes
 * (packages/http/src/notifications/), run by ../accessTable.ts.
 */
import type { AreaRows, RoleUser } from "../accessTable.js"
import { deliver } from "./InboxFixtures.js"

export const accessRows: AreaRows = (tbl) => {
  // Notifications: every user reads the templates; owners change a template's method and the
  // notifier's settings; preferences are their user's (and owners'), hidden from everyone else.
  const testTemplate = "c425f63e-716a-4bf4-ae24-78348f706c3f"

  // The inbox: every role reads and changes the notifications of its own inbox (a user owns
  // them); another user's answers 404 to everyone (packages/http/test/notifications/Inbox.test.ts),
  // a case the evaluator's roles do not decide (the routes work on the caller's inbox only).
  const inboxCheck = (action: string, who: RoleUser, id?: string) => ({
    action,
    object: { resource_type: "inbox_notification", owner_id: who.id, ...(id === undefined ? {} : { resource_id: id }) }
  })
  return [
    {
      kind: "notification_template",
      action: "read",
      route: "GET /notifications/templates/system",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: "/notifications/templates/system",
        check: { action: "read", object: { resource_type: "notification_template" } }
      })
    },
    {
      kind: "notification_template",
      action: "update",
      route: "PUT /notifications/templates/{id}/method",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        await tbl.admin.put(`/notifications/templates/${testTemplate}/method`, { method: "" })
        return {
          method: "PUT",
          path: `/notifications/templates/${testTemplate}/method`,
          body: { method: "webhook" },
          check: { action: "update", object: { resource_type: "notification_template", resource_id: testTemplate } }
        }
      }
    },
    {
      kind: "deployment_config",
      action: "update",
      route: "PUT /notifications/settings",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        await tbl.admin.put("/notifications/settings", { notifier_paused: false })
        return {
          method: "PUT",
          path: "/notifications/settings",
          body: { notifier_paused: true },
          check: { action: "update", object: { resource_type: "deployment_config" } }
        }
      }
    },
    {
      kind: "notification_preference",
      action: "read",
      route: "GET /users/{user}/notifications/preferences",
      expected: [200, 404, 404, 404, 404, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/users/${tbl.someone}/notifications/preferences`,
        check: {
          action: "read",
          object: { resource_type: "notification_preference", resource_id: tbl.someone, owner_id: tbl.someone }
        }
      })
    },
    {
      kind: "notification_preference",
      action: "update",
      route: "PUT /users/{user}/notifications/preferences",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PUT",
        path: `/users/${tbl.someone}/notifications/preferences`,
        body: { template_disabled_map: { [testTemplate]: true } },
        check: {
          action: "update",
          object: { resource_type: "notification_preference", resource_id: tbl.someone, owner_id: tbl.someone }
        }
      })
    },
    {
      kind: "inbox_notification",
      action: "read",
      route: "GET /notifications/inbox",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async (who) => ({ method: "GET", path: "/notifications/inbox", check: inboxCheck("read", who) })
    },
    {
      kind: "inbox_notification",
      action: "update",
      route: "PUT /notifications/inbox/{id}/read-status",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async (who) => {
        const n = await deliver(tbl.srv, who.id)
        return {
          method: "PUT",
          path: `/notifications/inbox/${n.id}/read-status`,
          body: { is_read: true },
          check: inboxCheck("update", who, n.id)
        }
      }
    },
    {
      kind: "inbox_notification",
      action: "update",
      route: "PUT /notifications/inbox/mark-all-as-read",
      expected: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
      attempt: async (who) => ({
        method: "PUT",
        path: "/notifications/inbox/mark-all-as-read",
        check: inboxCheck("update", who)
      })
    }
  ]
}
