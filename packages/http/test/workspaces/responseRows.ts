/**
 * The response schema table's rows of the workspaces, builds, sharing, port sharing, schedules and watch
 * endpoints (packages/http/src/workspaces/), run by ../responseSchemas.ts.
 */
import { expect } from "vitest"
import { perWorld, type Row, row, type World } from "../responseSchemas.js"
import { readEvents } from "../sse.js"
import { SESSION_HEADER, uniqueName } from "../support.js"
import { createVersion, runJobs } from "../templates/versions.js"
import { connect, eventually } from "../websocket.js"
import { GIB, movableTemplate, moveSettled, startMemoryHost, stoppedWorkspace } from "./moveFixtures.js"
import { portShareTemplate, seedWorkspace } from "./portShareFixtures.js"
import { workspacesOf } from "./responseFixtures.js"
import { makeWorkspace } from "./sharingFixtures.js"

/** Two hosts' daemons, a workspace stopped on the first and moved to the second: the move's answers. */
const movedWorkspace = perWorld(async (w) => {
  const key = (await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key") })).body.key
  const from = await startMemoryHost(w.srv, w.orgId, key, uniqueName("from"), 32 * GIB)
  const to = await startMemoryHost(w.srv, w.orgId, key, uniqueName("to"), 16 * GIB)
  const templateId = await movableTemplate(w.srv, w.owner, w.orgId)
  const ws = await stoppedWorkspace(w.owner, w.orgId, templateId)
  const created = await w.owner.post(`/workspaces/${ws.id}/moves`, { host: to.name })
  const done = await moveSettled(w.owner, ws.id)
  expect(done.status, done.error).toBe("succeeded")
  const listed = await w.owner.get(`/workspaces/${ws.id}/moves`)
  await Promise.all([from.stop(), to.stop()])
  return { created, listed, links: [...from.links, ...to.links] }
})

/** A workspace of bob's to share or unshare in a row. */
const throwawayWorkspace = (w: World) =>
  makeWorkspace(w.srv, { organizationId: w.orgId, ownerId: w.bob.user.id, templateId: w.template.id })

/** Bob's workspace on a template whose ports may be shared publicly, with an agent `main`; made once. */
const portShareWorkspace = perWorld(async (w) => {
  const template = await portShareTemplate(w.srv, w.owner, {
    organizationId: w.orgId,
    createdBy: w.ownerId,
    maxLevel: "public"
  })
  return seedWorkspace(w.srv, { ownerId: w.bob.user.id, organizationId: w.orgId, template })
})

/** A workspace on a template whose builds take 3 s (a build still running when the row reads it). */
const SLOW_WS_TEMPLATE = `resources:
  - { name: box, type: machine }
build:
  delay_ms: 3000
  import_delay_ms: 0
`
const slowWorkspace = async (w: World) => {
  const v = await createVersion(w.srv, w.owner, w.orgId, SLOW_WS_TEMPLATE)
  await runJobs(w.srv)
  const t = (await w.owner.post(`/organizations/${w.orgId}/templates`, {
    name: uniqueName("slow"),
    template_version_id: v.body.id
  })).body
  return (await w.owner.post(`/organizations/${w.orgId}/members/me/workspaces`, {
    name: uniqueName("slow"),
    template_id: t.id
  })).body
}

export const responseRows: ReadonlyArray<Row> = [
  // templates: versions
  // workspaces: sharing
  row(
    "workspaceSharing.getAcl",
    "GET /api/v2/workspaces/:workspace/acl",
    200,
    "WorkspaceACL",
    (w) => w.owner.get(`/workspaces/${w.workspace.id}/acl`)
  ),
  row(
    "workspaceSharing.updateAcl",
    "PATCH /api/v2/workspaces/:workspace/acl",
    204,
    "none",
    async (w) =>
      w.owner.patch(`/workspaces/${(await throwawayWorkspace(w)).id}/acl`, { user_roles: { [w.alice.user.id]: "use" } })
  ),
  row(
    "workspaceSharing.deleteAcl",
    "DELETE /api/v2/workspaces/:workspace/acl",
    204,
    "none",
    async (w) => w.owner.delete(`/workspaces/${(await throwawayWorkspace(w)).id}/acl`)
  ),

  // workspaces: port sharing (on bob's workspace, seeded in storage until the workspace routes exist)
  row("portShares.list", "GET /api/v2/workspaces/:workspace/port-share", 200, "WorkspaceAgentPortShares", async (w) => {
    const ws = await portShareWorkspace(w)
    const empty = await w.bob.client.get(`/workspaces/${ws.id}/port-share`)
    await w.bob.client.post(`/workspaces/${ws.id}/port-share`, {
      agent_name: "main",
      port: 8080,
      share_level: "public",
      protocol: "https"
    })
    await w.bob.client.post(`/workspaces/${ws.id}/port-share`, {
      agent_name: "main",
      port: 3000,
      share_level: "organization",
      protocol: "http"
    })
    return [empty, await w.bob.client.get(`/workspaces/${ws.id}/port-share`)]
  }),
  row(
    "portShares.upsert",
    "POST /api/v2/workspaces/:workspace/port-share",
    200,
    "WorkspaceAgentPortShare",
    async (w) => {
      const ws = await portShareWorkspace(w)
      return [
        await w.bob.client.post(`/workspaces/${ws.id}/port-share`, {
          agent_name: "main",
          port: 9000,
          share_level: "authenticated",
          protocol: "http"
        }),
        await w.bob.client.post(`/workspaces/${ws.id}/port-share`, {
          agent_name: "main",
          port: 9000,
          share_level: "public",
          protocol: "https"
        })
      ]
    }
  ),
  row("portShares.delete", "DELETE /api/v2/workspaces/:workspace/port-share", 200, "none", async (w) => {
    const ws = await portShareWorkspace(w)
    await w.bob.client.post(`/workspaces/${ws.id}/port-share`, {
      agent_name: "main",
      port: 9100,
      share_level: "public",
      protocol: "http"
    })
    return w.bob.client.delete(`/workspaces/${ws.id}/port-share`, { agent_name: "main", port: 9100 })
  }),

  // workspaces and builds
  row(
    "workspaces.create",
    "POST /api/v2/organizations/:organization/members/:user/workspaces",
    200,
    "Workspace",
    async (w) => {
      const { template } = await workspacesOf(w)
      const r = await w.owner.post(`/organizations/${w.orgId}/members/me/workspaces`, {
        name: uniqueName("made"),
        template_id: template.id,
        autostart_schedule: "CRON_TZ=UTC 0 9 * * 1-5",
        rich_parameter_values: [{ name: "size", value: "large" }]
      })
      await runJobs(w.srv)
      return r
    }
  ),
  row("workspaces.createForUser", "POST /api/v2/users/:user/workspaces", 200, "Workspace", async (w) => {
    const { template } = await workspacesOf(w)
    const r = await w.owner.post(`/users/${w.bob.username}/workspaces`, {
      name: uniqueName("bobs"),
      template_id: template.id
    })
    await runJobs(w.srv)
    return r
  }),
  row(
    "workspaces.availableUsers",
    "GET /api/v2/organizations/:organization/members/:user/workspaces/available-users",
    200,
    "[MinimalUser]",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/members/me/workspaces/available-users`),
      await w.bob.client.get(`/organizations/${w.orgId}/members/me/workspaces/available-users`)
    ]
  ),
  row("workspaces.list", "GET /api/v2/workspaces", 200, "WorkspacesResponse", async (w) => {
    await workspacesOf(w)
    return [
      await w.owner.get("/workspaces"),
      await w.owner.get("/workspaces?q=status:stopped&limit=1"),
      await w.bob.client.get("/workspaces")
    ]
  }),
  // The watch rows check the first `data` message: a WebSocket (101) and a server-sent event stream.
  row("workspaceWatch.watchWs", "GET /api/v2/workspaces/:workspace/watch-ws", 101, "Workspace", async (w) => {
    const { running } = await workspacesOf(w)
    const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaces/${running.id}/watch-ws`, {
      [SESSION_HEADER]: w.owner.token!
    })
    await eventually(() => ws.messages.some((m) => JSON.parse(m).type === "data"))
    ws.socket.close()
    const data = ws.messages.map((m) => JSON.parse(m)).find((m) => m.type === "data")
    expect(Object.keys(data).sort()).toEqual(["data", "type"])
    return { status: 101, body: data.data, headers: new Headers() }
  }),
  row("workspaceWatch.watch", "GET /api/v2/workspaces/:workspace/watch", 200, "Workspace", async (w) => {
    const { running } = await workspacesOf(w)
    const sse = await readEvents(`${w.srv.url}/api/v2/workspaces/${running.id}/watch`, {
      [SESSION_HEADER]: w.owner.token!
    })
    await eventually(() => sse.events.some((e) => e.event === "data"))
    await sse.stop()
    expect(sse.response.headers.get("content-type")).toBe("text/event-stream")
    return {
      status: sse.response.status,
      body: sse.events.find((e) => e.event === "data")!.data,
      headers: sse.response.headers
    }
  }),
  row("workspaces.get", "GET /api/v2/workspaces/:workspace", 200, "Workspace", async (w) => {
    const { running, stopped } = await workspacesOf(w)
    return [await w.owner.get(`/workspaces/${running.id}`), await w.owner.get(`/workspaces/${stopped.id}`)]
  }),
  row(
    "workspaces.getByOwnerAndName",
    "GET /api/v2/users/:user/workspace/:workspacename",
    200,
    "Workspace",
    async (w) => w.owner.get(`/users/me/workspace/${(await workspacesOf(w)).running.name}`)
  ),
  row(
    "workspaces.update",
    "PATCH /api/v2/workspaces/:workspace",
    204,
    "none",
    async (w) => w.owner.patch(`/workspaces/${(await workspacesOf(w)).stopped.id}`, { name: "" })
  ),
  row(
    "workspaces.favorite",
    "PUT /api/v2/workspaces/:workspace/favorite",
    204,
    "none",
    async (w) => w.owner.put(`/workspaces/${(await workspacesOf(w)).running.id}/favorite`)
  ),
  row(
    "workspaces.unfavorite",
    "DELETE /api/v2/workspaces/:workspace/favorite",
    204,
    "none",
    async (w) => w.owner.delete(`/workspaces/${(await workspacesOf(w)).stopped.id}/favorite`)
  ),
  // workspaces: schedules
  row(
    "workspaceSchedules.setAutostart",
    "PUT /api/v2/workspaces/:workspace/autostart",
    204,
    "none",
    async (w) =>
      w.owner.put(`/workspaces/${(await workspacesOf(w)).stopped.id}/autostart`, {
        schedule: "CRON_TZ=UTC 0 9 * * 1-5"
      })
  ),
  row(
    "workspaceSchedules.setTtl",
    "PUT /api/v2/workspaces/:workspace/ttl",
    204,
    "none",
    async (w) => w.owner.put(`/workspaces/${(await workspacesOf(w)).stopped.id}/ttl`, { ttl_ms: 3_600_000 })
  ),
  row("workspaceSchedules.extend", "PUT /api/v2/workspaces/:workspace/extend", 200, "Response", async (w) => {
    const { template } = await workspacesOf(w)
    const r = await w.owner.post(`/organizations/${w.orgId}/members/me/workspaces`, {
      name: uniqueName("ext"),
      template_id: template.id,
      ttl_ms: 3_600_000
    })
    await runJobs(w.srv)
    return w.owner.put(`/workspaces/${r.body.id}/extend`, { deadline: new Date(Date.now() + 7_200_000).toISOString() })
  }),
  row(
    "workspaceSchedules.setAutomaticUpdates",
    "PUT /api/v2/workspaces/:workspace/autoupdates",
    204,
    "none",
    async (w) =>
      w.owner.put(`/workspaces/${(await workspacesOf(w)).stopped.id}/autoupdates`, { automatic_updates: "always" })
  ),
  row("workspaceSchedules.setDormant", "PUT /api/v2/workspaces/:workspace/dormant", 200, "Workspace", async (w) => {
    const id = (await workspacesOf(w)).stopped.id
    return [
      await w.owner.put(`/workspaces/${id}/dormant`, { dormant: true }),
      await w.owner.put(`/workspaces/${id}/dormant`, { dormant: false })
    ]
  }),
  row(
    "workspaceSchedules.resolveAutostart",
    "GET /api/v2/workspaces/:workspace/resolve-autostart",
    200,
    "ResolveAutostartResponse",
    async (w) => w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}/resolve-autostart`)
  ),
  row(
    "workspaceSchedules.reportUsage",
    "POST /api/v2/workspaces/:workspace/usage",
    204,
    "none",
    async (w) => w.owner.post(`/workspaces/${(await workspacesOf(w)).running.id}/usage`, { app_name: "" })
  ),
  row("workspaces.createBuild", "POST /api/v2/workspaces/:workspace/builds", 200, "WorkspaceBuild", async (w) => {
    const { template } = await workspacesOf(w)
    const r = await w.owner.post(`/organizations/${w.orgId}/members/me/workspaces`, {
      name: uniqueName("built"),
      template_id: template.id
    })
    await runJobs(w.srv)
    const stop = await w.owner.post(`/workspaces/${r.body.id}/builds`, { transition: "stop" })
    await runJobs(w.srv)
    return stop
  }),
  row(
    "workspaces.listBuilds",
    "GET /api/v2/workspaces/:workspace/builds",
    200,
    "[WorkspaceBuild]",
    async (w) => w.owner.get(`/workspaces/${(await workspacesOf(w)).stopped.id}/builds`)
  ),
  row(
    "workspaces.getBuild",
    "GET /api/v2/workspacebuilds/:workspacebuild",
    200,
    "WorkspaceBuild",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}`)
  ),
  row(
    "workspaces.buildByNumber",
    "GET /api/v2/users/:user/workspace/:workspacename/builds/:buildnumber",
    200,
    "WorkspaceBuild",
    async (w) => w.owner.get(`/users/me/workspace/${(await workspacesOf(w)).running.name}/builds/1`)
  ),
  row(
    "workspaces.buildLogs",
    "GET /api/v2/workspacebuilds/:workspacebuild/logs",
    200,
    "[ProvisionerJobLog]",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}/logs`)
  ),
  row(
    "workspaces.buildResources",
    "GET /api/v2/workspacebuilds/:workspacebuild/resources",
    200,
    "[WorkspaceResource]",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}/resources`)
  ),
  row(
    "workspaces.buildParameters",
    "GET /api/v2/workspacebuilds/:workspacebuild/parameters",
    200,
    "[WorkspaceBuildParameter]",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}/parameters`)
  ),
  row(
    "workspaces.buildState",
    "GET /api/v2/workspacebuilds/:workspacebuild/state",
    200,
    "binary application/json",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}/state`)
  ),
  row(
    "workspaces.updateBuildState",
    "PUT /api/v2/workspacebuilds/:workspacebuild/state",
    204,
    "none",
    async (w) =>
      w.owner.put(`/workspacebuilds/${(await workspacesOf(w)).stopped.latest_build.id}/state`, { state: "e30=" })
  ),
  row(
    "workspaces.buildTimings",
    "GET /api/v2/workspacebuilds/:workspacebuild/timings",
    200,
    "WorkspaceBuildTimings",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}/timings`)
  ),
  row(
    "workspaces.workspaceTimings",
    "GET /api/v2/workspaces/:workspace/timings",
    200,
    "WorkspaceBuildTimings",
    async (w) => w.owner.get(`/workspaces/${(await workspacesOf(w)).stopped.id}/timings`)
  ),
  row("workspaces.cancelBuild", "PATCH /api/v2/workspacebuilds/:workspacebuild/cancel", 200, "Response", async (w) => {
    const slow = await slowWorkspace(w)
    const r = await w.owner.patch(`/workspacebuilds/${slow.latest_build.id}/cancel`)
    await runJobs(w.srv)
    return r
  }),
  row(
    "workspaceMoves.create",
    "POST /api/v2/workspaces/:workspace/moves",
    201,
    "WorkspaceMove",
    async (w) => (await movedWorkspace(w)).created
  ),
  row(
    "workspaceMoves.list",
    "GET /api/v2/workspaces/:workspace/moves",
    200,
    "[WorkspaceMove]",
    async (w) => (await movedWorkspace(w)).listed
  ),
  row(
    "workspaceMoveLink.link",
    "GET /api/v2/organizations/:organization/workspacemoves/:move/stream",
    101,
    "none",
    async (w) => {
      // Each host's daemon opened its side of the link: both upgraded.
      const { links } = await movedWorkspace(w)
      expect(links).toEqual([101, 101])
      return { status: 101, body: undefined, headers: new Headers() }
    }
  )
]
