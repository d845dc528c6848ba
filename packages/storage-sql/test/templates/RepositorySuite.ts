/**
 * The file repository contract (bytes kept exactly, one file per creator and hash), written
 * once and run against every storage. Every test gets a fresh, migrated database.
 */
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type FileRecord, FileRepo, UniqueViolation } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Cause, Effect, Exit, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

/** Every byte value, NULs and invalid UTF-8 included, so a text round trip would show. */
const allBytes = Uint8Array.from({ length: 512 }, (_, i) => i % 256)

const file = (createdBy: string, overrides: Partial<FileRecord> = {}): FileRecord => ({
  id: randomUUID(),
  hash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  created_by: createdBy,
  created_at: new Date(Date.UTC(2024, 6, 1, 10, 20, 30, 456)),
  mimetype: "application/x-tar",
  data: allBytes,
  ...overrides
})

/** Registers the file repository contract tests for one storage. */
export const fileRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`file repositories on ${name}`, () => {
    test(
      "keeps every byte and field, found by id and by hash and creator",
      Effect.gen(function*() {
        const repo = yield* FileRepo
        const f = file(randomUUID())
        yield* repo.insert(f)
        const byId = Option.getOrThrow(yield* repo.findById(f.id))
        expect(byId).toEqual(f)
        expect(byId.data).toBeInstanceOf(Uint8Array)
        expect(Buffer.from(byId.data).equals(Buffer.from(allBytes))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findByHashAndCreator(f.hash, f.created_by))).toEqual(f)
        expect(Option.isNone(yield* repo.findById(randomUUID()))).toBe(true)
        expect(Option.isNone(yield* repo.findByHashAndCreator(f.hash, randomUUID()))).toBe(true)
      })
    )

    test(
      "allows one file per creator and hash, the same hash for another creator",
      Effect.gen(function*() {
        const repo = yield* FileRepo
        const alice = randomUUID()
        yield* repo.insert(file(alice))
        const exit = yield* Effect.exit(repo.insert(file(alice)))
        expect(Exit.isFailure(exit) && Cause.failureOption(exit.cause).pipe(Option.getOrThrow)).toBeInstanceOf(
          UniqueViolation
        )
        const other = file(randomUUID())
        yield* repo.insert(other)
        expect(Option.getOrThrow(yield* repo.findByHashAndCreator(other.hash, other.created_by)).id).toBe(other.id)
      })
    )

    test(
      "keeps an empty file and a zip's content type",
      Effect.gen(function*() {
        const repo = yield* FileRepo
        const f = file(randomUUID(), { data: new Uint8Array(0), mimetype: "application/zip" })
        yield* repo.insert(f)
        expect(Option.getOrThrow(yield* repo.findById(f.id))).toEqual(f)
      })
    )
  })
}
