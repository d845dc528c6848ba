/**
 * The docker provisioner against the machine's real Docker daemon: imports with their
 * validations, and start, stop, start and delete of one workspace with its home volume kept,
 * labels, a literal environment, a container left by a crash, and the daemon's refusals. Every
 * container and volume is labelled with this file's deployment id, and only those are removed.
 */
import { type BuildInput, type Provisioner, QuotaExceeded } from "@workbay/core"
import type Docker from "dockerode"
import { Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { dockerClient } from "../src/Client.js"
import { makeDockerProvisioner } from "../src/DockerProvisioner.js"
import {
  LABEL_BUILD_ID,
  LABEL_DEPLOYMENT,
  LABEL_OWNER_NAME,
  LABEL_RESOURCE,
  LABEL_WORKSPACE_ID
} from "../src/Labels.js"
import { buildInput, cleanUp, execIn, labelled, templateArchive, testDeployment } from "./support.js"

const available = inject("workbayDocker")

const template = (image: string, extra = "") => `
variables:
  - name: image
    default: ${image}
parameters:
  - name: motto
    default: hello
    mutable: true
resources:
  - name: dev
    type: docker_container
    daily_cost: 3
    container:
      image: \${var.image}
      entrypoint: [sh, -c, "\${agent.main.init_script}"]
      env:
        WORKBAY_AGENT_TOKEN: "\${agent.main.token}"
        MOTTO: "\${param.motto}"
      labels: { team: platform }
      memory: 64m
      cpus: 0.5
      mounts:
        - { type: volume, source: home, target: /home/workbay }
        - { type: tmpfs, target: /scratch }
${extra}
    agents:
      - name: main
  - name: home
    type: docker_volume
    hide: true
    transitions: [start, stop]
`

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.either(effect))

describe.skipIf(available === null)("the docker provisioner on a real daemon", () => {
  const image = available?.image ?? ""
  const deployment = testDeployment()
  let docker: Docker
  let provisioner: Provisioner
  let archive: Uint8Array

  beforeAll(async () => {
    docker = dockerClient({ host: process.env.DOCKER_HOST })
    // Host networking, as every test container here: nothing leaves loopback.
    provisioner = makeDockerProvisioner({ docker, defaultNetwork: "host", pull: false })
    archive = await templateArchive(template(image))
  })
  afterAll(async () => {
    if (docker !== undefined) await cleanUp(docker, deployment)
  })

  const workspace = () => ({ id: randomUUID(), name: `ws${randomUUID().slice(0, 6)}`, owner: "alice" })
  const build = (input: BuildInput) => run(provisioner.build(input))

  it("imports the template, with the container and volume among the start resources", async () => {
    const result = await run(
      provisioner.import({ archive, content_type: "application/x-tar", variable_values: [] })
    )
    expect(Either.isRight(result)).toBe(true)
    if (Either.isLeft(result)) return
    const start = result.right.resources.find((r) => r.transition === "start")!.resources
    expect(start.map((r) => r.type).sort()).toEqual(["docker_container", "docker_volume"])
    const stop = result.right.resources.find((r) => r.transition === "stop")!.resources
    expect(stop.map((r) => r.type)).toEqual(["docker_volume"])
  })

  it("starts, stops and starts again with the home volume's data kept, then deletes everything", async () => {
    const ws = workspace()
    const hostile = "\"; rm -rf / #$(id)"
    const start = await build(buildInput(archive, deployment, ws, {
      transition: "start",
      parameter_values: [{ name: "motto", value: hostile }],
      agentInitScript: () => "echo started >> /home/workbay/starts; exec sleep 3600"
    }))
    expect(Either.isRight(start)).toBe(true)
    if (Either.isLeft(start)) throw new Error(start.left.message)
    const out = start.right
    expect(out.daily_cost).toBe(3)
    const container = out.resources.find((r) => r.type === "docker_container")!
    const meta = Object.fromEntries(container.metadata.map((m) => [m.key, m.value]))
    expect(meta).toMatchObject({ image, memory: "64 MiB", cpus: "0.5", network: "host" })
    expect(out.resources.find((r) => r.type === "docker_volume")!.hide).toBe(true)
    expect(out.logs.map((l) => l.output).join("\n")).toMatch(
      /Volume workbay-.*: created[\s\S]*created \([0-9a-f]{12}\)[\s\S]*started/
    )
    expect(new Set(out.logs.map((l) => l.stage))).toContain("Starting workspace")

    const made = await labelled(docker, deployment)
    const mine = made.containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)
    expect(mine).toHaveLength(1)
    expect(mine[0]!.State).toBe("running")
    expect(mine[0]!.Labels).toMatchObject({
      [LABEL_DEPLOYMENT]: deployment,
      [LABEL_OWNER_NAME]: "alice",
      [LABEL_RESOURCE]: "docker_container.dev",
      team: "platform"
    })
    expect(mine[0]!.Labels[LABEL_BUILD_ID]).toMatch(/^[0-9a-f-]{36}$/)
    const info = await docker.getContainer(mine[0]!.Id).inspect()
    // The parameter is data: one environment entry holding the literal string.
    expect(info.Config.Env).toContain(`MOTTO=${hostile}`)
    expect(info.Config.Env).toContain("WORKBAY_AGENT_TOKEN=token-of-main")
    expect(info.HostConfig.Memory).toBe(64 * 1024 * 1024)
    expect(info.HostConfig.NanoCpus).toBe(500_000_000)
    const volumes = made.volumes.filter((v) => v.Labels?.[LABEL_WORKSPACE_ID] === ws.id)
    expect(volumes).toHaveLength(1)
    await expect.poll(() => execIn(docker, mine[0]!.Id, ["cat", "/home/workbay/starts"])).toBe("started\n")
    await execIn(docker, mine[0]!.Id, ["sh", "-c", "echo precious > /home/workbay/data"])

    const stop = await build(buildInput(archive, deployment, ws, { transition: "stop", previous_state: out.state }))
    expect(Either.isRight(stop)).toBe(true)
    const afterStop = await labelled(docker, deployment)
    expect(afterStop.containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)).toHaveLength(0)
    expect(afterStop.volumes.filter((v) => v.Labels?.[LABEL_WORKSPACE_ID] === ws.id)).toHaveLength(1)
    if (Either.isRight(stop)) expect(stop.right.resources.map((r) => r.type)).toEqual(["docker_volume"])

    const again = await build(buildInput(archive, deployment, ws, {
      transition: "start",
      agentInitScript: () => "echo started >> /home/workbay/starts; exec sleep 3600"
    }))
    expect(Either.isRight(again)).toBe(true)
    const second = (await labelled(docker, deployment)).containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)
    expect(second).toHaveLength(1)
    await expect.poll(() => execIn(docker, second[0]!.Id, ["cat", "/home/workbay/starts"])).toBe("started\nstarted\n")
    expect(await execIn(docker, second[0]!.Id, ["cat", "/home/workbay/data"])).toBe("precious\n")

    const del = await build(buildInput(archive, deployment, ws, { transition: "delete" }))
    expect(Either.isRight(del)).toBe(true)
    const gone = await labelled(docker, deployment)
    expect(gone.containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)).toHaveLength(0)
    expect(gone.volumes.filter((v) => v.Labels?.[LABEL_WORKSPACE_ID] === ws.id)).toHaveLength(0)
  })

  it("replaces a container an earlier start left behind (a crash), found by its labels", async () => {
    const ws = workspace()
    const first = await build(buildInput(archive, deployment, ws, { transition: "start" }))
    expect(Either.isRight(first)).toBe(true)
    const before = (await labelled(docker, deployment)).containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)
    // The next start comes as if the server had died after the first (no stop in between).
    const second = await build(buildInput(archive, deployment, ws, { transition: "start" }))
    expect(Either.isRight(second)).toBe(true)
    const after = (await labelled(docker, deployment)).containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)
    expect(after).toHaveLength(1)
    expect(after[0]!.Id).not.toBe(before[0]!.Id)
  })

  it("recreates a container removed behind its back, and stops a workspace whose container is gone", async () => {
    const ws = workspace()
    expect(Either.isRight(await build(buildInput(archive, deployment, ws, { transition: "start" })))).toBe(true)
    const [c] = (await labelled(docker, deployment)).containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)
    await docker.getContainer(c!.Id).remove({ force: true })
    expect(Either.isRight(await build(buildInput(archive, deployment, ws, { transition: "stop" })))).toBe(true)
    expect(Either.isRight(await build(buildInput(archive, deployment, ws, { transition: "start" })))).toBe(true)
    const now = (await labelled(docker, deployment)).containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)
    expect(now.map((c) => c.State)).toEqual(["running"])
  })

  it("removes the container of a resource a newer version renamed, when that version starts", async () => {
    const ws = workspace()
    expect(Either.isRight(await build(buildInput(archive, deployment, ws, { transition: "start" })))).toBe(true)
    const renamed = await templateArchive(template(image).replace("  - name: dev\n", "  - name: box\n"))
    const updated = await build(buildInput(renamed, deployment, ws, { transition: "start" }))
    expect(Either.isRight(updated)).toBe(true)
    const now = (await labelled(docker, deployment)).containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)
    expect(now.map((c) => c.Labels[LABEL_RESOURCE])).toEqual(["docker_container.box"])
  })

  it("commits the quota before it makes anything", async () => {
    const ws = workspace()
    const result = await build(buildInput(archive, deployment, ws, {
      transition: "start",
      commitQuota: () => Effect.fail(new QuotaExceeded({ message: "insufficient quota" }))
    }))
    expect(Either.isLeft(result) && result.left.message).toBe("insufficient quota")
    const made = await labelled(docker, deployment)
    expect(made.containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)).toHaveLength(0)
    expect(made.volumes.filter((v) => v.Labels?.[LABEL_WORKSPACE_ID] === ws.id)).toHaveLength(0)
  })

  it("fails with the daemon's message when the image is missing, leaving no container", async () => {
    const ws = workspace()
    const result = await build(buildInput(archive, deployment, ws, {
      transition: "start",
      variable_values: [{ name: "image", value: "workbay-test/not-here:nope" }]
    }))
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isRight(result)) return
    expect(result.left.message).toMatch(/workbay-test\/not-here:nope.*not on the Docker daemon/)
    const made = await labelled(docker, deployment)
    expect(made.containers.filter((c) => c.Labels[LABEL_WORKSPACE_ID] === ws.id)).toHaveLength(0)
  })

  it("fails a pull from a registry it cannot reach with the daemon's message", async () => {
    const pulling = makeDockerProvisioner({ docker, defaultNetwork: "host" })
    const ws = workspace()
    const result = await run(pulling.build(buildInput(archive, deployment, ws, {
      transition: "start",
      variable_values: [{ name: "image", value: "127.0.0.1:9/workbay/nothing:1" }]
    })))
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(result.left.message).toMatch(/^Could not pull the image 127\.0\.0\.1:9\/workbay\/nothing:1: .+/)
      expect(result.left.logs.at(-1)?.level).toBe("error")
    }
  })

  it("fails with the daemon's message for a limit it refuses, and for a name that is taken", async () => {
    const greedy = await templateArchive(template(image).replace("cpus: 0.5", "cpus: 512"))
    const ws = workspace()
    const refused = await build(buildInput(greedy, deployment, ws, { transition: "start" }))
    expect(Either.isLeft(refused)).toBe(true)
    if (Either.isLeft(refused)) expect(refused.left.message).toMatch(/Could not create the container .*CPU/i)
    // A container of the same name that is not this workspace's: the daemon refuses the name.
    const name = `workbay-test-clash-${randomUUID().slice(0, 8)}`
    const other = await docker.createContainer({
      name,
      Image: image,
      Entrypoint: ["sleep", "60"],
      Labels: { [LABEL_DEPLOYMENT]: deployment }
    })
    const named = await templateArchive(template(image).replace("memory: 64m", `memory: 64m\n      name: ${name}`))
    const clash = await build(buildInput(named, deployment, workspace(), { transition: "start" }))
    expect(Either.isLeft(clash)).toBe(true)
    if (Either.isLeft(clash)) expect(clash.left.message).toMatch(/Could not create the container .*already in use/)
    expect((await other.inspect()).Name).toBe(`/${name}`)
  })

  it("fails with a message when the daemon is not there", async () => {
    const nowhere = makeDockerProvisioner({ docker: dockerClient({ host: "unix:///nonexistent/docker.sock" }) })
    const result = await run(nowhere.build(buildInput(archive, deployment, workspace(), { transition: "start" })))
    expect(Either.isLeft(result) && result.left.message).toMatch(/^Could not list the workspace's containers: .*ENOENT/)
  })
})

describe("the docker provisioner's import rules", () => {
  const provisioner = makeDockerProvisioner({ docker: dockerClient({ host: "unix:///nonexistent/docker.sock" }) })
  const importing = async (yaml: string) =>
    run(
      provisioner.import({
        archive: await templateArchive(yaml),
        content_type: "application/x-tar",
        variable_values: []
      })
    )

  it("refuses a bad container spec with one message per problem", async () => {
    const result = await importing(`
resources:
  - name: home
    type: docker_volume
  - name: dev
    type: docker_container
    container:
      image: debian
      colour: blue
      memory: lots
      cpus: 0
      env: { "A=B": x }
      labels: { com.workbay.deployment: mine }
      mounts:
        - { type: nfs, target: /x }
        - { type: volume, source: nowhere, target: /home }
        - { type: tmpfs, source: /x, target: relative }
`)
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isRight(result)) return
    const lines = result.left.message.split("\n")
    expect(lines.some((l) => /container\.colour: is not a known key/.test(l))).toBe(true)
    expect(lines.some((l) => /mounts\[0\]\.type: .*"nfs"/.test(l))).toBe(true)
  })

  it("says each problem of a well-formed but wrong spec", async () => {
    const result = await importing(`
resources:
  - name: home
    type: docker_volume
  - name: dev
    type: docker_container
    container:
      image: debian
      memory: lots
      cpus: 0
      env: { "A=B": x }
      labels: { com.workbay.deployment: mine }
      mounts:
        - { type: volume, source: nowhere, target: /home }
        - { type: tmpfs, source: /x, target: relative }
      entrypoint: ["\${agent.other.token}"]
    agents:
      - name: main
`)
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isRight(result)) return
    const text = result.left.message
    expect(text).toMatch(/container\.memory: must be a memory size such as 512m or 2g/)
    expect(text).toMatch(/container\.cpus: must be a number of CPUs above 0/)
    expect(text).toMatch(/container\.env\.A=B: must be an environment variable name/)
    expect(text).toMatch(/container\.labels\.com\.workbay\.deployment: labels under com\.workbay\. are set by Workbay/)
    expect(text).toMatch(/mounts\[0\]\.source: "nowhere" is not a docker_volume resource/)
    expect(text).toMatch(/mounts\[1\]\.target: must be an absolute path/)
    expect(text).toMatch(/mounts\[1\]\.source: a tmpfs mount has no source/)
    expect(text).toMatch(/entrypoint\[0\]: refers to \$\{agent\.other\.token\}/)
  })

  it("refuses privileged containers, host namespaces and host paths unless the deployment allows them", async () => {
    const dangerous = `
resources:
  - name: dev
    type: docker_container
    container:
      image: debian
      privileged: true
      pid_mode: host
      network: host
      mounts:
        - { type: bind, source: /etc, target: /host-etc }
`
    const refused = await importing(dangerous)
    expect(Either.isLeft(refused)).toBe(true)
    if (Either.isLeft(refused)) {
      const text = refused.left.message
      expect(text).toMatch(/container\.privileged: a privileged container is refused .*--docker-allow privileged/)
      expect(text).toMatch(/container\.pid_mode: .*--docker-allow host-pid/)
      expect(text).toMatch(/container\.network: .*--docker-allow host-network/)
      expect(text).toMatch(/mounts\[0\]\.type: a host path \(bind\) mount is refused .*--docker-allow bind-mounts/)
    }
    const permissive = makeDockerProvisioner({
      docker: dockerClient({ host: "unix:///nonexistent/docker.sock" }),
      allow: { privileged: true, hostPid: true, hostNetwork: true, bindMounts: true }
    })
    const allowed = await run(permissive.import({
      archive: await templateArchive(dangerous),
      content_type: "application/x-tar",
      variable_values: []
    }))
    expect(Either.isRight(allowed)).toBe(true)
  })

  it("refuses names and references the Engine would not take, each at its key", async () => {
    const result = await importing(`
resources:
  - name: home
    type: docker_volume
    volume: { name: "..", labels: { "a b": x, ok: "line\\nbreak" } }
  - name: dev
    type: docker_container
    container:
      image: "../../127.0.0.1:9/x"
      name: "/var/run/docker.sock"
      hostname: "a_b"
      network: "a/b"
      user: "a b"
      working_dir: relative
      labels: { "k=v": x }
      mounts:
        - { type: volume, source: home, target: / }
`)
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isRight(result)) return
    const text = result.left.message
    expect(text).toMatch(/template\.yaml:\d+: key resources\[0\]\.volume\.name: must be a volume name of 2 to 255/)
    expect(text).toMatch(/key resources\[0\]\.volume\.labels\.a b: must be a label key/)
    expect(text).toMatch(/key resources\[0\]\.volume\.labels\.ok: must be a label value .*without control characters/)
    expect(text).toMatch(/key resources\[1\]\.container\.image: must be an image reference/)
    expect(text).toMatch(/key resources\[1\]\.container\.name: must be a container name of 2 to 128/)
    expect(text).toMatch(/key resources\[1\]\.container\.hostname: must be a host name/)
    expect(text).toMatch(/key resources\[1\]\.container\.network: must be bridge, host, none/)
    expect(text).toMatch(/key resources\[1\]\.container\.user: must be a user/)
    // The eleventh is left out: an import lists ten problems.
    expect(text.split("\n")).toHaveLength(10)
  })

  it("leaves values made by references to the build, which checks them before it calls the daemon", async () => {
    const yaml = `
parameters:
  - { name: vol, default: home-volume, mutable: true }
  - { name: img, default: "ubuntu:24.04", mutable: true }
resources:
  - name: home
    type: docker_volume
    volume: { name: "\${param.vol}" }
  - name: dev
    type: docker_container
    container:
      image: "\${param.img}"
      hostname: "\${workspace.name}"
      mounts: [{ type: volume, source: home, target: /home/dev }]
`
    expect(Either.isRight(await importing(yaml))).toBe(true)
    // No daemon answers here: a build that called it would fail with ENOENT instead.
    const archive = await templateArchive(yaml)
    const ws = { id: randomUUID(), name: "dev_box", owner: "alice" }
    const result = await run(provisioner.build(buildInput(archive, randomUUID(), ws, {
      transition: "start",
      parameter_values: [{ name: "vol", value: "/var/run/docker.sock" }, { name: "img", value: "x".repeat(10_240) }]
    })))
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isRight(result)) return
    expect(result.left.message.split("\n")).toEqual([
      "Resource docker_volume.home, key volume.name (from parameter \"vol\"): \"/var/run/docker.sock\" must be a volume name of 2 to 255 letters, digits, \"_\", \".\" and \"-\", starting with a letter or digit.",
      `Resource docker_container.dev, key container.image (from parameter "img"): "${
        "x".repeat(60)
      }…" (10,240 characters) must be an image reference such as ubuntu:24.04 or registry.example.com:5000/team/image:tag (lowercase path components of letters, digits and separators, an optional tag and @digest) or an image id (it is longer than 1,024 characters).`,
      "Resource docker_container.dev, key container.hostname (from ${workspace.name}): \"dev_box\" must be a host name of at most 63 characters: labels of letters, digits and \"-\" separated by \".\"."
    ])
    expect(result.left.message).not.toMatch(/ENOENT/)
    expect(result.left.logs.at(-1)?.level).toBe("error")
  })

  it("stops a workspace whatever its parameters: a stop gives the daemon none of them", async () => {
    const yaml = `
parameters:
  - { name: vol, default: home-volume, mutable: true }
resources:
  - name: home
    type: docker_volume
    volume: { name: "\${param.vol}" }
`
    const archive = await templateArchive(yaml)
    const ws = { id: randomUUID(), name: "dev", owner: "alice" }
    const result = await run(provisioner.build(buildInput(archive, randomUUID(), ws, {
      transition: "stop",
      parameter_values: [{ name: "vol", value: "../../x" }]
    })))
    // A stop lists the workspace's containers by their labels: here it reaches for the daemon that is not there.
    expect(Either.isLeft(result) && result.left.message).toMatch(/^Could not list the workspace's containers: .*ENOENT/)
  })

  it("leaves docker resources to the docker provisioner: the workbay one refuses them", async () => {
    const { workbayProvisioner } = await import("@workbay/core")
    const result = await run(workbayProvisioner.import({
      archive: await templateArchive(
        "resources:\n  - name: dev\n    type: docker_container\n    container: { image: debian }\n"
      ),
      content_type: "application/x-tar",
      variable_values: []
    }))
    expect(Either.isLeft(result) && result.left.message).toMatch(/import this template with provisioner "docker"/)
  })
})

describe("the docker starter template", () => {
  it("imports through the docker provisioner with no edits", async () => {
    // The starter's file as shipped (the library holds the same text: core's Examples test).
    const archive = await templateArchive(
      readFileSync(new URL("../../../examples/templates/docker/template.yaml", import.meta.url), "utf8")
    )
    const provisioner = makeDockerProvisioner({ docker: dockerClient({ host: "unix:///nonexistent/docker.sock" }) })
    const result = await run(provisioner.import({ archive, content_type: "application/x-tar", variable_values: [] }))
    expect(Either.isRight(result)).toBe(true)
    if (Either.isLeft(result)) return
    expect(result.right.parameters.map((p) => p.name)).toEqual(["cpus", "memory"])
    const start = result.right.resources.find((r) => r.transition === "start")!.resources
    expect(start.map((r) => `${r.type}.${r.name}`)).toEqual(["docker_volume.home", "docker_container.workspace"])
    expect(start[1]!.agents.map((a) => a.name)).toEqual(["main"])
  })
})
