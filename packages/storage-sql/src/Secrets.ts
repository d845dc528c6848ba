/**
 * The deployment's encryption keys in the database (migration 0038), as the described system's
 * `dbcrypt`: the keys in use (`dbcrypt_keys`, active digests with a sealed test value, revoked
 * digests), the start-up check (the `SecretKeyRepo` port), and the maintenance passes of `workbay-server dbcrypt`: rotate
 * (re-seal every sealed column with the first key, then revoke the others), decrypt (store every
 * value as given, then revoke every key) and delete (drop every sealed value, then revoke every
 * key). See docs/operations.md, "Encryption keys".
 *
 * The sealed columns: `external_auth_links.oauth_access_token` and `oauth_refresh_token`,
 * `workspace_agents.auth_token`. The passes work in batches along primary keys, each batch in one
 * transaction; a value changed by the running service between read and write is left to it (the
 * write is guarded by the value read), and a second run finds nothing left to do.
 */
import { SqlClient } from "@effect/sql"
import { EncryptionKeysRefused, type SecretBoxShape, SecretKeyRepo } from "@workbay/core"
import { Effect, Either, Layer } from "effect"
import { columns, int, keyId, type Row, text } from "./Columns.js"
import { transaction } from "./Transaction.js"

/** The value sealed in `dbcrypt_keys.test` (the described system seals "coder"). */
const TEST_VALUE = "workbay"

/** A recorded key: its digest while active, or once revoked, and its sealed test value. */
const rowToKey = columns<{
  readonly number: number
  readonly active_key_digest: string | null
  readonly revoked_key_digest: string | null
  readonly test: string
}>("dbcrypt_keys", { number: int, active_key_digest: keyId, revoked_key_digest: keyId, test: text }).read

/** The recorded keys: active and revoked digests. */
const recordedKeys = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<Row>`SELECT number, active_key_digest, revoked_key_digest, test FROM dbcrypt_keys ORDER BY number`,
    (rows) => rows.map(rowToKey)
  )

/**
 * The start-up check (the described system's `ensureEncrypted`): every active key the database
 * records must be configured and open its test value (else values sealed with it could not be
 * read); a revoked key may not seal again; a first key is recorded. Without keys, the database
 * must record no active key (values sealed earlier would be read as sealed text).
 */
export const ensureKeys = (box: SecretBoxShape) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* transaction(sql)(Effect.gen(function*() {
      const rows = yield* recordedKeys(sql)
      const active = rows.flatMap((r) =>
        r.active_key_digest === null ? [] : [{ digest: r.active_key_digest, test: r.test }]
      )
      if (box.primary === null) {
        if (active.length > 0) {
          return yield* new EncryptionKeysRefused({
            message:
              `The database holds values encrypted with external token encryption keys (digests ${
                active.map((r) => r.digest).join(", ")
              }), but no key is configured. ` +
              "Configure the keys (--external-token-encryption-keys), or run `workbay-server dbcrypt decrypt` or `dbcrypt delete` first."
          })
        }
        return
      }
      if (rows.some((r) => r.revoked_key_digest === box.primary)) {
        return yield* new EncryptionKeysRefused({
          message:
            `The first external token encryption key (digest ${box.primary}) has been revoked (by \`dbcrypt rotate\`, \`decrypt\` or \`delete\`); configure a new key first.`
        })
      }
      for (const { digest, test } of active) {
        if (!box.digests.includes(digest)) {
          return yield* new EncryptionKeysRefused({
            message:
              `The database holds values encrypted with the external token encryption key of digest ${digest}, which is not configured. ` +
              "Add it after the first key (the first key encrypts, the others decrypt) and run `workbay-server dbcrypt rotate`, or run `dbcrypt delete`."
          })
        }
        const opened = box.open(test, digest)
        if (Either.isLeft(opened) || opened.right !== TEST_VALUE) {
          return yield* new EncryptionKeysRefused({
            message:
              `The test value of the key of digest ${digest} does not decrypt with the configured key of that digest.`
          })
        }
      }
      if (active.some((r) => r.digest === box.primary)) return
      const number = rows.reduce((n, r) => Math.max(n, r.number), 0) + 1
      const test = box.seal(TEST_VALUE)
      yield* sql`INSERT INTO dbcrypt_keys (number, active_key_digest, created_at, test)
        VALUES (${number}, ${box.primary}, ${new Date().toISOString()}, ${test.value})`
    }))
  })

/** Revokes the active keys of these digests. */
const revoke = (sql: SqlClient.SqlClient, digests: ReadonlyArray<string>) =>
  digests.length === 0
    ? Effect.void
    : sql`UPDATE dbcrypt_keys SET revoked_key_digest = active_key_digest, active_key_digest = NULL, revoked_at = ${
      new Date().toISOString()
    }
        WHERE active_key_digest IN ${sql.in(digests)}`

/** Counts of what a pass changed, by column group. */
export interface SecretPassResult {
  readonly externalAuthLinks: number
  readonly agentTokens: number
}

/** A sealed column: its value and key id columns. */
interface Column {
  readonly value: string
  readonly keyId: string
}

/** A table's sealed columns and its keyset order. */
interface Table {
  readonly name: string
  readonly key: ReadonlyArray<string>
  readonly columns: ReadonlyArray<Column>
}

const EXTERNAL_AUTH_LINKS: Table = {
  name: "external_auth_links",
  key: ["user_id", "provider_id"],
  columns: [
    { value: "oauth_access_token", keyId: "oauth_access_token_key_id" },
    { value: "oauth_refresh_token", keyId: "oauth_refresh_token_key_id" }
  ]
}
const WORKSPACE_AGENTS: Table = {
  name: "workspace_agents",
  key: ["id"],
  columns: [{ value: "auth_token", keyId: "auth_token_key_id" }]
}

/**
 * Re-writes every value of `table` not yet in the form `target` (a key digest: sealed with it;
 * null: as given), in batches along its primary key, each batch a transaction. A value that does
 * not open fails the pass, naming the row (never the value).
 */
const pass = (sql: SqlClient.SqlClient, box: SecretBoxShape, table: Table, target: string | null, batchSize: number) =>
  Effect.gen(function*() {
    const withTransaction = transaction(sql)
    const todo = (c: Column) =>
      target === null
        ? sql`(${sql(c.keyId)} IS NOT NULL)`
        : sql`(${sql(c.value)} IS NOT NULL AND ${sql(c.value)} <> '' AND (${sql(c.keyId)} IS NULL OR ${
          sql(c.keyId)
        } <> ${target}))`
    const needs = sql.or(table.columns.map(todo))
    const keyList = sql.literal(table.key.join(", "))
    const columns = sql.literal([...table.key, ...table.columns.flatMap((c) => [c.value, c.keyId])].join(", "))
    /** The key values of a row (text, every key column of both tables). */
    const keyOf = (row: Row) => table.key.map((k) => text(row[k], `${table.name}.${k}`))
    let after: ReadonlyArray<string> | undefined
    let changed = 0
    while (true) {
      const cursor = after === undefined
        ? sql`TRUE`
        : table.key.length === 1
        ? sql`${sql(table.key[0]!)} > ${after[0]!}`
        : sql`(${sql(table.key[0]!)} > ${after[0]!} OR (${sql(table.key[0]!)} = ${after[0]!} AND ${
          sql(table.key[1]!)
        } > ${after[1]!}))`
      const done = yield* withTransaction(Effect.gen(function*() {
        const rows = yield* sql<Row>`SELECT ${columns} FROM ${
          sql(table.name)
        } WHERE ${cursor} AND ${needs} ORDER BY ${keyList} LIMIT ${batchSize}`
        for (const row of rows) {
          const key = keyOf(row)
          const rowKey = table.key.map((k, i) => `${k} ${key[i]}`).join(", ")
          const set: Record<string, unknown> = {}
          const guards = []
          for (const c of table.columns) {
            if (row[c.value] === null || row[c.value] === undefined) continue
            const value = text(row[c.value], `${table.name}.${c.value}`)
            const opened = box.open(value, keyId(row[c.keyId], `${table.name}.${c.keyId}`))
            if (Either.isLeft(opened)) {
              return yield* Effect.fail(
                new EncryptionKeysRefused({ message: `${table.name} (${rowKey}), ${c.value}: ${opened.left.message}` })
              )
            }
            const next = target === null ? { value: opened.right, keyId: null } : box.seal(opened.right)
            set[c.value] = next.value
            set[c.keyId] = next.keyId
            guards.push(sql`${sql(c.value)} = ${value}`)
          }
          const where = sql.and([...table.key.map((k, i) => sql`${sql(k)} = ${key[i]!}`), ...guards])
          const updated = yield* sql<Row>`UPDATE ${sql(table.name)} SET ${
            sql.update(set)
          } WHERE ${where} RETURNING 1 AS one`
          changed += updated.length
        }
        const last = rows[rows.length - 1]
        if (last !== undefined) after = keyOf(last)
        return rows.length < batchSize
      }))
      if (done) return changed
    }
  })

const allTables = (sql: SqlClient.SqlClient, box: SecretBoxShape, target: string | null, batchSize: number) =>
  Effect.gen(function*() {
    const externalAuthLinks = yield* pass(sql, box, EXTERNAL_AUTH_LINKS, target, batchSize)
    const agentTokens = yield* pass(sql, box, WORKSPACE_AGENTS, target, batchSize)
    return { externalAuthLinks, agentTokens } satisfies SecretPassResult
  })

/** Options of the passes. */
export interface SecretPassOptions {
  /** Rows per transaction (default 500). */
  readonly batchSize?: number | undefined
}

/**
 * `dbcrypt rotate`: records the first key of `box`, re-seals every value (sealed with any of
 * its keys, or stored as given) with it, then revokes the other keys. Idempotent.
 */
export const rotateSecrets = (box: SecretBoxShape, options: SecretPassOptions = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    if (box.primary === null) return yield* new EncryptionKeysRefused({ message: "Rotation needs a new key." })
    yield* ensureKeys(box)
    const result = yield* allTables(sql, box, box.primary, options.batchSize ?? 500)
    yield* revoke(sql, box.digests.slice(1))
    return result
  })

/** `dbcrypt decrypt`: stores every sealed value as given (opened with `box`'s keys), then revokes every key. */
export const decryptSecrets = (box: SecretBoxShape, options: SecretPassOptions = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const result = yield* allTables(sql, box, null, options.batchSize ?? 500)
    const rows = yield* recordedKeys(sql)
    yield* revoke(sql, rows.flatMap((r) => r.active_key_digest ?? []))
    return result
  })

/**
 * `dbcrypt delete`: for keys that are lost. Deletes the external auth links with a sealed token
 * (their users link again) and drops the kept tokens of agents (their credentials make a new token
 * on the next read), then revokes every key. Values stored as given stay.
 */
export const deleteSecrets = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* transaction(sql)(Effect.gen(function*() {
    const links = yield* sql<Row>`DELETE FROM external_auth_links
      WHERE oauth_access_token_key_id IS NOT NULL OR oauth_refresh_token_key_id IS NOT NULL RETURNING user_id`
    const agents = yield* sql<Row>`UPDATE workspace_agents SET auth_token = NULL, auth_token_key_id = NULL
      WHERE auth_token_key_id IS NOT NULL RETURNING id`
    const rows = yield* recordedKeys(sql)
    yield* revoke(sql, rows.flatMap((r) => r.active_key_digest ?? []))
    return { externalAuthLinks: links.length, agentTokens: agents.length } satisfies SecretPassResult
  }))
})

/** The `SecretKeyRepo` port: {@link ensureKeys} on this storage's client (SQL errors are defects). */
export const layer: Layer.Layer<SecretKeyRepo, never, SqlClient.SqlClient> = Layer.effect(
  SecretKeyRepo,
  Effect.map(SqlClient.SqlClient, (sql) =>
    SecretKeyRepo.of({
      ensure: (box) =>
        ensureKeys(box).pipe(
          Effect.provideService(SqlClient.SqlClient, sql),
          Effect.catchTag("SqlError", Effect.die)
        )
    }))
)
