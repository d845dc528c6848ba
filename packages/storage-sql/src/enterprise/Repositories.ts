/**
 * Licenses and the `site_configs` store (the `LicenseRepo` port) on @effect/sql, migration 0027.
 * The entitlements read the unexpired licenses along `licenses_exp`; the active user count is
 * one aggregate over `users`.
 */
import { SqlClient } from "@effect/sql"
import { type LicenseRecord, LicenseRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, date, first, int, type Row, text } from "../Columns.js"
import { unique } from "../Unique.js"

const rowToLicense = columns<LicenseRecord>("licenses", {
  id: int,
  uuid: text,
  uploaded_at: date,
  jwt: text,
  exp: date
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  return LicenseRepo.of({
    insert: (l) =>
      unique(sql<Row>`INSERT INTO licenses (uuid, uploaded_at, jwt, exp)
        VALUES (${l.uuid}, ${l.uploaded_at.toISOString()}, ${l.jwt}, ${l.exp.toISOString()})
        RETURNING id, uuid, uploaded_at, jwt, exp`).pipe(Effect.map((rows) => rowToLicense(rows[0]!))),
    list: sql<Row>`SELECT id, uuid, uploaded_at, jwt, exp FROM licenses ORDER BY id`.pipe(
      Effect.map((rows) => rows.map(rowToLicense)),
      Effect.orDie
    ),
    listUnexpired: (now) =>
      sql<Row>`SELECT id, uuid, uploaded_at, jwt, exp FROM licenses WHERE exp > ${now.toISOString()} ORDER BY id`.pipe(
        Effect.map((rows) => rows.map(rowToLicense)),
        Effect.orDie
      ),
    delete: (id) =>
      sql<Row>`DELETE FROM licenses WHERE id = ${id} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    activeUserCount: sql<
      Row
    >`SELECT COUNT(*) AS n FROM users WHERE status = 'active' AND deleted = FALSE AND is_system = FALSE`.pipe(
      Effect.map((rows) => rows.length === 0 ? 0 : int(rows[0]!.n, "count(users)")),
      Effect.orDie
    ),
    siteConfig: (key) =>
      sql<Row>`SELECT value FROM site_configs WHERE key = ${key}`.pipe(
        Effect.map((rows) => first(rows, (r) => text(r.value, "site_configs.value"))),
        Effect.orDie
      ),
    setSiteConfig: (key, value) =>
      sql`INSERT INTO site_configs (key, value) VALUES (${key}, ${value})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`.pipe(Effect.asVoid, Effect.orDie),
    initSiteConfig: (key, value) =>
      sql`INSERT INTO site_configs (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`.pipe(
        Effect.zipRight(sql<Row>`SELECT value FROM site_configs WHERE key = ${key}`),
        Effect.map((rows) => text(rows[0]!.value, "site_configs.value")),
        Effect.orDie
      )
  })
})

export const layer = Layer.effect(LicenseRepo, make)
