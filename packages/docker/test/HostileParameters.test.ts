/**
 * A member's parameter values against a Docker template whose volume name and image are
 * parameters, through a real service and the machine's real daemon: a template administrator
 * imports it, a plain member starts builds with hostile values. Each build fails with the
 * message naming the parameter, before any call to the daemon (so nothing is made); the server
 * answers afterwards, and an address a value names is never reached. A literal bad value is
 * refused at import, naming the file, the line and the key. Everything the daemon could make here
 * carries this file's deployment id, and only that is removed.
 */
import { workbayProvisioner } from "@workbay/core"
import { createServer, type Server } from "node:net"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { eventually } from "../../agent/test/support.js"
import { type Client, createUser, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { uploadTemplate } from "../../http/test/templates/versions.js"
import { dockerClient } from "../src/Client.js"
import { makeDockerProvisioner } from "../src/DockerProvisioner.js"
import { cleanUp, labelled, testDeployment } from "./support.js"

const made = inject("workbayDocker")

const template = (image: string) => `
parameters:
  - { name: vol, default: workbay-hostile-home, mutable: true }
  - { name: img, default: "${image}", mutable: true }
resources:
  - name: home
    type: docker_volume
    volume: { name: "\${param.vol}" }
  - name: dev
    type: docker_container
    container:
      image: "\${param.img}"
      entrypoint: [sleep, "60"]
      mounts: [{ type: volume, source: home, target: /home/dev }]
`

describe.skipIf(made === null)("a member's hostile parameter values on Docker", () => {
  const deployment = testDeployment()
  const docker = dockerClient({ host: process.env.DOCKER_HOST })
  let srv: ServiceTestServer
  let admin: Client
  let member: Client
  let orgId: string
  let templateId: string
  // An address the values name: nothing may connect to it.
  let reached = 0
  const target: Server = createServer((s) => {
    reached++
    s.destroy()
  })
  let port = 0

  const done = <A extends { job: { status: string } }>(read: () => Promise<A>, what: string) =>
    eventually(read, (x) => !["pending", "running", "canceling"].includes(x.job.status), what, 60_000)
  const buildDone = (id: string) => done(async () => (await member.get(`/workspacebuilds/${id}`)).body, "the build")
  const importVersion = async (yaml: string) => {
    const r = await admin.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      provisioner: "docker",
      file_id: await uploadTemplate(srv, admin, yaml)
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return done(async () => (await admin.get(`/templateversions/${r.body.id}`)).body, "the import")
  }

  beforeAll(async () => {
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", () => resolve()))
    port = (target.address() as { port: number }).port
    let owner: Client
    ;({ srv, owner } = await startWithOwner({
      provisioners: [workbayProvisioner, makeDockerProvisioner({ docker, defaultNetwork: "host", pull: false })],
      settings: { deploymentId: deployment },
      lifecycle: false,
      prebuilds: false
    }))
    orgId = (await owner.get("/organizations/default")).body.id
    admin = (await createUser(owner, { username: "templates", roles: ["template-admin"] })).client
    member = (await createUser(owner, { username: "member" })).client
    const version = await importVersion(template(made!.image))
    expect(version.job.status, version.job.error).toBe("succeeded")
    const created = await admin.post(`/organizations/${orgId}/templates`, {
      name: "hostile",
      template_version_id: version.id
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    templateId = created.body.id
  })
  afterAll(async () => {
    await cleanUp(docker, deployment)
    await srv?.close()
    await new Promise((resolve) => target.close(resolve))
  })

  it("fails each build with the message naming the parameter, reaches nothing, and the server answers", async () => {
    const hostile = [
      "/var/run/docker.sock",
      `../../127.0.0.1:${port}/x`,
      "..",
      "/",
      "%2F",
      "a@b",
      "a?b",
      "a#b",
      " a b\t",
      "x".repeat(10 * 1024)
    ]
    let workspaceId: string | undefined
    for (const value of hostile) {
      const rich_parameter_values = [{ name: "vol", value }, { name: "img", value }]
      const started = workspaceId === undefined
        ? await member.post(`/organizations/${orgId}/members/me/workspaces`, {
          name: "box",
          template_id: templateId,
          rich_parameter_values
        })
        : await member.post(`/workspaces/${workspaceId}/builds`, { transition: "start", rich_parameter_values })
      expect(started.status, JSON.stringify(started.body)).toBe(200)
      const buildId = workspaceId === undefined ? started.body.latest_build.id : started.body.id
      workspaceId ??= started.body.id as string
      const build = await buildDone(buildId)
      expect(build.job.status, value.slice(0, 40)).toBe("failed")
      const error = build.job.error as string
      expect(error).toContain("Resource docker_volume.home, key volume.name (from parameter \"vol\"): ")
      expect(error).toContain("must be a volume name of 2 to 255")
      expect(error).toContain("Resource docker_container.dev, key container.image (from parameter \"img\"): ")
      expect(error).toContain("must be an image reference")
      // The value is shown, cut short.
      expect(error).toContain(JSON.stringify(value.slice(0, 60)).slice(0, -1))
      expect(error.length).toBeLessThan(1_500)
      // No call reached the daemon: the build's log has the refusal and no step of the daemon's.
      const logs = (await member.get(`/workspacebuilds/${buildId}/logs`)).body as Array<{ output: string }>
      expect(logs.map((l) => l.output).join("\n")).not.toMatch(/Volume .*: (created|found)|Image .*: (found|not on)/)
      expect((await srv.anonymous.get("/buildinfo")).status).toBe(200)
    }
    expect(reached).toBe(0)
    const left = await labelled(docker, deployment)
    expect(left.containers).toEqual([])
    expect(left.volumes).toEqual([])
  })

  it("refuses a literal bad image at import, naming the file, the line and the key", async () => {
    const version = await importVersion(template("../../x").replace("image: \"${param.img}\"", "image: \"../../x\""))
    expect(version.job.status).toBe("failed")
    expect(version.job.error).toMatch(
      /^template\.yaml:12: key resources\[1\]\.container\.image: must be an image reference/m
    )
  })
})
