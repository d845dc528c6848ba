/**
 * Dev containers as the reference agent sees them (docs/agents.md, "Dev containers"), against the
 * machine's real Docker daemon, through the service's routes: the agent (started as a library, its
 * token from an external agent's credentials) lists the daemon's containers and the dev containers
 * among them (labelled `devcontainer.local_folder` / `devcontainer.config_file`), filters by label,
 * recreates a dev container with the real Dev Containers command line (`@devcontainers/cli`, fetched
 * once with `npm pack` into node_modules/.cache, never installed into the project), and removes it.
 * Images are never pulled: the containers run the test image imported from this machine's files
 * (packages/agent/test/DockerImage.ts), on host networking, labelled with this run's id and removed
 * at the end. Without a daemon: `SKIPPED: Docker provisioner tests` (and a failure under CI, by the
 * Docker setup); without the command line: `SKIPPED: devcontainer recreation`, failing under CI.
 */
import Docker from "dockerode"
import { execFile } from "node:child_process"
import { randomUUID } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { startAgent } from "../src/Agent.js"
import { devcontainerId, makeContainers } from "../src/Containers.js"
import { eventually, externalAgentWorkspace } from "./support.js"

const RUN_LABEL = "workbay.test.run"
const CLI_VERSION = "0.89.0"
const made = inject("workbayDocker")
const docker = new Docker({ socketPath: process.env.DOCKER_SOCKET ?? "/var/run/docker.sock" })

/**
 * The Dev Containers command line, fetched once per machine (no retries, 60 s); undefined when it
 * cannot be. Not execFileSync: npm's fetch on a busy machine would hold this worker's event loop.
 */
const devcontainerCli = async (): Promise<string | undefined> => {
  const dir = resolve(__dirname, "../../../node_modules/.cache/workbay-devcontainers-cli", CLI_VERSION)
  const cli = join(dir, "package", "devcontainer.js")
  if (existsSync(cli)) return cli
  try {
    mkdirSync(dir, { recursive: true })
    const { stdout } = await promisify(execFile)(
      "npm",
      ["pack", `@devcontainers/cli@${CLI_VERSION}`, "--fetch-retries=0"],
      { cwd: dir, timeout: 60_000, encoding: "utf8" }
    )
    const tgz = stdout.trim().split("\n").at(-1)!
    await promisify(execFile)("tar", ["xzf", tgz], { cwd: dir })
    chmodSync(cli, 0o755)
    return cli
  } catch {
    return undefined
  }
}

describe("dev containers with no container runtime", () => {
  it("lists nothing and says why; knows no dev container", async () => {
    const containers = makeContainers({ docker: { socketPath: "/nonexistent/docker.sock" } })
    const list = await containers.list()
    expect(list).toMatchObject({ devcontainers: [], containers: [] })
    expect(list.warnings![0]).toContain("No container runtime is reachable")
    expect(await containers.handle({ action: "delete", devcontainer_id: randomUUID() })).toEqual({
      status: 404,
      body: { message: "Devcontainer not found." }
    })
    expect((await containers.handle({ action: "nope" })).status).toBe(400)
  })
})

describe.skipIf(made === null || made === undefined)("dev containers on the real Docker daemon", () => {
  const run = randomUUID()
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let folder: string
  let config: string
  let stopAgent: () => Promise<void> = async () => {}
  let cli: string | undefined

  beforeAll(async () => {
    cli = await devcontainerCli()
    ;({ srv, owner, orgId } = await startWithOwner({ lifecycle: false }))
    folder = join(mkdtempSync(join(tmpdir(), "workbay-dc-")), "project")
    config = join(folder, ".devcontainer", "devcontainer.json")
    mkdirSync(join(folder, ".devcontainer"), { recursive: true })
    // What `devcontainer up` makes: the test image (present, so nothing is pulled), on host networking,
    // with this run's label, kept running by the command line's own sleeper.
    writeFileSync(
      config,
      JSON.stringify({
        image: made!.image,
        updateRemoteUserUID: false,
        userEnvProbe: "none",
        overrideCommand: true,
        runArgs: ["--network=host", `--label=${RUN_LABEL}=${run}`]
      })
    )
  })
  afterAll(async () => {
    await stopAgent()
    const mine = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${run}`] } })
    await Promise.all(mine.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)))
    if (folder !== undefined) rmSync(resolve(folder, ".."), { recursive: true, force: true })
    await srv?.close()
  })

  /** A container of the test image with this run's label and `labels`, sleeping on host networking. */
  const start = async (name: string, labels: Record<string, string>) => {
    const c = await docker.createContainer({
      name: `${name}-${run.slice(0, 8)}`,
      Image: made!.image,
      Entrypoint: ["sleep", "600"],
      Labels: { [RUN_LABEL]: run, ...labels },
      HostConfig: { NetworkMode: "host" }
    })
    await c.start()
    return c.id
  }

  it("lists them through the service, recreates one with the Dev Containers command line, and removes it", async () => {
    const devId = await start("dc", {
      "devcontainer.local_folder": folder,
      "devcontainer.config_file": config
    })
    const plainId = await start("plain", { "workbay.test.kind": "plain" })
    const { agentId, token } = await externalAgentWorkspace(srv, owner, orgId, { script: "true" })
    const agent = await startAgent({
      url: srv.url,
      token,
      auth: "token",
      directory: tmpdir(),
      logDir: join(tmpdir(), `workbay-agent-${run}`),
      ...(cli === undefined ? {} : { devcontainerCli: cli }),
      log: () => {}
    })
    stopAgent = () => agent.stop()
    const list = () => owner.get(`/workspaceagents/${agentId}/containers`)
    const first = await eventually(list, (r) => r.status === 200, "the agent's containers")
    const ids = (first.body.containers as Array<any>).map((c) => c.id)
    expect(ids).toEqual(expect.arrayContaining([devId, plainId]))
    const plain = (first.body.containers as Array<any>).find((c) => c.id === plainId)
    expect(plain).toMatchObject({
      name: `plain-${run.slice(0, 8)}`,
      image: made!.image,
      running: true,
      status: "running",
      labels: { [RUN_LABEL]: run, "workbay.test.kind": "plain" }
    })
    expect(Date.parse(plain.created_at)).toBeGreaterThan(0)
    const id = devcontainerId(folder, config)
    const mine = (first.body.devcontainers as Array<any>).find((d) => d.id === id)
    expect(mine).toMatchObject({
      id,
      name: "project",
      workspace_folder: folder,
      config_path: config,
      status: "running",
      dirty: false,
      container: { id: devId }
    })
    const filtered = await owner.get(`/workspaceagents/${agentId}/containers?label=workbay.test.kind=plain`)
    expect(filtered.body.containers.map((c: any) => c.id)).toEqual([plainId])

    const base = `/workspaceagents/${agentId}/containers/devcontainers/${id}`
    if (cli === undefined) {
      if (process.env.CI !== undefined && process.env.CI !== "") {
        throw new Error("The Dev Containers command line could not be fetched under CI.")
      }
      console.warn("SKIPPED: devcontainer recreation (npm pack @devcontainers/cli failed)")
    } else {
      const recreated = await owner.post(`${base}/recreate`)
      expect(recreated.status, JSON.stringify(recreated.body)).toBe(202)
      expect(recreated.body.message).toBe("Devcontainer recreation initiated")
      // Recreated: the same dev container (its id), running in a new container made by `devcontainer up`.
      const after = await eventually(
        list,
        (r) => {
          const d = (r.body.devcontainers as Array<any>).find((x) => x.id === id)
          return d !== undefined && d.status !== "starting"
        },
        "the dev container recreated",
        60_000
      )
      const d = (after.body.devcontainers as Array<any>).find((x) => x.id === id)
      expect(d.error, JSON.stringify(d)).toBeUndefined()
      expect(d.status).toBe("running")
      expect(d.container.id).not.toBe(devId)
      expect(d.container.labels[RUN_LABEL]).toBe(run)
      expect((await docker.listContainers({ all: true, filters: { id: [devId] } })).length).toBe(0)
    }

    const removed = await owner.delete(base)
    expect(removed.status, JSON.stringify(removed.body)).toBe(204)
    const gone = await list()
    expect((gone.body.devcontainers as Array<any>).some((x) => x.id === id)).toBe(false)
    expect((gone.body.containers as Array<any>).map((c) => c.id)).toContain(plainId)
    expect((await owner.delete(base)).status).toBe(404)
  })
})
