/**
 * The hosts' capacity (ProvisionerHosts): reports kept in memory and listed at once, written by
 * `flush` when they changed or every HOST_REFRESH_INTERVAL when they did not, a host offline after
 * HOST_STALE_INTERVAL without reports, and the listing's authorization; on real services over an
 * in-memory SQLite storage, with Effect's TestClock driving time. `ProvisionerHosts.periodic` is not
 * part of the services, so the tests flush themselves.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  type HostCapacity,
  type HostReporter,
  hostStatus,
  ProvisionerDaemonRepo,
  ProvisionerHost,
  ProvisionerHostRepo,
  ProvisionerHosts
} from "@workbay/core"
import { Duration, Effect } from "effect"
import * as TestClock from "effect/TestClock"
import { randomUUID } from "node:crypto"
import { services, signedInOwner } from "../services.js"

const T0 = Date.UTC(2025, 5, 1, 8, 0, 0, 0)
const GIB = 1024 ** 3

const reporter = (organizationId: string, name = "host-1"): HostReporter => ({
  organization_id: organizationId,
  name,
  tags: { scope: "organization", pool: "fast" },
  provisioners: ["docker"],
  version: "v1.2.0"
})

const capacity = (extra: Partial<HostCapacity> = {}): HostCapacity => ({
  cpus: 8,
  memory_bytes: 32 * GIB,
  memory_promised_bytes: 4 * GIB,
  cpus_promised: 1.5,
  containers: 2,
  disk_free_bytes: 200 * GIB,
  ...extra
})

const stored = (organizationId: string) => Effect.flatMap(ProvisionerHostRepo, (r) => r.list(organizationId))
const storedOne = (organizationId: string) =>
  Effect.map(stored(organizationId), (hosts) => {
    expect(hosts).toHaveLength(1)
    return hosts[0]!
  })

describe("ProvisionerHosts", () => {
  it.effect("a report is listed at once, before any flush; flush writes it and answers how many it wrote", () =>
    Effect.gen(function*() {
      const { organizationId } = yield* signedInOwner(T0)
      const hosts = yield* ProvisionerHosts
      yield* hosts.report(reporter(organizationId), capacity())
      const expected = {
        ...reporter(organizationId),
        ...capacity(),
        first_seen_at: new Date(T0),
        reported_at: new Date(T0)
      }
      // This replica's own report, not written yet.
      expect(yield* hosts.records(organizationId)).toEqual([expected])
      expect(yield* stored(organizationId)).toEqual([])
      expect(yield* hosts.records(randomUUID())).toEqual([])

      expect(yield* hosts.flush).toBe(1)
      // Stored, a host is not drained until an operator says so.
      expect(yield* stored(organizationId)).toEqual([{ ...expected, draining: false }])
      expect(yield* hosts.records(organizationId)).toEqual([{ ...expected, draining: false }])
      // Nothing new was reported: nothing to write.
      expect(yield* hosts.flush).toBe(0)
    }).pipe(Effect.provide(services())))

  it.effect("several hosts are written by one flush and listed by name", () =>
    Effect.gen(function*() {
      const { organizationId } = yield* signedInOwner(T0)
      const hosts = yield* ProvisionerHosts
      for (const name of ["gamma", "alpha", "beta"]) yield* hosts.report(reporter(organizationId, name), capacity())
      expect((yield* hosts.records(organizationId)).map((h) => h.name)).toEqual(["alpha", "beta", "gamma"])
      expect(yield* hosts.flush).toBe(3)
      expect((yield* stored(organizationId)).map((h) => h.name)).toEqual(["alpha", "beta", "gamma"])
    }).pipe(Effect.provide(services())))

  it.effect("an unchanged report is written again only after 15 s; a changed figure at the next flush", () =>
    Effect.gen(function*() {
      const { organizationId } = yield* signedInOwner(T0)
      const hosts = yield* ProvisionerHosts
      const report = (extra: Partial<HostCapacity> = {}) => hosts.report(reporter(organizationId), capacity(extra))
      yield* report()
      expect(yield* hosts.flush).toBe(1)

      // Reports every 5 s with the same figures: kept in memory, not written.
      for (const seconds of [5, 10]) {
        yield* TestClock.adjust(Duration.seconds(5))
        yield* report()
        expect(yield* hosts.flush).toBe(0)
        expect((yield* storedOne(organizationId)).reported_at).toEqual(new Date(T0))
        // The listing has this replica's newer report over the stored one.
        expect((yield* hosts.records(organizationId))[0]!.reported_at).toEqual(new Date(T0 + seconds * 1000))
      }

      // 15 s after the last write: written again, though nothing changed.
      yield* TestClock.adjust(Duration.seconds(5))
      yield* report()
      expect(yield* hosts.flush).toBe(1)
      expect(yield* storedOne(organizationId)).toMatchObject({
        first_seen_at: new Date(T0),
        reported_at: new Date(T0 + 15_000),
        containers: 2
      })

      // A changed figure is written at the next flush, before the 15 s.
      yield* TestClock.adjust(Duration.seconds(5))
      yield* report({ containers: 3, memory_promised_bytes: 6 * GIB })
      expect(yield* hosts.flush).toBe(1)
      expect(yield* storedOne(organizationId)).toMatchObject({
        first_seen_at: new Date(T0),
        reported_at: new Date(T0 + 20_000),
        containers: 3,
        memory_promised_bytes: 6 * GIB
      })
      // Free disk going unknown is a change too.
      yield* TestClock.adjust(Duration.seconds(5))
      yield* report({ containers: 3, memory_promised_bytes: 6 * GIB, disk_free_bytes: null })
      expect(yield* hosts.flush).toBe(1)
      expect((yield* storedOne(organizationId)).disk_free_bytes).toBeNull()
      // And the figures staying put again: not written before their 15 s.
      yield* TestClock.adjust(Duration.seconds(5))
      yield* report({ containers: 3, memory_promised_bytes: 6 * GIB, disk_free_bytes: null })
      expect(yield* hosts.flush).toBe(0)
      expect((yield* storedOne(organizationId)).reported_at).toEqual(new Date(T0 + 25_000))
    }).pipe(Effect.provide(services())))

  it.effect("a host not reported for 30 s is offline, and connected again at its next report", () =>
    Effect.gen(function*() {
      expect(hostStatus({ reported_at: new Date(T0) }, T0)).toBe("connected")
      expect(hostStatus({ reported_at: new Date(T0) }, T0 + 30_000)).toBe("connected")
      expect(hostStatus({ reported_at: new Date(T0) }, T0 + 30_001)).toBe("offline")

      const { as, organizationId } = yield* signedInOwner(T0)
      const hosts = yield* ProvisionerHosts
      yield* hosts.report(reporter(organizationId), capacity())
      yield* hosts.flush
      const status = Effect.map(as(hosts.list(organizationId)), (listed) => listed.map((h) => h.status))
      expect(yield* status).toEqual(["connected"])
      yield* TestClock.adjust(Duration.seconds(30))
      expect(yield* status).toEqual(["connected"])
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* status).toEqual(["offline"])
      yield* hosts.report(reporter(organizationId), capacity())
      expect(yield* status).toEqual(["connected"])
    }).pipe(Effect.provide(services())))

  it.effect("an owner lists the organization's hosts with their live daemons; an unknown organization is not found", () =>
    Effect.gen(function*() {
      const { as, organizationId } = yield* signedInOwner(T0)
      const hosts = yield* ProvisionerHosts
      const daemons = yield* ProvisionerDaemonRepo
      const daemon = (name: string, host: string | null, lastSeen: number) =>
        daemons.register({
          id: randomUUID(),
          organization_id: organizationId,
          name,
          provisioners: ["docker"],
          tags: { scope: "organization" },
          created_at: new Date(T0 - 3_600_000),
          last_seen_at: new Date(lastSeen),
          version: "v1.2.0",
          api_version: "1.2",
          key_name: "default",
          host
        })
      yield* daemon("ext-b", "host-1", T0)
      yield* daemon("ext-a", "host-1", T0)
      yield* daemon("ext-stale", "host-1", T0 - 120_000)
      yield* daemon("ext-c", "host-2", T0)
      yield* daemon("ext-hostless", null, T0)
      yield* hosts.report(reporter(organizationId, "host-2"), capacity({ disk_free_bytes: null }))
      yield* hosts.report(reporter(organizationId, "host-1"), capacity())
      yield* hosts.flush

      const listed = yield* as(hosts.list(organizationId))
      expect(listed.every((h) => h instanceof ProvisionerHost)).toBe(true)
      expect(listed.map((h) => [h.name, h.status, h.daemons])).toEqual([
        ["host-1", "connected", ["ext-a", "ext-b"]],
        ["host-2", "connected", ["ext-c"]]
      ])
      expect(listed[0]).toMatchObject({
        organization_id: organizationId,
        tags: { scope: "organization", pool: "fast" },
        provisioners: ["docker"],
        version: "v1.2.0",
        cpus: 8,
        cpus_promised: 1.5,
        memory_bytes: 32 * GIB,
        memory_promised_bytes: 4 * GIB,
        containers: 2,
        disk_free_bytes: 200 * GIB,
        first_seen_at: new Date(T0),
        last_seen_at: new Date(T0)
      })
      expect(listed[1]!.disk_free_bytes).toBeNull()

      for (const unknown of [randomUUID(), "no-such-org"]) {
        const error = yield* Effect.flip(as(hosts.list(unknown)))
        expect(error).toMatchObject({ _tag: "NotFound", message: `Organization "${unknown}" not found.` })
      }
    }).pipe(Effect.provide(services())))
})
