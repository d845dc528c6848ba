/**
 * `workbay provisioner start` against the real standalone server with its own Docker provisioner
 * off (`--docker off`): every job of the `docker` starter runs in the daemon process, on this
 * machine's Docker engine. The import, a workspace's start (its container's agent, downloaded by
 * the init script the daemon wrote, reaches `ready`) and its stop go through the daemon; the
 * daemon survives a restart of the server (it reconnects), and on SIGTERM it stops and says so.
 * The daemon names its host and reports the engine's capacity, which the hosts listing shows.
 * A key the deployment does not know is refused with exit code 1, and a deleted key ends it so.
 * `workbay provisioner hosts list|drain|undrain` read and drain a host a daemon reports, for who
 * may manage daemons (a member lists, and is refused the drain). `--memory` and `--cpus` cap what the
 * host reports; a value that is none is a usage error before the daemon connects.
 */
import { dockerClient, LABEL_WORKSPACE_ID } from "@workbay/docker"
import Docker from "dockerode"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { cleanUp } from "../../docker/test/support.js"
import { firstOwnerSession } from "../../server/test/owner.js"
import { type ServerProcess, startServerProcess } from "../../server/test/process.js"
import { bundleCli, cliUser } from "./support.js"

const made = inject("workbayDocker")

/** Runs `check` until it passes, for at most `ms`. */
const eventually = async (check: () => Promise<void>, ms: number) => {
  const end = Date.now() + ms
  for (;;) {
    try {
      return await check()
    } catch (e) {
      if (Date.now() > end) throw e
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

describe.skipIf(made === null)("workbay provisioner start", () => {
  const docker = new Docker({ socketPath: process.env.DOCKER_SOCKET ?? "/var/run/docker.sock" })
  let server: ServerProcess
  let dir = ""
  let cli = ""
  let deploymentId = ""
  let token = ""
  let daemon: ChildProcess | undefined
  let daemonOutput = ""

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/api/v2${path}`, {
      method,
      headers: { "Service-Session-Token": token, "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }
  const serverArgs = () => ["--data-dir", dir, "--docker", "off"]
  const serverEnv = () => ({ WORKBAY_AGENT_BINARIES: made!.agentBinaries })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "workbay-provisioner-start-"))
    ;[server, cli] = await Promise.all([startServerProcess(serverArgs(), serverEnv()), bundleCli()])
    deploymentId = ((await (await fetch(`${server.url}/api/v2/buildinfo`)).json()) as { deployment_id: string })
      .deployment_id
    token = await firstOwnerSession(server.url)
  })
  afterAll(async () => {
    if (daemon !== undefined && daemon.exitCode === null) daemon.kill("SIGKILL")
    await server?.stop()
    if (deploymentId !== "") await cleanUp(dockerClient(), deploymentId)
    if (dir !== "") rmSync(dir, { recursive: true, force: true })
  })

  const startDaemon = (key: string, name = "host-1", extra: ReadonlyArray<string> = []) => {
    const child = spawn(
      process.execPath,
      [
        cli,
        "provisioner",
        "start",
        "--url",
        server.url,
        "--key",
        key,
        "--name",
        name,
        "--docker-network",
        "host",
        ...extra
      ],
      { env: { ...process.env, HOME: dir }, stdio: ["ignore", "pipe", "pipe"] }
    )
    child.stdout!.on("data", (d) => (daemonOutput += d))
    child.stderr!.on("data", (d) => (daemonOutput += d))
    return child
  }
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code))
    )
  const jobStatus = async (path: string) =>
    (await api("GET", path)).body.job?.status ?? (await api("GET", path)).body.latest_build?.status

  it("refuses a key the deployment does not know", async () => {
    const child = startDaemon("x".repeat(43))
    expect(await exited(child)).toBe(1)
    expect(daemonOutput).toContain("The provisioner key is not valid on this deployment.")
    daemonOutput = ""
  })

  it("runs the docker starter's import, start and stop, reconnects after a restart, and stops on SIGTERM", async () => {
    // The server runs no docker job itself: only the daemon can take them.
    expect(server.stdout()).toContain("Docker provisioner off (--docker off).")
    const key = (await api("POST", "/organizations/default/provisionerkeys", { name: "host-1" })).body.key as string
    daemon = startDaemon(key)
    await eventually(async () => {
      const daemons = (await api("GET", "/organizations/default/provisionerdaemons")).body as Array<any>
      expect(daemons.find((d) => d.name === "host-1")).toMatchObject({ provisioners: ["docker"], key_name: "host-1" })
    }, 30_000)

    const version = (await api("POST", "/organizations/default/templateversions", {
      storage_method: "file",
      example_id: "docker",
      provisioner: "docker"
    })).body
    await eventually(async () => expect(await jobStatus(`/templateversions/${version.id}`)).toBe("succeeded"), 60_000)
    const template = (await api("POST", "/organizations/default/templates", {
      name: "docker",
      template_version_id: version.id
    })).body
    const workspace = (await api("POST", "/organizations/default/members/me/workspaces", {
      name: "box",
      template_id: template.id
    })).body
    await eventually(async () => {
      const status = await jobStatus(`/workspaces/${workspace.id}`)
      if (status === "failed") throw new Error(`the build failed:\n${daemonOutput}\n${server.stderr()}`)
      expect(status).toBe("running")
    }, 120_000)
    const built = (await api("GET", `/workspaces/${workspace.id}`)).body
    const agentId = built.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0].id as string
    await eventually(
      async () => expect((await api("GET", `/workspaceagents/${agentId}`)).body.lifecycle_state).toBe("ready"),
      120_000
    )
    // The container was made by the daemon, on this engine, labelled with the build's metadata.
    const containers = await docker.listContainers({
      filters: { label: [`${LABEL_WORKSPACE_ID}=${workspace.id}`] }
    })
    expect(containers).toHaveLength(1)
    expect(daemonOutput).toMatch(/host-1: job \S+: workspace_build \(docker\) taken/)
    // The daemon reports its host's capacity: this engine's CPUs, memory, running workspace containers, free disk.
    const info = await docker.info()
    await eventually(async () => {
      const hosts = (await api("GET", "/organizations/default/provisionerhosts")).body as Array<any>
      const host = hosts.find((h) => h.name === "host-1")
      expect(host).toMatchObject({
        status: "connected",
        provisioners: ["docker"],
        cpus: info.NCPU,
        memory_bytes: info.MemTotal,
        daemons: ["host-1"]
      })
      expect(host.containers).toBeGreaterThanOrEqual(1)
      expect(host.disk_free_bytes).toBeGreaterThan(0)
    }, 30_000)

    // The build's resources name the host; `workbay list` shows it.
    expect(built.latest_build.resources[0].metadata).toContainEqual({ key: "host", value: "host-1", sensitive: false })
    const listed = spawnSync(process.execPath, [cli, "list"], {
      env: { ...process.env, HOME: dir, WORKBAY_URL: server.url, WORKBAY_SESSION_TOKEN: token },
      encoding: "utf8"
    })
    expect(listed.stdout).toMatch(/HOST/i)
    expect(listed.stdout).toMatch(/box\s.*host-1/)

    // The server restarts on the same data: the daemon reconnects and takes the stop.
    await server.stop()
    server = await startServerProcess(serverArgs(), serverEnv(), server.port)
    const stop = (await api("POST", `/workspaces/${workspace.id}/builds`, { transition: "stop" })).body
    await eventually(async () => expect(await jobStatus(`/workspacebuilds/${stop.id}`)).toBe("succeeded"), 120_000)
    expect(await docker.listContainers({ filters: { label: [`${LABEL_WORKSPACE_ID}=${workspace.id}`] } })).toHaveLength(
      0
    )

    daemon.kill("SIGTERM")
    expect(await exited(daemon)).toBe(0)
    expect(daemonOutput).toContain("stopped")
  })

  it("stops with exit code 1 once its key is deleted", async () => {
    const key = (await api("POST", "/organizations/default/provisionerkeys", { name: "revoked" })).body.key as string
    daemonOutput = ""
    const child = startDaemon(key)
    await eventually(async () => {
      const daemons = (await api("GET", "/organizations/default/provisionerdaemons")).body as Array<any>
      expect(daemons.find((d) => d.key_name === "revoked")?.status).toBe("idle")
    }, 30_000)
    expect((await api("DELETE", "/organizations/default/provisionerkeys/revoked")).status).toBe(204)
    expect(await exited(child)).toBe(1)
    expect(daemonOutput).toContain("The provisioner key was deleted: the daemon stops.")
  })

  it("caps the memory and CPUs the host offers with --memory and --cpus; a bad value is a usage error", async () => {
    const key = (await api("POST", "/organizations/default/provisionerkeys", { name: "shared" })).body.key as string
    for (
      const [flags, message] of [
        [["--memory", "x"], `error: --memory "x" is not a size such as 512m or 2g, at least 6m.`],
        [["--memory", "1k"], `error: --memory "1k" is not a size such as 512m or 2g, at least 6m.`],
        [["--cpus", "1.5"], `error: --cpus "1.5" is not a whole number of CPUs from 1 to 1024.`],
        [["--cpus", "none"], `error: --cpus "none" is not a whole number of CPUs from 1 to 1024.`]
      ] as const
    ) {
      daemonOutput = ""
      const refused = startDaemon(key, "shared-bad", flags)
      expect(await exited(refused), daemonOutput).toBe(2)
      expect(daemonOutput).toContain(message)
    }
    // It never connected: no daemon and no host of that name.
    const daemons = (await api("GET", "/organizations/default/provisionerdaemons")).body as Array<any>
    expect(daemons.find((d) => d.name === "shared-bad")).toBeUndefined()
    const before = (await api("GET", "/organizations/default/provisionerhosts")).body as Array<any>
    expect(before.find((h) => h.name === "shared-bad")).toBeUndefined()

    daemonOutput = ""
    const child = startDaemon(key, "shared", ["--memory", "1g", "--cpus", "1"])
    try {
      const info = await docker.info()
      await eventually(async () => {
        const hosts = (await api("GET", "/organizations/default/provisionerhosts")).body as Array<any>
        expect(hosts.find((h) => h.name === "shared")).toMatchObject({
          status: "connected",
          memory_bytes: 1073741824,
          cpus: 1,
          daemons: ["shared"]
        })
      }, 30_000)
      expect(info.MemTotal).toBeGreaterThan(1073741824)
      expect(daemonOutput).toContain("offers at most 1 GiB of memory and 1 CPU(s)")
    } finally {
      child.kill("SIGTERM")
      await exited(child)
    }
  })

  it("lists the hosts daemons report, drains and undrains one; a member lists them and may not drain", async () => {
    const key = (await api("POST", "/organizations/default/provisionerkeys", { name: "rack" })).body.key as string
    const child = startDaemon(key, "rack-7")
    try {
      await eventually(async () => {
        const hosts = (await api("GET", "/organizations/default/provisionerhosts")).body as Array<any>
        expect(hosts.find((h) => h.name === "rack-7")?.status).toBe("connected")
      }, 30_000)
      const info = await docker.info()
      const org = (await api("GET", "/organizations/default")).body as { id: string; name: string }
      const user = cliUser(cli)
      const as = (session: string) => ({ env: { WORKBAY_URL: server.url, WORKBAY_SESSION_TOKEN: session } })
      const run = async (args: ReadonlyArray<string>, session = token) => {
        const r = await user.run(["provisioner", "hosts", ...args], as(session))
        return { ...r, all: `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}` }
      }
      const draining = async () =>
        ((await api("GET", "/organizations/default/provisionerhosts")).body as Array<any>).find((h) =>
          h.name === "rack-7"
        ).draining

      // The table: the host's figures as this engine has them, what workspaces were promised of them.
      const listed = await run(["list"])
      expect(listed.code, listed.all).toBe(0)
      const [header, ...rows] = listed.stdout.trimEnd().split("\n")
      expect(header).toMatch(/^NAME\s+STATUS\s+DRAINING\s+CPUS\s+MEMORY\s+CONTAINERS\s+FREE DISK\s+LAST SEEN$/)
      expect(rows.find((r) => r.startsWith("rack-7 "))).toMatch(
        new RegExp(
          `^rack-7\\s+connected\\s+false\\s+[\\d.]+ of ${info.NCPU}\\s+\\S+ \\S*B of \\S+ GiB\\s+\\d+\\s+\\S+ \\S*B\\s+\\d+s ago$`
        )
      )
      const json = await run(["list", "--output", "json"])
      expect(json.code, json.all).toBe(0)
      expect((JSON.parse(json.stdout) as Array<any>).find((h) => h.name === "rack-7")).toMatchObject({
        status: "connected",
        draining: false,
        cpus: info.NCPU,
        memory_bytes: info.MemTotal,
        daemons: ["rack-7"]
      })

      // Drain, then undrain (naming the organization): one line each, the host's state changed.
      const drained = await run(["drain", "rack-7"])
      expect(drained.code, drained.all).toBe(0)
      expect(drained.stdout).toBe("Host rack-7 is draining: no new workspace is placed on it; its workspaces stay.\n")
      expect(await draining()).toBe(true)
      expect((await run(["list"])).stdout).toMatch(/^rack-7\s+connected\s+true\s/m)
      const undrained = await run(["undrain", "rack-7", "--org", org.name])
      expect(undrained.code, undrained.all).toBe(0)
      expect(undrained.stdout).toBe("Host rack-7 is no longer draining: new workspaces may be placed on it.\n")
      expect(await draining()).toBe(false)
      const asJson = await run(["drain", "rack-7", "-o", "json"])
      expect(asJson.code, asJson.all).toBe(0)
      expect(JSON.parse(asJson.stdout)).toMatchObject({ name: "rack-7", draining: true })
      expect(asJson.stderr).toContain("Host rack-7 is draining")
      expect(await draining()).toBe(true)
      expect((await run(["undrain", "rack-7"])).code).toBe(0)

      // A host the organization has not seen.
      const unknown = await run(["drain", "nowhere"])
      expect(unknown.code, unknown.all).toBe(1)
      expect(unknown.stderr).toBe(
        `error: Organization ${org.name} has no provisioner host named "nowhere".\nSee its hosts with: workbay provisioner hosts list\n`
      )

      // A member reads the hosts but may not drain one (the provisioner_daemon update right).
      const created = await api("POST", "/users", {
        email: "mia@example.com",
        username: "mia",
        password: "Correct-Horse-Battery-9",
        organization_ids: [org.id]
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const login = await fetch(`${server.url}/api/v2/users/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "mia@example.com", password: "Correct-Horse-Battery-9" })
      })
      const member = ((await login.json()) as { session_token: string }).session_token
      const memberList = await run(["list"], member)
      expect(memberList.code, memberList.all).toBe(0)
      expect(memberList.stdout).toMatch(/^rack-7\s+connected\s+false\s/m)
      const refused = await run(["drain", "rack-7"], member)
      expect(refused.code, refused.all).toBe(1)
      expect(refused.stderr).toBe("error: Forbidden.\nYou do not have permission to perform this action.\n")
      expect(await draining()).toBe(false)
    } finally {
      child.kill("SIGTERM")
      await exited(child)
    }
  })
})
