/**
 * An empty, migrated Postgres store per test, without running the migrations for each test.
 *
 * Running the 38 migrations into a new schema costs about half a second of CPU (mostly the server's
 * DDL work), two seconds on a busy 2-core machine; the repository suites want a fresh store for
 * every one of their ~250 tests. So each worker keeps the schemas it migrated and hands one out per
 * test; when the test's layer is closed (its pool ended), the schema is put back as it was right
 * after the migrations, or thrown away:
 *
 * - every table is locked first, so a statement still running from the test finishes before;
 * - if the schema's definition changed (a test made a table or altered a column), the schema is
 *   left as it is and never handed out again (the run's database is dropped at the end);
 * - every table that has pages (any row ever written, even deleted or rolled back) or whose serial
 *   sequence was used is truncated with `RESTART IDENTITY`: a truncated table is new files with the
 *   planner's "never analyzed" size again, as after CREATE TABLE; the rows the migrations insert
 *   (the counters) are put back;
 * - autovacuum is off on these tables (set once, after the migrations), so no analyze between tests
 *   gives a table statistics a freshly migrated one would not have.
 *
 * Tests that start several layers on one store (replicas), or that test the migrations, make a
 * schema of their own and migrate it, as a deployment does.
 */
import type { SqlClient } from "@effect/sql"
import * as Postgres from "@workbay/storage-postgres"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"

interface Store {
  readonly schema: string
  /** The schema's definition (tables, columns, defaults, indexes, constraints) right after migrating. */
  readonly fingerprint: string
  /** Tables, quoted and schema-qualified, without the migrations' own. */
  readonly tables: ReadonlyArray<string>
  /** The rows the migrations left, per table (quoted name), as JSON for `json_populate_recordset`. */
  readonly seeds: ReadonlyMap<string, string>
}

/** This worker's idle stores, per run database URL. */
const idle = new Map<string, Array<Store>>()

/** One small pool per worker for the bookkeeping (never a test's connections). */
let adminPool: pg.Pool | undefined
const admin = (url: string) => (adminPool ??= new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true }))

const FINGERPRINT = `
SELECT md5(string_agg(x, E'\\n' ORDER BY x)) AS fingerprint FROM (
  SELECT format('rel %s %s %s', c.relname, c.relkind, c.reloptions) FROM pg_class c WHERE c.relnamespace = $1::regnamespace
  UNION ALL
  SELECT format('col %s.%s %s %s %s %s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnum, a.attnotnull,
    pg_get_expr(d.adbin, d.adrelid))
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE c.relnamespace = $1::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL
  SELECT format('idx %s', pg_get_indexdef(i.indexrelid)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE c.relnamespace = $1::regnamespace
  UNION ALL
  SELECT format('con %s %s %s', con.conrelid::regclass, con.conname, pg_get_constraintdef(con.oid)) FROM pg_constraint con
  WHERE con.connamespace = $1::regnamespace
) AS definition(x)`

/** Tables written since they were last truncated: with pages, or with a serial sequence that was used. */
const WRITTEN = `
SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r' AND c.relname <> 'workbay_migrations'
  AND (pg_relation_size(c.oid) > 0 OR EXISTS (
    SELECT 1 FROM pg_depend d JOIN pg_class s ON s.oid = d.objid
    WHERE d.refobjid = c.oid AND d.deptype = 'a'
      AND CASE WHEN s.relkind = 'S' THEN pg_sequence_last_value(s.oid) IS NOT NULL ELSE false END))`

/** A new schema, migrated by the storage layer itself, with autovacuum off on its tables. */
const migrate = (url: string): Promise<Store> =>
  Effect.runPromise(Effect.gen(function*() {
    const schema = `t_${randomBytes(8).toString("hex")}`
    yield* Effect.scoped(Layer.build(Postgres.layer({ url, schema, maxConnections: 1 })))
    return yield* Effect.promise(async () => {
      const client = await admin(url).connect()
      try {
        const tables = (await client.query<{ name: string }>(
          `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r' AND c.relname <> 'workbay_migrations'
           ORDER BY c.relname`,
          [schema]
        )).rows.map((r) => r.name)
        for (const table of tables) {
          await client.query(
            `ALTER TABLE ${table} SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)`
          )
        }
        const seeds = new Map<string, string>()
        for (const table of tables) {
          const rows = (await client.query(`SELECT * FROM ${table}`)).rows
          if (rows.length > 0) seeds.set(table, JSON.stringify(rows))
        }
        const { fingerprint } = (await client.query<{ fingerprint: string }>(FINGERPRINT, [schema])).rows[0]!
        return { schema, fingerprint, tables, seeds }
      } finally {
        client.release()
      }
    })
  }))

/** Puts the store back as it was after migrating (see above); false when it cannot be used again. */
const reset = async (url: string, store: Store): Promise<boolean> => {
  const client = await admin(url).connect()
  try {
    await client.query("BEGIN")
    await client.query("SET LOCAL lock_timeout = '10s'")
    await client.query(`LOCK TABLE ${store.tables.join(", ")} IN ACCESS EXCLUSIVE MODE`)
    const { fingerprint } = (await client.query<{ fingerprint: string }>(FINGERPRINT, [store.schema])).rows[0]!
    if (fingerprint !== store.fingerprint) {
      await client.query("ROLLBACK")
      return false
    }
    const written = (await client.query<{ name: string }>(WRITTEN, [store.schema])).rows.map((r) => r.name)
    // CASCADE: also the (empty) tables whose foreign keys point at these, as TRUNCATE requires.
    const truncated = [...new Set([...written, ...store.seeds.keys()])]
    await client.query(`TRUNCATE ${truncated.join(", ")} RESTART IDENTITY CASCADE`)
    for (const [table, seed] of store.seeds) {
      await client.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1)`, [seed])
    }
    await client.query("COMMIT")
    return true
  } catch {
    await client.query("ROLLBACK").catch(() => {})
    return false
  } finally {
    client.release()
  }
}

/** A store of this worker's, migrated and empty, for the scope; put back (or thrown away) when the scope closes. */
const store = (url: string) =>
  Effect.acquireRelease(
    Effect.promise(() => {
      const ready = idle.get(url)?.pop()
      return ready !== undefined ? Promise.resolve(ready) : migrate(url)
    }),
    (store) =>
      Effect.promise(async () => {
        if (await reset(url, store)) {
          const list = idle.get(url) ?? []
          list.push(store)
          idle.set(url, list)
        }
      })
  )

/**
 * The Postgres storage on an empty, migrated schema of this run's database (`url`, from
 * `inject("workbayPgUrl")`), for a suite's `makeStorage`: see above.
 */
export const freshStorage = (
  url: string | null,
  options: Omit<Postgres.PostgresStorageConfig, "url" | "schema"> = {}
): Layer.Layer<StoragePorts | SqlClient.SqlClient, unknown> =>
  Layer.unwrapScoped(
    Effect.map(store(url ?? ""), (s) => Postgres.layer({ ...options, url: url ?? "", schema: s.schema }))
  )
