/**
 * SQLite's statements run on the event loop and never wait, so its layer makes core's reads side
 * by side run in turn (core's SideBySide.ts): no fiber per read.
 */
import { ReadsAtOnce } from "@workbay/core"
import { layerMemory } from "@workbay/storage-sqlite"
import { FiberRef, ManagedRuntime } from "effect"
import { describe, expect, it } from "vitest"

describe("the SQLite storage layer", () => {
  it("runs reads side by side in turn", async () => {
    const runtime = ManagedRuntime.make(layerMemory)
    try {
      expect(await runtime.runPromise(FiberRef.get(ReadsAtOnce))).toBe(false)
    } finally {
      await runtime.dispose()
    }
  })
})
