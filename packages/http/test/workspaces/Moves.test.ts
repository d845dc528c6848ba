/**
 * Moving a stopped workspace to another provisioner host (docs/provisioner-daemons.md, "Moving a
 * workspace"), through real HTTP and real WebSockets: two hosts' daemons run core's daemon client
 * with a provisioner that keeps its volumes in memory (moveFixtures.ts); the service's routes,
 * jobs, executor, link authentication and the join of the two links are the real ones. The Docker
 * driver's side of a move, on real engines, is tested by the CLI's MultiHost test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import {
  addMemberWithRoles,
  type Client,
  createUser,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  uniqueName,
  UNKNOWN_ID
} from "../support.js"
import { eventually } from "../websocket.js"
import {
  GIB,
  IMAGE,
  type MemoryHost,
  movableTemplate,
  moveSettled as moveSettledOf,
  settled as settledOf,
  sha,
  startMemoryHost,
  stoppedWorkspace as stoppedOf,
  waitFor
} from "./moveFixtures.js"

let srv: ServiceTestServer
let owner: Client
let orgId: string
let key: string
const KEY_HEADER = "Coder-Provisioner-Daemon-Key"
const settled = (id: string) => settledOf(owner, id)
const moveSettled = (id: string) => moveSettledOf(owner, id)
const startHost = (name: string, memory: number, images?: ReadonlyArray<string>) =>
  startMemoryHost(srv, orgId, key, name, memory, images)

let templateId: string
let a: MemoryHost
let b: MemoryHost
let bare: MemoryHost

beforeAll(async () => {
  ;({ srv, owner, orgId } = await startWithOwner())
  key = (await owner.post(`/organizations/${orgId}/provisionerkeys`, { name: uniqueName("key") })).body.key
  // The first host has the most room: a new workspace starts there. The third lacks the image.
  a = await startHost(uniqueName("a"), 32 * GIB)
  b = await startHost(uniqueName("b"), 16 * GIB)
  bare = await startHost(uniqueName("bare"), 8 * GIB, [])
  await waitFor(
    async () => (await owner.get(`/organizations/${orgId}/provisionerhosts`)).body as Array<{ name: string }>,
    (hosts) => [a, b, bare].every((h) => hosts.some((x) => x.name === h.name))
  )
  templateId = await movableTemplate(srv, owner, orgId)
})
afterAll(async () => {
  await Promise.all([a, b, bare].filter((h) => h !== undefined).map((h) => h.stop()))
  await srv.close()
})

/** A workspace of the template, started on the first host (the roomiest) and stopped. */
const stoppedWorkspace = (client: Client = owner) => stoppedOf(client, orgId, templateId)

describe("moving a stopped workspace between hosts", () => {
  it("copies its volumes to the new host, verified; its next start runs there; the old copy goes", async () => {
    const ws = await stoppedWorkspace()
    const volume = `workbay-${ws.id}-home`
    expect(a.volumes.get(volume)?.data.toString()).toContain(`made on ${a.name}`)
    const home = a.volumes.get(volume)!.data

    const moved = await owner.post(`/workspaces/${ws.id}/moves`, { host: b.name })
    expect(moved.status, JSON.stringify(moved.body)).toBe(201)
    expect(moved.body).toMatchObject({ workspace_id: ws.id, from_host: a.name, to_host: b.name, error: "" })
    expect(["pending", "running"]).toContain(moved.body.status)

    const done = await moveSettled(ws.id)
    expect(done.status, done.error).toBe("succeeded")
    expect(done.volumes).toEqual([{ name: volume, bytes: home.length, sha256: sha(home) }])
    expect(b.volumes.get(volume)?.data).toEqual(home)
    // The cleanup on the old host follows the verified import.
    await eventually(() => !a.volumes.has(volume))
    const listed = await waitFor(
      async () => (await owner.get(`/workspaces/${ws.id}/moves`)).body,
      (ms) => ms[0].cleanup_status === "succeeded"
    )
    expect(listed).toHaveLength(1)
    expect(listed[0].cleanup_status).toBe("succeeded")

    // The next start runs on the new host, with the home it had.
    const start = await owner.post(`/workspaces/${ws.id}/builds`, { transition: "start" })
    expect(start.status, JSON.stringify(start.body)).toBe(200)
    const started = await settled(ws.id)
    expect(started.status).toBe("running")
    expect(started.resources[0].metadata).toContainEqual({ key: "host", value: b.name, sensitive: false })
    expect(b.volumes.get(volume)?.data.toString()).toContain(`made on ${a.name}`)

    // Audited as a change of the workspace's host.
    const audit = await owner.get(`/audit?limit=50&q=${encodeURIComponent("resource_type:workspace")}`)
    const entry = audit.body.audit_logs.find((l: any) => l.resource_id === ws.id && l.diff.host !== undefined)
    expect(entry?.diff).toMatchObject({ host: { old: a.name, new: b.name } })
  })

  it("a move to a host without the workspace's image fails before copying; the workspace stays whole", async () => {
    const ws = await stoppedWorkspace()
    const volume = `workbay-${ws.id}-home`
    const moved = await owner.post(`/workspaces/${ws.id}/moves`, { host: bare.name })
    expect(moved.status, JSON.stringify(moved.body)).toBe(201)
    const done = await moveSettled(ws.id)
    expect(done.status).toBe("failed")
    expect(done.error).toContain(`The image ${IMAGE} is not on this host`)
    expect(bare.volumes.size).toBe(0)
    expect(a.volumes.has(volume)).toBe(true)
    // The export, left without a partner, was canceled.
    const exported = await waitFor(
      async () => (await owner.get(`/organizations/${orgId}/provisionerjobs/${done.export_job_id}`)).body,
      (j) => j.status === "canceled" || j.status === "failed"
    )
    expect(["canceled", "failed"]).toContain(exported.status)
    expect(exported.type).toBe("workspace_move")
    // It starts where it was.
    expect((await owner.post(`/workspaces/${ws.id}/builds`, { transition: "start" })).status).toBe(200)
    const started = await settled(ws.id)
    expect(started.resources[0].metadata).toContainEqual({ key: "host", value: a.name, sensitive: false })
  })

  it("refuses what cannot move, with the field or state that says why", async () => {
    const ws = await stoppedWorkspace()
    expectValidations(await owner.post(`/workspaces/${ws.id}/moves`, { host: "no such/host" }), ["host"])
    expectValidations(await owner.post(`/workspaces/${ws.id}/moves`, {}), ["host"])
    expectValidations(await owner.post(`/workspaces/${ws.id}/moves`, { host: uniqueName("nowhere") }), ["host"])
    expectValidations(await owner.post(`/workspaces/${ws.id}/moves`, { host: a.name }), ["host"])
    expect((await owner.post(`/workspaces/${UNKNOWN_ID}/moves`, { host: b.name })).status).toBe(404)
    expect((await owner.get(`/workspaces/${UNKNOWN_ID}/moves`)).status).toBe(404)
    expect((await owner.get(`/workspaces/not-a-uuid/moves`)).status).toBe(400)
    expect((await srv.anonymous.post(`/workspaces/${ws.id}/moves`, { host: b.name })).status).toBe(401)
    expect((await srv.anonymous.get(`/workspaces/${ws.id}/moves`)).status).toBe(401)
    // A drained host takes no workspace.
    expect((await owner.patch(`/organizations/${orgId}/provisionerhosts/${b.name}`, { draining: true })).status).toBe(
      200
    )
    expectValidations(await owner.post(`/workspaces/${ws.id}/moves`, { host: b.name }), ["host"])
    expect((await owner.patch(`/organizations/${orgId}/provisionerhosts/${b.name}`, { draining: false })).status)
      .toBe(200)
    // A running workspace does not move.
    expect((await owner.post(`/workspaces/${ws.id}/builds`, { transition: "start" })).status).toBe(200)
    expect((await settled(ws.id)).status).toBe("running")
    const running = await owner.post(`/workspaces/${ws.id}/moves`, { host: b.name })
    expect(running.status).toBe(409)
    expect(running.body.message).toBe("Only a stopped workspace can be moved.")
    expect((await owner.get(`/workspaces/${ws.id}/moves`)).body).toEqual([])
  })

  it("a member may not move even their own workspace (operators pick hosts); others see no workspace", async () => {
    const member = await createUser(owner, { organization_ids: [orgId] })
    const ws = await stoppedWorkspace(member.client)
    const refused = await member.client.post(`/workspaces/${ws.id}/moves`, { host: b.name })
    expect(refused.status).toBe(403)
    expect((await member.client.get(`/workspaces/${ws.id}/moves`)).status).toBe(200)
    const stranger = await createUser(owner, { organization_ids: [orgId] })
    expect((await stranger.client.post(`/workspaces/${ws.id}/moves`, { host: b.name })).status).toBe(404)
    expect((await stranger.client.get(`/workspaces/${ws.id}/moves`)).status).toBe(404)
    // An organization administrator updates its workspaces and manages its daemons: they may.
    const admin = await createUser(owner, { organization_ids: [orgId] })
    await addMemberWithRoles(owner, orgId, admin.user.id, ["organization-admin"])
    const moved = await admin.client.post(`/workspaces/${ws.id}/moves`, { host: b.name })
    expect(moved.status, JSON.stringify(moved.body)).toBe(201)
    // No build, and no second move, while it runs.
    const again = await admin.client.post(`/workspaces/${ws.id}/moves`, { host: b.name })
    if (again.status !== 409) expect((await moveSettled(ws.id)).status).toBe("succeeded")
    else expect(again.body.message).toBe("The workspace is being moved to another host.")
    expect((await moveSettled(ws.id)).status).toBe("succeeded")
  })

  it("a link opens only with the daemon's key and the token its job was handed", async () => {
    const ws = await stoppedWorkspace()
    const moved = (await owner.post(`/workspaces/${ws.id}/moves`, { host: b.name })).body
    const path = `/organizations/${orgId}/workspacemoves/${moved.id}/stream?side=import`
    const open = (headers: Record<string, string>, at = path) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`${srv.wsUrl}/api/v2${at}`, { headers })
        socket.once("open", () => {
          socket.close()
          resolve(101)
        })
        socket.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0))
        socket.once("error", () => resolve(0))
      })
    expect(await open({})).toBe(401)
    expect(await open({ [KEY_HEADER]: key })).toBe(401)
    expect(await open({ [KEY_HEADER]: key, "Workbay-Move-Token": "guess" })).toBe(401)
    expect(await open({ "Workbay-Move-Token": "guess" })).toBe(401)
    expect(
      await open({ [KEY_HEADER]: key }, `/organizations/${orgId}/workspacemoves/${UNKNOWN_ID}/stream?side=import`)
    ).toBe(404)
    expect(await open({ [KEY_HEADER]: key }, `/organizations/${orgId}/workspacemoves/${moved.id}/stream?side=x`))
      .toBe(400)
    expect((await moveSettled(ws.id)).status).toBe("succeeded")
  })
})
