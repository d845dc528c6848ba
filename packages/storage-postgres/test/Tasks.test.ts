/**
 * AI tasks on Postgres through HTTP: a task created with its workspace in one transaction (the
 * workspace create and its first build inside it), listed and read, paused, its prompt changed,
 * resumed and deleted, the built-in workers running every build; and a refused workspace leaving
 * no task. On a fresh schema of this run's database.
 */
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import {
  type Client,
  createUser,
  type ServiceTestServer,
  startWithOwner,
  type TestUser
} from "../../http/test/support.js"
import { AI_TEMPLATE } from "../../http/test/tasks/fixtures.js"
import { runJobs } from "../../http/test/templates/versions.js"
import { FREE_TEMPLATE, makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("tasks on Postgres", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: TestUser
  beforeAll(async () => {
    const schema = `tasks_${randomBytes(6).toString("hex")}`
    ;({ srv, owner, orgId } = await startWithOwner({
      storage: Postgres.layer({ url: url!, schema, maxConnections: 4 })
    }))
    member = await createUser(owner)
  })
  afterAll(() => srv?.close())

  it("creates, lists, pauses, changes the prompt of, resumes and deletes a task", async () => {
    const template = await makeTemplate(srv, owner, orgId, AI_TEMPLATE)
    const created = await member.client.post("/tasks/me", {
      input: "Write the changelog",
      template_version_id: template.active_version_id
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.workspace_id.valid).toBe(true)
    const id = created.body.id as string
    await runJobs(srv)
    const listed = await member.client.get("/tasks?q=owner:me")
    expect(listed.body.count).toBe(1)
    expect(listed.body.tasks[0]).toMatchObject({
      id,
      status: "initializing",
      workspace_status: "running",
      workspace_build_number: 1
    })
    expect((await member.client.get(`/workspaces/${created.body.workspace_id.uuid}`)).body.task_id).toEqual({
      uuid: id,
      valid: true
    })

    expect((await member.client.post(`/tasks/me/${id}/pause`)).status).toBe(202)
    await runJobs(srv)
    expect((await member.client.get(`/tasks/me/${id}`)).body.status).toBe("paused")
    expect((await member.client.patch(`/tasks/me/${id}/input`, { input: "Write the release notes" })).status).toBe(204)
    expect((await member.client.post(`/tasks/me/${id}/resume`)).status).toBe(202)
    await runJobs(srv)
    const w = (await member.client.get(`/workspaces/${created.body.workspace_id.uuid}`)).body
    const agent = w.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
    expect(agent.environment_variables.PROMPT).toBe("Write the release notes")

    expect((await member.client.delete(`/tasks/me/${id}`)).status).toBe(202)
    await runJobs(srv)
    expect((await member.client.get(`/tasks/me/${id}`)).status).toBe(404)
    expect((await member.client.get("/tasks?q=owner:me")).body).toEqual({ count: 0, tasks: [] })
  })

  it("a refused workspace leaves no task", async () => {
    const free = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
    await makeWorkspace(srv, member.client, orgId, free.id, { name: "pg-taken" })
    const template = await makeTemplate(srv, owner, orgId, AI_TEMPLATE)
    const r = await member.client.post("/tasks/me", {
      input: "x",
      name: "pg-taken",
      template_version_id: template.active_version_id
    })
    expect(r.status, JSON.stringify(r.body)).toBe(409)
    expect((await member.client.get("/tasks/me/pg-taken")).status).toBe(404)
  })
})
