/**
 * Black-box tests of AI tasks over real HTTP, on a fresh SQLite database and the built-in
 * provisioner workers: a template declaring `ai_task: {app}`, tasks created with their
 * workspaces, read and listed while a scripted agent (a real WebSocket on the agent connection)
 * reports its lifecycle and the AI app's statuses; input changed while paused, input sent, logs,
 * pause, resume, delete, authorization and audit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordingProvisioner } from "../agents/fixtures.js"
import {
  type Client,
  createUser,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  tokenClient,
  UNKNOWN_ID,
  UUID_PATTERN
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { connect, eventually } from "../websocket.js"
import { FREE_TEMPLATE, makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { AI_TEMPLATE } from "./fixtures.js"

const NIL = "00000000-0000-0000-0000-000000000000"

describe("tasks", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let other: TestUser
  let ai: { id: string; active_version_id: string; name: string }
  let plain: { id: string; active_version_id: string; name: string }
  const handed = new Map<string, Map<string, string>>()

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false
    }))
    dev = await createUser(owner)
    other = await createUser(owner)
    ai = await makeTemplate(srv, owner, orgId, AI_TEMPLATE)
    plain = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
  })
  afterAll(() => srv.close())

  /** Creates a task of `dev` and runs its first build. */
  const makeTask = async (body: Record<string, unknown> = {}) => {
    const r = await dev.client.post("/tasks/me", {
      input: "Fix the login bug",
      template_version_id: ai.active_version_id,
      ...body
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    await runJobs(srv)
    return r.body as { id: string; name: string; workspace_id: { uuid: string }; [k: string]: any }
  }
  const agentOf = async (workspaceId: string) => {
    const w = (await dev.client.get(`/workspaces/${workspaceId}`)).body
    return (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
  }
  /** The agent of the task's workspace connects and reports itself ready. */
  const agentReady = async (workspaceId: string) => {
    const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      "Service-Session-Token": handed.get(workspaceId)!.get("main")!
    })
    ws.socket.send(JSON.stringify({ type: "update_lifecycle", id: 1, state: "ready" }))
    await eventually(() => ws.messages.some((m) => JSON.parse(m).id === 1))
    return { ws, asAgent: dev.client.as(handed.get(workspaceId)!.get("main")!) }
  }

  it("a version with an AI task app shows has_ai_task, as do its builds; others do not", async () => {
    expect((await owner.get(`/templateversions/${ai.active_version_id}`)).body.has_ai_task).toBe(true)
    expect((await owner.get(`/templateversions/${plain.active_version_id}`)).body.has_ai_task).toBe(false)
    const w = await makeWorkspace(srv, dev.client, orgId, plain.id)
    expect(w.latest_build.has_ai_task).toBeUndefined()
    expect(w.task_id).toEqual({ uuid: NIL, valid: false })
  })

  it("creates the task and its workspace: 201 Task, the prompt handed to the agent, the workspace naming its task", async () => {
    const r = await dev.client.post("/tasks/me", {
      input: "Fix the login bug\nIt fails on Safari.",
      template_version_id: ai.active_version_id
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({
      organization_id: orgId,
      owner_id: dev.user.id,
      owner_name: dev.username,
      display_name: "Fix the login bug",
      template_id: ai.id,
      template_version_id: ai.active_version_id,
      template_name: ai.name,
      initial_prompt: "Fix the login bug\nIt fails on Safari.",
      workspace_build_number: 1,
      current_state: null
    })
    expect(r.body.id).toMatch(UUID_PATTERN)
    expect(r.body.name).toMatch(/^fix-the-login-bug-[0-9a-f]{4}$/)
    expect(r.body.workspace_id.valid).toBe(true)
    expect(r.body.workspace_name).toBe(r.body.name)
    expect(["initializing", "pending"]).toContain(r.body.status)
    await runJobs(srv)
    const w = (await dev.client.get(`/workspaces/${r.body.workspace_id.uuid}`)).body
    expect(w.task_id).toEqual({ uuid: r.body.id, valid: true })
    expect(w.latest_build.has_ai_task).toBe(true)
    const agent = await agentOf(w.id)
    expect(agent.environment_variables).toMatchObject({
      PROMPT: "Fix the login bug\nIt fails on Safari.",
      TASK: r.body.id
    })
    // GET /workspaces filters on has-ai-task.
    const withTask = await dev.client.get("/workspaces?q=has-ai-task:true")
    expect(withTask.body.workspaces.map((x: any) => x.id)).toContain(w.id)
    const without = await dev.client.get("/workspaces?q=has-ai-task:false")
    expect(without.body.workspaces.map((x: any) => x.id)).not.toContain(w.id)
  })

  it("status follows the build, the agent and the AI app; current_state is the app's latest status", async () => {
    const t = await makeTask()
    const built = (await dev.client.get(`/tasks/me/${t.name}`)).body
    const agent = await agentOf(t.workspace_id.uuid)
    const app = agent.apps.find((a: any) => a.slug === "claude")
    expect(built).toMatchObject({
      status: "initializing",
      workspace_status: "running",
      workspace_agent_id: { uuid: agent.id, valid: true },
      workspace_app_id: { uuid: app.id, valid: true },
      workspace_agent_lifecycle: "created",
      workspace_agent_health: { healthy: false, reason: "agent has not yet connected" }
    })
    const { ws, asAgent } = await agentReady(t.workspace_id.uuid)
    expect((await dev.client.get(`/tasks/me/${t.id}`)).body).toMatchObject({
      status: "active",
      workspace_agent_lifecycle: "ready"
    })
    const s = await asAgent.patch("/workspaceagents/me/app-status", {
      app_slug: "claude",
      state: "working",
      message: "Reading the code",
      uri: "https://example.com/pr/1"
    })
    expect(s.status, JSON.stringify(s.body)).toBe(200)
    const working = (await dev.client.get(`/tasks/me/${t.id}`)).body
    expect(working.current_state).toMatchObject({
      state: "working",
      message: "Reading the code",
      uri: "https://example.com/pr/1"
    })
    expect(typeof working.current_state.timestamp).toBe("string")
    await asAgent.patch("/workspaceagents/me/app-status", {
      app_slug: "claude",
      state: "failure",
      message: "Tests fail"
    })
    expect((await dev.client.get(`/tasks/me/${t.id}`)).body.current_state).toMatchObject({
      state: "failed",
      message: "Tests fail"
    })
    ws.socket.close(1000)
    await ws.closed
  })

  it("lists tasks with {count, tasks}, filtered by owner, organization and status", async () => {
    const t = await makeTask()
    const mine = await dev.client.get("/tasks?q=owner:me")
    expect(mine.status).toBe(200)
    expect(mine.body.count).toBe(mine.body.tasks.length)
    expect(mine.body.tasks.map((x: any) => x.id)).toContain(t.id)
    // Newest first.
    expect(mine.body.tasks[0].id).toBe(t.id)
    expect((await dev.client.get(`/tasks?q=organization:coder owner:${dev.username}`)).body.tasks.map((x: any) => x.id))
      .toContain(t.id)
    const initializing = await dev.client.get("/tasks?q=status:initializing")
    expect(initializing.body.tasks.map((x: any) => x.id)).toContain(t.id)
    expect(initializing.body.tasks.every((x: any) => x.status === "initializing")).toBe(true)
    expect((await dev.client.get("/tasks?q=status:paused")).body.tasks.map((x: any) => x.id)).not.toContain(t.id)
    const page = await dev.client.get("/tasks?q=owner:me&limit=1&offset=1")
    expect(page.body.tasks).toHaveLength(1)
    expect(page.body.count).toBe(mine.body.count)
    expect((await dev.client.get("/tasks?q=owner:nobody-here")).body).toEqual({ count: 0, tasks: [] })
    // The site owner sees every task; another member sees none of dev's.
    expect((await owner.get(`/tasks?q=owner:${dev.username}`)).body.count).toBe(mine.body.count)
    expect((await other.client.get(`/tasks?q=owner:${dev.username}`)).body).toEqual({ count: 0, tasks: [] })
    expect((await other.client.get("/tasks")).body.tasks.map((x: any) => x.id)).not.toContain(t.id)
    expectValidations(await dev.client.get("/tasks?q=status:bogus"), ["q"])
    expectValidations(await dev.client.get("/tasks?q=colour:red"), ["q"])
    expectValidations(await dev.client.get("/tasks?limit=-1"), ["limit"])
    expectResponse(await dev.client.as(undefined).get("/tasks"), 401)
  })

  it("GET /tasks/{user}/{task}: by id or name; 404 for unknown ones and for another member; 401", async () => {
    const t = await makeTask()
    expect((await dev.client.get(`/tasks/me/${t.id}`)).body.id).toBe(t.id)
    expect((await dev.client.get(`/tasks/${dev.username}/${t.name}`)).body.id).toBe(t.id)
    expect((await owner.get(`/tasks/${dev.user.id}/${t.name.toUpperCase()}`)).body.id).toBe(t.id)
    expectResponse(await dev.client.get(`/tasks/me/${UNKNOWN_ID}`), 404)
    expectResponse(await dev.client.get("/tasks/me/no-such-task"), 404)
    expectResponse(await dev.client.get(`/tasks/nobody-here/${t.name}`), 404)
    expectResponse(await other.client.get(`/tasks/${dev.username}/${t.name}`), 404)
    expectResponse(await other.client.get(`/tasks/${dev.username}/${t.id}/logs`), 404)
    expectResponse(await dev.client.as(undefined).get(`/tasks/me/${t.id}`), 401)
  })

  it("POST /tasks/{user}: 400 for bad fields and a version without an AI task app, 409 for a taken name, 403, 401", async () => {
    expectValidations(await dev.client.post("/tasks/me", { input: "", template_version_id: "nope", name: "-bad-" }), [
      "input",
      "template_version_id",
      "name"
    ])
    expectValidations(await dev.client.post("/tasks/me", {}), ["input", "template_version_id"])
    expectValidations(
      await dev.client.post("/tasks/me", { input: "x", template_version_id: plain.active_version_id }),
      ["template_version_id"]
    )
    expectValidations(await dev.client.post("/tasks/me", { input: "x", template_version_id: UNKNOWN_ID }), [
      "template_version_id"
    ])
    expectValidations(
      await dev.client.post("/tasks/me", {
        input: "x",
        template_version_id: ai.active_version_id,
        template_version_preset_id: UNKNOWN_ID
      }),
      ["template_version_preset_id"]
    )
    const t = await makeTask({ name: "named-task", display_name: "Named" })
    expect(t.name).toBe("named-task")
    expect(t.display_name).toBe("Named")
    expectValidations(
      await dev.client.post("/tasks/me", {
        input: "again",
        template_version_id: ai.active_version_id,
        name: "Named-Task"
      }),
      ["name"],
      409
    )
    // Another member may not create tasks for dev.
    expectResponse(
      await other.client.post(`/tasks/${dev.username}`, { input: "x", template_version_id: ai.active_version_id }),
      403
    )
    expectResponse(
      await dev.client.as(undefined).post("/tasks/me", { input: "x", template_version_id: ai.active_version_id }),
      401
    )
    // The site owner may.
    const forDev = await owner.post(`/tasks/${dev.username}`, {
      input: "On behalf",
      template_version_id: ai.active_version_id
    })
    expect(forDev.status, JSON.stringify(forDev.body)).toBe(201)
    expect(forDev.body.owner_id).toBe(dev.user.id)
    await runJobs(srv)
  })

  it("a failed workspace create leaves no task behind", async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, plain.id, { name: "taken-name" })
    expect(w.name).toBe("taken-name")
    const r = await dev.client.post("/tasks/me", {
      input: "x",
      template_version_id: ai.active_version_id,
      name: "taken-name"
    })
    expectResponse(r, 409)
    expectResponse(await dev.client.get("/tasks/me/taken-name"), 404)
    expect((await dev.client.get("/tasks?q=owner:me")).body.tasks.map((x: any) => x.name)).not.toContain("taken-name")
  })

  it("pause (202 stop build), input changed while paused, logs as a snapshot, resume (202 start build) with the new prompt", async () => {
    const t = await makeTask({ input: "First prompt" })
    const running = await dev.client.patch(`/tasks/me/${t.name}/input`, { input: "Second prompt" })
    expectValidations(running, ["input"])
    expect(running.body.message).toContain("paused")
    expectResponse(await other.client.post(`/tasks/${dev.username}/${t.id}/pause`), 404)
    const paused = await dev.client.post(`/tasks/me/${t.id}/pause`)
    expect(paused.status, JSON.stringify(paused.body)).toBe(202)
    expect(paused.body.workspace_build).toMatchObject({
      transition: "stop",
      reason: "task_manual_pause",
      build_number: 2,
      workspace_id: t.workspace_id.uuid
    })
    await runJobs(srv)
    const got = (await dev.client.get(`/tasks/me/${t.id}`)).body
    expect(got).toMatchObject({ status: "paused", workspace_status: "stopped", workspace_build_number: 2 })
    expect(got.workspace_agent_id).toEqual({ uuid: NIL, valid: false })
    expect(got.workspace_app_id).toEqual({ uuid: NIL, valid: false })
    expect(got.workspace_agent_lifecycle).toBeNull()
    expect(got.workspace_agent_health).toBeNull()
    expectResponse(await dev.client.post(`/tasks/me/${t.id}/pause`), 409)
    // Sending needs a running agent.
    expectResponse(await dev.client.post(`/tasks/me/${t.id}/send`, { input: "hello" }), 400)
    const logs = await dev.client.get(`/tasks/me/${t.id}/logs`)
    expect(logs.status).toBe(200)
    expect(logs.body.snapshot).toBe(true)
    expect(typeof logs.body.snapshot_at).toBe("string")
    expect(logs.body.logs[0]).toMatchObject({ type: "input", content: "First prompt" })
    expect(typeof logs.body.logs[0].id).toBe("number")
    expectValidations(await dev.client.patch(`/tasks/me/${t.id}/input`, { input: "" }), ["input"])
    // Only white space is no input either (the described system trims before checking).
    const blank = await dev.client.patch(`/tasks/me/${t.id}/input`, { input: " \n\t " })
    expectValidations(blank, ["input"])
    expect(blank.body.message).toBe("Task input is required.")
    expect((await dev.client.get(`/tasks/me/${t.id}`)).body.initial_prompt).toBe("First prompt")
    expectResponse(await other.client.patch(`/tasks/${dev.username}/${t.id}/input`, { input: "Mine now" }), 404)
    expect((await dev.client.patch(`/tasks/me/${t.id}/input`, { input: "Second prompt" })).status).toBe(204)
    expect((await dev.client.get(`/tasks/me/${t.id}`)).body.initial_prompt).toBe("Second prompt")
    const resumed = await dev.client.post(`/tasks/me/${t.id}/resume`)
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(202)
    expect(resumed.body.workspace_build).toMatchObject({ transition: "start", reason: "task_resume", build_number: 3 })
    await runJobs(srv)
    expect((await agentOf(t.workspace_id.uuid)).environment_variables.PROMPT).toBe("Second prompt")
    expectResponse(await dev.client.post(`/tasks/me/${t.id}/resume`), 409)
  })

  it("log-snapshot: the agent's upload (204) answers the logs once the task is paused; 400, 401, 404", async () => {
    const t = await makeTask({ input: "Snapshot prompt" })
    const mine = await makeTask({ input: "Another" })
    const { ws, asAgent } = await agentReady(t.workspace_id.uuid)
    const url = `/workspaceagents/me/tasks/${t.id}/log-snapshot?format=agentapi`
    const messages = [
      { id: 0, role: "user", content: "Snapshot prompt", time: "2030-01-01T10:00:00Z" },
      { id: 1, role: "agent", content: "Done: é ✓", time: "2030-01-01T10:00:05.5Z" }
    ]
    expectValidations(await asAgent.post(`/workspaceagents/me/tasks/${t.id}/log-snapshot`, { messages }), ["format"])
    expectValidations(
      await asAgent.post(`/workspaceagents/me/tasks/${t.id}/log-snapshot?format=text`, { messages }),
      ["format"]
    )
    expectValidations(await asAgent.post(url, {}), ["messages"])
    expectValidations(await asAgent.post(url, { messages: [{ id: 0, role: "system", content: "x" }] }), [
      "messages.0.role",
      "messages.0.time"
    ])
    expectValidations(
      await asAgent.post("/workspaceagents/me/tasks/not-a-uuid/log-snapshot?format=agentapi", {
        messages
      }),
      ["task"]
    )
    const big = await asAgent.post(url, {
      messages: [0, 1, 2].map((id) => ({
        id,
        role: "agent",
        content: "x".repeat(30_000),
        time: "2030-01-01T10:00:00Z"
      }))
    })
    expectValidations(big, ["messages"])
    expectResponse(await dev.client.as(undefined).post(url, { messages }), 401)
    // A user's key is not an agent's token.
    expectResponse(await dev.client.post(url, { messages }), 401)
    expectResponse(
      await asAgent.post(`/workspaceagents/me/tasks/${UNKNOWN_ID}/log-snapshot?format=agentapi`, { messages }),
      404
    )
    // Another task, of another workspace: not this agent's.
    expectResponse(
      await asAgent.post(`/workspaceagents/me/tasks/${mine.id}/log-snapshot?format=agentapi`, { messages }),
      404
    )
    const stored = await asAgent.post(url, { messages: messages.slice(0, 1) })
    expect(stored.status, JSON.stringify(stored.body)).toBe(204)
    // The latest upload replaces the previous.
    expect((await asAgent.post(url, { messages })).status).toBe(204)
    // Live, the logs are the conversation, not the snapshot.
    const live = await dev.client.get(`/tasks/me/${t.id}/logs`)
    expect(live.body.snapshot).toBeUndefined()
    expect(live.body.logs.map((l: any) => l.content)).toEqual(["Snapshot prompt"])
    ws.socket.close(1000)
    expect((await dev.client.post(`/tasks/me/${t.id}/pause`)).status).toBe(202)
    await runJobs(srv)
    const logs = await dev.client.get(`/tasks/me/${t.id}/logs`)
    expect(logs.status).toBe(200)
    expect(logs.body).toMatchObject({
      snapshot: true,
      logs: [
        { id: 0, type: "input", content: "Snapshot prompt", time: "2030-01-01T10:00:00.000Z" },
        { id: 1, type: "output", content: "Done: é ✓", time: "2030-01-01T10:00:05.500Z" }
      ]
    })
    expect(Date.parse(logs.body.snapshot_at)).toBeGreaterThan(0)
    // The agent of a stopped workspace is gone: its token no longer uploads.
    expectResponse(await asAgent.post(url, { messages }), 401)
  })

  it("send: 204 and the input in the log while the agent runs; 409 before it connects; 400 bad body; 404 for another member", async () => {
    const t = await makeTask({ input: "Start here" })
    const early = await dev.client.post(`/tasks/me/${t.id}/send`, { input: "too early" })
    expectResponse(early, 409)
    expect(early.body.message).toBe("The task's agent is not connected.")
    expect(typeof early.body.detail).toBe("string")
    const { ws } = await agentReady(t.workspace_id.uuid)
    expectValidations(await dev.client.post(`/tasks/me/${t.id}/send`, {}), ["input"])
    expectResponse(await other.client.post(`/tasks/${dev.username}/${t.id}/send`, { input: "psst" }), 404)
    expectResponse(await dev.client.as(undefined).post(`/tasks/me/${t.id}/send`, { input: "psst" }), 401)
    const sent = await dev.client.post(`/tasks/me/${t.id}/send`, { input: "Also fix the tests" })
    expect(sent.status, JSON.stringify(sent.body)).toBe(204)
    const logs = await dev.client.get(`/tasks/me/${t.id}/logs`)
    expect(logs.status).toBe(200)
    expect(logs.body.snapshot).toBeUndefined()
    expect(logs.body.logs.filter((l: any) => l.type === "input").map((l: any) => l.content)).toEqual([
      "Start here",
      "Also fix the tests"
    ])
    expect(ws.messages.map((m) => JSON.parse(m)).filter((m) => m.type === "task_input").map((m) => m.content)).toEqual([
      "Also fix the tests"
    ])
    ws.socket.close(1000)
    await ws.closed
  })

  it("a token without task:update gets 403 on actions it may read for", async () => {
    const t = await makeTask()
    const reader = await tokenClient(dev.client, { scopes: ["task:read"] })
    expect((await reader.get(`/tasks/me/${t.id}`)).status).toBe(200)
    expectResponse(await reader.post(`/tasks/me/${t.id}/pause`), 403)
    expectResponse(await reader.delete(`/tasks/me/${t.id}`), 403)
  })

  it("DELETE: 202, a delete build runs, then the task leaves listings and its name is free", async () => {
    const t = await makeTask({ name: "to-delete" })
    expectResponse(await other.client.delete(`/tasks/${dev.username}/${t.id}`), 404)
    const r = await dev.client.delete(`/tasks/me/${t.id}`)
    expect(r.status, JSON.stringify(r.body)).toBe(202)
    await runJobs(srv)
    expectResponse(await dev.client.get(`/tasks/me/${t.id}`), 404)
    expect((await dev.client.get("/tasks?q=owner:me")).body.tasks.map((x: any) => x.id)).not.toContain(t.id)
    const again = await makeTask({ name: "to-delete" })
    expect(again.id).not.toBe(t.id)
  })

  it("audits every task action with resource_type task", async () => {
    const t = await makeTask({ name: "audited-task" })
    await dev.client.post(`/tasks/me/${t.id}/pause`)
    await runJobs(srv)
    await dev.client.patch(`/tasks/me/${t.id}/input`, { input: "Changed" })
    await dev.client.delete(`/tasks/me/${t.id}`)
    await runJobs(srv)
    const audit = await owner.get("/audit?q=resource_type:task&limit=50")
    expect(audit.status, JSON.stringify(audit.body)).toBe(200)
    const entries = (audit.body.audit_logs as Array<any>).filter((e) => e.resource_id === t.id)
    expect(entries.map((e) => e.action).sort()).toEqual(["create", "delete", "write", "write"])
    expect(entries.every((e) => e.resource_target === "audited-task" && e.status_code < 300)).toBe(true)
    const changed = entries.find((e) => e.action === "write" && e.diff.prompt !== undefined)
    expect(changed.diff.prompt).toMatchObject({ old: "Fix the login bug", new: "Changed" })
  })

  it("answers no hostile body with a 5xx", async () => {
    const t = await makeTask()
    await expectNoServerErrors(dev.client, [
      ["POST", "/tasks/me"],
      ["GET", "/tasks?q=%22"],
      ["PATCH", `/tasks/me/${t.id}/input`],
      ["POST", `/tasks/me/${t.id}/send`],
      ["POST", `/tasks/me/${t.id}/pause`],
      ["POST", `/tasks/me/${t.id}/resume`],
      ["GET", `/tasks/me/${"x".repeat(300)}`]
    ])
  })
})
