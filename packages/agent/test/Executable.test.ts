/**
 * The agent's executable in a container with no Node, started the way a workspace starts it:
 * the container's entrypoint is the init script the service answers at
 * `/api/v2/init-script/linux/amd64`, its environment has the agent's token. The script downloads
 * the executable from the real service (`/bin/workbay-agent-linux-amd64`, host networking so
 * everything stays on loopback), checks it and runs it, and the agent reaches `ready`. A script
 * for a wrong access URL says so in the container's log.
 *
 * Needs a Docker daemon: without one the tests are skipped, saying "SKIPPED: Docker provisioner
 * tests", and fail when `CI` is set. Containers carry this run's label and are removed at the end.
 */
import { agentInitScript } from "@workbay/core"
import Docker from "dockerode"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { eventually, externalAgentWorkspace } from "./support.js"

const RUN_LABEL = "workbay.test.run"

/** The images and the executable, made once for the run (packages/docker/test/globalSetup.ts; null: no daemon, skipped). */
const made = inject("workbayDocker")
const docker = new Docker({ socketPath: process.env.DOCKER_SOCKET ?? "/var/run/docker.sock" })

describe.skipIf(made === null || made === undefined)("the agent executable in a container with no Node", () => {
  const run = randomUUID()
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  const image = made?.image ?? ""

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ agentBinaries: made!.agentBinaries, lifecycle: false }))
  })
  afterAll(async () => {
    const mine = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${run}`] } })
    await Promise.all(mine.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)))
    await srv?.close()
  })

  /** Starts a container of the image with this run's label (host networking); answers it and its log reader. */
  const start = async (entrypoint: Array<string>, env: Array<string> = [], from = image) => {
    const container = await docker.createContainer({
      Image: from,
      Entrypoint: entrypoint,
      Env: env,
      // A terminal: the log is the plain output, stdout and stderr together.
      Tty: true,
      Labels: { [RUN_LABEL]: run },
      HostConfig: { NetworkMode: "host" }
    })
    await container.start()
    const logs = async () => String(await container.logs({ stdout: true, stderr: true, follow: false }))
    return { container, logs }
  }

  it("has no node", async () => {
    const { container, logs } = await start(["which", "node"])
    const { StatusCode } = await container.wait()
    expect(StatusCode, await logs()).not.toBe(0)
    // The perl image has no download tool but perl.
    const tools = await start(
      ["sh", "-c", "command -v curl || command -v wget || command -v busybox"],
      [],
      made!.perlImage
    )
    expect((await tools.container.wait()).StatusCode, await tools.logs()).not.toBe(0)
    const shell = await start(["sh", "-c", "ls /usr/bin/node /usr/local/bin/node /bin/node"])
    expect((await shell.container.wait()).StatusCode).not.toBe(0)
  })

  it.each([
    ["wget", () => image],
    ["perl alone (no curl, wget or busybox, as plain Debian and Ubuntu images)", () => made!.perlImage]
  ])("downloads the agent with the init script (%s) and brings it to ready", async (_tool, from) => {
    const { agentId, token } = await externalAgentWorkspace(srv, owner, orgId, {
      architecture: "amd64",
      script: "echo hello from $(uname -s)"
    })
    const script = await srv.anonymous.get<string>("/init-script/linux/amd64")
    expect(script.status).toBe(200)
    expect(script.body).not.toContain(token)

    const { logs } = await start(
      ["sh", "-c", script.body],
      [`WORKBAY_AGENT_TOKEN=${token}`],
      from()
    )
    const agent = await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body,
      (a) => a.lifecycle_state === "ready",
      "the agent in the container",
      60_000
    ).catch(async (e) => {
      throw new Error(`${(e as Error).message}\ncontainer log:\n${await logs()}`)
    })
    expect(agent.status).toBe("connected")
    expect(agent.version).toBe("0.1.0")
    const log = await logs()
    expect(log).toContain(`starting workbay-agent 0.1.0 from ${srv.url}/bin/workbay-agent-linux-amd64`)
    const lines = await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}/logs`)).body as Array<any>,
      (ls) => ls.length >= 1,
      "the start script's log"
    )
    expect(lines.map((l) => l.output)).toContain("hello from Linux")
  }, 90_000)

  it("says which URL it cannot download from when the access URL is wrong", async () => {
    const script = agentInitScript({ os: "linux", arch: "amd64", accessUrl: "http://127.0.0.1:9" })!
    const { logs } = await start(["sh", "-c", script], ["WORKBAY_AGENT_TOKEN=unused"])
    const log = await eventually(
      logs,
      (l) => l.includes("could not download the agent"),
      "the container's log",
      20_000
    )
    expect(log).toContain(
      "could not download the agent from http://127.0.0.1:9/bin/workbay-agent-linux-amd64 (attempt 1"
    )
    expect(log).toContain("is the access URL right and reachable from this machine?")
  })
})
