/**
 * Crash safety of Docker workspaces: the real server process is killed (SIGKILL) in the middle of
 * a workspace's start, as soon as the daemon shows the container it is making; started again on
 * the same storage, its hang detector fails the job the dead process held, and the next start
 * finds what the first one left by its labels: one container of the workspace, running, its agent
 * `ready`, the home volume the same. Everything the server made carries its deployment id and is
 * removed at the end.
 */
import { dockerClient } from "@workbay/docker"
import Docker from "dockerode"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, inject, it } from "vitest"
import { eventually } from "../../agent/test/support.js"
import { cleanUp } from "../../docker/test/support.js"
import { firstOwnerSession } from "./owner.js"
import { freePort, type ServerProcess, startServerProcess } from "./process.js"

const made = inject("workbayDocker")

describe.skipIf(made === null)("a server killed in the middle of a Docker workspace's start", () => {
  const docker = new Docker({ socketPath: process.env.DOCKER_SOCKET ?? "/var/run/docker.sock" })
  const dir = mkdtempSync(join(tmpdir(), "workbay-docker-crash-"))
  let server: ServerProcess | undefined
  let deploymentId = ""

  afterAll(async () => {
    await server?.stop()
    if (deploymentId !== "") await cleanUp(dockerClient(), deploymentId)
    rmSync(dir, { recursive: true, force: true })
  })

  it("leaves nothing the restarted server cannot find again", async () => {
    const port = await freePort()
    const start = () =>
      startServerProcess(
        ["--data-dir", dir, "--provisioner-hang-detector-interval", "300ms", "--provisioner-hang-timeout", "2s"],
        { WORKBAY_DOCKER_NETWORK: "host", WORKBAY_AGENT_BINARIES: made!.agentBinaries },
        port
      )
    server = await start()
    const api = `${server.url}/api/v2`
    deploymentId = ((await (await fetch(`${api}/buildinfo`)).json()) as { deployment_id: string }).deployment_id
    const token = await firstOwnerSession(server.url)
    const headers = { "Service-Session-Token": token, "content-type": "application/json" }
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${api}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: r.status, body: (await r.json()) as any }
    }
    // Every 10 ms: the server is to be killed while the start's container is new.
    const until = <A>(read: () => Promise<A>, done: (a: A) => boolean, what: string) =>
      eventually(read, done, what, 60_000, 10)
    const org = (await call("GET", "/organizations/default")).body.id
    await call("PATCH", `/groups/${org}`, { quota_allowance: 10 })
    const version = await call("POST", "/organizations/default/templateversions", {
      storage_method: "file",
      example_id: "docker",
      provisioner: "docker",
      user_variable_values: [{ name: "image", value: made!.image }]
    })
    await until(
      () => call("GET", `/templateversions/${version.body.id}`),
      (v) => v.body.job.status === "succeeded",
      "import"
    )
    const template = await call("POST", "/organizations/default/templates", {
      name: "docker",
      template_version_id: version.body.id
    })
    const ws = await call("POST", "/organizations/default/members/me/workspaces", {
      name: "crashy",
      template_id: template.body.id
    })
    expect(ws.status, JSON.stringify(ws.body)).toBe(200)
    const filters = JSON.stringify({ label: [`com.workbay.workspace.id=${ws.body.id}`] })
    const containers = () => docker.listContainers({ all: true, filters })

    // Killed as soon as the daemon has the container: mid-start.
    await until(containers, (cs) => cs.length > 0, "the first container")
    server.child.kill("SIGKILL")
    await server.exited
    const left = await containers()
    expect(left).toHaveLength(1)
    expect(left[0]!.Labels["com.workbay.build.number"]).toBe("1")

    server = await start()
    const first = await until(
      () => call("GET", `/workspaces/${ws.body.id}`),
      (w) => !["pending", "running"].includes(w.body.latest_build.job.status),
      "the first build's end"
    )
    // Usually failed as hung; the process may have finished it just before it died.
    expect(["failed", "succeeded"]).toContain(first.body.latest_build.job.status)
    if (first.body.latest_build.job.status === "failed") {
      expect(first.body.latest_build.job.error).toMatch(/hung/)
    }

    const again = await call("POST", `/workspaces/${ws.body.id}/builds`, { transition: "start" })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    const done = await until(
      () => call("GET", `/workspacebuilds/${again.body.id}`),
      (b) => !["pending", "running"].includes(b.body.job.status),
      "the second start"
    )
    expect(done.body.job.status, done.body.job.error).toBe("succeeded")
    const now = await containers()
    expect(now).toHaveLength(1)
    expect(now[0]!.State).toBe("running")
    expect(now[0]!.Labels["com.workbay.build.id"]).toBe(again.body.id)
    expect(now[0]!.Id).not.toBe(left[0]!.Id)
    const agentId = (done.body.resources as Array<any>).flatMap((r) => r.agents ?? [])[0].id
    await until(
      () => call("GET", `/workspaceagents/${agentId}`),
      (a) => a.body.lifecycle_state === "ready",
      "the agent"
    )
    const volumes = (await docker.listVolumes({ filters })).Volumes ?? []
    expect(volumes).toHaveLength(1)
  })
})
