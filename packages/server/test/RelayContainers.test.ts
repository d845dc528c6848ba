/**
 * Dev containers from every replica (docs/agents.md, "Dev containers" and "Several replicas"): two
 * standalone server processes on one fresh Postgres database, and the reference agent (started as
 * a library, its token from an external agent's credentials) connected to replica A, asking the
 * machine's real Docker daemon. Everything is asked at replica B, which relays to A: the list (the
 * same answer as A's, a label filter carried along), the watch (a WebSocket joined through B), a
 * recreation (202 from the agent; without the Dev Containers command line here, the dev container
 * then shows the agent's `error`) and a removal (204, the container gone from Docker; then 404).
 * Refusals come from B itself. The containers run the test image imported from this machine's
 * files (packages/agent/test/DockerImage.ts: never pulled), labelled with this run's id and removed
 * at the end. No Docker daemon: `SKIPPED: dev containers relayed between replicas`, failing under CI.
 */
import { devcontainerId, type RunningAgent, startAgent } from "@workbay/agent"
import Docker from "dockerode"
import { randomUUID } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { nodeLessImage } from "../../agent/test/DockerImage.js"
import { connect, type WsResult } from "../../http/test/websocket.js"
import { firstOwnerSession } from "./owner.js"
import { freshDatabase, type ServerProcess, startServerProcess } from "./process.js"
import { call, makeTemplate, SESSION_HEADER, until } from "./workload.js"

const url = inject("workbayPgUrl")
const RUN_LABEL = "workbay.test.run"
const docker = new Docker({ socketPath: process.env.DOCKER_SOCKET ?? "/var/run/docker.sock" })

const isCi = () => {
  const ci = process.env.CI
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false"
}

/** Whether a Docker daemon answers; under CI one must. */
const daemon = await docker.ping().then(() => true, (e: unknown) => {
  if (isCi()) throw new Error(`The dev container relay test needs a Docker daemon under CI: ${String(e)}`)
  if (url !== null) console.warn(`SKIPPED: dev containers relayed between replicas (no Docker daemon: ${String(e)})`)
  return false
})

describe.skipIf(url === null || !daemon)("dev containers through every replica on one Postgres", () => {
  const run = randomUUID()
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let a: ServerProcess
  let b: ServerProcess
  let token: string
  let agentId: string
  let agent: RunningAgent | undefined
  let folder: string
  let config: string
  let devContainer: string
  let plainContainer: string
  let image: string

  /** A container of the test image with this run's label and `labels`, sleeping on host networking. */
  const start = async (name: string, labels: Record<string, string>) => {
    const c = await docker.createContainer({
      name: `${name}-${run.slice(0, 8)}`,
      Image: image,
      Entrypoint: ["sleep", "600"],
      Labels: { [RUN_LABEL]: run, ...labels },
      HostConfig: { NetworkMode: "host" }
    })
    await c.start()
    return c.id
  }

  beforeAll(async () => {
    image = await nodeLessImage(docker, "wget")
    folder = join(mkdtempSync(join(tmpdir(), "workbay-dc-relay-")), "project")
    config = join(folder, ".devcontainer", "devcontainer.json")
    mkdirSync(join(folder, ".devcontainer"), { recursive: true })
    devContainer = await start("relay-dc", {
      "devcontainer.local_folder": folder,
      "devcontainer.config_file": config
    })
    plainContainer = await start("relay-plain", { "workbay.test.kind": "plain" })

    db = await freshDatabase(url!)
    const env = { DATABASE_URL: db.url }
    a = await startServerProcess(["--provisioner-daemons", "1"], env)
    b = await startServerProcess(["--provisioner-daemons", "0"], env)
    token = await firstOwnerSession(a.url)
    const { orgId, templateId } = await makeTemplate(
      a.url,
      token,
      "resources:\n  - name: box\n    type: machine\n    agents:\n      - name: main\n        external: true\n"
    )
    const created = await call(a.url, token, "POST", `/organizations/${orgId}/members/me/workspaces`, {
      name: "containers",
      template_id: templateId
    })
    expect(created.status).toBe(200)
    const built = await until(
      () => call(a.url, token, "GET", `/workspaces/${created.body.id}`),
      (r) => r.body.latest_build.job.status === "succeeded"
    )
    agentId = built.body.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0].id
    const credentials = await call(
      a.url,
      token,
      "GET",
      `/workspaces/${created.body.id}/external-agent/main/credentials`
    )
    expect(credentials.status).toBe(200)
    agent = await startAgent({
      url: a.url,
      token: credentials.body.agent_token,
      auth: "token",
      directory: tmpdir(),
      logDir: join(tmpdir(), `workbay-agent-${run}`),
      // No Dev Containers command line here: a recreation is started, then fails with the agent's reason.
      devcontainerCli: join(tmpdir(), `workbay-no-devcontainer-cli-${run}`),
      log: () => {}
    })
    const connected = await until(
      () => call(b.url, token, "GET", `/workspaceagents/${agentId}`),
      (r) => r.body.status === "connected"
    )
    expect(connected.body.status).toBe("connected")
  })
  afterAll(async () => {
    await agent?.stop()
    const mine = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${run}`] } })
    await Promise.all(mine.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)))
    if (folder !== undefined) rmSync(join(folder, ".."), { recursive: true, force: true })
    await Promise.all([a?.stop(), b?.stop()])
    await db?.drop()
  })

  const mineOnly = `label=${encodeURIComponent(`${RUN_LABEL}=${run}`)}`
  const id = () => devcontainerId(folder, config)

  it("the list asked at B is the agent's on A: the same answer as A gives, the label filter carried", async () => {
    const atA = await call(a.url, token, "GET", `/workspaceagents/${agentId}/containers?${mineOnly}`)
    const atB = await call(b.url, token, "GET", `/workspaceagents/${agentId}/containers?${mineOnly}`)
    expect(atB.status, JSON.stringify(atB.body)).toBe(200)
    expect(atA.status).toBe(200)
    expect(atB.body).toEqual(atA.body)
    expect((atB.body.containers as Array<any>).map((c) => c.id).sort()).toEqual([devContainer, plainContainer].sort())
    expect((atB.body.containers as Array<any>).find((c) => c.id === plainContainer)).toMatchObject({
      name: `relay-plain-${run.slice(0, 8)}`,
      image,
      running: true,
      labels: { [RUN_LABEL]: run, "workbay.test.kind": "plain" }
    })
    expect((atB.body.devcontainers as Array<any>).find((d) => d.id === id())).toMatchObject({
      name: "project",
      workspace_folder: folder,
      config_path: config,
      status: "running",
      container: { id: devContainer }
    })
    const plain = await call(
      b.url,
      token,
      "GET",
      `/workspaceagents/${agentId}/containers?label=workbay.test.kind=plain`
    )
    expect(plain.body.containers.map((c: any) => c.id)).toEqual([plainContainer])
    // Refusals come from B, before any relay.
    expect((await call(b.url, "", "GET", `/workspaceagents/${agentId}/containers`)).status).toBe(401)
    expect((await call(b.url, token, "GET", `/workspaceagents/${agentId}/containers?label=nokey`)).status).toBe(400)
  })

  it("the watch opened at B, a recreation and a removal asked at B: all reach the agent on A", async () => {
    let watch: WsResult | undefined
    try {
      watch = await connect(`${b.url.replace("http", "ws")}/api/v2/workspaceagents/${agentId}/containers/watch`, {
        [SESSION_HEADER]: token
      })
      const seen = (check: (list: any) => boolean) =>
        until(async () => watch!.messages.map((m) => JSON.parse(m)), (lists) => lists.some(check), 20_000)
      const withDc = (list: any) => (list.devcontainers as Array<any>).some((d) => d.id === id())
      expect((await seen(withDc)).some(withDc)).toBe(true)

      const base = `/workspaceagents/${agentId}/containers/devcontainers/${id()}`
      const recreated = await call(b.url, token, "POST", `${base}/recreate`)
      expect(recreated.status, JSON.stringify(recreated.body)).toBe(202)
      expect(recreated.body.message).toBe("Devcontainer recreation initiated")
      // The agent's recreation ran (and failed: no command line here); B shows the agent's error.
      const failed = await until(
        () => call(b.url, token, "GET", `/workspaceagents/${agentId}/containers?${mineOnly}`),
        (r) => (r.body.devcontainers as Array<any>).find((d) => d.id === id())?.status === "error"
      )
      expect((failed.body.devcontainers as Array<any>).find((d) => d.id === id())).toMatchObject({
        status: "error",
        error: expect.stringContaining("is not installed")
      })

      const removed = await call(b.url, token, "DELETE", base)
      expect(removed.status, JSON.stringify(removed.body)).toBe(204)
      expect((await docker.listContainers({ all: true, filters: { id: [devContainer] } })).length).toBe(0)
      const after = await call(b.url, token, "GET", `/workspaceagents/${agentId}/containers?${mineOnly}`)
      expect((after.body.devcontainers as Array<any>).some((d) => d.id === id())).toBe(false)
      expect((after.body.containers as Array<any>).map((c) => c.id)).toEqual([plainContainer])
      // The watch through B saw the removal (woken on A, which served both).
      const gone = (list: any) => !withDc(list) && (list.containers as Array<any>).some((c) => c.id === plainContainer)
      expect((await seen(gone)).some(gone)).toBe(true)

      const again = await call(b.url, token, "DELETE", base)
      expect(again.status, JSON.stringify(again.body)).toBe(404)
      expect((await call(b.url, token, "POST", `${base}/recreate`)).status).toBe(404)
      // Each ask was audited once (by A, which served it; B only relayed), as on one replica.
      const audit = await call(a.url, token, "GET", "/audit?q=resource_type:workspace_agent&limit=20")
      const entries = (audit.body.audit_logs as Array<any>).filter((e) => e.resource_id === agentId)
      expect(entries.map((e) => e.status_code).sort()).toEqual([202, 204, 404, 404])
    } finally {
      watch?.socket.close(1000)
    }
  })
})
