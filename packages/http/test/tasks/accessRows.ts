/** The access table's rows of the AI tasks routes (packages/http/src/tasks/), run by ../accessTable.ts. */
import type { AreaRows } from "../accessTable.js"
import { runJobs } from "../templates/versions.js"
import { makeTemplate as importTemplate } from "../workspaces/fixtures.js"

export const accessRows: AreaRows = (tbl) => {
  // AI tasks of `someone` in `org`: their owner, organization admins and owners only (read,
  // update: a pause, delete); everyone else does not see them.
  let aiVersion: Promise<string> | undefined
  const newTask = async () => {
    aiVersion ??= importTemplate(
      tbl.srv,
      tbl.admin,
      tbl.org.id,
      "resources:\n  - name: box\n    type: machine\n    agents:\n      - name: main\n" +
        "        apps:\n          - slug: claude\n            command: claude\nai_task:\n  app: claude\n"
    ).then((t) => t.active_version_id)
    const r = await tbl.admin.post(`/tasks/${tbl.someone}`, { input: "Tidy up", template_version_id: await aiVersion })
    if (r.status !== 201) throw new Error(`task: ${r.status} ${JSON.stringify(r.body)}`)
    await runJobs(tbl.srv)
    return r.body as { id: string }
  }
  const taskCheck = (action: string, t: { id: string }) => ({
    action,
    object: { resource_type: "task", resource_id: t.id, owner_id: tbl.someone, organization_id: tbl.org.id }
  })
  /** A task of `someone`, once, for the agent's own route. */
  let snapshotTask: Promise<{ id: string }> | undefined
  return [
    {
      kind: "task",
      action: "read",
      route: "GET /tasks/{user}/{task}",
      expected: [200, 404, 404, 404, 404, 200, 404, 404, 404, 404],
      attempt: async () => {
        const t = await newTask()
        return { method: "GET", path: `/tasks/${tbl.someone}/${t.id}`, check: taskCheck("read", t) }
      }
    },
    {
      kind: "task",
      action: "update",
      route: "POST /tasks/{user}/{task}/pause",
      expected: [202, 404, 404, 404, 404, 202, 404, 404, 404, 404],
      attempt: async () => {
        const t = await newTask()
        return { method: "POST", path: `/tasks/${tbl.someone}/${t.id}/pause`, check: taskCheck("update", t) }
      }
    },
    {
      kind: "task",
      action: "delete",
      route: "DELETE /tasks/{user}/{task}",
      expected: [202, 404, 404, 404, 404, 202, 404, 404, 404, 404],
      attempt: async () => {
        const t = await newTask()
        return { method: "DELETE", path: `/tasks/${tbl.someone}/${t.id}`, check: taskCheck("delete", t) }
      }
    },
    {
      // The agent's own route: its token authenticates it, never a user's session (401 for every
      // role, as the described system), so no role's permission decides it and authcheck is not asked.
      kind: "task",
      action: "(agent token)",
      route: "POST /workspaceagents/me/tasks/{task}/log-snapshot",
      expected: [401, 401, 401, 401, 401, 401, 401, 401, 401, 401],
      attempt: async () => {
        const t = await (snapshotTask ??= newTask())
        return {
          method: "POST",
          path: `/workspaceagents/me/tasks/${t.id}/log-snapshot?format=agentapi`,
          body: { messages: [{ id: 0, role: "user", content: "Tidy up", time: "2030-01-01T10:00:00Z" }] }
        }
      }
    }
  ]
}
