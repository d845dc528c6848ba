/** The hang detector runs inside the service: a job whose worker stopped reporting is failed when the service starts. */
import { ProvisionerJobRepo } from "@workbay/core"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { makeWorkbay } from "../../src/index.js"

const dir = mkdtempSync(join(tmpdir(), "workbay-hang-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const worker = { id: randomUUID(), name: "worker-1", provisioners: ["workbay"], tags: { scope: "organization" } }

const job = (id: string, at: Date) => ({
  id,
  created_at: at,
  organization_id: randomUUID(),
  initiator_id: randomUUID(),
  provisioner: "workbay",
  type: "template_version_import" as const,
  file_id: randomUUID(),
  input: {},
  tags: { scope: "organization" }
})

describe("hang detector inside the service", () => {
  it("fails, at start, a running job whose worker has not reported for the timeout; leaves a fresh one running", async () => {
    const filename = join(dir, "workbay.db")
    const longAgo = new Date(Date.now() - 60 * 60_000)
    const first = await makeWorkbay(Sqlite.layer({ filename }), {
      passwordHashCost: 4,
      retention: false,
      workers: false
    })
    const [stale, fresh] = [randomUUID(), randomUUID()]
    await first.run(Effect.gen(function*() {
      const jobs = yield* ProvisionerJobRepo
      yield* jobs.enqueue(job(stale, longAgo))
      expect(Option.isSome(yield* jobs.acquire(worker, longAgo))).toBe(true)
      yield* jobs.enqueue(job(fresh, new Date()))
      expect(Option.isSome(yield* jobs.acquire(worker, new Date()))).toBe(true)
    }))
    await first.dispose()

    const second = await makeWorkbay(Sqlite.layer({ filename }), {
      passwordHashCost: 4,
      retention: false,
      workers: false
    })
    try {
      const find = (id: string) => second.run(Effect.flatMap(ProvisionerJobRepo, (jobs) => jobs.findById(id)))
      let failed = Option.getOrUndefined(await find(stale))
      for (let i = 0; i < 200 && failed?.completed_at == null; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10))
        failed = Option.getOrUndefined(await find(stale))
      }
      expect(failed?.completed_at).not.toBeNull()
      expect(failed?.error).toMatch(/hung/)
      const running = Option.getOrUndefined(await find(fresh))
      expect(running?.completed_at).toBeNull()
      expect(running?.started_at).not.toBeNull()
    } finally {
      await second.dispose()
    }
  })
})
