/**
 * The provisioner key repository contract, run against every storage: names unique per
 * organization (case-insensitive) and free in another, lookups by name, id and hash, the
 * organization's keys oldest first, deletion, and the daemon rows' key id. Every test gets a
 * fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ProvisionerDaemonRepo, type ProvisionerKeyRecord, ProvisionerKeyRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T0 = Date.UTC(2024, 6, 1, 10)
const at = (seconds: number) => new Date(T0 + seconds * 1000)

const organization = (id = randomUUID()) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`INSERT INTO organizations (id, name, display_name, created_at, updated_at)
      VALUES (${id}, ${`org-${id.slice(0, 8)}`}, 'Org', ${at(0).toISOString()}, ${at(0).toISOString()})`
  ).pipe(Effect.orDie, Effect.as(id))

const key = (
  organizationId: string,
  name: string,
  extra: Partial<ProvisionerKeyRecord> = {}
): ProvisionerKeyRecord => ({
  id: randomUUID(),
  organization_id: organizationId,
  name,
  hashed_secret: `hash-${randomUUID()}`,
  tags: { pool: name },
  created_at: at(0),
  ...extra
})

export const provisionerKeyRepositorySuite = (
  name: string,
  makeStorage: StorageFactory,
  options: SuiteOptions = {}
) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`Provisioner key repositories on ${name}`, () => {
    test(
      "inserts and finds by name (case-insensitive), id and hash; names are unique per organization",
      Effect.gen(function*() {
        const r = yield* ProvisionerKeyRepo
        const org = yield* organization()
        const other = yield* organization()
        const k = key(org, "Pool-A")
        yield* r.insert(k)
        expect(Option.getOrThrow(yield* r.findByName(org, "pool-a"))).toEqual(k)
        expect(Option.getOrThrow(yield* r.findById(k.id))).toEqual(k)
        expect(Option.getOrThrow(yield* r.findByHashedSecret(k.hashed_secret)).id).toBe(k.id)
        expect(Option.isNone(yield* r.findByName(other, "pool-a"))).toBe(true)
        const clash = yield* Effect.flip(r.insert(key(org, "POOL-A")))
        expect(clash._tag).toBe("UniqueViolation")
        yield* r.insert(key(other, "pool-a"))
        const sameHash = yield* Effect.flip(r.insert(key(other, "b", { hashed_secret: k.hashed_secret })))
        expect(sameHash._tag).toBe("UniqueViolation")
      })
    )

    test(
      "lists an organization's keys oldest first and deletes by id",
      Effect.gen(function*() {
        const r = yield* ProvisionerKeyRepo
        const org = yield* organization()
        const later = key(org, "later", { created_at: at(10) })
        const first = key(org, "first", { created_at: at(1) })
        yield* r.insert(later)
        yield* r.insert(first)
        yield* r.insert(key(yield* organization(), "elsewhere"))
        expect((yield* r.listByOrganization(org)).map((k) => k.name)).toEqual(["first", "later"])
        expect(yield* r.delete(first.id)).toBe(true)
        expect(yield* r.delete(first.id)).toBe(false)
        expect((yield* r.listByOrganization(org)).map((k) => k.name)).toEqual(["later"])
      })
    )

    test(
      "a daemon row keeps the key it connected with",
      Effect.gen(function*() {
        const daemons = yield* ProvisionerDaemonRepo
        const org = yield* organization()
        const k = key(org, "daemons")
        yield* (yield* ProvisionerKeyRepo).insert(k)
        const id = randomUUID()
        yield* daemons.register({
          id,
          organization_id: org,
          name: "ext-1",
          provisioners: ["script"],
          tags: { scope: "organization" },
          created_at: at(0),
          last_seen_at: at(0),
          version: "v1",
          api_version: "1.0",
          key_name: k.name,
          key_id: k.id
        })
        expect(Option.getOrThrow(yield* daemons.findById(id))).toMatchObject({
          key_id: k.id,
          key_name: "daemons",
          organization_id: org
        })
      })
    )
  })
}
