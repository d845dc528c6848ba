/**
 * A Docker host's capacity, as a provisioner daemon reports it (docs/provisioner-daemons.md, "Hosts
 * and their capacity"): the engine's CPUs and memory, what its running workspace containers were
 * promised (the sum of their memory and CPU limits; a container without a limit promises none),
 * how many run, and the free disk under the engine's data root when the daemon can see it (the
 * engine on this machine, not a remote `tcp://` one). An operator may cap the memory and CPUs the
 * host offers (`workbay provisioner start --memory --cpus`): the reported figure is then the cap,
 * at most the engine's own.
 */
import type { HostCapacity } from "@workbay/core"
import type Docker from "dockerode"
import { Effect } from "effect"
import { statfs } from "node:fs/promises"
import { call } from "./Client.js"
import { LABEL_WORKSPACE_ID } from "./Labels.js"

export interface HostCapacityOptions {
  /** Whether the engine runs on this machine, so that its data root's free space can be read. */
  readonly localDisk: boolean
  /** The memory the host offers, in bytes, when less than the engine's (a host shared with other services). */
  readonly memoryLimit?: number | undefined
  /** The CPUs the host offers, when fewer than the engine's (whole CPUs; a fraction is rounded down, at least 1). */
  readonly cpusLimit?: number | undefined
}

/**
 * The reader of one engine's capacity. A container's limits never change, so each is inspected
 * once (the cache drops containers that stopped): a report costs two calls and one per new container.
 */
export const hostCapacityReader = (docker: Docker, options: HostCapacityOptions) => {
  const limits = new Map<string, { readonly memory: number; readonly cpus: number }>()
  return Effect.gen(function*() {
    const info = yield* call("read the engine's info", () => docker.info())
    const running = yield* call(
      "list the running workspace containers",
      () => docker.listContainers({ filters: JSON.stringify({ label: [LABEL_WORKSPACE_ID], status: ["running"] }) })
    )
    const ids = new Set(running.map((c) => c.Id))
    for (const id of limits.keys()) if (!ids.has(id)) limits.delete(id)
    for (const c of running) {
      if (limits.has(c.Id)) continue
      const inspected = yield* call(
        `inspect the container ${c.Id.slice(0, 12)}`,
        () => docker.getContainer(c.Id).inspect()
      )
        .pipe(Effect.option)
      if (inspected._tag === "None") continue
      const host = inspected.value.HostConfig
      limits.set(c.Id, { memory: host.Memory ?? 0, cpus: (host.NanoCpus ?? 0) / 1e9 })
    }
    let memoryPromised = 0
    let cpusPromised = 0
    for (const l of limits.values()) {
      memoryPromised += l.memory
      cpusPromised += l.cpus
    }
    const root: unknown = info.DockerRootDir
    const disk = options.localDisk && typeof root === "string" && root !== ""
      ? yield* Effect.promise(() => statfs(root).then((s) => s.bavail * s.bsize, () => null))
      : null
    const engineCpus = Math.max(1, Math.floor(Number(info.NCPU) || 1))
    const engineMemory = Math.floor(Number(info.MemTotal) || 0)
    return {
      cpus: options.cpusLimit === undefined
        ? engineCpus
        : Math.max(1, Math.floor(Math.min(options.cpusLimit, engineCpus))),
      memory_bytes: options.memoryLimit === undefined
        ? engineMemory
        : Math.floor(engineMemory > 0 ? Math.min(options.memoryLimit, engineMemory) : options.memoryLimit),
      memory_promised_bytes: memoryPromised,
      cpus_promised: Math.round(cpusPromised * 1000) / 1000,
      containers: running.length,
      disk_free_bytes: disk === null ? null : Math.floor(disk)
    } satisfies HostCapacity
  })
}
