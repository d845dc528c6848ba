/**
 * The provisioner host repository contract, run against every storage: many hosts written in one
 * call, an organization's hosts by name, a later report replacing the figures and keeping
 * `first_seen_at`, an older report never overwriting a newer one, large figures read back exactly
 * (BIGINT is text from Postgres), placement's list (hosts reported since a time, and drained
 * ones), a missing host, and an empty write. Every test gets a fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type ProvisionerHostRecord, ProvisionerHostRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T0 = Date.UTC(2024, 6, 1, 10)
const at = (seconds: number) => new Date(T0 + seconds * 1000)

const GIB = 1024 ** 3

const organization = (id = randomUUID()) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`INSERT INTO organizations (id, name, display_name, created_at, updated_at)
      VALUES (${id}, ${`org-${id.slice(0, 8)}`}, 'Org', ${at(0).toISOString()}, ${at(0).toISOString()})`
  ).pipe(Effect.orDie, Effect.as(id))

const host = (
  organizationId: string,
  name: string,
  extra: Partial<ProvisionerHostRecord> = {}
): ProvisionerHostRecord => ({
  organization_id: organizationId,
  name,
  tags: { scope: "organization", pool: name },
  provisioners: ["docker", "script"],
  version: "v1.2.0",
  cpus: 8,
  cpus_promised: 2,
  memory_bytes: 32 * GIB,
  memory_promised_bytes: 4 * GIB,
  containers: 2,
  disk_free_bytes: 100 * GIB,
  first_seen_at: at(0),
  reported_at: at(0),
  draining: false,
  ...extra
})

export const provisionerHostRepositorySuite = (
  name: string,
  makeStorage: StorageFactory,
  options: SuiteOptions = {}
) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`Provisioner host repositories on ${name}`, () => {
    test(
      "writes several hosts in one call and lists an organization's hosts by name",
      Effect.gen(function*() {
        const r = yield* ProvisionerHostRepo
        const org = yield* organization()
        const other = yield* organization()
        const charlie = host(org, "charlie", { cpus: 2 })
        const alpha = host(org, "alpha", { cpus: 4, tags: { scope: "organization", region: "eu" } })
        const bravo = host(org, "bravo", { disk_free_bytes: null, provisioners: ["docker"] })
        yield* r.upsertMany([charlie, alpha, bravo, host(other, "aardvark")])
        expect(yield* r.list(org)).toEqual([alpha, bravo, charlie])
        expect((yield* r.list(other)).map((h) => h.name)).toEqual(["aardvark"])
        expect(yield* r.list(randomUUID())).toEqual([])
        expect(Option.getOrThrow(yield* r.find(org, "bravo"))).toEqual(bravo)
        // The same name in another organization is another host.
        expect(Option.isNone(yield* r.find(other, "bravo"))).toBe(true)
      })
    )

    test(
      "a later report replaces the figures and keeps first_seen_at",
      Effect.gen(function*() {
        const r = yield* ProvisionerHostRepo
        const org = yield* organization()
        yield* r.upsertMany([host(org, "h1")])
        const later = host(org, "h1", {
          first_seen_at: at(60),
          reported_at: at(60),
          tags: { scope: "organization", pool: "big" },
          provisioners: ["docker"],
          version: "v1.3.0",
          cpus: 16,
          cpus_promised: 6.25,
          memory_bytes: 64 * GIB,
          memory_promised_bytes: 12 * GIB,
          containers: 5,
          disk_free_bytes: null
        })
        yield* r.upsertMany([later])
        expect(Option.getOrThrow(yield* r.find(org, "h1"))).toEqual({ ...later, first_seen_at: at(0) })
        expect(yield* r.list(org)).toHaveLength(1)
      })
    )

    test(
      "an older report does not overwrite a newer row",
      Effect.gen(function*() {
        const r = yield* ProvisionerHostRepo
        const org = yield* organization()
        const newer = host(org, "h1", { reported_at: at(30), cpus: 16, containers: 7 })
        yield* r.upsertMany([newer])
        // A replica flushing late: its report is 20 s older, and a second host in the same batch is written.
        yield* r.upsertMany([host(org, "h1", { reported_at: at(10), cpus: 2, containers: 0 }), host(org, "h2")])
        expect(Option.getOrThrow(yield* r.find(org, "h1"))).toEqual(newer)
        expect((yield* r.list(org)).map((h) => h.name)).toEqual(["h1", "h2"])
        // A report of the same instant is written (the row's own figures again, or a replica's equal clock).
        const same = host(org, "h1", { reported_at: at(30), cpus: 12 })
        yield* r.upsertMany([same])
        expect(Option.getOrThrow(yield* r.find(org, "h1"))).toEqual(same)
      })
    )

    test(
      "large figures are read back exactly, as numbers; an unknown free disk is null",
      Effect.gen(function*() {
        const r = yield* ProvisionerHostRepo
        const org = yield* organization()
        const big = host(org, "big", {
          cpus: 4096,
          memory_bytes: 2 ** 50,
          memory_promised_bytes: 2 ** 53 - 1,
          cpus_promised: 1.5,
          containers: 1_000_000,
          disk_free_bytes: 2 ** 59
        })
        const remote = host(org, "remote", { disk_free_bytes: null, cpus_promised: 0, memory_promised_bytes: 0 })
        yield* r.upsertMany([big, remote])
        const [readBig, readRemote] = yield* r.list(org)
        expect(readBig).toEqual(big)
        expect(typeof readBig!.memory_bytes).toBe("number")
        expect(readBig!.memory_bytes).toBe(2 ** 50)
        expect(readBig!.memory_promised_bytes).toBe(2 ** 53 - 1)
        expect(readBig!.disk_free_bytes).toBe(2 ** 59)
        expect(readBig!.cpus_promised).toBe(1.5)
        expect(readRemote).toEqual(remote)
        expect(readRemote!.disk_free_bytes).toBeNull()
        expect(Option.getOrThrow(yield* r.find(org, "big"))).toEqual(big)
      })
    )

    test(
      "placement's list: the hosts reported since a time, and the drained ones however old",
      Effect.gen(function*() {
        const r = yield* ProvisionerHostRepo
        const org = yield* organization()
        const other = yield* organization()
        yield* r.upsertMany([
          host(org, "fresh", { reported_at: at(40) }),
          host(org, "edge", { reported_at: at(30) }),
          host(org, "stale", { reported_at: at(29) }),
          host(org, "drained-stale", { reported_at: at(5) }),
          host(org, "drained-fresh", { reported_at: at(45) }),
          host(other, "elsewhere", { reported_at: at(40) })
        ])
        yield* r.setDraining(org, "drained-stale", true)
        yield* r.setDraining(org, "drained-fresh", true)
        const listed = yield* r.listForPlacement(org, at(30))
        expect(listed.map((h) => h.name).sort()).toEqual(["drained-fresh", "drained-stale", "edge", "fresh"])
        expect(listed.find((h) => h.name === "fresh")).toEqual(host(org, "fresh", { reported_at: at(40) }))
        expect(listed.find((h) => h.name === "drained-stale")).toMatchObject({ draining: true, reported_at: at(5) })
        expect(yield* r.listForPlacement(randomUUID(), at(0))).toEqual([])
        // Hosts sharing tags and types share their (frozen) values: a fleet's rows parse each text once.
        expect(listed[0]!.provisioners).toEqual(["docker", "script"])
        const twoHosts = listed.filter((h) => h.name === "fresh" || h.name === "edge")
        expect(twoHosts[0]!.provisioners).toBe(twoHosts[1]!.provisioners)
        expect(Object.isFrozen(twoHosts[0]!.provisioners)).toBe(true)
      })
    )

    test(
      "finding a missing host is none; writing no hosts does nothing",
      Effect.gen(function*() {
        const r = yield* ProvisionerHostRepo
        const org = yield* organization()
        expect(Option.isNone(yield* r.find(org, "missing"))).toBe(true)
        yield* r.upsertMany([])
        expect(yield* r.list(org)).toEqual([])
        yield* r.upsertMany([host(org, "h1")])
        yield* r.upsertMany([])
        expect((yield* r.list(org)).map((h) => h.name)).toEqual(["h1"])
        expect(Option.isNone(yield* r.find(org, "h2"))).toBe(true)
      })
    )
  })
}
