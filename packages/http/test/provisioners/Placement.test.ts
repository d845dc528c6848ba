/**
 * Placement and pinning on provisioner hosts (docs/provisioner-daemons.md), through real HTTP and
 * the daemons' WebSocket protocol: two hosts report their capacity; a workspace's first start goes
 * to the host with room for the memory its template asks (a parameter), its resources name that
 * host, and its stop is pinned there (the other host's waiting daemon never gets it); a start no
 * host has room for fails at once and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, type ServiceTestServer, startWithOwner, uniqueName } from "../support.js"
import { createVersion } from "../templates/versions.js"
import { connect, eventually } from "../websocket.js"

let srv: ServiceTestServer
let owner: Client
let orgId: string

beforeAll(async () => {
  ;({ srv, owner, orgId } = await startWithOwner())
})
afterAll(() => srv.close())

const GIB = 1024 ** 3
const KEY_HEADER = "Coder-Provisioner-Daemon-Key"

const TEMPLATE = `parameters:
  - name: memory
    default: "1g"
    mutable: true
resources:
  - name: dev
    type: docker_container
    container:
      image: ubuntu:24.04
      memory: "\${param.memory}"
      cpus: 1
`

/** A daemon of one host over the serve route, answering its jobs as the test says. */
const daemon = async (key: string, host: string, memoryBytes: number) => {
  const ws = await connect(
    `${srv.wsUrl}/api/v2/organizations/${orgId}/provisionerdaemons/serve?provisioner=docker&name=${
      uniqueName(host)
    }&host=${host}`,
    { [KEY_HEADER]: key }
  )
  await eventually(() => ws.messages.length > 0)
  const send = (message: object) => ws.socket.send(JSON.stringify(message))
  send({
    type: "capacity",
    cpus: 4,
    memory_bytes: memoryBytes,
    memory_promised_bytes: 0,
    cpus_promised: 0,
    containers: 0,
    disk_free_bytes: 100 * GIB
  })
  const jobs = () => ws.messages.map((m) => JSON.parse(m)).filter((m) => m.type === "job")
  return { ws, send, jobs, acquire: () => send({ type: "acquire" }) }
}

describe("placement on provisioner hosts", () => {
  it("places a start by free memory, names the host in its resources, pins the stop there; no room fails", async () => {
    const key = (await owner.post(`/organizations/${orgId}/provisionerkeys`, { name: uniqueName("key") })).body
      .key as string
    const [small, big] = [uniqueName("small"), uniqueName("big")]
    const a = await daemon(key, small, 4 * GIB)
    const b = await daemon(key, big, 16 * GIB)
    for (let i = 0; i < 500; i++) {
      const listed = (await owner.get(`/organizations/${orgId}/provisionerhosts`)).body as Array<{ name: string }>
      if (listed.filter((h) => h.name === small || h.name === big).length === 2) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }

    // The import is placed nowhere: the first daemon to ask takes it.
    const version = await createVersion(srv, owner, orgId, TEMPLATE, { provisioner: "docker" })
    expect(version.status, JSON.stringify(version.body)).toBe(201)
    a.acquire()
    await eventually(() => a.jobs().length === 1)
    a.send({
      type: "complete",
      job_id: a.jobs()[0].job_id,
      result: {
        parameters: [{ name: "memory", default_value: "1g", mutable: true }],
        resources: [{ transition: "start", resources: [{ name: "dev", type: "docker_container" }] }]
      }
    })
    await eventually(() => a.ws.messages.some((m) => JSON.parse(m).type === "job_done"))
    const template = await owner.post(`/organizations/${orgId}/templates`, {
      name: uniqueName("placed"),
      template_version_id: version.body.id
    })
    expect(template.status, JSON.stringify(template.body)).toBe(201)

    // 6 GiB: only the big host has room; the small host's daemon waits in vain.
    a.acquire()
    b.acquire()
    const workspace = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: uniqueName("ws"),
      template_id: template.body.id,
      rich_parameter_values: [{ name: "memory", value: "6g" }]
    })
    expect(workspace.status, JSON.stringify(workspace.body)).toBe(200)
    await eventually(() => b.jobs().length === 1)
    const start = b.jobs()[0]
    expect(start.build.transition).toBe("start")
    b.send({
      type: "complete",
      job_id: start.job_id,
      result: { resources: [{ name: "dev", type: "docker_container", metadata: [{ key: "image", value: "x" }] }] }
    })
    let built: any
    for (let i = 0; i < 500; i++) {
      built = (await owner.get(`/workspaces/${workspace.body.id}`)).body
      if (built.latest_build.status === "running") break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(built.latest_build.status).toBe("running")
    expect(built.latest_build.resources[0].metadata).toContainEqual({ key: "host", value: big, sensitive: false })

    // The stop is pinned to the big host, though both daemons ask.
    b.acquire()
    const stop = await owner.post(`/workspaces/${workspace.body.id}/builds`, { transition: "stop" })
    expect(stop.status, JSON.stringify(stop.body)).toBe(200)
    // Only the host's daemon could run it, and the build says so.
    expect(stop.body.matched_provisioners).toMatchObject({ count: 1, available: 1 })
    await eventually(() => b.jobs().length === 2)
    expect(b.jobs()[1].build.transition).toBe("stop")
    b.send({ type: "complete", job_id: b.jobs()[1].job_id, result: { resources: [] } })
    expect(a.jobs()).toHaveLength(1)

    // A drained host takes no new workspace: with the big host drained, 6 GiB fits nowhere.
    expect((await owner.patch(`/organizations/${orgId}/provisionerhosts/${big}`, { draining: true })).status).toBe(200)
    const elsewhere = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: uniqueName("ws"),
      template_id: template.body.id,
      rich_parameter_values: [{ name: "memory", value: "6g" }]
    })
    const refused = (await owner.get(`/workspaces/${elsewhere.body.id}`)).body.latest_build
    expect(refused.job.error).toContain(`of 1 connected host, the freest (${small})`)
    expect((await owner.patch(`/organizations/${orgId}/provisionerhosts/${big}`, { draining: false })).status).toBe(200)

    // With its host's daemon gone, an orphan delete is still taken by a daemon of another host (it calls none).
    b.ws.socket.close()
    await b.ws.closed
    a.acquire()
    const orphan = await owner.post(`/workspaces/${workspace.body.id}/builds`, { transition: "delete", orphan: true })
    expect(orphan.status, JSON.stringify(orphan.body)).toBe(200)
    await eventually(() => a.jobs().length === 2 || a.ws.messages.some((m) => JSON.parse(m).type === "job_done"))

    // 64 GiB: no host has room; the build fails at once with the reason, and no daemon gets it.
    const huge = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: uniqueName("ws"),
      template_id: template.body.id,
      rich_parameter_values: [{ name: "memory", value: "64g" }]
    })
    expect(huge.status, JSON.stringify(huge.body)).toBe(200)
    const failed = (await owner.get(`/workspaces/${huge.body.id}`)).body.latest_build
    expect(failed.status).toBe("failed")
    expect(failed.job.error).toContain("No provisioner host has room for this workspace: it asks 64 GiB of memory")
    expect(failed.job.error).toContain(`the freest (${big}) has 10 GiB of memory free of 16 GiB`)
    expect(b.jobs()).toHaveLength(2)
    // Its next start, asking less, is placed anew (it never ran anywhere): on the small host, whose daemon is left.
    a.acquire()
    const retry = await owner.post(`/workspaces/${huge.body.id}/builds`, {
      transition: "start",
      rich_parameter_values: [{ name: "memory", value: "1g" }]
    })
    expect(retry.status, JSON.stringify(retry.body)).toBe(200)
    await eventually(() => a.jobs().some((j) => j.build?.workspace?.id === huge.body.id))
    a.ws.socket.close()
  })
})
