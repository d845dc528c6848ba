/**
 * Black-box tests of workspaces and their builds over real HTTP, on a fresh SQLite database and
 * the built-in provisioner workers: create (both forms, parameters, presets, schedules), read
 * and list, rename, favorites, builds (start, stop, restart, delete, orphan), logs (listed and
 * followed over a real WebSocket), resources, parameters, state, cancel, quotas and refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createOrganization,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { connect, eventually, refusal } from "../websocket.js"
import {
  FREE_TEMPLATE,
  insertUnbuiltWorkspace,
  makeTemplate,
  makeWorkspace,
  SLOW_TEMPLATE,
  WORKSPACE_TEMPLATE
} from "./fixtures.js"
import { addBuild, seedWorkspace } from "./portShareFixtures.js"

describe("workspaces", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: TestUser
  let other: TestUser
  let template: { id: string; active_version_id: string; name: string }
  let free: { id: string; active_version_id: string; name: string }

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ settings: { allowWorkspaceRenames: true } }))
    member = await createUser(owner)
    other = await createUser(owner)
    // Everyone gets a budget: quotas are on in the default organization (a start past it is refused).
    const q = await owner.patch(`/groups/${orgId}`, { quota_allowance: 10 })
    expect(q.status, JSON.stringify(q.body)).toBe(200)
    template = await makeTemplate(srv, owner, orgId, WORKSPACE_TEMPLATE)
    free = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
  })
  afterAll(() => srv.close())

  it("creates a workspace with its first build, which the workers run to running", async () => {
    const r = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "first-one",
      template_id: template.id,
      rich_parameter_values: [{ name: "cpus", value: "3" }],
      ttl_ms: 3_600_000,
      autostart_schedule: "CRON_TZ=Europe/Paris 30 8 * * 1-5",
      automatic_updates: "always"
    })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body).toMatchObject({
      name: "first-one",
      owner_id: member.user.id,
      owner_name: member.username,
      organization_id: orgId,
      organization_name: "coder",
      template_id: template.id,
      template_name: template.name,
      template_active_version_id: template.active_version_id,
      outdated: false,
      ttl_ms: 3_600_000,
      autostart_schedule: "CRON_TZ=Europe/Paris 30 8 * * 1-5",
      automatic_updates: "always",
      favorite: false,
      deleting_at: null,
      dormant_at: null,
      latest_app_status: null,
      is_prebuild: false,
      task_id: { uuid: "00000000-0000-0000-0000-000000000000", valid: false },
      shared_with: [],
      latest_build: {
        build_number: 1,
        transition: "start",
        reason: "initiator",
        initiator_id: member.user.id,
        workspace_name: "first-one",
        template_version_id: template.active_version_id,
        job: { type: "workspace_build" }
      }
    })
    expect(typeof r.body.next_start_at).toBe("string")
    expect(["pending", "starting", "running"]).toContain(r.body.latest_build.status)
    await runJobs(srv)
    const got = await member.client.get(`/workspaces/${r.body.id}`)
    expect(got.body.latest_build).toMatchObject({ status: "running", daily_cost: 3, job: { status: "succeeded" } })
    const agents = got.body.latest_build.resources.flatMap((x: any) => x.agents ?? [])
    expect(agents).toHaveLength(1)
    expect(agents[0]).toMatchObject({ name: "main", status: "connecting", lifecycle_state: "created" })
    // An agent that has never connected is unhealthy (the described system's current rule).
    expect(agents[0].health).toEqual({ healthy: false, reason: "agent has not yet connected" })
    expect(got.body.health).toEqual({ healthy: false, failing_agents: [agents[0].id] })
    const params = await member.client.get(`/workspacebuilds/${got.body.latest_build.id}/parameters`)
    expect(params.body).toEqual([
      { name: "cpus", value: "3" },
      { name: "region", value: "eu" },
      { name: "repo", value: "https://example.com/a.git" },
      { name: "token", value: "" }
    ].sort((a, b) => a.name.localeCompare(b.name)))
  })

  it("creates through /users/{user}/workspaces with a preset, answering 200", async () => {
    const presets = await owner.get(`/templateversions/${template.active_version_id}/presets`)
    const big = presets.body.find((p: any) => p.Name === "big")
    const r = await member.client.post(`/users/me/workspaces`, {
      name: "with-preset",
      template_id: template.id,
      template_version_preset_id: big.ID
    })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.latest_build.template_version_preset_id).toBe(big.ID)
    const params = await member.client.get(`/workspacebuilds/${r.body.latest_build.id}/parameters`)
    expect(params.body).toEqual(expect.arrayContaining([{ name: "cpus", value: "4" }, { name: "region", value: "us" }]))
    await runJobs(srv)
  })

  it("refuses bad creates: both or neither template, bad parameters, bad schedules, taken names", async () => {
    const base = `/organizations/${orgId}/members/me/workspaces`
    expectValidations(await member.client.post(base, { name: "x1" }), ["template_id", "template_version_id"])
    expectValidations(
      await member.client.post(base, {
        name: "x2",
        template_id: template.id,
        template_version_id: template.active_version_id
      }),
      ["template_id", "template_version_id"]
    )
    expectValidations(await member.client.post(base, { name: "-bad-", template_id: template.id }), ["name"])
    expectValidations(await member.client.post(base, { name: "x3", template_id: UNKNOWN_ID }), ["template_id"])
    expectValidations(
      await member.client.post(base, {
        name: "x4",
        template_id: template.id,
        rich_parameter_values: [{ name: "region", value: "mars" }, { name: "cpus", value: "9" }, {
          name: "repo",
          value: "ftp://x"
        }]
      }),
      ["rich_parameter_values.region", "rich_parameter_values.cpus", "rich_parameter_values.repo"]
    )
    expectValidations(await member.client.post(base, { name: "x5", template_id: template.id, ttl_ms: 10 }), ["ttl_ms"])
    expectValidations(
      await member.client.post(base, { name: "x6", template_id: template.id, autostart_schedule: "30 8 1 * *" }),
      [
        "autostart_schedule"
      ]
    )
    expectValidations(
      await member.client.post(base, {
        name: "x7",
        template_id: template.id,
        autostart_schedule: "CRON_TZ=Nowhere/Land 30 8 * * *"
      }),
      ["autostart_schedule"]
    )
    const ws = await makeWorkspace(srv, member.client, orgId, free.id)
    const taken = await member.client.post(base, { name: ws.name.toUpperCase(), template_id: free.id })
    expectValidations(taken, ["name"], 409)
  })

  it("creates for others only with the right to: members 403, owners may", async () => {
    const forOther = await member.client.post(`/organizations/${orgId}/members/${other.username}/workspaces`, {
      name: "not-mine",
      template_id: free.id
    })
    expectResponse(forOther, 403)
    const byOwner = await owner.post(`/organizations/${orgId}/members/${other.username}/workspaces`, {
      name: "given",
      template_id: free.id
    })
    expect(byOwner.status, JSON.stringify(byOwner.body)).toBe(200)
    expect(byOwner.body.owner_id).toBe(other.user.id)
    expect(byOwner.body.latest_build.initiator_id).not.toBe(other.user.id)
    await runJobs(srv)
    // available-users: members see themselves only; owners every member.
    const mine = await member.client.get(`/organizations/${orgId}/members/me/workspaces/available-users`)
    expect(mine.body.map((u: any) => u.id)).toEqual([member.user.id])
    const all = await owner.get(`/organizations/${orgId}/members/me/workspaces/available-users?q=${other.username}`)
    expect(all.body.map((u: any) => u.username)).toEqual([other.username])
  })

  it("reads by id and by owner and name; others get 404; deleted ones need include_deleted", async () => {
    const ws = await makeWorkspace(srv, member.client, orgId, free.id)
    const byName = await member.client.get(`/users/me/workspace/${ws.name}`)
    expect(byName.status).toBe(200)
    expect(byName.body.id).toBe(ws.id)
    expectResponse(await other.client.get(`/workspaces/${ws.id}`), 404)
    expectResponse(await other.client.get(`/users/${member.username}/workspace/${ws.name}`), 404)
    expectResponse(await member.client.get(`/workspaces/${UNKNOWN_ID}`), 404)
    expectValidations(await member.client.get(`/workspaces/not-a-uuid`), ["workspace"])
    expectResponse(await srv.anonymous.get(`/workspaces/${ws.id}`), 401)
    // Delete it.
    const del = await member.client.post(`/workspaces/${ws.id}/builds`, { transition: "delete" })
    expect(del.status, JSON.stringify(del.body)).toBe(200)
    expect(del.body).toMatchObject({ transition: "delete", build_number: 2 })
    await runJobs(srv)
    expectResponse(await member.client.get(`/workspaces/${ws.id}`), 404)
    expectResponse(await member.client.get(`/users/me/workspace/${ws.name}`), 404)
    const deleted = await member.client.get(`/users/me/workspace/${ws.name}?include_deleted=true`)
    expect(deleted.status).toBe(200)
    expect(deleted.body.latest_build.status).toBe("deleted")
    // The name is free again.
    await makeWorkspace(srv, member.client, orgId, free.id, { name: ws.name })
  })

  it("stops, starts (restart) and keeps parameters; immutable and monotonic rules hold", async () => {
    const ws = await makeWorkspace(srv, member.client, orgId, template.id, {
      rich_parameter_values: [{ name: "cpus", value: "4" }]
    })
    expect(ws.latest_build.status).toBe("running")
    const stop = await member.client.post(`/workspaces/${ws.id}/builds`, { transition: "stop" })
    expect(stop.status, JSON.stringify(stop.body)).toBe(200)
    await runJobs(srv)
    const stopped = await member.client.get(`/workspaces/${ws.id}`)
    expect(stopped.body.latest_build).toMatchObject({ status: "stopped", transition: "stop", build_number: 2 })
    expect(stopped.body.health).toEqual({ healthy: true, failing_agents: [] })
    expectValidations(
      await member.client.post(`/workspaces/${ws.id}/builds`, {
        transition: "start",
        rich_parameter_values: [{ name: "region", value: "us" }]
      }),
      ["rich_parameter_values.region"]
    )
    expectValidations(
      await member.client.post(`/workspaces/${ws.id}/builds`, {
        transition: "start",
        rich_parameter_values: [{ name: "cpus", value: "2" }]
      }),
      ["rich_parameter_values.cpus"]
    )
    const start = await member.client.post(`/workspaces/${ws.id}/builds`, {
      transition: "start",
      rich_parameter_values: [{ name: "cpus", value: "5" }],
      reason: "dashboard"
    })
    expect(start.status, JSON.stringify(start.body)).toBe(200)
    await runJobs(srv)
    const params = await member.client.get(`/workspacebuilds/${start.body.id}/parameters`)
    expect(params.body).toEqual(expect.arrayContaining([{ name: "cpus", value: "5" }, { name: "region", value: "eu" }]))
    const list = await member.client.get(`/workspaces/${ws.id}/builds`)
    expect(list.body.map((b: any) => b.build_number)).toEqual([3, 2, 1])
    // after_id: the builds numbered above the cursor, newest first (the described system's query).
    const after = await member.client.get(`/workspaces/${ws.id}/builds?after_id=${list.body[2].id}`)
    expect(after.body.map((b: any) => b.build_number)).toEqual([3, 2])
    const afterPage = await member.client.get(
      `/workspaces/${ws.id}/builds?after_id=${list.body[2].id}&limit=1&offset=1`
    )
    expect(afterPage.body.map((b: any) => b.build_number)).toEqual([2])
    // since: created strictly after that time.
    const since = await member.client.get(
      `/workspaces/${ws.id}/builds?since=${encodeURIComponent(list.body[1].created_at)}`
    )
    expect(since.body.map((b: any) => b.build_number)).toEqual([3])
    const byNumber = await member.client.get(`/users/${member.username}/workspace/${ws.name}/builds/2`)
    expect(byNumber.body).toMatchObject({ build_number: 2, transition: "stop" })
    expectResponse(await member.client.get(`/users/${member.username}/workspace/${ws.name}/builds/9`), 404)
    expectValidations(await member.client.get(`/users/${member.username}/workspace/${ws.name}/builds/zero`), [
      "buildnumber"
    ])
    expectResponse(await other.client.post(`/workspaces/${ws.id}/builds`, { transition: "stop" }), 404)
    expectValidations(await member.client.post(`/workspaces/${ws.id}/builds`, { transition: "restart" }), [
      "transition"
    ])
  })

  it("pages builds: 25 by default and for limit=0 (the client's \"no limit\"), at most 100, with offset", async () => {
    // 101 finished builds written straight into storage: running that many through the workers would be slow.
    const ws = await seedWorkspace(srv, { ownerId: member.user.id, organizationId: orgId, template: free })
    for (let n = 2; n <= 101; n++) await addBuild(srv, ws, n, [])
    const numbers = async (query: string) => {
      const r = await member.client.get(`/workspaces/${ws.id}/builds${query}`)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      return (r.body as Array<any>).map((b) => b.build_number)
    }
    const newest = (from: number, count: number) => Array.from({ length: count }, (_, i) => from - i)
    expect(await numbers("")).toEqual(newest(101, 25))
    expect(await numbers("?limit=0")).toEqual(newest(101, 25))
    expect(await numbers("?limit=0&offset=0")).toEqual(newest(101, 25))
    expect(await numbers("?limit=")).toEqual(newest(101, 25))
    expect(await numbers("?limit=100")).toEqual(newest(101, 100))
    expect(await numbers("?limit=1000")).toEqual(newest(101, 100))
    expect(await numbers("?limit=25&offset=75")).toEqual(newest(26, 25))
    expect(await numbers("?limit=25&offset=100")).toEqual([1])
    expect(await numbers("?offset=200")).toEqual([])
    expectValidations(await member.client.get(`/workspaces/${ws.id}/builds?limit=-1`), ["limit"])
  })

  it("reads logs, resources and state; state is for template admins only", async () => {
    const reader = await createUser(owner)
    const ws = await makeWorkspace(srv, reader.client, orgId, template.id)
    const id = ws.latest_build.id
    const logs = await reader.client.get(`/workspacebuilds/${id}/logs`)
    expect(logs.status).toBe(200)
    expect(logs.body.map((l: any) => l.output)).toContain(`Building ${ws.name} for ${reader.username}`)
    const resources = await reader.client.get(`/workspacebuilds/${id}/resources`)
    expect(resources.body.map((r: any) => r.name).sort()).toEqual(["dev", "home"])
    expect(resources.body.find((r: any) => r.name === "dev")).toMatchObject({
      daily_cost: 2,
      workspace_transition: "start"
    })
    expectResponse(await reader.client.get(`/workspacebuilds/${id}/state`), 404)
    const state = await owner.get(`/workspacebuilds/${id}/state`)
    expect(state.status).toBe(200)
    expect(state.body).toMatchObject({ build_number: 1 })
    expectResponse(await other.client.get(`/workspacebuilds/${id}/logs`), 404)
    expectResponse(await member.client.get(`/workspacebuilds/${UNKNOWN_ID}`), 404)
  })

  it("follows a build's logs over a WebSocket until the build ends", async () => {
    const slow = await makeTemplate(srv, owner, orgId, SLOW_TEMPLATE)
    const r = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "followed",
      template_id: slow.id
    })
    expect(r.status).toBe(200)
    const ws = await connect(`${srv.wsUrl}/api/v2/workspacebuilds/${r.body.latest_build.id}/logs?follow=true`, {
      [SESSION_HEADER]: member.client.token!
    })
    const closed = await ws.closed
    expect(closed.code).toBe(1000)
    expect(ws.messages.map((m) => JSON.parse(m).output)).toContain("Slow start")
    const refused = await refusal(
      connect(`${srv.wsUrl}/api/v2/workspacebuilds/${r.body.latest_build.id}/logs?follow=true`, {
        [SESSION_HEADER]: other.client.token!
      })
    )
    expect(refused.status).toBe(404)
  })

  it("answers 409 for a second build while one runs, cancels with expect_status and 412", async () => {
    const slow = await makeTemplate(srv, owner, orgId, SLOW_TEMPLATE, { allow_user_cancel_workspace_jobs: true })
    const r = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "racing",
      template_id: slow.id
    })
    expect(r.status).toBe(200)
    expectResponse(await member.client.post(`/workspaces/${r.body.id}/builds`, { transition: "stop" }), 409)
    const build = r.body.latest_build.id
    await eventually(() => true)
    const wrong = await member.client.patch(`/workspacebuilds/${build}/cancel?expect_status=pending`)
    // The workers claim at once: the job is running, so expecting pending fails.
    if (wrong.status === 412) expectResponse(wrong, 412)
    const cancel = await member.client.patch(`/workspacebuilds/${build}/cancel?expect_status=running`)
    if (cancel.status === 412) {
      // Still pending on a busy machine: cancel without a precondition.
      expect((await member.client.patch(`/workspacebuilds/${build}/cancel`)).status).toBe(200)
    } else {
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(200)
      expect(cancel.body.message).toBe("Job has been marked as canceled...")
    }
    await runJobs(srv)
    await eventually(() => true)
    let status = ""
    for (let i = 0; i < 300 && status !== "canceled"; i++) {
      status = (await member.client.get(`/workspaces/${r.body.id}`)).body.latest_build.status
      if (status !== "canceled") await new Promise((res) => setTimeout(res, 20))
    }
    expect(status).toBe("canceled")
    expectResponse(await member.client.patch(`/workspacebuilds/${build}/cancel`), 400)
    expectValidations(await member.client.patch(`/workspacebuilds/${build}/cancel?expect_status=done`), [
      "expect_status"
    ])
  })

  it("a build starts from the previous build's state, kept when a build fails; custom state for template admins only", async () => {
    const failing = await makeTemplate(
      srv,
      owner,
      orgId,
      `resources:
  - name: box
    type: machine
build:
  fail: { transition: stop, message: "The stop broke." }
`
    )
    const w = await makeWorkspace(srv, member.client, orgId, failing.id)
    const stateOf = async (buildId: string) => {
      const r = await owner.get(`/workspacebuilds/${buildId}/state`)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      return r.body
    }
    expect(await stateOf(w.latest_build.id)).toMatchObject({ build_number: 1, transition: "start" })
    const stop = await member.client.post(`/workspaces/${w.id}/builds`, { transition: "stop" })
    expect(stop.status, JSON.stringify(stop.body)).toBe(200)
    await runJobs(srv)
    expect((await member.client.get(`/workspacebuilds/${stop.body.id}`)).body.status).toBe("failed")
    // The failed build keeps the state it started from, so the next build continues from it.
    expect(await stateOf(stop.body.id)).toMatchObject({ build_number: 1, transition: "start" })
    const start = await member.client.post(`/workspaces/${w.id}/builds`, { transition: "start" })
    expect(start.status, JSON.stringify(start.body)).toBe(200)
    await runJobs(srv)
    expect(await stateOf(start.body.id)).toMatchObject({ build_number: 2, transition: "start" })

    const custom = [
      ...new TextEncoder().encode(
        JSON.stringify({ format: "workbay/1", build_number: 41, transition: "start", resources: [] })
      )
    ]
    const refused = await member.client.post(`/workspaces/${w.id}/builds`, { transition: "start", state: custom })
    expectResponse(refused, 403)
    expect(refused.body.message).toBe("Only template managers may provide custom state.")
    expectValidations(await owner.post(`/workspaces/${w.id}/builds`, { transition: "start", state: [1, 256] }), [
      "state"
    ])
    const given = await owner.post(`/workspaces/${w.id}/builds`, { transition: "start", state: custom })
    expect(given.status, JSON.stringify(given.body)).toBe(200)
    await runJobs(srv)
    expect(await stateOf(given.body.id)).toMatchObject({ build_number: 42 })
  })

  it("refuses cancels when the template does not let users cancel", async () => {
    const slow = await makeTemplate(srv, owner, orgId, SLOW_TEMPLATE, { allow_user_cancel_workspace_jobs: false })
    const r = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "no-cancel",
      template_id: slow.id
    })
    expectResponse(await member.client.patch(`/workspacebuilds/${r.body.latest_build.id}/cancel`), 403)
    expect((await owner.patch(`/workspacebuilds/${r.body.latest_build.id}/cancel`)).status).toBe(200)
    await runJobs(srv)
  })

  it("fails a start past the owner's quota with the described system's message; quota shows credits", async () => {
    const poor = await createUser(owner)
    // Everyone has 10; the template costs 3 a day while running.
    const one = await makeWorkspace(srv, poor.client, orgId, template.id)
    const two = await makeWorkspace(srv, poor.client, orgId, template.id)
    const three = await makeWorkspace(srv, poor.client, orgId, template.id)
    expect([one, two, three].map((w) => w.latest_build.status)).toEqual(["running", "running", "running"])
    const quota = await poor.client.get(`/organizations/${orgId}/members/me/workspace-quota`)
    expect(quota.body).toEqual({ budget: 10, credits_consumed: 9 })
    const four = await makeWorkspace(srv, poor.client, orgId, template.id)
    expect(four.latest_build).toMatchObject({
      status: "failed",
      job: { status: "failed", error: "insufficient quota" }
    })
    // A stopped workspace frees its credits.
    await poor.client.post(`/workspaces/${one.id}/builds`, { transition: "stop" })
    await runJobs(srv)
    expect((await poor.client.get(`/workspace-quota/me`)).body.credits_consumed).toBe(6)
  })

  it("applies quotas in an organization only once a group of it has an allowance; until then costs count, nothing is refused", async () => {
    // A new organization: no group of it has an allowance (the default organization's Everyone has 10).
    const org = await createOrganization(owner)
    const costly = await makeTemplate(srv, owner, org.id, WORKSPACE_TEMPLATE)
    const u = await createUser(owner, { organization_ids: [org.id] })
    const quota = async () => (await u.client.get(`/organizations/${org.id}/members/me/workspace-quota`)).body
    // 3 credits a day each, on a budget of 0: all run, and their costs are counted.
    const built = [
      await makeWorkspace(srv, u.client, org.id, costly.id),
      await makeWorkspace(srv, u.client, org.id, costly.id)
    ]
    for (const w of built) expect(w.latest_build).toMatchObject({ status: "running", daily_cost: 3 })
    expect(await quota()).toEqual({ budget: 0, credits_consumed: 6 })

    // An allowance on a group the user is not in turns quotas on there: their budget of 0 refuses.
    const funded = await owner.post(`/organizations/${org.id}/groups`, { name: "funded", quota_allowance: 20 })
    expect(funded.status, JSON.stringify(funded.body)).toBe(201)
    const refused = await makeWorkspace(srv, u.client, org.id, costly.id)
    expect(refused.latest_build).toMatchObject({ status: "failed", job: { error: "insufficient quota" } })
    const logs = (await u.client.get(`/workspacebuilds/${refused.latest_build.id}/logs`)).body as Array<any>
    expect(logs.map((l) => l.output)).toContain("The workspace costs 3 credits a day; 6 of a budget of 0 are in use.")

    // Back to 0 everywhere: quotas are off again.
    expect((await owner.patch(`/groups/${funded.body.id}`, { quota_allowance: 0 })).status).toBe(200)
    const again = await makeWorkspace(srv, u.client, org.id, costly.id)
    expect(again.latest_build.status).toBe("running")
    expect(await quota()).toEqual({ budget: 0, credits_consumed: 9 })
  })

  it("lists with q filters, favorites first, limit, offset and count", async () => {
    const lister = await createUser(owner)
    const a = await makeWorkspace(srv, lister.client, orgId, free.id, { name: "alpha" })
    const b = await makeWorkspace(srv, lister.client, orgId, free.id, { name: "beta" })
    const c = await makeWorkspace(srv, lister.client, orgId, free.id, { name: "gamma" })
    await lister.client.post(`/workspaces/${b.id}/builds`, { transition: "stop" })
    await runJobs(srv)
    expect((await lister.client.put(`/workspaces/${c.id}/favorite`)).status).toBe(204)
    const all = await lister.client.get(`/workspaces?q=owner:me`)
    expect(all.body.count).toBe(3)
    // Favorites, then running ones, then by name.
    expect(all.body.workspaces.map((w: any) => w.name)).toEqual(["gamma", "alpha", "beta"])
    expect(all.body.workspaces[0].favorite).toBe(true)
    const page = await lister.client.get(`/workspaces?q=owner:me&limit=1&offset=1`)
    expect(page.body).toMatchObject({ count: 3 })
    expect(page.body.workspaces.map((w: any) => w.name)).toEqual(["alpha"])
    expect((await lister.client.get(`/workspaces?q=owner:me status:stopped`)).body.workspaces.map((w: any) => w.name))
      .toEqual(["beta"])
    expect((await lister.client.get(`/workspaces?q=owner:me name:alp`)).body.count).toBe(1)
    expect((await lister.client.get(`/workspaces?q=owner:me template:${free.name}`)).body.count).toBe(3)
    expect((await lister.client.get(`/workspaces?q=owner:me outdated:true`)).body.count).toBe(0)
    expect((await lister.client.get(`/workspaces?q=owner:me has-agent:connecting`)).body.count).toBe(2)
    expect((await lister.client.get(`/workspaces?q=owner:nobody-here`)).body).toEqual({ workspaces: [], count: 0 })
    // Others' workspaces stay hidden; the owner sees every one.
    expect((await other.client.get(`/workspaces?q=owner:${lister.username}`)).body.count).toBe(0)
    expect((await owner.get(`/workspaces?q=owner:${lister.username}`)).body.count).toBe(3)
    expectValidations(await lister.client.get(`/workspaces?q=status:sleepy`), ["q"])
    expectValidations(await lister.client.get(`/workspaces?q=color:blue`), ["q"])
    expectValidations(await lister.client.get(`/workspaces?limit=-1`), ["limit"])
    expect((await lister.client.delete(`/workspaces/${c.id}/favorite`)).status).toBe(204)
    expectResponse(await owner.put(`/workspaces/${a.id}/favorite`), 400)
    expectResponse(await srv.anonymous.get(`/workspaces`), 401)
  })

  it("treats a workspace row without a build as missing: 404 on reads, left out of lists", async () => {
    const holder = await createUser(owner)
    const built = await makeWorkspace(srv, holder.client, orgId, free.id, { name: "built" })
    const unbuilt = await insertUnbuiltWorkspace(srv, {
      ownerId: holder.user.id,
      organizationId: orgId,
      templateId: free.id,
      name: "unbuilt"
    })
    for (const client of [holder.client, owner]) {
      expectResponse(await client.get(`/workspaces/${unbuilt.id}`), 404)
      expectResponse(await client.get(`/workspaces/${unbuilt.id}?include_deleted=true`), 404)
      expectResponse(await client.get(`/users/${holder.username}/workspace/unbuilt`), 404)
      const listed = await client.get(`/workspaces?q=owner:${holder.username}`)
      expect(listed.status, JSON.stringify(listed.body)).toBe(200)
      expect(listed.body.workspaces.map((w: any) => w.id)).toEqual([built.id])
      const all = await client.get(`/workspaces?limit=100`)
      expect(all.status).toBe(200)
      expect(all.body.workspaces.map((w: any) => w.id)).not.toContain(unbuilt.id)
    }
    // Its builds are an empty list, and the routes that answer the workspace answer 404 too.
    const builds = await holder.client.get(`/workspaces/${unbuilt.id}/builds`)
    expect(builds.status, JSON.stringify(builds.body)).toBe(200)
    expect(builds.body).toEqual([])
    expectResponse(await holder.client.put(`/workspaces/${unbuilt.id}/dormant`, { dormant: true }), 404)
    // Watching it is refused before the upgrade or the stream, as for an unknown workspace.
    const auth = { [SESSION_HEADER]: holder.client.token! }
    expect((await refusal(connect(`${srv.wsUrl}/api/v2/workspaces/${unbuilt.id}/watch-ws`, auth))).status).toBe(404)
    expect((await fetch(`${srv.url}/api/v2/workspaces/${unbuilt.id}/watch`, { headers: auth })).status).toBe(404)
  })

  it("renames with 204; clashes 409; others 404", async () => {
    const ws = await makeWorkspace(srv, member.client, orgId, free.id)
    const next = `${ws.name}-r`.slice(-32).replace(/^-/, "r")
    expect((await member.client.patch(`/workspaces/${ws.id}`, { name: next })).status).toBe(204)
    expect((await member.client.get(`/workspaces/${ws.id}`)).body.name).toBe(next)
    const second = await makeWorkspace(srv, member.client, orgId, free.id)
    expectResponse(await member.client.patch(`/workspaces/${second.id}`, { name: next }), 409)
    expectValidations(await member.client.patch(`/workspaces/${second.id}`, { name: "a--b" }), ["name"])
    expectResponse(await other.client.patch(`/workspaces/${second.id}`, { name: "mine" }), 404)
  })

  it("refuses renames when the deployment disallows them", async () => {
    const strict = await startWithOwner()
    try {
      const t = await makeTemplate(strict.srv, strict.owner, strict.orgId, FREE_TEMPLATE)
      const ws = await makeWorkspace(strict.srv, strict.owner, strict.orgId, t.id)
      expect(ws.allow_renames).toBe(false)
      expectValidations(await strict.owner.patch(`/workspaces/${ws.id}`, { name: "renamed" }), ["name"])
    } finally {
      await strict.srv.close()
    }
  })

  it("orphan deletes are for template admins and skip the provisioner", async () => {
    const ws = await makeWorkspace(srv, member.client, orgId, free.id)
    expectResponse(await member.client.post(`/workspaces/${ws.id}/builds`, { transition: "delete", orphan: true }), 403)
    expectValidations(await owner.post(`/workspaces/${ws.id}/builds`, { transition: "stop", orphan: true }), ["orphan"])
    const r = await owner.post(`/workspaces/${ws.id}/builds`, { transition: "delete", orphan: true })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    await runJobs(srv)
    expect((await member.client.get(`/workspaces/${ws.id}?include_deleted=true`)).body.latest_build.status).toBe(
      "deleted"
    )
  })

  it("counts workspaces by status in deployment stats", async () => {
    const stats = await owner.get(`/deployment/stats`)
    expect(stats.status).toBe(200)
    expect(stats.body.workspaces.running).toBeGreaterThan(0)
    expect(stats.body.workspaces.stopped).toBeGreaterThan(0)
  })
})
