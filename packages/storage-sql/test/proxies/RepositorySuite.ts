/**
 * The workspace proxy repository contract, run against every storage: names unique among live
 * proxies (case-insensitive, free again once deleted), lookups by id (deleted included) and by
 * name (live only), the bounded list, updates with and without a new token hash, deletion,
 * registration, the health checker's statuses (never written to a deleted proxy), and the
 * primary's display name and icon. Every test gets a fresh, migrated database.
 */
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type WorkspaceProxyRecord, WorkspaceProxyRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T0 = Date.UTC(2024, 6, 1, 10)
const at = (seconds: number) => new Date(T0 + seconds * 1000)

const proxy = (name: string, extra: Partial<WorkspaceProxyRecord> = {}): WorkspaceProxyRecord => ({
  id: randomUUID(),
  name,
  display_name: `${name} region`,
  icon: "/emojis/1f30d.png",
  url: "",
  wildcard_hostname: "",
  derp_enabled: true,
  derp_only: false,
  version: "",
  deleted: false,
  token_hashed_secret: `hash-${name}`,
  created_at: at(0),
  updated_at: at(0),
  status: "unregistered",
  status_report: { errors: [], warnings: [] },
  status_checked_at: at(0),
  ...extra
})

const repo = WorkspaceProxyRepo

export const workspaceProxyRepositorySuite = (
  name: string,
  makeStorage: StorageFactory,
  options: SuiteOptions = {}
) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`Workspace proxy repositories on ${name}`, () => {
    test(
      "inserts and finds by id and by name, case-insensitively; names are unique among live proxies",
      Effect.gen(function*() {
        const r = yield* repo
        const fra = proxy("Fra")
        yield* r.insert(fra)
        expect(Option.getOrThrow(yield* r.findById(fra.id))).toEqual(fra)
        expect(Option.getOrThrow(yield* r.findByName("fRA")).id).toBe(fra.id)
        const clash = yield* Effect.flip(r.insert(proxy("fra")))
        expect(clash._tag).toBe("UniqueViolation")
        expect(Option.isNone(yield* r.findByName("ams"))).toBe(true)
      })
    )

    test(
      "lists live proxies by name, bounded",
      Effect.gen(function*() {
        const r = yield* repo
        for (const n of ["zrh", "ams", "fra"]) yield* r.insert(proxy(n))
        expect((yield* r.list(10)).map((p) => p.name)).toEqual(["ams", "fra", "zrh"])
        expect((yield* r.list(2)).map((p) => p.name)).toEqual(["ams", "fra"])
      })
    )

    test(
      "updates names and keeps or replaces the token hash; a clash is a UniqueViolation",
      Effect.gen(function*() {
        const r = yield* repo
        const a = proxy("a1")
        yield* r.insert(a)
        yield* r.insert(proxy("b1"))
        const kept = Option.getOrThrow(yield* r.update(a.id, { name: "a2", display_name: "A", icon: "/i.png" }, at(5)))
        expect(kept).toMatchObject({
          name: "a2",
          display_name: "A",
          icon: "/i.png",
          token_hashed_secret: "hash-a1",
          updated_at: at(5)
        })
        const rotated = Option.getOrThrow(
          yield* r.update(a.id, { name: "a2", display_name: "A", icon: "", token_hashed_secret: "new" }, at(6))
        )
        expect(rotated.token_hashed_secret).toBe("new")
        expect((yield* Effect.flip(r.update(a.id, { name: "B1", display_name: "", icon: "" }, at(7))))._tag).toBe(
          "UniqueViolation"
        )
        expect(Option.isNone(yield* r.update(randomUUID(), { name: "x", display_name: "", icon: "" }, at(7)))).toBe(
          true
        )
      })
    )

    test(
      "marks a proxy deleted once: found by id, not by name or in the list, its name free again",
      Effect.gen(function*() {
        const r = yield* repo
        const p = proxy("gone")
        yield* r.insert(p)
        expect(yield* r.markDeleted(p.id, at(9))).toBe(true)
        expect(yield* r.markDeleted(p.id, at(10))).toBe(false)
        expect(Option.getOrThrow(yield* r.findById(p.id))).toMatchObject({ deleted: true, updated_at: at(9) })
        expect(Option.isNone(yield* r.findByName("gone"))).toBe(true)
        expect(yield* r.list(10)).toEqual([])
        expect(Option.isNone(yield* r.update(p.id, { name: "gone", display_name: "", icon: "" }, at(11)))).toBe(true)
        expect(
          Option.isNone(
            yield* r.register(p.id, {
              url: "https://x",
              wildcard_hostname: "",
              derp_enabled: true,
              derp_only: false,
              version: ""
            }, at(11))
          )
        ).toBe(true)
        yield* r.insert(proxy("gone"))
      })
    )

    test(
      "registration sets the URL, wildcard, DERP flags and version",
      Effect.gen(function*() {
        const r = yield* repo
        const p = proxy("reg")
        yield* r.insert(p)
        const registered = Option.getOrThrow(
          yield* r.register(p.id, {
            url: "https://fra.example.com",
            wildcard_hostname: "*.fra.example.com",
            derp_enabled: true,
            derp_only: true,
            version: "v2.1.0"
          }, at(3))
        )
        expect(registered).toMatchObject({
          url: "https://fra.example.com",
          wildcard_hostname: "*.fra.example.com",
          derp_enabled: true,
          derp_only: true,
          version: "v2.1.0",
          updated_at: at(3),
          status: "unregistered"
        })
      })
    )

    test(
      "writes health statuses of live proxies only",
      Effect.gen(function*() {
        const r = yield* repo
        const live = proxy("live")
        const dead = proxy("dead")
        yield* r.insert(live)
        yield* r.insert(dead)
        yield* r.markDeleted(dead.id, at(1))
        yield* r.setStatuses([
          {
            id: live.id,
            status: "unhealthy",
            report: { errors: ["unexpected status code 500"], warnings: ["w"] },
            checked_at: at(60)
          },
          { id: dead.id, status: "ok", report: { errors: [], warnings: [] }, checked_at: at(60) }
        ])
        yield* r.setStatuses([])
        expect(Option.getOrThrow(yield* r.findById(live.id))).toMatchObject({
          status: "unhealthy",
          status_report: { errors: ["unexpected status code 500"], warnings: ["w"] },
          status_checked_at: at(60)
        })
        expect(Option.getOrThrow(yield* r.findById(dead.id))).toMatchObject({
          status: "unregistered",
          status_checked_at: at(0)
        })
      })
    )

    test(
      "keeps the primary's display name and icon",
      Effect.gen(function*() {
        const r = yield* repo
        expect(Option.isNone(yield* r.getPrimary)).toBe(true)
        yield* r.setPrimary({ display_name: "Home", icon: "/home.png" })
        yield* r.setPrimary({ display_name: "Home 2", icon: "/home.png" })
        expect(Option.getOrThrow(yield* r.getPrimary)).toEqual({ display_name: "Home 2", icon: "/home.png" })
      })
    )
  })
}
