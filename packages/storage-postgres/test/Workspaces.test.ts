/**
 * Workspaces on Postgres through HTTP: the create → start → stop → delete flow the SQLite
 * tests drive (http/test/workspaces/Workspaces.test.ts), with the built-in provisioner workers
 * running the builds, on a fresh schema of this run's database.
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
import { runJobs } from "../../http/test/templates/versions.js"
import { FREE_TEMPLATE, makeTemplate, WORKSPACE_TEMPLATE } from "../../http/test/workspaces/fixtures.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("workspaces on Postgres", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: TestUser
  beforeAll(async () => {
    const schema = `ws_${randomBytes(6).toString("hex")}`
    ;({ srv, owner, orgId } = await startWithOwner({
      storage: Postgres.layer({ url: url!, schema, maxConnections: 4 })
    }))
    member = await createUser(owner)
    const q = await owner.patch(`/groups/${orgId}`, { quota_allowance: 10 })
    expect(q.status, JSON.stringify(q.body)).toBe(200)
  })
  afterAll(() => srv?.close())

  it("creates a workspace, then stops, starts and deletes it, the workers running every build", async () => {
    const template = await makeTemplate(srv, owner, orgId, WORKSPACE_TEMPLATE)
    const created = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "pg-flow",
      template_id: template.id,
      rich_parameter_values: [{ name: "cpus", value: "3" }]
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const id = created.body.id as string
    await runJobs(srv)
    const running = await member.client.get(`/workspaces/${id}`)
    expect(running.body.latest_build).toMatchObject({
      build_number: 1,
      transition: "start",
      status: "running",
      daily_cost: 3
    })
    expect(running.body.latest_build.resources.map((r: { name: string }) => r.name).sort()).toEqual(["dev", "home"])
    expect((await member.client.get(`/workspace-quota/${member.user.id}`)).body).toMatchObject({ credits_consumed: 3 })

    const build = async (body: Record<string, unknown>, status: string, number: number) => {
      const r = await member.client.post(`/workspaces/${id}/builds`, body)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.build_number).toBe(number)
      await runJobs(srv)
      const got = await member.client.get(`/workspacebuilds/${r.body.id}`)
      expect(got.body.status, JSON.stringify(got.body.job)).toBe(status)
      return got.body
    }
    await build({ transition: "stop" }, "stopped", 2)
    expect((await member.client.get(`/workspace-quota/${member.user.id}`)).body.credits_consumed).toBe(0)
    const restarted = await build(
      { transition: "start", rich_parameter_values: [{ name: "cpus", value: "4" }] },
      "running",
      3
    )
    expect((await member.client.get(`/workspacebuilds/${restarted.id}/parameters`)).body).toContainEqual({
      name: "cpus",
      value: "4"
    })
    const logs = await member.client.get(`/workspacebuilds/${restarted.id}/logs`)
    expect(logs.status).toBe(200)
    expect(logs.body.map((l: { output: string }) => l.output)).toContain(`Building pg-flow for ${member.username}`)

    const builds = await member.client.get(`/workspaces/${id}/builds`)
    expect(builds.body.map((b: { build_number: number }) => b.build_number)).toEqual([3, 2, 1])
    const listed = await member.client.get(`/workspaces?q=${encodeURIComponent("owner:me")}`)
    expect(listed.body).toMatchObject({ count: 1, workspaces: [{ id, latest_build: { status: "running" } }] })

    await build({ transition: "delete" }, "deleted", 4)
    expect((await member.client.get(`/workspaces/${id}`)).status).toBe(404)
    expect((await member.client.get(`/workspaces/${id}?include_deleted=true`)).body.latest_build.status).toBe("deleted")
    expect((await member.client.get(`/workspaces?q=${encodeURIComponent("owner:me")}`)).body.count).toBe(0)
    // The name is free again.
    const free = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
    const again = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "pg-flow",
      template_id: free.id
    })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    await runJobs(srv)
  })

  it("answers a build's timings, overwrites its state and resolves the autostart", async () => {
    const template = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
    const created = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "pg-timings",
      template_id: template.id
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    await runJobs(srv)
    const build = (await member.client.get(`/workspaces/${created.body.id}`)).body.latest_build
    const timings = await member.client.get(`/workspacebuilds/${build.id}/timings`)
    expect(timings.status).toBe(200)
    expect(timings.body.provisioner_timings.map((t: { stage: string }) => t.stage)).toEqual([
      "init",
      "plan",
      "apply",
      "apply"
    ])
    expect((await member.client.get(`/workspaces/${created.body.id}/timings`)).body).toEqual(timings.body)
    const put = await owner.put(`/workspacebuilds/${build.id}/state`, {
      state: Buffer.from("{\"pg\":true}").toString("base64")
    })
    expect(put.status, JSON.stringify(put.body)).toBe(204)
    expect((await owner.get(`/workspacebuilds/${build.id}/state`)).body).toEqual({ pg: true })
    expect((await member.client.get(`/workspaces/${created.body.id}/resolve-autostart`)).body).toEqual({
      parameter_mismatch: false
    })
  })
})
