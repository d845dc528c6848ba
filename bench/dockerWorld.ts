// What the Docker benches share (bench/docker.ts, bench/prebuilds.ts): the service in process
// (TypeScript sources through tsx, like the tests) on a SQLite file, with the docker provisioner on
// this machine's daemon (containers on the host's network), the agent's executable
// (scripts/executables.mjs) and an image with no Node, curl or wget (perl only, as plain Ubuntu;
// packages/agent/test/DockerImage.ts), made here, never pulled; the first user, a budget, and the
// calls the benches time. Everything listens on and loads 127.0.0.1 only; containers and volumes
// carry the run's deployment id and are removed by `close`.
import { workbayProvisioner } from "@workbay/core"
import { dockerClient, makeDockerProvisioner } from "@workbay/docker"
import { makeWorkbay, type WorkbayOptions } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { nodeLessImage } from "../packages/agent/test/DockerImage.js"
import { cleanUp } from "../packages/docker/test/support.js"
import { buildAgentBinaries } from "../scripts/executables.mjs"
import { freePort, request, seedFirstUser, sleep } from "./lib.mjs"

export const percentile = (xs: ReadonlyArray<number>, p: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

export const dockerWorld = async (
  log: (...args: Array<unknown>) => void,
  options: Pick<WorkbayOptions, "prebuilds"> = {}
) => {
  const docker = dockerClient({ host: process.env.DOCKER_HOST })
  await docker.ping()
  const deploymentId = randomUUID()
  const binDir = join(process.cwd(), "node_modules/.cache/workbay-agent-bin")
  const [, image] = await Promise.all([buildAgentBinaries({ outDir: binDir }), nodeLessImage(docker, "perl")])
  log(`image ${image}, agent executables in ${binDir}`)

  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-docker-"))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const service = await makeWorkbay(Sqlite.layer({ filename: join(dir, "workbay.db") }), {
    settings: { deploymentId, accessUrl: url },
    http: { rateLimits: false },
    agentBinaries: binDir,
    provisioners: [workbayProvisioner, makeDockerProvisioner({ docker, defaultNetwork: "host", pull: false })],
    logLevel: "error",
    ...options
  })
  const listener = createServer()
  // Requests and WebSocket upgrades (the agents' connections), as the standalone server attaches it.
  service.attach(listener)
  await new Promise<void>((resolve) => listener.listen(port, "127.0.0.1", () => resolve()))
  const base = `${url}/api/v2`

  const json = (auth: Record<string, string>) => ({ ...auth, "content-type": "application/json" })
  const { orgId, auth } = await seedFirstUser(base)
  await request(`${base}/groups/${orgId}`, {
    method: "PATCH",
    headers: json(auth),
    body: JSON.stringify({ quota_allowance: 1000 })
  })

  const importVersion = async (body: Record<string, unknown>) => {
    const r = await request(`${base}/organizations/${orgId}/templateversions`, {
      method: "POST",
      headers: json(auth),
      body: JSON.stringify({ storage_method: "file", tags: {}, ...body })
    })
    for (;;) {
      const v = await request(`${base}/templateversions/${r.body.id}`, { headers: auth })
      if (!["pending", "running"].includes(v.body.job.status)) return v.body
      await sleep(20)
    }
  }
  const makeTemplate = async (name: string, version: { id: string }) =>
    (await request(`${base}/organizations/${orgId}/templates`, {
      method: "POST",
      headers: json(auth),
      body: JSON.stringify({ name, template_version_id: version.id })
    })).body.id as string
  const untilValue = async <A>(read: () => Promise<A | undefined>, what: string, ms = 120_000): Promise<A> => {
    const end = Date.now() + ms
    for (;;) {
      const v = await read()
      if (v !== undefined) return v
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
      await sleep(20)
    }
  }
  const workspace = async (id: string) => (await request(`${base}/workspaces/${id}`, { headers: auth })).body
  const agentIdOf = (w: any): string | undefined =>
    (w.latest_build?.resources ?? []).flatMap((r: any) => r.agents ?? [])[0]?.id
  const readyAgent = (agentId: string) =>
    untilValue(async () => {
      const a = (await request(`${base}/workspaceagents/${agentId}`, { headers: auth })).body
      return a.lifecycle_state === "ready" ? a : undefined
    }, `agent ${agentId} ready`)
  const createWorkspace = async (templateId: string, name: string, extra: Record<string, unknown> = {}) => {
    const r = await request(`${base}/organizations/${orgId}/members/me/workspaces`, {
      method: "POST",
      headers: json(auth),
      body: JSON.stringify({ name, template_id: templateId, ...extra })
    })
    if (r.status !== 200 && r.status !== 201) throw new Error(`create ${name}: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body.id as string
  }
  /** A started workspace's agent once `ready`, with what the container said when it is not. */
  const runningAgentReady = async (id: string, name: string) => {
    const agentId = await untilValue(async () => {
      const w = await workspace(id)
      if (w.latest_build.status === "failed") throw new Error(`build failed: ${w.latest_build.job.error}`)
      return w.latest_build.status === "running" ? agentIdOf(w) : undefined
    }, `workspace ${name} running`)
    await readyAgent(agentId).catch(async (e) => {
      const [c] = await docker.listContainers({
        all: true,
        filters: JSON.stringify({ label: [`com.workbay.workspace.id=${id}`] })
      })
      const logs = c === undefined
        ? "no container"
        : String(await docker.getContainer(c.Id).logs({ stdout: true, stderr: true }))
      throw new Error(`${(e as Error).message}\n${logs.slice(-3000)}`)
    })
    return agentId
  }
  const close = async () => {
    listener.close()
    await service.dispose()
    await cleanUp(docker, deploymentId)
    rmSync(dir, { recursive: true, force: true })
  }
  return {
    docker,
    deploymentId,
    image,
    service,
    base,
    auth,
    json,
    orgId,
    importVersion,
    makeTemplate,
    untilValue,
    workspace,
    agentIdOf,
    readyAgent,
    createWorkspace,
    runningAgentReady,
    close
  }
}
