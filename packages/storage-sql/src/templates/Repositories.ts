/** Files (uploaded archives) on @effect/sql: BLOB on SQLite, BYTEA on Postgres. */
import { SqlClient } from "@effect/sql"
import { type FileRecord, FileRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { Buffer } from "node:buffer"
import { bytes, columns, date, first, type Row, text } from "../Columns.js"
import { unique } from "../Unique.js"

const rowToFile = columns<FileRecord>("files", {
  id: text,
  hash: text,
  created_by: text,
  created_at: date,
  mimetype: text,
  data: bytes
}).read

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
