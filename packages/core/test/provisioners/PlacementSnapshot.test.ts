/**
 * Placement's view of the hosts (docs/provisioner-daemons.md, "Placement"): the organization's
 * hosts and the load placed on them are read at most every HOST_SNAPSHOT_TTL (1 s), so a host
 * reported or drained elsewhere counts from the next read; a host drained here, and a start placed
 * here, count at once. On real services over an in-memory SQLite storage, TestClock driving time.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  type HostCapacity,
  type HostReporter,
  Placement,
  type ProvisionerHostRecord,
  ProvisionerHostRepo,
  ProvisionerHosts,
  ProvisionerJobs
} from "@workbay/core"
import { Duration, Effect } from "effect"
import * as TestClock from "effect/TestClock"
import { randomUUID } from "node:crypto"
import { HOST_SNAPSHOT_TTL } from "../../src/provisioners/ProvisionerHosts.js"
import { services, signedInOwner } from "../services.js"

const T0 = Date.UTC(2025, 5, 1, 8, 0, 0, 0)
const GIB = 1024 ** 3

const reporter = (organizationId: string, name: string): HostReporter => ({
  organization_id: organizationId,
  name,
  tags: { scope: "organization" },
  provisioners: ["docker"],
  version: "v1.2.0"
})

const capacity = (extra: Partial<HostCapacity> = {}): HostCapacity => ({
  cpus: 8,
  memory_bytes: 32 * GIB,
  memory_promised_bytes: 4 * GIB,
  cpus_promised: 0,
  containers: 1,
  disk_free_bytes: 200 * GIB,
  ...extra
})

/** A start of the organization asking `memoryGib` and 1 CPU. */
const place = (organizationId: string, memoryGib = 1) =>
  Effect.flatMap(Placement, (p) =>
    p.place(
      { organization_id: organizationId, provisioner: "docker", tags: { scope: "organization" } },
      Effect.succeed({ memory_bytes: memoryGib * GIB, cpus: 1 })
    ))
const hostOf = (organizationId: string, memoryGib = 1) =>
  Effect.map(place(organizationId, memoryGib), (d) => (d._tag === "Placed" ? d.host : d._tag))

/** One step short of the snapshot's age, then the rest. */
const almost = Duration.subtract(HOST_SNAPSHOT_TTL, Duration.millis(1))

describe("Placement's snapshot of the hosts", () => {
  it.effect("a host reported here or written by another replica counts once the snapshot is a second old", () =>
    Effect.gen(function*() {
      expect(Duration.toMillis(HOST_SNAPSHOT_TTL)).toBe(1000)
      const { organizationId } = yield* signedInOwner(T0)
      const hosts = yield* ProvisionerHosts
      const repo = yield* ProvisionerHostRepo
      expect(yield* hostOf(organizationId)).toBe("Unplaced")

      // This replica's report: placement reads the hosts it read a moment ago.
      yield* hosts.report(reporter(organizationId, "host-1"), capacity())
      expect(yield* hostOf(organizationId)).toBe("Unplaced")
      yield* TestClock.adjust(almost)
      expect(yield* hostOf(organizationId)).toBe("Unplaced")
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* hostOf(organizationId)).toBe("host-1")

      // A roomier host another replica wrote: seen at the next read, then preferred.
      const at = new Date(T0 + 1000)
      const other: ProvisionerHostRecord = {
        ...reporter(organizationId, "host-2"),
        ...capacity({ memory_bytes: 64 * GIB, memory_promised_bytes: 0 }),
        first_seen_at: at,
        reported_at: at
      }
      yield* repo.upsertMany([other])
      expect(yield* hostOf(organizationId)).toBe("host-1")
      yield* TestClock.adjust(HOST_SNAPSHOT_TTL)
      expect(yield* hostOf(organizationId)).toBe("host-2")

      // Callers at one moment share one snapshot (one read for all of them).
      yield* TestClock.adjust(HOST_SNAPSHOT_TTL)
      const read = yield* Effect.all(Array.from({ length: 5 }, () => hosts.snapshot(organizationId)), {
        concurrency: "unbounded"
      })
      expect(new Set(read).size).toBe(1)
      expect(read[0]!.hosts.map((h) => h.name).sort()).toEqual(["host-1", "host-2"])
      expect(read[0]!.at).toBe(T0 + 3000)
      // Another organization's hosts are its own.
      expect((yield* hosts.snapshot(randomUUID())).hosts).toEqual([])
    }).pipe(Effect.provide(services())))

  it.effect("a host that stopped reporting is left out from the first read after 30 s", () =>
    Effect.gen(function*() {
      const { organizationId } = yield* signedInOwner(T0)
      const hosts = yield* ProvisionerHosts
      yield* hosts.report(reporter(organizationId, "host-1"), capacity())
      yield* hosts.flush
      expect(yield* hostOf(organizationId)).toBe("host-1")
      yield* TestClock.adjust(Duration.seconds(31))
      expect(yield* hostOf(organizationId)).toBe("Unplaced")
    }).pipe(Effect.provide(services())))

  it.effect("a drained host is skipped: at once when drained here, from the next read when drained elsewhere", () =>
    Effect.gen(function*() {
      const { as, organizationId } = yield* signedInOwner(T0)
      const hosts = yield* ProvisionerHosts
      const repo = yield* ProvisionerHostRepo
      // host-a is the roomier: of two hosts both are drawn, and the best scored wins.
      yield* hosts.report(reporter(organizationId, "host-a"), capacity({ memory_promised_bytes: 0 }))
      yield* hosts.report(reporter(organizationId, "host-b"), capacity({ memory_promised_bytes: 8 * GIB }))
      yield* hosts.flush
      expect(yield* hostOf(organizationId)).toBe("host-a")

      // Drained by another replica (the row changes): this replica's snapshot still has it for up to a second.
      yield* repo.setDraining(organizationId, "host-a", true)
      expect(yield* hostOf(organizationId)).toBe("host-a")
      yield* TestClock.adjust(HOST_SNAPSHOT_TTL)
      expect(yield* hostOf(organizationId)).toBe("host-b")
      expect(yield* hostOf(organizationId)).toBe("host-b")
      yield* repo.setDraining(organizationId, "host-a", false)
      yield* TestClock.adjust(HOST_SNAPSHOT_TTL)
      expect(yield* hostOf(organizationId)).toBe("host-a")

      // Drained here: the next start, at the same moment, skips it; taken back, likewise.
      yield* as(hosts.setDraining(organizationId, "host-a", { draining: true }))
      expect(yield* hostOf(organizationId)).toBe("host-b")
      yield* as(hosts.setDraining(organizationId, "host-a", { draining: false }))
      expect(yield* hostOf(organizationId)).toBe("host-a")
    }).pipe(Effect.provide(services())))

  it.effect("a drained host back from 30 s offline stays drained while its new reports are not written", () =>
    Effect.gen(function*() {
      const { organizationId } = yield* signedInOwner(T0)
      const hosts = yield* ProvisionerHosts
      const repo = yield* ProvisionerHostRepo
      yield* hosts.report(reporter(organizationId, "host-a"), capacity({ memory_promised_bytes: 0 }))
      yield* hosts.flush
      yield* repo.setDraining(organizationId, "host-a", true)
      yield* TestClock.adjust(Duration.seconds(40))
      // Its row is 40 s old; its report here is new, and the roomier.
      yield* hosts.report(reporter(organizationId, "host-a"), capacity({ memory_promised_bytes: 0 }))
      yield* hosts.report(reporter(organizationId, "host-b"), capacity({ memory_promised_bytes: 8 * GIB }))
      expect(yield* hostOf(organizationId)).toBe("host-b")
    }).pipe(Effect.provide(services())))

  it.effect("a start placed here counts against its host at once, until a read of the placed load begun after it", () =>
    Effect.gen(function*() {
      const { organizationId, userId } = yield* signedInOwner(T0)
      const hosts = yield* ProvisionerHosts
      const jobs = yield* ProvisionerJobs
      // 32 GiB, 4 promised: 28 GiB free.
      yield* hosts.report(reporter(organizationId, "host-1"), capacity())
      const first = yield* place(organizationId, 20)
      expect(first).toMatchObject({ _tag: "Placed", host: "host-1" })
      // Its job, queued as a build's is (WorkspaceBuilds), carries what it counted.
      yield* jobs.enqueue({
        organization_id: organizationId,
        initiator_id: userId,
        provisioner: "docker",
        type: "workspace_build",
        file_id: randomUUID(),
        input: { workspace_build_id: randomUUID() },
        tags: {},
        host: "host-1",
        placed_memory_bytes: 20 * GIB,
        placed_cpus: 1
      })
      const noRoom = (free: string) => ({
        _tag: "NoRoom",
        message: "No provisioner host has room for this workspace: it asks 20 GiB of memory and 1 CPU; " +
          `of 1 connected host, the freest (host-1) has ${free} of memory free of 32 GiB, 8 CPUs.`
      })
      // The same moment: the placed load read before the first start does not show it; it counts anyway.
      expect(yield* place(organizationId, 20)).toEqual(noRoom("8 GiB"))
      // A second later the job is read, and counted once.
      yield* TestClock.adjust(HOST_SNAPSHOT_TTL)
      expect(yield* place(organizationId, 20)).toEqual(noRoom("8 GiB"))
      expect(yield* place(organizationId, 5)).toMatchObject({ _tag: "Placed", host: "host-1" })
      expect(yield* place(organizationId, 20)).toEqual(noRoom("3 GiB"))
      // A start whose job never came (its build refused later in its transaction) counts only until the next read.
      yield* TestClock.adjust(HOST_SNAPSHOT_TTL)
      expect(yield* place(organizationId, 20)).toEqual(noRoom("8 GiB"))
      expect(yield* place(organizationId, 8)).toMatchObject({ _tag: "Placed", host: "host-1" })
    }).pipe(Effect.provide(services())))
})
