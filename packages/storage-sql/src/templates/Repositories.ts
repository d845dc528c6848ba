/** Files (uploaded archives) on @effect/sql: BLOB on SQLite, BYTEA on Postgres. */
import { SqlClient } from "@effect/sql"
import { type FileRecord, FileRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { Buffer } from "node:buffer"
import { first, toDate } from "../Rows.js"
import { unique } from "../Unique.js"

type Row = Record<string, unknown>

/** Both drivers hand bytes back as a Buffer; the record holds a plain Uint8Array view of them. */
const toBytes = (v: unknown): Uint8Array => {
  const b = v as Uint8Array
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
}

const rowToFile = (r: Row): FileRecord => ({
  id: r.id as string,
  hash: r.hash as string,
  created_by: r.created_by as string,
  created_at: toDate(r.created_at),
  mimetype: r.mimetype as string,
  data: toBytes(r.data)
})

/** The file repository on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return FileRepo.of({
    // Bound as a Buffer (both drivers write it as bytes); `bindRecord` would write JSON text.
    insert: (f) =>
      unique(sql`INSERT INTO files ${
        sql.insert({
          id: f.id,
          hash: f.hash,
          created_by: f.created_by,
          created_at: f.created_at.toISOString(),
          mimetype: f.mimetype,
          data: Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength)
        })
      }`).pipe(Effect.asVoid),
    findById: (id) =>
      Effect.orDie(sql<Row>`SELECT * FROM files WHERE id = ${id}`).pipe(Effect.map((rs) => first(rs, rowToFile))),
    findByHashAndCreator: (hash, createdBy) =>
      Effect.orDie(sql<Row>`SELECT * FROM files WHERE hash = ${hash} AND created_by = ${createdBy}`).pipe(
        Effect.map((rs) => first(rs, rowToFile))
      )
  })
})

export const layer: Layer.Layer<FileRepo, never, SqlClient.SqlClient> = Layer.effect(FileRepo, make)
