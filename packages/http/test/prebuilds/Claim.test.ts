/**
 * A claimed prebuilt workspace's running agent, over real HTTP on SQLite (docs/prebuilds.md,
 * "Claiming"): the reference agent (its library, in-process) connected with the prebuilt
 * build's token runs on while the claim builds, follows `GET /workspaceagents/me/reinit`, and
 * once the claim's build takes its token over it reinitializes as that build's agent, of the new
 * owner, and reports ready again: nobody starts a new agent.
 */
import { type RunningAgent, startAgent } from "@workbay/agent"
import { PrebuildsReconciler } from "@workbay/core"
import { Effect } from "effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordingProvisioner } from "../agents/fixtures.js"
import { readEvents } from "../sse.js"
import {
  type Client,
  createUser,
  expectResponse,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { eventually } from "../websocket.js"
import { makeTemplate } from "../workspaces/fixtures.js"

const TEMPLATE = `presets:
  - name: warm
    prebuilds: { instances: 1 }
resources:
  - name: box
    type: machine
    agents:
      - name: main
        env:
          OWNER: "\${workspace.owner}"
        scripts:
          - display_name: Greet
            script: echo "$OWNER $WORKBAY_WORKSPACE_NAME" >> greetings.txt
            run_on_start: true
`

const agentsOf = (w: any): Array<any> => (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])

describe("claiming a prebuilt workspace whose agent runs", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  const handed = new Map<string, Map<string, string>>()
  const dir = mkdtempSync(join(tmpdir(), "workbay-claim-"))
  let agent: RunningAgent | undefined

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false,
      prebuilds: false
    }))
  })
  afterAll(async () => {
    await agent?.stop()
    await srv.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("the agent runs on through the claim and reinitializes as the new owner's", async () => {
    const t = await makeTemplate(srv, owner, orgId, TEMPLATE)
    const preset = ((await owner.get(`/templateversions/${t.active_version_id}/presets`)).body as Array<any>)[0].ID
    expect((await srv.run(Effect.flatMap(PrebuildsReconciler, (r) => r.tick()))).created).toHaveLength(1)
    await runJobs(srv)
    const prebuilt = (await owner.get(`/workspaces?q=${encodeURIComponent("owner:prebuilds")}`)).body.workspaces
      .find((w: any) => w.template_id === t.id)
    const token = handed.get(prebuilt.id)!.get("main")!
    const before = agentsOf(prebuilt)[0].id

    // The reinitialization route: an agent's token only.
    const reinit = async (headers: Record<string, string>) => {
      const r = await fetch(`${srv.url}/api/v2/workspaceagents/me/reinit`, { headers })
      return { status: r.status, body: await r.json(), headers: r.headers }
    }
    expectResponse(await reinit({}), 401)
    expectResponse(await reinit({ [SESSION_HEADER]: owner.token! }), 401)
    const events = await readEvents(`${srv.url}/api/v2/workspaceagents/me/reinit`, { [SESSION_HEADER]: token })
    expect(events.response.status).toBe(200)
    expect(events.response.headers.get("content-type")).toBe("text/event-stream")

    agent = await startAgent({ url: srv.url, token, auth: "token", directory: dir, logDir: dir, log: () => {} })
    expect(await agent.started).toBe("ready")
    expect(readFileSync(join(dir, "greetings.txt"), "utf8")).toBe(`prebuilds ${prebuilt.name}\n`)

    const dev = await createUser(owner, { username: "claimer" })
    const claimed = await dev.client.post(`/users/me/workspaces`, {
      name: "mine",
      template_id: t.id,
      template_version_preset_id: preset
    })
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200)
    expect(claimed.body.id).toBe(prebuilt.id)
    await runJobs(srv)

    // The claim's build has its own agent, which the running agent became: connected and ready,
    // its start script run again as the new owner's, with the workspace's new name.
    let now: any
    await eventually(() => agent!.manifest()?.agent_id !== before)
    await eventually(() => agent!.lifecycle() === "ready")
    for (let i = 0; i < 500; i++) {
      now = (await dev.client.get(`/workspaces/${prebuilt.id}`)).body
      const a = agentsOf(now)[0]
      if (a?.status === "connected" && a?.lifecycle_state === "ready") break
      await new Promise((r) => setTimeout(r, 20))
    }
    const after = agentsOf(now)[0]
    expect(after.id).not.toBe(before)
    expect(after).toMatchObject({ status: "connected", lifecycle_state: "ready" })
    expect(agent.manifest()).toMatchObject({ agent_id: after.id, workspace_name: "mine" })
    expect(readFileSync(join(dir, "greetings.txt"), "utf8")).toBe(`prebuilds ${prebuilt.name}\nclaimer mine\n`)

    // The event, as the described system's agents read it.
    await eventually(() => events.events.some((e) => e.event === "data"))
    expect(events.events.find((e) => e.event === "data")!.data).toEqual({
      WorkspaceID: prebuilt.id,
      reason: "prebuild_claimed"
    })
    await events.stop()

    // The token names the claim's agent now; the prebuilt build's agent keeps none.
    const manifest = await fetch(`${srv.url}/api/v2/workspaceagents/me/manifest`, {
      headers: { [SESSION_HEADER]: token }
    })
    expect(manifest.status).toBe(200)
    expect((await manifest.json()).agent_id).toBe(after.id)
  })

  it("costs the prebuilds user nothing; the claim's build commits the claimer's quota", async () => {
    const costly = `presets:
  - name: warm
    prebuilds: { instances: 1 }
resources:
  - name: box
    type: machine
    daily_cost: 5
`
    const t = await makeTemplate(srv, owner, orgId, costly)
    const preset = ((await owner.get(`/templateversions/${t.active_version_id}/presets`)).body as Array<any>)[0].ID
    // Quotas on (a group of others has an allowance), and no budget for the prebuilds user: the
    // prebuilt workspace is built all the same.
    const funded = await owner.post(`/organizations/${orgId}/groups`, { name: "funded", quota_allowance: 1 })
    expect(funded.status, JSON.stringify(funded.body)).toBe(201)
    expect((await srv.run(Effect.flatMap(PrebuildsReconciler, (r) => r.tick()))).errors).toEqual({})
    await runJobs(srv)
    const prebuilt = (await owner.get(`/workspaces?q=${encodeURIComponent("owner:prebuilds")}`)).body.workspaces
      .find((w: any) => w.template_id === t.id)
    expect(prebuilt.latest_build.status).toBe("running")
    expect(prebuilt.latest_build.daily_cost).toBe(5)

    const poor = await createUser(owner, { username: "poor" })
    const claimed = await poor.client.post(`/users/me/workspaces`, {
      name: "costly",
      template_id: t.id,
      template_version_preset_id: preset
    })
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200)
    expect(claimed.body.id).toBe(prebuilt.id)
    await runJobs(srv)
    const failed = (await poor.client.get(`/workspaces/${prebuilt.id}`)).body.latest_build
    expect(failed.status).toBe("failed")
    expect(failed.job.error).toBe("insufficient quota")
    expect((await owner.delete(`/groups/${funded.body.id}`)).status).toBe(200)
  })
})
