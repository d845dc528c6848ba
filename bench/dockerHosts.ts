// What the benches of several Docker hosts share (bench/move.ts, bench/hosts-burst.ts): extra Docker
// engines on this machine (each a dockerd with its own data root, exec root and socket, in this
// machine's network: their host-network containers reach 127.0.0.1), the image copied into them, and
// `workbay provisioner start` daemons (the CLI, bundled as its tests bundle it), one per engine.
import { workbayProvisioner } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import type Docker from "dockerode"
import DockerClient from "dockerode"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdirSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { join } from "node:path"
import { freePort, request, seedFirstUser, sleep } from "./lib.mjs"

export interface Engine {
  readonly socket: string
  readonly docker: Docker
  readonly stop: () => Promise<void>
}

const mountsUnder = (root: string) =>
  readFileSync("/proc/mounts", "utf8").split("\n").map((l) => l.split(" ")[1] ?? "").filter((m) =>
    m.startsWith(`${root}/`)
  ).sort().reverse()

/** A dockerd of its own under `dir` (socket /run/docker-<name>.sock); `stop` ends it and removes what it left. */
export const startEngine = async (dir: string, name: string): Promise<Engine> => {
  const root = join(dir, name)
  mkdirSync(join(root, "data"), { recursive: true })
  mkdirSync(join(root, "exec"), { recursive: true })
  const socket = `/run/docker-${name}.sock`
  const child = spawn("dockerd", [
    "--data-root",
    join(root, "data"),
    "--exec-root",
    join(root, "exec"),
    "--pidfile",
    join(root, "docker.pid"),
    "-H",
    `unix://${socket}`,
    "--bridge=none",
    "--iptables=false",
    "--ip-masq=false"
  ], { stdio: "ignore" })
  const docker = new DockerClient({ socketPath: socket })
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      await Promise.race([exited, sleep(15_000)])
      if (child.exitCode === null) child.kill("SIGKILL")
    }
    for (const m of mountsUnder(root)) {
      try {
        execFileSync("umount", ["-l", m])
      } catch {
        // Gone already.
      }
    }
    rmSync(root, { recursive: true, force: true })
    rmSync(socket, { force: true })
  }
  for (let i = 0;; i++) {
    try {
      await docker.ping()
      return { socket, docker, stop }
    } catch (e) {
      if (i > 300) {
        await stop()
        throw e
      }
      await sleep(100)
    }
  }
}

/** Copies `image` from `from` into `to` (docker save | docker load) unless it is there. */
export const copyImage = async (from: Docker, to: Docker, image: string) => {
  if ((await to.listImages({ filters: JSON.stringify({ reference: [image] }) })).length > 0) return
  const saved = await from.getImage(image).get()
  const out = await to.loadImage(saved)
  await new Promise<void>((resolve, reject) => {
    out.on("data", () => {})
    out.on("end", () => resolve())
    out.on("error", reject)
  })
}

/** A `workbay provisioner start` process for the engine at `socket`, host `name`. */
export const startDaemon = (
  cli: string,
  options: {
    readonly url: string
    readonly key: string
    readonly name: string
    readonly socket: string
    readonly home: string
    readonly extra?: ReadonlyArray<string>
  }
): ChildProcess =>
  spawn(process.execPath, [
    cli,
    "provisioner",
    "start",
    "--url",
    options.url,
    "--key",
    options.key,
    "--name",
    options.name,
    "--docker-host",
    `unix://${options.socket}`,
    ...(options.extra ?? [])
  ], { env: { ...process.env, HOME: options.home }, stdio: "ignore" })

/**
 * The service in process on a SQLite file under `dir` (no Docker provisioner of its own: daemons
 * run the builds), listening on 127.0.0.1, with its first user and a provisioner key: what a
 * bench of several hosts calls, and `close`.
 */
export const controlPlane = async (dir: string, deploymentId: string, agentBinaries?: string) => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const service = await makeWorkbay(Sqlite.layer({ filename: join(dir, "workbay.db") }), {
    settings: { deploymentId, accessUrl: url },
    http: { rateLimits: false },
    ...(agentBinaries === undefined ? {} : { agentBinaries }),
    provisioners: [workbayProvisioner],
    logLevel: "error"
  })
  const listener = createServer()
  service.attach(listener)
  await new Promise<void>((resolve) => listener.listen(port, "127.0.0.1", () => resolve()))
  const base = `${url}/api/v2`
  const { auth, orgId } = await seedFirstUser(base)
  const json = { ...auth, "content-type": "application/json" }
  const post = (path: string, body: unknown) =>
    request(`${base}${path}`, { method: "POST", headers: json, body: JSON.stringify(body) })
  const get = (path: string) => request(`${base}${path}`, { headers: auth })
  const key = (await post(`/organizations/${orgId}/provisionerkeys`, { name: "bench" })).body.key as string
  /** Waits until `count` hosts are connected. */
  const hostsConnected = async (count: number) => {
    for (let i = 0;; i++) {
      const hosts = (await get(`/organizations/${orgId}/provisionerhosts`)).body as Array<{ status: string }>
      if (hosts.filter((h) => h.status === "connected").length === count) return
      if (i > 600) throw new Error("the daemons did not connect")
      await sleep(100)
    }
  }
  /** A template `name` of a `docker` version made from `body` (a file or an example), once its import succeeded. */
  const dockerTemplate = async (name: string, body: Record<string, unknown>) => {
    const version = (await post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      provisioner: "docker",
      tags: {},
      ...body
    })).body
    for (let i = 0;; i++) {
      const v = (await get(`/templateversions/${version.id}`)).body
      if (v.job.status === "succeeded") break
      if (v.job.status === "failed" || i > 600) throw new Error(`import: ${JSON.stringify(v.job)}`)
      await sleep(100)
    }
    return (await post(`/organizations/${orgId}/templates`, { name, template_version_id: version.id })).body
  }
  const close = async () => {
    listener.close()
    await service.dispose()
  }
  return { url, base, auth, json, orgId, key, post, get, hostsConnected, dockerTemplate, close }
}
