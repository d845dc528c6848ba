/**
 * Prebuilt workspaces on Docker (docs/prebuilds.md), on a real service, a real daemon and the
 * real agent executable: the Docker starter with a preset that keeps one prebuilt workspace. The
 * reconciler (ticked by hand) builds it: a container whose agent reaches `ready` as the prebuilds
 * user's. A member's creation with the preset claims it: the claim's build keeps the running
 * container, the agent in it reinitializes as the claim's agent (its start script runs again as
 * the new owner's) and is ready with no new machine; the member's terminal reaches the same
 * container; the next tick builds a replacement. Containers and volumes carry this file's
 * deployment id; only those are removed.
 */
import { PREBUILDS_USER_ID, PrebuildsReconciler, workbayProvisioner } from "@workbay/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import WebSocket from "ws"
import { eventually } from "../../agent/test/support.js"
import { type Client, createUser, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { uploadTemplate } from "../../http/test/templates/versions.js"
import { dockerClient } from "../src/Client.js"
import { makeDockerProvisioner } from "../src/DockerProvisioner.js"
import { LABEL_WORKSPACE_ID } from "../src/Labels.js"
import { cleanUp, execIn, labelled, testDeployment } from "./support.js"

const made = inject("workbayDocker")

const until = <A>(read: () => Promise<A>, done: (a: A) => boolean, what: string) => eventually(read, done, what, 60_000)

/** The Docker starter, its agent's start script writing who it runs for, and a preset keeping one prebuilt workspace. */
const template = () => {
  const starter = readFileSync(new URL("../../../examples/templates/docker/template.yaml", import.meta.url), "utf8")
  const withOwner = starter.replace(
    "env: { HOME: /home/workbay }",
    "env: { HOME: /home/workbay, OWNER: \"${workspace.owner}\" }"
  )
  expect(withOwner).not.toBe(starter)
  return `${withOwner}        scripts:
          - display_name: Owner
            script: echo "$OWNER $WORKBAY_WORKSPACE_NAME" >> /home/workbay/owners
            run_on_start: true
presets:
  - name: warm
    parameters: { cpus: 1, memory: 1 }
    prebuilds: { instances: 1 }
`
}

describe.skipIf(made === null)("prebuilt workspaces on Docker", () => {
  const deployment = testDeployment()
  const docker = dockerClient({ host: process.env.DOCKER_HOST })
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string

  const agentOf = (w: any) => (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
  const containersOf = async (workspaceId: string) =>
    (await labelled(docker, deployment)).containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === workspaceId)
  /** The workspace once its latest build is done and its agent is connected and ready. */
  const ready = (client: Client, id: string) =>
    until(
      async () => (await client.get(`/workspaces/${id}`)).body,
      (w) => {
        if (w.latest_build?.job?.status === "failed") throw new Error(`build failed: ${w.latest_build.job.error}`)
        const a = w.latest_build?.status === "running" ? agentOf(w) : undefined
        return a?.status === "connected" && a?.lifecycle_state === "ready"
      },
      "the workspace's agent ready"
    )

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({
      agentBinaries: made!.agentBinaries,
      provisioners: [workbayProvisioner, makeDockerProvisioner({ docker, defaultNetwork: "host", pull: false })],
      settings: { deploymentId: deployment },
      lifecycle: false,
      prebuilds: false
    }))
    orgId = (await owner.get("/organizations/default")).body.id
    await owner.patch(`/groups/${orgId}`, { quota_allowance: 10 })
  })
  afterAll(async () => {
    await cleanUp(docker, deployment)
    await srv?.close()
  })

  it("claims the prebuilt workspace's running container; its agent reinitializes as the new owner's", async () => {
    const imported = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      provisioner: "docker",
      file_id: await uploadTemplate(srv, owner, template()),
      user_variable_values: [{ name: "image", value: made!.perlImage }]
    })
    expect(imported.status, JSON.stringify(imported.body)).toBe(201)
    const version = await until(
      async () => (await owner.get(`/templateversions/${imported.body.id}`)).body,
      (v) => !["pending", "running"].includes(v.job.status),
      "the import"
    )
    expect(version.job.status, version.job.error).toBe("succeeded")
    const t = (await owner.post(`/organizations/${orgId}/templates`, { name: "warm", template_version_id: version.id }))
      .body
    const preset = (await owner.get(`/templateversions/${version.id}/presets`)).body[0].ID as string

    const tick = () => srv.run(Effect.flatMap(PrebuildsReconciler, (r) => r.tick()))
    const [created] = (await tick()).created
    expect(created).toBeDefined()
    const prebuilt = (await owner.get(`/workspaces?q=${encodeURIComponent("owner:prebuilds")}`)).body.workspaces
      .find((w: any) => w.template_id === t.id)
    const warm = await ready(owner, prebuilt.id)
    expect(warm.owner_id).toBe(PREBUILDS_USER_ID)
    const [container] = await containersOf(prebuilt.id)
    expect(container!.State).toBe("running")
    const owners = async () => (await execIn(docker, container!.Id, ["cat", "/home/workbay/owners"])).trim()
    expect(await owners()).toBe(`prebuilds ${prebuilt.name}`)

    const dev = await createUser(owner, { username: "claimer" })
    const claimed = await dev.client.post(`/users/me/workspaces`, {
      name: "mine",
      template_id: t.id,
      template_version_preset_id: preset
    })
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200)
    expect(claimed.body.id).toBe(prebuilt.id)
    const mine = await ready(dev.client, prebuilt.id)
    expect(mine.latest_build.build_number).toBe(2)
    expect(agentOf(mine).id).not.toBe(agentOf(warm).id)

    // The same container runs on (nothing was stopped or made), now holding the member's session.
    const after = await containersOf(prebuilt.id)
    expect(after.map((c) => [c.Id, c.State])).toEqual([[container!.Id, "running"]])
    const logs = (await dev.client.get(`/workspacebuilds/${mine.latest_build.id}/logs`)).body as Array<any>
    expect(logs.map((l) => l.output).join("\n")).toMatch(
      /kept running for the new owner, claimer; its agents reinitialize/
    )
    const meta = Object.fromEntries(
      mine.latest_build.resources.find((r: any) => r.type === "docker_container").metadata.map((
        m: any
      ) => [m.key, m.value])
    )
    expect(meta.container_id).toBe(container!.Id.slice(0, 12))
    expect(await owners()).toBe(`prebuilds ${prebuilt.name}\nclaimer mine`)

    // The member's terminal reaches the container through the claim's agent.
    const term = new WebSocket(
      `${srv.wsUrl}/api/v2/workspaceagents/${agentOf(mine).id}/pty?reconnect=${randomUUID()}`,
      { headers: { "Service-Session-Token": dev.client.token! } }
    )
    let output = ""
    term.on("message", (d: Buffer) => void (output += d.toString()))
    await new Promise((r) => term.once("open", r))
    term.send(JSON.stringify({ data: "cat /home/workbay/owners\r" }))
    await until(async () => output, (o) => o.includes("claimer mine"), "the terminal")
    term.close(1000)

    // The next tick builds a replacement, in a container of its own.
    expect((await tick()).created).toHaveLength(1)
    const replacement = (await owner.get(`/workspaces?q=${encodeURIComponent("owner:prebuilds")}`)).body.workspaces
      .find((w: any) => w.template_id === t.id)
    expect(replacement.id).not.toBe(prebuilt.id)
    await ready(owner, replacement.id)
    expect((await containersOf(replacement.id))[0]!.Id).not.toBe(container!.Id)
  })
})
