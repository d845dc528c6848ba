/**
 * The task conversation repository contract, run against every storage: entries appended in order
 * with growing ids and read back per workspace, one entry found and removed by (workspace, id), the cap by
 * entries and by bytes (newest kept, across appends), non-ASCII content intact, and concurrent
 * appends on one workspace each stored once. Every test gets a fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type TaskLogEntryInput, TaskLogRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"
import { workspaceRows } from "../workspaces/PortShareRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const at = (seconds: number) => new Date(Date.UTC(2024, 6, 1, 10) + seconds * 1000)

const entry = (content: string, type: "input" | "output" = "output", seconds = 0): TaskLogEntryInput => ({
  type,
  content,
  time: at(seconds),
  bytes: Buffer.byteLength(content, "utf8")
})

const roomy = { entries: 1000, bytes: 1_000_000 }

export const conversationRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`task conversation repositories on ${name}`, () => {
    test(
      "appends in order with growing ids, per workspace; finds and removes one entry of its workspace only",
      Effect.gen(function*() {
        const repo = yield* TaskLogRepo
        const a = (yield* workspaceRows).workspace
        const b = (yield* workspaceRows).workspace
        const first = yield* repo.append(a, [entry("prompt", "input", 0), entry("working", "output", 1)], roomy)
        expect(first.map((e) => [e.type, e.content, e.time.toISOString()])).toEqual([
          ["input", "prompt", at(0).toISOString()],
          ["output", "working", at(1).toISOString()]
        ])
        expect(first[1]!.id).toBeGreaterThan(first[0]!.id)
        yield* repo.append(b, [entry("other")], roomy)
        const [third] = yield* repo.append(a, [entry("héllo ✓ 😀", "input", 2)], roomy)
        expect((yield* repo.list(a)).map((e) => e.content)).toEqual(["prompt", "working", "héllo ✓ 😀"])
        expect((yield* repo.list(b)).map((e) => e.content)).toEqual(["other"])
        expect(yield* repo.find(a, third!.id)).toEqual(Option.some(third))
        expect(Option.isNone(yield* repo.find(b, third!.id))).toBe(true)
        // Removing needs the entry's workspace.
        yield* repo.remove(b, third!.id)
        expect(Option.isSome(yield* repo.find(a, third!.id))).toBe(true)
        yield* repo.remove(a, third!.id)
        expect(Option.isNone(yield* repo.find(a, third!.id))).toBe(true)
        expect((yield* repo.list(a)).map((e) => e.content)).toEqual(["prompt", "working"])
        expect(yield* repo.append(a, [], roomy)).toEqual([])
        expect(yield* repo.list((yield* workspaceRows).workspace)).toEqual([])
      })
    )

    test(
      "keeps the newest entries within the entry cap and the byte cap, across appends",
      Effect.gen(function*() {
        const repo = yield* TaskLogRepo
        const ws = (yield* workspaceRows).workspace
        yield* repo.append(ws, Array.from({ length: 7 }, (_, i) => entry(`e${i}`)), { entries: 4, bytes: 100 })
        expect((yield* repo.list(ws)).map((e) => e.content)).toEqual(["e3", "e4", "e5", "e6"])
        yield* repo.append(ws, [entry("e7")], { entries: 4, bytes: 100 })
        expect((yield* repo.list(ws)).map((e) => e.content)).toEqual(["e4", "e5", "e6", "e7"])
        // Bytes, newest first: "é9" is 3 (UTF-8), then 2 and 2 make 7 <= 8; one more 2-byte entry would be 9.
        yield* repo.append(ws, [entry("e8"), entry("é9")], { entries: 4, bytes: 8 })
        expect((yield* repo.list(ws)).map((e) => e.content)).toEqual(["e7", "e8", "é9"])
        // An entry over the byte cap on its own is not kept at all.
        yield* repo.append(ws, [entry("x".repeat(9))], { entries: 4, bytes: 8 })
        expect(yield* repo.list(ws)).toEqual([])
      })
    )

    test(
      "concurrent appends to one workspace are each stored once",
      Effect.gen(function*() {
        const repo = yield* TaskLogRepo
        const ws = (yield* workspaceRows).workspace
        const stored = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => i),
          (i) => repo.append(ws, [entry(`c${i}`), entry(`d${i}`)], roomy),
          { concurrency: 8 }
        )
        const ids = stored.flat().map((e) => e.id)
        expect(new Set(ids).size).toBe(40)
        const listed = yield* repo.list(ws)
        expect(listed.map((e) => e.id)).toEqual([...ids].sort((x, y) => x - y))
        // Each batch's entries in their order.
        for (const batch of stored) expect(batch.map((e) => e.content[0])).toEqual(["c", "d"])
        for (const batch of stored) expect(batch[1]!.id).toBeGreaterThan(batch[0]!.id)
      })
    )

    test(
      "keeps one log snapshot per task, the latest upload replacing the previous; gone with its task",
      Effect.gen(function*() {
        const repo = yield* TaskLogRepo
        const sql = yield* SqlClient.SqlClient
        const ws = yield* workspaceRows
        const taskRow = (id: string) =>
          sql`INSERT INTO tasks (id, created_at, updated_at, organization_id, owner_id, name, display_name, prompt,
            template_id, template_version_id, app_slug, workspace_id, deleted)
            VALUES (${id}, ${at(0).toISOString()}, ${at(0).toISOString()}, ${ws.org}, ${ws.user}, ${`t-${
            id.slice(0, 8)
          }`},
            'T', 'p', ${ws.template}, ${ws.version}, 'claude', ${ws.workspace}, FALSE)`
        const a = randomUUID()
        const b = randomUUID()
        yield* taskRow(a)
        yield* taskRow(b)
        expect(yield* repo.findSnapshot(a)).toEqual(Option.none())
        yield* repo.saveSnapshot(a, `{"format":"agentapi","data":{"messages":[]}}`, at(1))
        yield* repo.saveSnapshot(b, `{"b":"é ✓"}`, at(2))
        yield* repo.saveSnapshot(a, `{"format":"agentapi","data":{"messages":[1]}}`, at(3))
        expect(yield* repo.findSnapshot(a)).toEqual(
          Option.some({ snapshot: `{"format":"agentapi","data":{"messages":[1]}}`, created_at: at(3) })
        )
        expect(yield* repo.findSnapshot(b)).toEqual(Option.some({ snapshot: `{"b":"é ✓"}`, created_at: at(2) }))
        yield* sql`DELETE FROM tasks WHERE id = ${a}`
        expect(yield* repo.findSnapshot(a)).toEqual(Option.none())
      })
    )
  })
}
