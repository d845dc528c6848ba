/**
 * The response schema table's rows of the AI task endpoints (packages/http/src/tasks/), run by
 * ../responseSchemas.ts.
 */
import { perWorld, type Row, row, type World } from "../responseSchemas.js"
import { uniqueName } from "../support.js"
import { createVersion, runJobs } from "../templates/versions.js"
import { connectAgent } from "./fixtures.js"

const AI_TASK_TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        apps:
          - slug: claude
            command: claude
ai_task:
  app: claude
`

/** A version of an AI task template (made once). */
const aiVersionOf = perWorld(async (w) => {
  const v = await createVersion(w.srv, w.owner, w.orgId, AI_TASK_TEMPLATE)
  await runJobs(w.srv)
  await w.owner.post(`/organizations/${w.orgId}/templates`, {
    name: uniqueName("ai"),
    template_version_id: v.body.id
  })
  return v.body.id as string
})

/** A task of bob's, its first build run. */
const bobsTask = async (w: World, input = "Write the docs") => {
  const r = await w.bob.client.post("/tasks/me", { input, template_version_id: await aiVersionOf(w) })
  if (r.status !== 201) throw new Error(`task: ${r.status} ${JSON.stringify(r.body)}`)
  await runJobs(w.srv)
  return r.body as { id: string; name: string; workspace_id: { uuid: string } }
}

export const responseRows: ReadonlyArray<Row> = [
  // tasks
  row("tasks.create", "POST /api/v2/tasks/:user", 201, "Task", async (w) => {
    const r = await w.bob.client.post("/tasks/me", {
      input: "Fix it",
      template_version_id: await aiVersionOf(w),
      display_name: "Fixing"
    })
    await runJobs(w.srv)
    return r
  }),
  row("tasks.list", "GET /api/v2/tasks", 200, "TasksListResponse", async (w) => {
    await bobsTask(w)
    return [
      await w.owner.get("/tasks"),
      await w.bob.client.get("/tasks?q=owner:me status:initializing"),
      await w.alice.client.get("/tasks")
    ]
  }),
  row("tasks.get", "GET /api/v2/tasks/:user/:task", 200, "Task", async (w) => {
    const t = await bobsTask(w)
    return [await w.bob.client.get(`/tasks/me/${t.id}`), await w.owner.get(`/tasks/${w.bob.username}/${t.name}`)]
  }),
  row(
    "tasks.delete",
    "DELETE /api/v2/tasks/:user/:task",
    202,
    "none",
    async (w) => w.bob.client.delete(`/tasks/me/${(await bobsTask(w)).id}`)
  ),
  row("tasks.updateInput", "PATCH /api/v2/tasks/:user/:task/input", 204, "none", async (w) => {
    const t = await bobsTask(w)
    await w.bob.client.post(`/tasks/me/${t.id}/pause`)
    await runJobs(w.srv)
    return w.bob.client.patch(`/tasks/me/${t.id}/input`, { input: "Write better docs" })
  }),
  row("tasks.send", "POST /api/v2/tasks/:user/:task/send", 204, "none", async (w) => {
    const t = await bobsTask(w)
    const agent = await connectAgent(w.srv, w.bob.client, t.workspace_id.uuid)
    const r = await w.bob.client.post(`/tasks/me/${t.id}/send`, { input: "And the changelog" })
    agent.socket.close(1000)
    await agent.closed
    return r
  }),
  row("tasks.logs", "GET /api/v2/tasks/:user/:task/logs", 200, "TaskLogsResponse", async (w) => {
    const t = await bobsTask(w)
    const live = await w.bob.client.get(`/tasks/me/${t.id}/logs`)
    await w.bob.client.post(`/tasks/me/${t.id}/pause`)
    await runJobs(w.srv)
    return [live, await w.bob.client.get(`/tasks/me/${t.id}/logs`)]
  }),
  row(
    "taskAgent.logSnapshot",
    "POST /api/v2/workspaceagents/me/tasks/:task/log-snapshot",
    204,
    "none",
    async (w) => {
      const t = await bobsTask(w)
      const agent = await connectAgent(w.srv, w.bob.client, t.workspace_id.uuid)
      const r = await w.bob.client.as(agent.token).post(
        `/workspaceagents/me/tasks/${t.id}/log-snapshot?format=agentapi`,
        { messages: [{ id: 0, role: "user", content: "Write the docs", time: "2030-01-01T10:00:00Z" }] }
      )
      agent.socket.close(1000)
      await agent.closed
      return r
    }
  ),
  row("tasks.pause", "POST /api/v2/tasks/:user/:task/pause", 202, "PauseTaskResponse", async (w) => {
    const r = await w.bob.client.post(`/tasks/me/${(await bobsTask(w)).id}/pause`)
    await runJobs(w.srv)
    return r
  }),
  row("tasks.resume", "POST /api/v2/tasks/:user/:task/resume", 202, "PauseTaskResponse", async (w) => {
    const t = await bobsTask(w)
    await w.bob.client.post(`/tasks/me/${t.id}/pause`)
    await runJobs(w.srv)
    const r = await w.bob.client.post(`/tasks/me/${t.id}/resume`)
    await runJobs(w.srv)
    return r
  })
]
