/**
 * The dashboard client's requests to the workspaces, builds, sharing and port sharing routes
 * (packages/http/src/workspaces/); see ../clientRequests.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dashboardServer, ownerServer } from "../clientRequests.js"
import { makeValidator } from "../schemas/ResponseSchemas.js"
import { type Client, createUser, type ServiceTestServer, startWithOwner, type TestUser } from "../support.js"
import { makeTemplate } from "../templates/fixtures.js"
import { runJobs } from "../templates/versions.js"
import { connect as connectWs, eventually as eventuallyWs } from "../websocket.js"
import { FREE_TEMPLATE, makeTemplate as importWorkspaceTemplate } from "./fixtures.js"
import { portShareTemplate, seedWorkspace } from "./portShareFixtures.js"
import { makeWorkspace } from "./sharingFixtures.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("workspace sharing", () => {
    it("setWorkspaceUserRole, setWorkspaceGroupRole: one entry per request, \"\" to remove; getWorkspaceACL; workspacePermissions", async () => {
      const t = await makeTemplate(ctx.srv, ctx.owner, {
        organizationId: ctx.orgId,
        createdBy: ctx.ownerId,
        name: "dash-ws-acl"
      })
      const w = await makeWorkspace(ctx.srv, { organizationId: ctx.orgId, ownerId: ctx.ownerId, templateId: t.id })
      const set = (body: unknown) => ctx.owner.patch(`/workspaces/${w.id}/acl`, body)
      expect((await set({ user_roles: { [ctx.member.user.id]: "use" } })).status).toBe(204)
      expect((await set({ group_roles: { [ctx.orgId]: "use" } })).status).toBe(204)
      expect((await set({ user_roles: { [ctx.member.user.id]: "admin" } })).status).toBe(204)
      const read = await ctx.owner.get(`/workspaces/${w.id}/acl`)
      expect(read.status).toBe(200)
      expect(read.body.users.map((u: any) => [u.id, u.role])).toEqual([[ctx.member.user.id, "admin"]])
      expect(read.body.group.map((g: any) => [g.id, g.role])).toEqual([[ctx.orgId, "use"]])
      // The workspace page's permission checks, with the owner's id as the dashboard sends it.
      const object = { resource_type: "workspace", resource_id: w.id, owner_id: ctx.ownerId }
      const checks = await ctx.member.client.post("/authcheck", {
        checks: {
          readWorkspace: { object, action: "read" },
          shareWorkspace: { object, action: "share" },
          updateWorkspace: { object, action: "update" }
        }
      })
      expect(checks.body).toEqual({ readWorkspace: true, shareWorkspace: true, updateWorkspace: true })
      expect((await set({ user_roles: { [ctx.member.user.id]: "" } })).status).toBe(204)
      expect((await set({ group_roles: { [ctx.orgId]: "" } })).status).toBe(204)
      expect((await ctx.owner.get(`/workspaces/${w.id}/acl`)).body).toEqual({ users: [], group: [] })
    })
  })
})

describe("port sharing, as the workspace page's ports popover sends it", () => {
  const ctx = ownerServer()

  // getWorkspaceAgentSharedPorts(workspaceID): axios.get(`/api/v2/workspaces/${workspaceID}/port-share`);
  // upsertWorkspaceAgentSharedPort(workspaceID, req): axios.post(same path, req);
  // deleteWorkspaceAgentSharedPort(workspaceID, req): axios.delete(same path, { data: req }).
  it("shares a listening port, changes its protocol and level, adds one by the form, unshares", async () => {
    const template = await portShareTemplate(ctx.srv, ctx.owner, {
      organizationId: ctx.orgId,
      createdBy: ctx.ownerId,
      maxLevel: "public"
    })
    const ws = await seedWorkspace(ctx.srv, { ownerId: ctx.ownerId, organizationId: ctx.orgId, template })
    const path = `/workspaces/${ws.id}/port-share`
    expect((await ctx.owner.get(path)).body).toEqual({ shares: [] })
    // The share button of a listening port: the default level (authenticated unless the template's maximum is organization).
    const shared = await ctx.owner.post(path, {
      agent_name: "main",
      port: 3000,
      protocol: "http",
      share_level: "authenticated"
    })
    expect(shared.status, JSON.stringify(shared.body)).toBe(200)
    // The protocol and level selects of a shared port send the whole share.
    expect(
      (await ctx.owner.post(path, { agent_name: "main", port: 3000, protocol: "https", share_level: "authenticated" }))
        .status
    ).toBe(200)
    expect(
      (await ctx.owner.post(path, { agent_name: "main", port: 3000, protocol: "https", share_level: "public" })).status
    ).toBe(200)
    // The form: `port: Number(values.port)`, keys in the form's order.
    const form = await ctx.owner.post(path, {
      agent_name: "main",
      port: Number("8080"),
      share_level: "organization",
      protocol: "http"
    })
    expect(form.status, JSON.stringify(form.body)).toBe(200)
    expect((await ctx.owner.get(path)).body.shares).toEqual([
      { workspace_id: ws.id, agent_name: "main", port: 3000, share_level: "public", protocol: "https" },
      { workspace_id: ws.id, agent_name: "main", port: 8080, share_level: "organization", protocol: "http" }
    ])
    const removed = await ctx.owner.delete(path, { agent_name: "main", port: 3000 })
    expect(removed.status, JSON.stringify(removed.body)).toBe(200)
    expect((await ctx.owner.get(path)).body.shares.map((s: any) => s.port)).toEqual([8080])
  })
})

describe("workspaces and builds, as the dashboard's workspace pages send them", () => {
  // coder/coder site/src/api/api.ts: createWorkspace(userId, req) posts to /users/{user}/workspaces
  // (older dashboards to /organizations/{organization}/members/{user}/workspaces); postWorkspaceBuild
  // behind startWorkspace, stopWorkspace and deleteWorkspace; cancelWorkspaceBuild(id, { expect_status });
  // getWorkspaces({ q, limit, offset }); getWorkspaceByOwnerAndName(user, name, { include_deleted });
  // getWorkspaceBuilds(id, { since, limit, offset }); patchWorkspace(id, { name }); put/deleteFavoriteWorkspace.
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: TestUser
  let template: { id: string; active_version_id: string }
  let idle: { id: string }
  const validator = makeValidator()
  /** Asserts `body` is a `name` (a declared schema of the described system's type). */
  const expectShape = (name: string, body: unknown) => {
    const validate = validator(name)
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true)
  }
  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ settings: { allowWorkspaceRenames: true } }))
    member = await createUser(owner, { username: "dash-ws-member" })
    template = await importWorkspaceTemplate(srv, owner, orgId, FREE_TEMPLATE)
    idle = await makeTemplate(srv, owner, {
      organizationId: orgId,
      createdBy: (await owner.get("/users/me")).body.id,
      name: "dash-idle"
    })
  })
  afterAll(() => srv.close())

  /** The create page's body: every optional field as the page leaves it. */
  const createBody = (name: string, templateId: string) => ({
    name,
    template_id: templateId,
    template_version_id: undefined,
    template_version_preset_id: null,
    rich_parameter_values: [],
    autostart_schedule: null,
    ttl_ms: null,
    automatic_updates: "never",
    enable_dynamic_parameters: false
  })

  it("createWorkspace: both paths, nulls for what the page leaves unset, answering a Workspace", async () => {
    const a = await member.client.post("/users/me/workspaces", createBody("dash-ws-a", template.id))
    expect(a.status, JSON.stringify(a.body)).toBe(200)
    expectShape("Workspace", a.body)
    expect(a.body).toMatchObject({ name: "dash-ws-a", template_id: template.id, automatic_updates: "never" })
    expect(a.body.ttl_ms).toBeUndefined()
    const b = await owner.post(`/organizations/${orgId}/members/${member.user.id}/workspaces`, {
      ...createBody("dash-ws-b", template.id),
      template_id: null,
      template_version_id: template.active_version_id
    })
    expect(b.status, JSON.stringify(b.body)).toBe(200)
    expectShape("Workspace", b.body)
    expect(b.body.owner_id).toBe(member.user.id)
    await runJobs(srv)
  })

  it("startWorkspace, stopWorkspace, deleteWorkspace: postWorkspaceBuild bodies, each a WorkspaceBuild", async () => {
    const w = await member.client.post("/users/me/workspaces", createBody("dash-ws-builds", template.id))
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    await runJobs(srv)
    const post = async (body: Record<string, unknown>) => {
      const r = await member.client.post(`/workspaces/${w.body.id}/builds`, body)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expectShape("WorkspaceBuild", r.body)
      await runJobs(srv)
      return r.body
    }
    // stopWorkspace(id, logLevel): log_level undefined (left out by JSON).
    expect((await post({ transition: "stop", log_level: undefined, reason: "dashboard" })).transition).toBe("stop")
    // startWorkspace(id, templateVersionId, logLevel, buildParameters).
    const started = await post({
      transition: "start",
      template_version_id: template.active_version_id,
      log_level: undefined,
      rich_parameter_values: [],
      reason: "dashboard"
    })
    expect(started).toMatchObject({
      transition: "start",
      build_number: 3,
      template_version_id: template.active_version_id
    })
    // deleteWorkspace(id, { log_level, orphan }).
    expect((await post({ transition: "delete", orphan: false })).transition).toBe("delete")
    const gone = await member.client.get(`/users/me/workspace/dash-ws-builds?include_deleted=true`)
    expect(gone.status, JSON.stringify(gone.body)).toBe(200)
    expectShape("Workspace", gone.body)
    expect(gone.body.latest_build.status).toBe("deleted")
    expect((await member.client.get("/users/me/workspace/dash-ws-builds")).status).toBe(404)
  })

  it("cancelWorkspaceBuild: PATCH with an empty body and ?expect_status=pending", async () => {
    const w = await owner.post(`/organizations/${orgId}/members/me/workspaces`, createBody("dash-ws-cancel", idle.id))
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    const r = await owner.patch(`/workspacebuilds/${w.body.latest_build.id}/cancel?expect_status=pending`, {})
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expectShape("Response", r.body)
    const build = await owner.get(`/workspacebuilds/${w.body.latest_build.id}`)
    expectShape("WorkspaceBuild", build.body)
    expect(["canceling", "canceled"]).toContain(build.body.status)
  })

  it("getWorkspaces: the workspaces page's q, limit and offset", async () => {
    for (const q of ["owner:me", "owner:me status:running", "", "owner:me name:dash-ws"]) {
      const path = q === ""
        ? "/workspaces?limit=25&offset=0"
        : `/workspaces?q=${encodeURIComponent(q)}&limit=25&offset=0`
      const r = await member.client.get(path)
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200)
      expectShape("WorkspacesResponse", r.body)
      expect(r.body.count).toBeGreaterThan(0)
    }
  })

  it("getWorkspaceByOwnerAndName and getWorkspaceBuilds: include_deleted, since and the page", async () => {
    const got = await member.client.get(`/users/${member.username}/workspace/dash-ws-a?include_deleted=false`)
    expect(got.status, JSON.stringify(got.body)).toBe(200)
    expectShape("Workspace", got.body)
    const since = new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString()
    const builds = await member.client.get(`/workspaces/${got.body.id}/builds?since=${encodeURIComponent(since)}`)
    expect(builds.status, JSON.stringify(builds.body)).toBe(200)
    expectShape("[WorkspaceBuild]", builds.body)
    expect(builds.body).toHaveLength(1)
    const page = await member.client.get(`/workspaces/${got.body.id}/builds?limit=25&offset=0`)
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    expectShape("[WorkspaceBuild]", page.body)
    const one = await member.client.get(`/users/${member.username}/workspace/dash-ws-a/builds/1`)
    expect(one.status, JSON.stringify(one.body)).toBe(200)
    expectShape("WorkspaceBuild", one.body)
  })

  it("getWorkspaceTimings and getWorkspaceBuildTimings: plain GETs, each a WorkspaceBuildTimings", async () => {
    const got = await member.client.get(`/users/me/workspace/dash-ws-a`)
    const byWorkspace = await member.client.get(`/workspaces/${got.body.id}/timings`)
    expect(byWorkspace.status, JSON.stringify(byWorkspace.body)).toBe(200)
    expectShape("WorkspaceBuildTimings", byWorkspace.body)
    expect(byWorkspace.body.provisioner_timings.length).toBeGreaterThan(0)
    const byBuild = await member.client.get(`/workspacebuilds/${got.body.latest_build.id}/timings`)
    expect(byBuild.status, JSON.stringify(byBuild.body)).toBe(200)
    expectShape("WorkspaceBuildTimings", byBuild.body)
    expect(byBuild.body).toEqual(byWorkspace.body)
  })

  it("getWorkspaceResolveAutostart: a plain GET, a ResolveAutostartResponse", async () => {
    const got = await member.client.get(`/users/me/workspace/dash-ws-a`)
    const r = await member.client.get(`/workspaces/${got.body.id}/resolve-autostart`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expectShape("ResolveAutostartResponse", r.body)
    expect(r.body).toEqual({ parameter_mismatch: false })
  })

  it("getAgentListeningPorts (answered by the agent over its connection), the agent's connection info and startup-logs", async () => {
    const t = await importWorkspaceTemplate(
      srv,
      owner,
      orgId,
      "resources:\n  - name: box\n    type: machine\n    agents:\n" +
        "      - name: laptop\n        external: true\n"
    )
    const w = await member.client.post("/users/me/workspaces", createBody("dash-ws-ports", t.id))
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    await runJobs(srv)
    const built = (await member.client.get(`/workspaces/${w.body.id}`)).body
    const agent = built.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
    const credentials = await member.client.get(`/workspaces/${w.body.id}/external-agent/laptop/credentials`)
    const ws = await connectWs(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      "Service-Session-Token": credentials.body.agent_token
    })
    ws.socket.on("message", (data) => {
      const m = JSON.parse(data.toString())
      if (m.type === "listening_ports_request") {
        ws.socket.send(
          JSON.stringify({
            type: "listening_ports",
            request_id: m.request_id,
            ports: [{ process_name: "vite", network: "tcp", port: 5173 }]
          })
        )
      }
    })
    ws.socket.send(JSON.stringify({ type: "heartbeat", id: 1 }))
    await eventuallyWs(() => ws.messages.some((m) => JSON.parse(m).id === 1))
    const r = await member.client.get(`/workspaceagents/${agent.id}/listening-ports`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expectShape("WorkspaceAgentListeningPortsResponse", r.body)
    expect(r.body.ports).toEqual([{ process_name: "vite", network: "tcp", port: 5173 }])
    ws.socket.close()
    // The Go client's AgentConnectionInfo, and the agent logs as older dashboards ask for them (a bare `follow`).
    const info = await member.client.get(`/workspaceagents/${agent.id}/connection`)
    expect(info.status, JSON.stringify(info.body)).toBe(200)
    expectShape("AgentConnectionInfo", info.body)
    const startup = await member.client.get(`/workspaceagents/${agent.id}/startup-logs`)
    expect(startup.status).toBe(200)
    expectShape("[WorkspaceAgentLog]", startup.body)
    const follow = await connectWs(`${srv.wsUrl}/api/v2/workspaceagents/${agent.id}/startup-logs?follow&after=0`, {
      "Service-Session-Token": member.client.token!
    })
    // The dashboard reads each message as WorkspaceAgentLog[].
    if (startup.body.length > 0) {
      await eventuallyWs(() => follow.messages.length >= 1)
      expectShape("[WorkspaceAgentLog]", JSON.parse(follow.messages[0]!))
    }
    follow.socket.close()
  })

  it("getAgentContainers (labels as repeated `label`), watchAgentContainers, recreateDevContainer, deleteDevContainer", async () => {
    const t = await importWorkspaceTemplate(
      srv,
      owner,
      orgId,
      "resources:\n  - name: box\n    type: machine\n    agents:\n" +
        "      - name: laptop\n        external: true\n"
    )
    const w = await member.client.post("/users/me/workspaces", createBody("dash-ws-dc", t.id))
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    await runJobs(srv)
    const built = (await member.client.get(`/workspaces/${w.body.id}`)).body
    const agent = built.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
    const credentials = await member.client.get(`/workspaces/${w.body.id}/external-agent/laptop/credentials`)
    const ws = await connectWs(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      "Service-Session-Token": credentials.body.agent_token
    })
    const dcId = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"
    const container = {
      created_at: "2030-01-01T10:00:00.000Z",
      id: "c0ffee",
      name: "p-dc",
      image: "img",
      labels: { "devcontainer.local_folder": "/p", app: "web" },
      running: true,
      ports: [],
      status: "running",
      volumes: {}
    }
    ws.socket.on("message", (data) => {
      const m = JSON.parse(data.toString())
      if (m.type !== "containers_request") return
      const answer = m.action === "list"
        ? {
          status: 200,
          body: {
            devcontainers: [{
              id: dcId,
              name: "p",
              workspace_folder: "/p",
              status: "running",
              dirty: false,
              container
            }],
            containers: [container]
          }
        }
        : m.action === "delete"
        ? { status: 204 }
        : { status: 202, body: { message: "Devcontainer recreation initiated", detail: "Started." } }
      ws.socket.send(JSON.stringify({ type: "containers_response", request_id: m.request_id, ...answer }))
    })
    ws.socket.send(JSON.stringify({ type: "heartbeat", id: 1 }))
    await eventuallyWs(() => ws.messages.some((m) => JSON.parse(m).id === 1))
    // The dashboard's `new URLSearchParams(labels.map((l) => ["label", l]))`.
    const params = new URLSearchParams([["label", "app=web"], ["label", "devcontainer.local_folder=/p"]])
    const r = await member.client.get(`/workspaceagents/${agent.id}/containers?${params.toString()}`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expectShape("WorkspaceAgentListContainersResponse", r.body)
    expect(r.body.containers.map((c: any) => c.id)).toEqual(["c0ffee"])
    const watch = await connectWs(`${srv.wsUrl}/api/v2/workspaceagents/${agent.id}/containers/watch`, {
      "Service-Session-Token": member.client.token!
    })
    await eventuallyWs(() => watch.messages.length >= 1)
    expectShape("WorkspaceAgentListContainersResponse", JSON.parse(watch.messages[0]!))
    watch.socket.close()
    const recreated = await member.client.post(`/workspaceagents/${agent.id}/containers/devcontainers/${dcId}/recreate`)
    expect(recreated.status, JSON.stringify(recreated.body)).toBe(202)
    expectShape("Response", recreated.body)
    expect((await member.client.delete(`/workspaceagents/${agent.id}/containers/devcontainers/${dcId}`)).status).toBe(
      204
    )
    ws.socket.close()
  })

  it("updateWorkspaceBuildState (the Go client's `state push`): PUT {state} with the bytes in base64", async () => {
    const got = await member.client.get(`/users/me/workspace/dash-ws-a`)
    const path = `/workspacebuilds/${got.body.latest_build.id}/state`
    const before = await owner.get(path)
    expect(before.status).toBe(200)
    const r = await owner.put(path, { state: Buffer.from(JSON.stringify(before.body)).toString("base64") })
    expect(r.status, JSON.stringify(r.body)).toBe(204)
    expect((await owner.get(path)).body).toEqual(before.body)
  })

  it("patchWorkspace (rename), putFavoriteWorkspace and deleteFavoriteWorkspace", async () => {
    const got = await member.client.get(`/users/me/workspace/dash-ws-a`)
    expect((await member.client.patch(`/workspaces/${got.body.id}`, { name: "dash-ws-renamed" })).status).toBe(204)
    expect((await member.client.get(`/workspaces/${got.body.id}`)).body.name).toBe("dash-ws-renamed")
    // axios.put / axios.delete with no body.
    expect((await member.client.put(`/workspaces/${got.body.id}/favorite`)).status).toBe(204)
    expect((await member.client.get(`/workspaces/${got.body.id}`)).body.favorite).toBe(true)
    expect((await member.client.delete(`/workspaces/${got.body.id}/favorite`)).status).toBe(204)
    expect((await member.client.get(`/workspaces/${got.body.id}`)).body.favorite).toBe(false)
  })

  // The workspace settings pages and the workspace page's schedule controls: putWorkspaceAutostart(id,
  // { schedule }), putWorkspaceAutostop(id, { ttl_ms }) (null for manual shutdown), putWorkspaceExtension(id,
  // dayjs) as { deadline } (dayjs's JSON: an ISO time with milliseconds), updateWorkspaceAutomaticUpdates(id,
  // automatic_updates) as { automatic_updates }, updateWorkspaceDormancy(id, dormant) as { dormant }
  // (answering a Workspace), postWorkspaceUsage(id, { agent_id, app_name }) or, in older dashboards, no body.
  it("putWorkspaceAutostart, putWorkspaceAutostop (and null), putWorkspaceExtension", async () => {
    const w = await member.client.post("/users/me/workspaces", {
      ...createBody("dash-ws-sched", template.id),
      ttl_ms: 3_600_000
    })
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    await runJobs(srv)
    const id = w.body.id as string
    const start = await member.client.put(`/workspaces/${id}/autostart`, {
      schedule: "CRON_TZ=America/Chicago 30 9 * * 1-5"
    })
    expect(start.status, JSON.stringify(start.body)).toBe(204)
    expect((await member.client.get(`/workspaces/${id}`)).body.autostart_schedule).toBe(
      "CRON_TZ=America/Chicago 30 9 * * 1-5"
    )
    // The schedule form's "off": an empty schedule.
    expect((await member.client.put(`/workspaces/${id}/autostart`, { schedule: "" })).status).toBe(204)
    expect((await member.client.get(`/workspaces/${id}`)).body.autostart_schedule ?? "").toBe("")
    const deadline = new Date(Date.now() + 2 * 3_600_000).toISOString()
    const extended = await member.client.put(`/workspaces/${id}/extend`, { deadline })
    expect(extended.status, JSON.stringify(extended.body)).toBe(200)
    expectShape("Response", extended.body)
    expect(Date.parse((await member.client.get(`/workspaces/${id}`)).body.latest_build.deadline)).toBe(
      Date.parse(deadline)
    )
    expect((await member.client.put(`/workspaces/${id}/ttl`, { ttl_ms: 7_200_000 })).status).toBe(204)
    expect((await member.client.get(`/workspaces/${id}`)).body.ttl_ms).toBe(7_200_000)
    const manual = await member.client.put(`/workspaces/${id}/ttl`, { ttl_ms: null })
    expect(manual.status, JSON.stringify(manual.body)).toBe(204)
    expect((await member.client.get(`/workspaces/${id}`)).body.ttl_ms ?? null).toBeNull()
  })

  it("updateWorkspaceAutomaticUpdates, updateWorkspaceDormancy, postWorkspaceUsage (with and without a body)", async () => {
    const w = await member.client.post("/users/me/workspaces", createBody("dash-ws-settings", template.id))
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    await runJobs(srv)
    const id = w.body.id as string
    expect((await member.client.put(`/workspaces/${id}/autoupdates`, { automatic_updates: "always" })).status).toBe(204)
    expect((await member.client.get(`/workspaces/${id}`)).body.automatic_updates).toBe("always")
    const agent = (await member.client.get(`/workspaces/${id}`)).body.latest_build.resources
      .flatMap((r: { agents?: Array<{ id: string }> }) => r.agents ?? [])[0]?.id ??
      "6f1d2c3b-4a59-4e7d-8c6b-5a4f3e2d1c0c"
    const used = await member.client.post(`/workspaces/${id}/usage`, { agent_id: agent, app_name: "vscode" })
    expect(used.status, JSON.stringify(used.body)).toBe(204)
    const bare = await member.client.post(`/workspaces/${id}/usage`)
    expect(bare.status, JSON.stringify(bare.body)).toBe(204)
    const dormant = await member.client.put(`/workspaces/${id}/dormant`, { dormant: true })
    expect(dormant.status, JSON.stringify(dormant.body)).toBe(200)
    expectShape("Workspace", dormant.body)
    expect(typeof dormant.body.dormant_at).toBe("string")
    const active = await member.client.put(`/workspaces/${id}/dormant`, { dormant: false })
    expect(active.status, JSON.stringify(active.body)).toBe(200)
    expectShape("Workspace", active.body)
    expect(active.body.dormant_at ?? null).toBeNull()
  })
})
