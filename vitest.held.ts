/**
 * A setup file of `npm test`'s run (vitest.config.ts): names what holds a worker's event loop.
 *
 * A worker talks to vitest's main process over an RPC whose calls fail after 60 s (not
 * configurable); a worker whose event loop is held that long (synchronous work, a `spawnSync`)
 * reads the answer after its own timer has fired, and the run fails with
 * `[vitest-worker]: Timeout calling "onTaskUpdate"` though every test passed, naming no test.
 * This looks at the worker's loop every second and prints, to the worker's stderr, the file and
 * test that held it for 10 s or more, so such a failure says where to look (docs/testing.md,
 * "A busy machine").
 */
import { performance } from "node:perf_hooks"
import { expect } from "vitest"

const HELD_MS = 10_000
const key = Symbol.for("workbay.vitest.held")
const worker = globalThis as { [key]?: true }

if (worker[key] === undefined) {
  worker[key] = true
  let last = performance.now()
  setInterval(() => {
    const now = performance.now()
    const held = now - last - 1000
    last = now
    if (held < HELD_MS) return
    const state = expect.getState()
    process.stderr.write(
      `vitest worker ${process.pid}: event loop held for ${(held / 1000).toFixed(1)} s, during ${
        state.testPath ?? "(collection or between files)"
      } > ${state.currentTestName ?? "(no test running)"}\n`
    )
  }, 1000).unref()
}
