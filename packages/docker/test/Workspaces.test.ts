/**
 * Workspaces on Docker through the API, on a real service, a real daemon and the real agent
 * executable: the `docker` starter from `GET /templates/examples`, imported with no edits but its
 * image (one made here, with no Node and no curl or wget, as plain Ubuntu images), a workspace
 * whose container's agent connects and reaches `ready`, its build logs and timings, resources
 * with metadata, stop with the home volume kept, start onto a newer version with the data back,
 * delete, orphan delete, the quota checked before anything is made, and an import refused with
 * one message per problem. Containers and volumes carry this file's deployment id; only those
 * are removed.
 */
import { workbayProvisioner } from "@workbay/core"
import { Effect, Fiber } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import WebSocket from "ws"
import { eventually, sshThroughRoute } from "../../agent/test/support.js"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { uploadTemplate } from "../../http/test/templates/versions.js"
import { dockerClient } from "../src/Client.js"
import { makeDockerProvisioner } from "../src/DockerProvisioner.js"
import { LABEL_WORKSPACE_ID } from "../src/Labels.js"
import { watchVanishedContainers } from "../src/Watch.js"
import { cleanUp, execIn, labelled, testDeployment } from "./support.js"

const made = inject("workbayDocker")

/** Polls until `done` holds, up to a minute (a container's agent starts in about a second). */
const until = <A>(read: () => Promise<A>, done: (a: A) => boolean, what: string) => eventually(read, done, what, 60_000)

describe.skipIf(made === null)("workspaces on Docker through the API", () => {
  const deployment = testDeployment()
  const docker = dockerClient({ host: process.env.DOCKER_HOST })
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let templateId: string

  const buildDone = (id: string) =>
    until(
      async () => (await owner.get(`/workspacebuilds/${id}`)).body,
      (b) => !["pending", "running", "canceling"].includes(b.job.status),
      "the build"
    )
  const importDone = (id: string) =>
    until(
      async () => (await owner.get(`/templateversions/${id}`)).body,
      (v) => !["pending", "running"].includes(v.job.status),
      "the import"
    )
  const agentOf = (build: any) => (build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
  const agentReady = (agentId: string) =>
    until(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body,
      (a) => a.lifecycle_state === "ready",
      "the agent"
    )
  const build = async (workspaceId: string, body: Record<string, unknown>) => {
    const r = await owner.post(`/workspaces/${workspaceId}/builds`, body)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    return buildDone(r.body.id)
  }
  const containersOf = async (workspaceId: string) =>
    (await labelled(docker, deployment)).containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === workspaceId)
  const volumesOf = async (workspaceId: string) =>
    (await labelled(docker, deployment)).volumes.filter((v) => v.Labels?.[LABEL_WORKSPACE_ID] === workspaceId)
  const newVersion = async (body: Record<string, unknown>) => {
    const r = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      provisioner: "docker",
      ...body
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return importDone(r.body.id)
  }

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({
      agentBinaries: made!.agentBinaries,
      provisioners: [workbayProvisioner, makeDockerProvisioner({ docker, defaultNetwork: "host", pull: false })],
      settings: { deploymentId: deployment },
      lifecycle: false
    }))
    orgId = (await owner.get("/organizations/default")).body.id
    // No group has a quota allowance: quotas are off, and the starter (1 credit a day) builds.
    const examples = await owner.get("/templates/examples")
    expect(examples.body.map((e: any) => e.id)).toContain("docker")
    const version = await newVersion({
      example_id: "docker",
      user_variable_values: [{ name: "image", value: made!.perlImage }]
    })
    expect(version.job.status, JSON.stringify(version.job)).toBe("succeeded")
    const template = await owner.post(`/organizations/${orgId}/templates`, {
      name: "docker",
      template_version_id: version.id
    })
    expect(template.status, JSON.stringify(template.body)).toBe(201)
    templateId = template.body.id
  })
  afterAll(async () => {
    await cleanUp(docker, deployment)
    await srv?.close()
  })

  it("creates a workspace whose container's agent reaches ready, and keeps the home volume across stop and start", async () => {
    const created = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "box",
      template_id: templateId,
      rich_parameter_values: [{ name: "memory", value: "1" }]
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const ws = created.body.id
    const first = await buildDone(created.body.latest_build.id)
    expect(first.job.status, first.job.error).toBe("succeeded")
    expect(first.daily_cost).toBe(1)
    const container = first.resources.find((r: any) => r.type === "docker_container")
    const meta = Object.fromEntries(container.metadata.map((m: any) => [m.key, m.value]))
    expect(meta).toMatchObject({ image: made!.perlImage, memory: "1 GiB", cpus: "1", network: "host" })
    expect(meta.container_id).toMatch(/^[0-9a-f]{12}$/)
    const volume = first.resources.find((r: any) => r.type === "docker_volume")
    expect(volume.hide).toBe(true)
    const agent = await agentReady(agentOf(first).id)
    expect(agent.status).toBe("connected")

    // The build's logs show the driver's steps under the job's stages; the timings have them.
    const logs = (await owner.get(`/workspacebuilds/${first.id}/logs`)).body as Array<any>
    const starting = logs.filter((l) => l.stage === "Starting workspace").map((l) => l.output).join("\n")
    expect(starting).toMatch(/Volume workbay-.*-home: created\./)
    expect(starting).toMatch(/Image .*: found/)
    expect(starting).toMatch(/Container workbay-admin-box-[0-9a-f]{8}: created \([0-9a-f]{12}\)\./)
    expect(starting).toMatch(/: started\./)
    expect(starting).toContain(`fetches it from ${srv.url}/bin/workbay-agent-linux-amd64`)
    const timings = (await owner.get(`/workspacebuilds/${first.id}/timings`)).body
    expect(timings.provisioner_timings.map((t: any) => t.stage)).toContain("apply")

    const [running] = await containersOf(ws)
    await execIn(docker, running!.Id, ["sh", "-c", "echo precious > /home/workbay/data; sha256sum /home/workbay/data"])
    const sum = await execIn(docker, running!.Id, ["sha256sum", "/home/workbay/data"])

    const stopped = await build(ws, { transition: "stop" })
    expect(stopped.job.status, stopped.job.error).toBe("succeeded")
    expect(await containersOf(ws)).toHaveLength(0)
    expect(await volumesOf(ws)).toHaveLength(1)
    expect(stopped.resources.map((r: any) => r.type)).toEqual(["docker_volume"])
    expect((await owner.get(`/workspaces/${ws}`)).body.latest_build.status).toBe("stopped")

    // A newer version (more memory by default), promoted; the start moves onto it.
    const newer = await newVersion({
      example_id: "docker",
      template_id: templateId,
      user_variable_values: [{ name: "image", value: made!.perlImage }]
    })
    expect((await owner.patch(`/templates/${templateId}/versions`, { id: newer.id })).status).toBe(200)
    const again = await build(ws, { transition: "start", template_version_id: newer.id })
    expect(again.job.status, again.job.error).toBe("succeeded")
    expect(again.template_version_id).toBe(newer.id)
    await agentReady(agentOf(again).id)
    const [second] = await containersOf(ws)
    expect(second!.Id).not.toBe(running!.Id)
    expect(await execIn(docker, second!.Id, ["sha256sum", "/home/workbay/data"])).toBe(sum)

    const deleted = await build(ws, { transition: "delete" })
    expect(deleted.job.status, deleted.job.error).toBe("succeeded")
    expect(await containersOf(ws)).toHaveLength(0)
    expect(await volumesOf(ws)).toHaveLength(0)
    expect((await owner.get(`/workspaces/${ws}`)).status).toBe(404)
  })

  it("opens a terminal and SSH into the container, through the service and its agent", async () => {
    const created = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "term",
      template_id: templateId
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const first = await buildDone(created.body.latest_build.id)
    expect(first.job.status, first.job.error).toBe("succeeded")
    const agentId = agentOf(first).id
    await agentReady(agentId)
    const [container] = await containersOf(created.body.id)
    await execIn(docker, container!.Id, ["sh", "-c", "echo inside-the-container > /home/workbay/marker"])
    const headers = { "Service-Session-Token": owner.token! }

    // The web terminal: a real pty in the container (the executable's pty.node), resized.
    const term = new WebSocket(`${srv.wsUrl}/api/v2/workspaceagents/${agentId}/pty?reconnect=${randomUUID()}`, {
      headers
    })
    let output = ""
    term.on("message", (d: Buffer) => void (output += d.toString()))
    await new Promise((r) => term.once("open", r))
    term.send(JSON.stringify({ height: 33, width: 111 }))
    term.send(JSON.stringify({ data: "stty size; cat /home/workbay/marker; tty\r" }))
    let closed = ""
    term.on("close", (code, reason) => void (closed = `${code} ${String(reason)}`))
    await until(
      async () => (closed === "" ? output : `closed: ${closed}`),
      (o) => /33 111/.test(o) && o.includes("inside-the-container") && /\/dev\/pts\//.test(o),
      "the terminal"
    )
    term.close(1000)

    // SSH: the real OpenSSH client through the ssh route.
    const r = await sshThroughRoute(srv.wsUrl, agentId, owner.token!, "cat /home/workbay/marker; exit 5")
    expect(r.stdout, r.stderr).toBe("inside-the-container\n")
    expect(r.status).toBe(5)
    const deleted = await build(created.body.id, { transition: "delete" })
    expect(deleted.job.status, deleted.job.error).toBe("succeeded")
  })

  it("forgets a workspace whose container and volume the daemon lost, with an orphan delete", async () => {
    const created = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "lost",
      template_id: templateId
    })
    const ws = created.body.id
    expect((await buildDone(created.body.latest_build.id)).job.status).toBe("succeeded")
    for (const c of await containersOf(ws)) await docker.getContainer(c.Id).remove({ force: true })
    for (const v of await volumesOf(ws)) await docker.getVolume(v.Name).remove()
    const orphaned = await build(ws, { transition: "delete", orphan: true })
    expect(orphaned.job.status, orphaned.job.error).toBe("succeeded")
    expect((await owner.get(`/workspaces/${ws}`)).status).toBe(404)
  })

  it("reports a workspace whose container was removed behind its back as stopped, and starts it again", async () => {
    const watch = await srv.run(Effect.forkDaemon(watchVanishedContainers(docker)))
    try {
      const created = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
        name: "vanishing",
        template_id: templateId
      })
      const ws = created.body.id
      expect((await buildDone(created.body.latest_build.id)).job.status).toBe("succeeded")
      // Removed by hand: the watcher hears it and the workspace is stopped (build 2, autostop).
      const [c] = await containersOf(ws)
      await docker.getContainer(c!.Id).remove({ force: true })
      const stopped = await until(
        async () => (await owner.get(`/workspaces/${ws}`)).body.latest_build,
        (b) => b.transition === "stop" && b.status === "stopped",
        "the workspace stopped"
      )
      expect(stopped.build_number).toBe(2)
      expect(stopped.reason).toBe("autostop")
      expect(await volumesOf(ws)).toHaveLength(1)
      // The next start makes the container again; its agent comes back.
      const again = await build(ws, { transition: "start" })
      expect(again.job.status, again.job.error).toBe("succeeded")
      await agentReady(agentOf(again).id)
      // A stop of Workbay's own removes the container too: no extra build comes of it.
      const stop = await build(ws, { transition: "stop" })
      expect(stop.build_number).toBe(4)
      await new Promise((r) => setTimeout(r, 500))
      expect((await owner.get(`/workspaces/${ws}`)).body.latest_build.build_number).toBe(4)
    } finally {
      await srv.run(Fiber.interrupt(watch))
    }
  })

  it("checks the quota before it makes anything", async () => {
    // Quotas on: a group of others has an allowance, and the owner's budget is 0.
    const funded = await owner.post(`/organizations/${orgId}/groups`, { name: "funded", quota_allowance: 1 })
    expect(funded.status, JSON.stringify(funded.body)).toBe(201)
    try {
      const created = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
        name: "pricey",
        template_id: templateId
      })
      const done = await buildDone(created.body.latest_build.id)
      expect(done.job.status).toBe("failed")
      expect(done.job.error).toMatch(/quota/i)
      expect(await containersOf(created.body.id)).toHaveLength(0)
      expect(await volumesOf(created.body.id)).toHaveLength(0)
    } finally {
      await owner.delete(`/groups/${funded.body.id}`)
    }
  })

  it("refuses an import whose container spec is wrong, one message per problem", async () => {
    const file = await uploadTemplate(
      srv,
      owner,
      `resources:
  - name: dev
    type: docker_container
    container:
      image: debian
      memory: 1x
      privileged: true
      mounts:
        - { type: bind, source: /etc, target: /etc-of-host }
`
    )
    const version = await newVersion({ file_id: file })
    expect(version.job.status).toBe("failed")
    const lines = version.job.error.split("\n")
    expect(lines).toHaveLength(3)
    expect(version.job.error).toMatch(/container\.memory: must be a memory size/)
    expect(version.job.error).toMatch(/container\.privileged: a privileged container is refused/)
    expect(version.job.error).toMatch(/mounts\[0\]\.type: a host path \(bind\) mount is refused/)
  })

  it("leaves everything it made labelled with the deployment, workspace, owner and build", async () => {
    const created = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: `labels-${randomUUID().slice(0, 6)}`,
      template_id: templateId
    })
    const done = await buildDone(created.body.latest_build.id)
    const [c] = await containersOf(created.body.id)
    expect(c!.Labels).toMatchObject({
      "com.workbay.deployment": deployment,
      "com.workbay.workspace.id": created.body.id,
      "com.workbay.owner.name": "admin",
      "com.workbay.build.id": done.id,
      "com.workbay.build.number": "1",
      "com.workbay.template.id": templateId,
      "com.workbay.resource": "docker_container.workspace"
    })
    const [v] = await volumesOf(created.body.id)
    expect(v!.Labels).toMatchObject({ "com.workbay.owner.id": c!.Labels["com.workbay.owner.id"] })
  })
})

describe.skipIf(made === null)("a wrong agent URL", () => {
  const deployment = testDeployment()
  const docker = dockerClient({ host: process.env.DOCKER_HOST })
  let srv: ServiceTestServer
  let owner: Client
  afterAll(async () => {
    await cleanUp(docker, deployment)
    await srv?.close()
  })

  it("shows as the agent's timeout with the URL named in the build log and the container's log", async () => {
    ;({ srv, owner } = await startWithOwner({
      agentBinaries: made!.agentBinaries,
      provisioners: [
        workbayProvisioner,
        makeDockerProvisioner({ docker, defaultNetwork: "host", pull: false, agentUrl: "http://127.0.0.1:9" })
      ],
      settings: { deploymentId: deployment },
      lifecycle: false
    }))
    const orgId = (await owner.get("/organizations/default")).body.id
    const file = await uploadTemplate(
      srv,
      owner,
      `resources:
  - name: dev
    type: docker_container
    container:
      image: ${made!.image}
      entrypoint: [sh, -c, "\${agent.main.init_script}"]
      env: { WORKBAY_AGENT_TOKEN: "\${agent.main.token}" }
    agents:
      - name: main
        connection_timeout_seconds: 1
        troubleshooting_url: https://example.com/docker-help
`
    )
    const version = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      provisioner: "docker",
      file_id: file
    })
    await until(
      async () => (await owner.get(`/templateversions/${version.body.id}`)).body,
      (v) => v.job.status === "succeeded",
      "the import"
    )
    const template = await owner.post(`/organizations/${orgId}/templates`, {
      name: "wrong-url",
      template_version_id: version.body.id
    })
    const ws = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "lonely",
      template_id: template.body.id
    })
    const build = await until(
      async () => (await owner.get(`/workspacebuilds/${ws.body.latest_build.id}`)).body,
      (b) => b.job.status === "succeeded",
      "the build"
    )
    const logs = (await owner.get(`/workspacebuilds/${build.id}/logs`)).body as Array<any>
    expect(logs.map((l) => l.output).join("\n")).toContain(
      "fetches it from http://127.0.0.1:9/bin/workbay-agent-linux-amd64; if the agent does not connect within 1 s"
    )
    const agentId = (build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0].id
    const agent = await until(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body,
      (a) => a.status === "timeout",
      "the agent's timeout"
    )
    expect(agent.health).toEqual({ healthy: false, reason: "agent is taking too long to connect" })
    expect(agent.troubleshooting_url).toBe("https://example.com/docker-help")
    const filters = JSON.stringify({ label: [`com.workbay.workspace.id=${ws.body.id}`] })
    const [c] = await docker.listContainers({ all: true, filters })
    const log = await until(
      async () => String(await docker.getContainer(c!.Id).logs({ stdout: true, stderr: true })),
      (l) => l.includes("could not download the agent"),
      "the container's log"
    )
    expect(log).toContain("could not download the agent from http://127.0.0.1:9/bin/workbay-agent-linux-amd64")
  })
})
