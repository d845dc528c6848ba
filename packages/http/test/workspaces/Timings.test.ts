/**
 * Build timings over real HTTP: `GET /workspacebuilds/{workspacebuild}/timings` and
 * `GET /workspaces/{workspace}/timings` (docs/workspaces.md, "Timings"). The provisioner timings
 * come from the build job's logged stages; the script and connection timings from what the
 * build's agent reports over its real connection.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordingProvisioner } from "../agents/fixtures.js"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { connect, eventually, type WsResult } from "../websocket.js"
import { makeTemplate, makeWorkspace } from "./fixtures.js"

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        scripts:
          - display_name: Install
            script: echo installing
            run_on_start: true
          - display_name: Backup
            script: echo backup
            cron: "0 * * * *"
build:
  logs: ["Hello"]
`

/** Requests on the agent connection, each answered by id. */
const request = async (ws: WsResult, id: number, type: string, body: Record<string, unknown>) => {
  ws.socket.send(JSON.stringify({ type, id, ...body }))
  let found: any
  await eventually(() => {
    found = ws.messages.map((m) => JSON.parse(m)).find((m) => m.id === id)
    return found !== undefined
  })
  return found
}

describe("build timings", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let other: TestUser
  let template: { id: string }
  const handed = new Map<string, Map<string, string>>()

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false,
      agentMonitor: false
    }))
    dev = await createUser(owner)
    other = await createUser(owner)
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(() => srv.close())

  it("answers the job's stages, then the agent's first connection and each script's first run", async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const build = w.latest_build
    const first = await dev.client.get(`/workspacebuilds/${build.id}/timings`)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.agent_script_timings).toEqual([])
    expect(first.body.agent_connection_timings).toEqual([])
    const stages = first.body.provisioner_timings as Array<any>
    expect(stages.map((t) => [t.stage, t.action])).toEqual([
      ["init", "Setting up"],
      ["plan", "Planning infrastructure"],
      ["apply", "Starting workspace"],
      ["apply", "Cleaning Up"]
    ])
    for (const t of stages) {
      expect(t.job_id).toBe(build.job.id)
      expect(t.source).toBe("workbay")
      expect(t.resource).toBe(t.action)
      expect(Date.parse(t.ended_at)).toBeGreaterThanOrEqual(Date.parse(t.started_at))
    }
    // Each stage ends where the next starts; the last ends with the job.
    for (let i = 0; i + 1 < stages.length; i++) expect(stages[i].ended_at).toBe(stages[i + 1].started_at)
    const job = (await dev.client.get(`/workspacebuilds/${build.id}`)).body.job
    expect(stages[stages.length - 1].ended_at).toBe(job.completed_at)

    // The agent connects and reports its scripts: the start script twice, the cron once.
    const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      "Service-Session-Token": handed.get(w.id)!.get("main")!
    })
    const agent = (await dev.client.get(`/workspaces/${w.id}`)).body.latest_build.resources[0].agents[0]
    const [install, backup] = agent.scripts as Array<any>
    expect(
      (await request(ws, 1, "script_completed", {
        timing: {
          script_id: install.id,
          started_at: "2030-01-01T10:00:00Z",
          ended_at: "2030-01-01T10:00:05Z",
          exit_code: 0,
          stage: "start"
        }
      })).result
    ).toEqual({})
    await request(ws, 2, "script_completed", {
      script_id: install.id,
      started_at: "2030-01-01T11:00:00Z",
      ended_at: "2030-01-01T11:00:09Z",
      exit_code: 2
    })
    await request(ws, 3, "script_completed", {
      script_id: backup.id,
      started_at: "2030-01-01T12:00:00Z",
      ended_at: "2030-01-01T12:01:00Z",
      exit_code: 0,
      timeout: true
    })
    const after = await dev.client.get(`/workspacebuilds/${build.id}/timings`)
    expect(after.status).toBe(200)
    const connected = (await dev.client.get(`/workspaceagents/${agent.id}`)).body
    expect(after.body.agent_connection_timings).toEqual([{
      started_at: agent.created_at,
      ended_at: connected.first_connected_at,
      stage: "connect",
      workspace_agent_id: agent.id,
      workspace_agent_name: "main"
    }])
    expect(after.body.agent_script_timings).toEqual([
      {
        started_at: "2030-01-01T10:00:00.000Z",
        ended_at: "2030-01-01T10:00:05.000Z",
        exit_code: 0,
        stage: "start",
        status: "ok",
        display_name: "Install",
        workspace_agent_id: agent.id,
        workspace_agent_name: "main"
      },
      {
        started_at: "2030-01-01T12:00:00.000Z",
        ended_at: "2030-01-01T12:01:00.000Z",
        exit_code: 0,
        stage: "cron",
        status: "timed_out",
        display_name: "Backup",
        workspace_agent_id: agent.id,
        workspace_agent_name: "main"
      }
    ])
    // The Agent record still shows the last run.
    expect(connected.scripts[0].status).toBe("exit_failure")
    // The workspace's timings are its latest build's.
    const byWorkspace = await dev.client.get(`/workspaces/${w.id}/timings`)
    expect(byWorkspace.status).toBe(200)
    expect(byWorkspace.body).toEqual(after.body)
    ws.socket.close(1000)
    await ws.closed
  })

  it("the workspace's timings follow its latest build", async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const stop = await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "stop" })
    expect(stop.status).toBe(200)
    await runJobs(srv)
    const timings = await dev.client.get(`/workspaces/${w.id}/timings`)
    expect(timings.status).toBe(200)
    expect(timings.body.provisioner_timings.map((t: any) => t.job_id)).toEqual(Array(4).fill(stop.body.job.id))
    expect(timings.body.provisioner_timings.map((t: any) => t.action)).toContain("Stopping workspace")
    expect(timings.body.agent_connection_timings).toEqual([])
  })

  it("401 without a session, 404 for who may not read the workspace or an unknown or deleted one, 400 for a bad id", async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const buildId = w.latest_build.id
    expectResponse(await srv.anonymous.get(`/workspacebuilds/${buildId}/timings`), 401)
    expectResponse(await srv.anonymous.get(`/workspaces/${w.id}/timings`), 401)
    expectResponse(await other.client.get(`/workspacebuilds/${buildId}/timings`), 404)
    expectResponse(await other.client.get(`/workspaces/${w.id}/timings`), 404)
    expect((await owner.get(`/workspacebuilds/${buildId}/timings`)).status).toBe(200)
    expect((await owner.get(`/workspaces/${w.id}/timings`)).status).toBe(200)
    expectResponse(await dev.client.get(`/workspacebuilds/${UNKNOWN_ID}/timings`), 404)
    expectResponse(await dev.client.get(`/workspaces/${UNKNOWN_ID}/timings`), 404)
    expectValidations(await dev.client.get(`/workspacebuilds/nope/timings`), ["workspacebuild"])
    expectValidations(await dev.client.get(`/workspaces/nope/timings`), ["workspace"])
    const del = await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "delete" })
    expect(del.status).toBe(200)
    await runJobs(srv)
    expectResponse(await dev.client.get(`/workspaces/${w.id}/timings`), 404)
    // A build of a deleted workspace stays readable by id, as its other build routes.
    expect((await dev.client.get(`/workspacebuilds/${del.body.id}/timings`)).status).toBe(200)
  })
})
