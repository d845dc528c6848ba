/**
 * The host capacity a provisioner daemon reports, read from this machine's Docker engine: the
 * engine's own CPUs and memory, or the operator's caps on them (`workbay provisioner start
 * --memory --cpus`), never more than the engine's; what the caps leave alone (promised figures,
 * containers, disk) is read as without them.
 */
import { HostCapacity } from "@workbay/core"
import { Effect, Schema } from "effect"
import { describe, expect, inject, it } from "vitest"
import { hostCapacityReader } from "../src/Capacity.js"
import { dockerClient } from "../src/Client.js"

const made = inject("workbayDocker")

const GiB = 1024 ** 3

describe.skipIf(made === null)("hostCapacityReader", () => {
  const docker = dockerClient({ host: process.env.DOCKER_HOST })
  const read = (options: Parameters<typeof hostCapacityReader>[1]) =>
    Effect.runPromise(hostCapacityReader(docker, options))

  it("reports the engine's CPUs and memory, and the free disk of a local engine", async () => {
    const info = await docker.info()
    const capacity = await read({ localDisk: true })
    expect(Schema.is(HostCapacity)(capacity)).toBe(true)
    expect(capacity.cpus).toBe(info.NCPU)
    expect(capacity.memory_bytes).toBe(info.MemTotal)
    expect(capacity.disk_free_bytes).toBeGreaterThan(0)
    expect((await read({ localDisk: false })).disk_free_bytes).toBeNull()
  })

  it("reports the caps when below the engine's figures, the engine's when above; the rest as read", async () => {
    const info = await docker.info()
    const capped = async (options: { memoryLimit?: number; cpusLimit?: number }) => {
      // Containers of other tests may start or stop between two reads: read both until they agree.
      // (The free disk may move between two reads too: only whether it is known is compared.)
      const rest = (c: HostCapacity) => [
        c.memory_promised_bytes,
        c.cpus_promised,
        c.containers,
        c.disk_free_bytes !== null
      ]
      for (let attempt = 1;; attempt++) {
        const [plain, limited] = await Promise.all([read({ localDisk: true }), read({ localDisk: true, ...options })])
        if (attempt < 5 && JSON.stringify(rest(plain)) !== JSON.stringify(rest(limited))) continue
        expect(rest(limited)).toEqual(rest(plain))
        expect(limited.disk_free_bytes).toBeGreaterThan(0)
        expect(Schema.is(HostCapacity)(limited)).toBe(true)
        return limited
      }
    }
    expect(info.MemTotal).toBeGreaterThan(GiB)
    const memory = await capped({ memoryLimit: GiB })
    expect(memory).toMatchObject({ memory_bytes: GiB, cpus: info.NCPU })
    expect(await capped({ memoryLimit: info.MemTotal * 2 })).toMatchObject({ memory_bytes: info.MemTotal })
    expect(await capped({ cpusLimit: 1 })).toMatchObject({ cpus: 1, memory_bytes: info.MemTotal })
    expect(await capped({ cpusLimit: 1024 })).toMatchObject({ cpus: info.NCPU })
    // A fraction of a CPU is offered as the whole CPUs below it, at least one.
    expect(await capped({ cpusLimit: 0.5 })).toMatchObject({ cpus: 1 })
    expect(await capped({ memoryLimit: 2 * GiB, cpusLimit: 1 })).toMatchObject({ memory_bytes: 2 * GiB, cpus: 1 })
  })
})
