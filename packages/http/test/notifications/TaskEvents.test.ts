/**
 * Notifications of AI tasks: the task's owner hears when its AI app says it went idle or
 * completed (Task Working only when they turned it on), once per change of state.
 */
import { NotificationRepo, TemplateIds } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordingProvisioner } from "../agents/fixtures.js"
import { type Client, createUser, type ServiceTestServer, startWithOwner, type TestUser } from "../support.js"
import { AI_TEMPLATE } from "../tasks/fixtures.js"
import { runJobs } from "../templates/versions.js"
import { makeTemplate } from "../workspaces/fixtures.js"

describe("notifications of tasks", () => {
  let srv: ServiceTestServer
  let owner: Client
  let dev: TestUser
  let ai: { id: string; active_version_id: string }
  const handed = new Map<string, Map<string, string>>()

  beforeAll(async () => {
    let orgId: string
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false,
      notifier: false
    }))
    dev = await createUser(owner, { username: "nt-tasker" })
    ai = await makeTemplate(srv, owner, orgId, AI_TEMPLATE)
  })
  afterAll(() => srv.close())

  it("tells the owner of a task idle and completed, once per change", async () => {
    const r = await dev.client.post("/tasks/me", {
      input: "Fix the login bug",
      template_version_id: ai.active_version_id
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    await runJobs(srv)
    const workspaceId = r.body.workspace_id.uuid as string
    const asAgent = dev.client.as(handed.get(workspaceId)!.get("main")!)
    for (const state of ["working", "idle", "idle", "working", "complete"]) {
      const s = await asAgent.patch("/workspaceagents/me/app-status", { app_slug: "claude", state, message: state })
      expect(s.status, JSON.stringify(s.body)).toBe(200)
    }
    const messages = await srv.run(Effect.flatMap(NotificationRepo, (repo) => repo.messagesOf(dev.user.id)))
    const tasks = messages.filter((m) =>
      m.template_id === TemplateIds.taskIdle || m.template_id === TemplateIds.taskCompleted ||
      m.template_id === TemplateIds.taskWorking
    )
    expect(tasks.map((m) => m.template_id)).toEqual([TemplateIds.taskIdle, TemplateIds.taskCompleted])
    expect(tasks[0]!.payload.labels).toEqual({ task: r.body.name, workspace: expect.any(String) })
    expect(tasks[0]!.targets).toEqual([r.body.id, workspaceId])
  })
})
