/**
 * `checkpoints: "thread"`: the connection's automatic checkpoints are off and a worker thread
 * copies the log back into the file on its interval; when the client closes, the thread stops.
 */
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const dir = mkdtempSync(join(tmpdir(), "workbay-checkpoints-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("SQLite checkpoints in a worker thread", () => {
  it("turns the connection's automatic checkpoints off and checkpoints the log from the thread", async () => {
    const filename = join(dir, "thread.db")
    const frames = await Effect.runPromise(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const auto = yield* sql.unsafe<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint")
        expect(auto[0]!.wal_autocheckpoint).toBe(0)
        yield* sql`CREATE TABLE t (v TEXT)`
        for (let i = 0; i < 200; i++) yield* sql`INSERT INTO t (v) VALUES (${"x".repeat(2000)})`
        // Wait for the thread's checkpoint: a reader on another connection sees every frame checkpointed.
        const reader = new Database(filename)
        try {
          for (let i = 0; i < 100; i++) {
            const [r] = reader.pragma("wal_checkpoint(PASSIVE)") as Array<{ log: number; checkpointed: number }>
            if (r!.log > 0 && r!.checkpointed === r!.log) return r!
            yield* Effect.sleep("50 millis")
          }
          return undefined
        } finally {
          reader.close()
        }
      }).pipe(
        Effect.provide(SqliteClient.layer({ filename, checkpoints: "thread", checkpointIntervalMs: 50 })),
        Effect.scoped
      )
    )
    expect(frames).toBeDefined()
    // The file holds the rows once the client closed.
    const db = new Database(filename, { readonly: true })
    expect((db.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n).toBe(200)
    db.close()
  })

  it("inline (the default) keeps SQLite's automatic checkpoints", async () => {
    const auto = await Effect.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql.unsafe<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint")
      )
        .pipe(Effect.provide(SqliteClient.layer({ filename: join(dir, "inline.db") })), Effect.scoped)
    )
    expect(auto[0]!.wal_autocheckpoint).toBe(1000)
  })
})
