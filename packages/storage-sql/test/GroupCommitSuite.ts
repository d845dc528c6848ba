/**
 * The group commit (GroupCommit.ts) on a storage's real client: writes submitted together share
 * transactions (fewer than writes), each caller gets its own result in its order, a write alone
 * gets a transaction of its own, and a group with a failing write is written again one by one so
 * that only that write fails.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { transaction } from "@workbay/storage-sql"
import { Effect, Exit } from "effect"
import { randomBytes } from "node:crypto"
import { groupCommit } from "../src/GroupCommit.js"
import type { StorageFactory, SuiteOptions } from "./users/RepositorySuite.js"

export const groupCommitSuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) =>
  describe.skipIf(options.skip === true)(`group commit on ${name}`, () => {
    it.live("writes submitted together share transactions; each gets its result; a bad one fails alone", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const table = sql(`gc_${randomBytes(4).toString("hex")}`)
        yield* sql`CREATE TABLE ${table} (k TEXT NOT NULL, n INTEGER NOT NULL CHECK (n >= 0))`
        let transactions = 0
        const counted = transaction(sql)
        const submit = yield* groupCommit({
          maxItems: 16,
          transaction: (effect) => Effect.zipRight(Effect.sync(() => void transactions++), counted(effect)),
          write: ({ k, n }: { k: string; n: number }) =>
            Effect.as(sql`INSERT INTO ${table} (k, n) VALUES (${k}, ${n})`, `${k}:${n}`),
          sortKey: (item) => item.k
        })

        // Alone: one write, one transaction.
        expect(yield* submit({ k: "a", n: 0 })).toBe("a:0")
        expect(transactions).toBe(1)

        // Together: 40 writes of 4 keys, and one that breaks the table's check.
        transactions = 0
        const items = Array.from({ length: 40 }, (_, i) => ({ k: `k${i % 4}`, n: i }))
        const results = yield* Effect.all([...items.map(submit), Effect.exit(submit({ k: "k0", n: -1 }))], {
          concurrency: "unbounded"
        })
        expect(results.slice(0, 40)).toEqual(items.map(({ k, n }) => `${k}:${n}`))
        expect(Exit.isFailure(results[40] as Exit.Exit<string>)).toBe(true)
        // Fewer transactions than writes, although the failing group was written again one by one.
        expect(transactions).toBeLessThan(41)
        // Every good write stored, in its key's order of arrival; the bad one not.
        for (let k = 0; k < 4; k++) {
          const rows = yield* sql<{ n: number | string }>`SELECT n FROM ${table} WHERE k = ${`k${k}`} ORDER BY n`
          expect(rows.map((r) => Number(r.n))).toEqual(items.filter((i) => i.k === `k${k}`).map((i) => i.n))
        }
      }).pipe(Effect.scoped, Effect.provide(makeStorage()), Effect.orDie))
  })
